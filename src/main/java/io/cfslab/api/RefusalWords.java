package io.cfslab.api;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.web.server.MethodNotAllowedException;
import org.springframework.web.server.MissingRequestValueException;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebInputException;
import org.springframework.web.server.UnsupportedMediaTypeStatusException;

/**
 * What Spring's refusals of a request mean, in the client's words: built from the request itself and from the typed
 * parts of the exception (the methods a resource allows, the types an operation reads, the parameter's name), never
 * from the exception's message, which is Spring's ({@code "Content type 'x' not supported for bodyType=…"}, the
 * firewall's {@code "The request was rejected because …"}). {@code ArchitectureTest} keeps it so.
 */
final class RefusalWords {
    private RefusalWords() {}

    /** The methods Spring Security's firewall lets through (its default), in the order the docs give them. */
    static final List<String> FIREWALL_METHODS = List.of("GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH");

    /** Sequences the firewall refuses in a path, with what they are, lower case. */
    private static final List<String[]> REFUSED_IN_PATH = List.of(
            new String[] {"%2e", "an encoded '.'"}, new String[] {"%00", "an encoded NUL"},
            new String[] {"%0a", "an encoded line feed"}, new String[] {"%0d", "an encoded carriage return"},
            new String[] {"%3b", "an encoded ';'"}, new String[] {"%25", "an encoded '%'"},
            new String[] {";", "a ';'"}, new String[] {"//", "an empty segment"},
            new String[] {"/./", "a '.' segment"}, new String[] {"/../", "a '..' segment"});

    /** Why the firewall refused {@code exchange}'s request (a 400): the method, the path's sequence, or a header. */
    static String firewall(ServerWebExchange exchange) {
        String method = exchange.getRequest().getMethod().name();
        if (!FIREWALL_METHODS.contains(method)) {
            return "method " + printable(method) + " is not one the service answers (" + String.join(", ", FIREWALL_METHODS)
                    + ")";
        }
        String raw = exchange.getRequest().getURI().getRawPath();
        String lower = raw == null ? "" : raw.toLowerCase(Locale.ROOT);
        for (String[] s : REFUSED_IN_PATH) {
            if (lower.contains(s[0])) return "the path holds " + s[1] + " (" + s[0] + "), which no path of the service has";
        }
        if (lower.endsWith("/.") || lower.endsWith("/..")) return "the path ends in a '.' or '..' segment";
        // an encoded '/' beside dots (..%2f..%2fapplication.yml) makes '..' segments once decoded, which the firewall
        // refuses as a path that is not normalised: about the path, not a header (breaker 3 #12)
        String decoded = exchange.getRequest().getURI().getPath();
        String d = decoded == null ? "" : decoded + "/";
        if (d.contains("/../") || d.contains("/./") || d.contains("//")) {
            return "the path holds a '.' or '..' segment (or an empty one) once its encoded '/' (%2f) are decoded, which"
                    + " no path of the service has: a name cannot be '.' or '..'";
        }
        for (int i = 0; i < lower.length(); i++) {
            char c = lower.charAt(i);
            if (c < 0x20 || c >= 0x7f) return "the path holds a character that is not printable ASCII: percent-encode it";
        }
        return "a header or query parameter holds a character the service refuses (a control character, or a character"
                + " outside ISO-8859-1 in a header)";
    }

    /** The reason of a {@link ResponseStatusException} (405, 415, 413, …) of Spring's, in the client's words. */
    static String status(ResponseStatusException e, ServerWebExchange exchange, String title) {
        if (e instanceof MethodNotAllowedException na) {
            return "method " + printable(exchange.getRequest().getMethod().name()) + " is not allowed on "
                    + printable(exchange.getRequest().getPath().value()) + " (it allows "
                    + allows(na, exchange) + ")";
        }
        if (e instanceof UnsupportedMediaTypeStatusException um) {
            return unsupportedType(um, exchange);
        }
        int code = e.getStatusCode().value();
        if (code == 413) {
            return "the body exceeds the size limit of the service (spring.http.codecs.max-in-memory-size)";
        }
        return title;
    }

    /**
     * The methods a 405 names: those its {@code Allow} header lists ({@link ResourceMethods}: HEAD with GET, OPTIONS, a
     * cgroup file without DELETE), in its order; the detail listed Spring's own set, which disagreed (breaker 6 F11).
     */
    private static String allows(MethodNotAllowedException na, ServerWebExchange exchange) {
        Object allowed = exchange.getAttribute(ResourceMethods.ALLOWED);
        if (allowed instanceof java.util.Set<?> set) {
            @SuppressWarnings("unchecked") java.util.Set<HttpMethod> methods = (java.util.Set<HttpMethod>) set;
            return ResourceMethods.format(methods).replace(",", ", ");
        }
        return na.getSupportedMethods().stream().map(HttpMethod::name).sorted().collect(Collectors.joining(", "));
    }

    private static String unsupportedType(UnsupportedMediaTypeStatusException e, ServerWebExchange exchange) {
        String raw = exchange.getRequest().getHeaders().getFirst(HttpHeaders.CONTENT_TYPE);
        String reads = e.getSupportedMediaTypes().stream().map(t -> t.getType() + "/" + t.getSubtype()).distinct()
                .collect(Collectors.joining(", "));
        String takes = reads.isEmpty() ? "" : " (it reads " + reads + ")";
        if (raw == null || raw.isBlank()) return "the request has a body but no Content-Type" + takes;
        MediaType type = e.getContentType();
        if (type == null) {
            return "Content-Type \"" + printable(raw) + "\" is not a media type with a known charset"
                    + " (type/subtype[; charset=…], e.g. application/json)" + takes;
        }
        return "Content-Type " + printable(type.getType() + "/" + type.getSubtype()) + " is not one this operation reads"
                + takes;
    }

    /** The reason of a request Spring could not bind to the operation (a missing value, a body it could not read). */
    static String input(ServerWebInputException e) {
        if (e instanceof MissingRequestValueException missing) {
            return missing.getLabel() + " " + printable(missing.getName()) + " is required";
        }
        for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
            if (c instanceof StrictStringDecoder.BodyNotDecodable bad) return bad.getMessage();
        }
        var param = e.getMethodParameter();
        if (param != null && param.hasParameterAnnotation(org.springframework.web.bind.annotation.RequestBody.class)) {
            return "the request body cannot be read as this operation's body (JSON or YAML text)";
        }
        return "the request cannot be read as this operation expects (its parameters: GET /v3/api-docs)";
    }

    /** At most 100 characters of a client's text, control characters escaped. */
    static String printable(String s) {
        if (s == null) return "";
        StringBuilder b = new StringBuilder();
        s.codePoints().limit(100).forEach(cp -> {
            if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) b.append(String.format(Locale.ROOT, "\\u%04x", cp));
            else b.appendCodePoint(cp);
        });
        return b.toString();
    }
}
