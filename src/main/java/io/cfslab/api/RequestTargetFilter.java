package io.cfslab.api;

import java.util.List;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Refuses request targets the API would otherwise misread, before any routing, with a problem body:
 * <ul>
 *   <li>longer than {@value #MAX_TARGET_BYTES} bytes (path and query): 414. Netty accepts request lines up
 *       to {@code server.netty.max-initial-line-length} (64KB) so that such requests get here; beyond that
 *       Netty itself answers a bare 414.</li>
 *   <li>a path under {@code /api} with a {@code ;}: 400 {@code EINVAL}, pointer {@code /path}. Spring drops
 *       matrix parameters ({@code /a;x/cpu.max} would write {@code /a/cpu.max}); cgroup names cannot hold
 *       a {@code ;} anyway.</li>
 *   <li>a request target with a raw byte outside ASCII (RFC 3986 §2: a URI is ASCII, other bytes are
 *       percent-encoded; RFC 9112 §3.2): 400 {@code EINVAL}, pointer {@code /path}. Netty reads the line as ISO-8859-1,
 *       so raw UTF-8 ({@code /api/runs/nöpe}) came back garbled ({@code nÃ¶pe}) in the detail.</li>
 *   <li>a path or query whose percent-encoding is not valid UTF-8 ({@code %ff}, {@code %zz}): 400 {@code EINVAL},
 *       pointer {@code /path} or {@code /query}, instead of a U+FFFD in a name.</li>
 *   <li>an {@code Accept} header that is not a list of media types is ignored, as if absent; and
 *       {@code application/problem+json} in it is left out (refusals are problems anyway; a success is not one).</li>
 * </ul>
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 2) // after RequestSizeFilter: no oversized body is drained here
public class RequestTargetFilter implements WebFilter {
    /** Longest request target (path and query), bytes. */
    public static final int MAX_TARGET_BYTES = 4096;

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String path = exchange.getRequest().getURI().getRawPath();
        String query = exchange.getRequest().getURI().getRawQuery();
        int length = (path == null ? 0 : path.length()) + (query == null ? 0 : query.length() + 1);
        if (length > MAX_TARGET_BYTES) {
            var problem = ProblemHandler.problem(HttpStatus.URI_TOO_LONG, "URI too long",
                    List.of(new FieldProblem("/path", "request target of " + length + " bytes exceeds the limit of "
                            + MAX_TARGET_BYTES + " bytes", "ENAMETOOLONG")), exchange);
            problem.getBody().setInstance(null); // not echoed back
            return write(exchange, problem);
        }
        if (path != null && path.startsWith("/api") && path.indexOf(';') >= 0) {
            return write(exchange, ProblemHandler.problem(HttpStatus.BAD_REQUEST, "Invalid path",
                    List.of(new FieldProblem("/path", "';' in the path: matrix parameters are not supported"
                            + " (and a cgroup name cannot contain ';')", "EINVAL")), exchange));
        }
        String nonAscii = nonAscii(exchange);
        if (nonAscii != null) {
            var problem = ProblemHandler.problem(HttpStatus.BAD_REQUEST, "Invalid path",
                    List.of(new FieldProblem("/path", nonAscii, "EINVAL")), exchange);
            problem.getBody().setInstance(java.net.URI.create(asciiTarget(path))); // its bytes, percent-encoded
            return write(exchange, problem);
        }
        String badEncoding = invalidPercentEncoding(path, "path");
        if (badEncoding == null) badEncoding = invalidPercentEncoding(query, "query");
        if (badEncoding != null) {
            return write(exchange, ProblemHandler.problem(HttpStatus.BAD_REQUEST, "Invalid path",
                    List.of(new FieldProblem(badEncoding.startsWith("query") ? "/query" : "/path", badEncoding, "EINVAL")),
                    exchange));
        }
        List<String> accept = exchange.getRequest().getHeaders().get(HttpHeaders.ACCEPT);
        if (accept != null && !accept.isEmpty()) {
            List<MediaType> types;
            try {
                types = MediaType.parseMediaTypes(accept);
            } catch (InvalidMediaTypeException unparseable) {
                // RFC 9110 12.5.1: an Accept that cannot be parsed may be ignored, as if absent (so a missing
                // run still answers 404, not 406)
                return chain.filter(exchange.mutate()
                        .request(r -> r.headers(h -> h.remove(HttpHeaders.ACCEPT))).build());
            }
            // application/problem+json says how a client takes refusals (always problems, whatever it accepts);
            // it must not make a successful answer a "problem": it is left out of negotiation
            if (types.stream().anyMatch(t -> t.isCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON) && !t.isWildcardType()
                    && !t.isWildcardSubtype())) {
                List<MediaType> rest = types.stream().filter(t -> !t.equalsTypeAndSubtype(MediaType.APPLICATION_PROBLEM_JSON))
                        .toList();
                return chain.filter(exchange.mutate().request(r -> r.headers(h -> {
                    if (rest.isEmpty()) h.remove(HttpHeaders.ACCEPT);
                    else h.setAccept(rest);
                })).build());
            }
        }
        return chain.filter(exchange);
    }

    /**
     * Why a raw path or query is not valid percent-encoded UTF-8 (RFC 3986 §2.1, §2.5), or null if it is: a {@code %}
     * not followed by two hex digits, or bytes that do not decode as UTF-8 ({@code %ff}, a lone continuation byte,
     * an overlong form, a surrogate). Decoded leniently, {@code %ff} became U+FFFD and reached a stored task name.
     */
    static String invalidPercentEncoding(String raw, String what) {
        if (raw == null || raw.indexOf('%') < 0) return null;
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c != '%') {
                bytes.write(c < 0x80 ? c : '?'); // a raw non-ASCII character: Netty hands the line on as ISO-8859-1
                continue;
            }
            int hi = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 1), 16) : -1;
            int lo = i + 2 < raw.length() ? Character.digit(raw.charAt(i + 2), 16) : -1;
            if (hi < 0 || lo < 0) {
                return what + ": '%' at offset " + i + " is not followed by two hex digits (RFC 3986 percent-encoding)";
            }
            bytes.write(hi * 16 + lo);
            i += 2;
        }
        try {
            java.nio.charset.StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(java.nio.charset.CodingErrorAction.REPORT)
                    .onUnmappableCharacter(java.nio.charset.CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes.toByteArray()));
            return null;
        } catch (java.nio.charset.CharacterCodingException e) {
            return what + ": percent-encoded bytes are not valid UTF-8 (e.g. %ff, or a lone %80); encode each"
                    + " character's UTF-8 bytes (RFC 3986 2.5)";
        }
    }

    /**
     * Why the request target holds a byte that is not printable ASCII, or null: Netty hands the request line on as
     * ISO-8859-1, one character per byte, so such a byte is a character above U+007E here (or a control character).
     */
    static String nonAscii(ServerWebExchange exchange) {
        Object nativeRequest = org.springframework.http.server.reactive.ServerHttpRequestDecorator
                .getNativeRequest(exchange.getRequest());
        String target = nativeRequest instanceof reactor.netty.http.server.HttpServerRequest http ? http.uri()
                : exchange.getRequest().getURI().getRawPath();
        if (target == null) return null;
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c > 0x7e || c < 0x21) {
                return "byte 0x" + Integer.toHexString(c & 0xff) + " at offset " + i + " of the request target: a URI is"
                        + " ASCII (RFC 3986 2); percent-encode every other byte of a name's UTF-8 (ö is %C3%B6)";
            }
        }
        return null;
    }

    /** A raw path with each byte outside printable ASCII percent-encoded (one character per byte: ISO-8859-1). */
    static String asciiTarget(String raw) {
        StringBuilder b = new StringBuilder();
        for (char c : (raw == null ? "" : raw).toCharArray()) {
            if (c > 0x7e || c < 0x21) b.append(String.format("%%%02X", c & 0xff));
            else b.append(c);
        }
        return b.toString();
    }

    /**
     * Reads (and drops) the request body first, then answers: a connection whose request body was left
     * unread could not be used for the client's next request.
     */
    private static Mono<Void> write(ServerWebExchange exchange, ResponseEntity<ProblemDetail> problem) {
        // filters' errors skip ProblemHandler
        return ProblemHandler.afterBody(exchange, Mono.defer(() -> ProblemHandler.write(exchange, problem)));
    }
}
