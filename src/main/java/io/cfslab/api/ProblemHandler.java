package io.cfslab.api;

import io.cfslab.scenario.Problem;
import io.cfslab.scenario.ScenarioException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.TypeMismatchException;
import org.springframework.core.MethodParameter;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.security.web.server.firewall.ServerExchangeRejectedException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.ServerWebInputException;
import reactor.core.publisher.Mono;

/**
 * Renders every refusal as RFC 9457 {@code application/problem+json}:
 * <pre>{ "type": "about:blank", "title": "Invalid value", "status": 422, "detail": "...",
 *   "instance": "/api/scenarios/x", "pointer": "/cgroups/0/cpu.max", "errno": "EINVAL",
 *   "errors": [ { "pointer": "/cgroups/0/cpu.max", "reason": "...", "errno": "EINVAL" } ] }</pre>
 * {@code pointer}/{@code errno} repeat the first entry of {@code errors}.
 *
 * <p>A document's problems are 422 whatever their errno ({@link ScenarioService#validate}); a write to one file of
 * the file API is by errno ({@link #statusOf}).
 */
@RestControllerAdvice
public class ProblemHandler {
    private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);
    /**
     * Client disconnects (AbortedException, connection reset, broken pipe), logged at DEBUG under
     * {@code io.cfslab.api.disconnected} instead of as errors with a stack trace.
     */
    static final org.springframework.web.util.DisconnectedClientHelper DISCONNECTED =
            new org.springframework.web.util.DisconnectedClientHelper("io.cfslab.api.disconnected");
    /** The same category, for client errors that Netty answered itself (a body it could not decode). */
    static final Logger DISCONNECTED_LOG = LoggerFactory.getLogger("io.cfslab.api.disconnected");

    // Every answer carries an explicit Content-Type application/problem+json, which is written whatever the
    // request's Accept says (a refusal is not turned into a 406 by content negotiation).

    // Each answer waits until the request body, if it was left unread (a refusal before the handler read it:
    // no route, 405, 415, a bad path variable), has been read and dropped: see afterBody.

    @ExceptionHandler(ApiException.class)
    Mono<ResponseEntity<ProblemDetail>> api(ApiException e, ServerWebExchange exchange) {
        ResponseEntity<ProblemDetail> r = problem(e.status(), e.title(), e.problems(), e.total(), exchange);
        if (e.headers().isEmpty()) return drained(exchange, r);
        return drained(exchange, ResponseEntity.status(r.getStatusCode()).headers(r.getHeaders()).headers(e.headers())
                .body(r.getBody()));
    }

    @ExceptionHandler(ScenarioException.class)
    Mono<ResponseEntity<ProblemDetail>> scenario(ScenarioException e, ServerWebExchange exchange) {
        return drained(exchange, problem(HttpStatus.UNPROCESSABLE_CONTENT, "Invalid scenario", fromScenario(e, ""),
                e.total(), exchange));
    }

    @ExceptionHandler(ServerWebInputException.class)
    Mono<ResponseEntity<ProblemDetail>> input(ServerWebInputException e, ServerWebExchange exchange) {
        return drained(exchange, inputProblem(e, exchange));
    }

    private static Mono<ResponseEntity<ProblemDetail>> drained(ServerWebExchange exchange, ResponseEntity<ProblemDetail> r) {
        return afterBody(exchange, Mono.empty()).then(Mono.just(r));
    }

    static ResponseEntity<ProblemDetail> inputProblem(ServerWebInputException e, ServerWebExchange exchange) {
        MethodParameter param = e.getMethodParameter();
        String name = param == null ? null : param.getParameterName();
        if (param != null && name != null && e.getCause() instanceof TypeMismatchException tm) {
            // a path variable or query parameter that does not convert: name it, e.g. /index
            PathVariable pv = param.getParameterAnnotation(PathVariable.class);
            RequestParam rp = param.getParameterAnnotation(RequestParam.class);
            if (pv != null && !pv.value().isEmpty()) name = pv.value();
            if (rp != null && !rp.value().isEmpty()) name = rp.value();
            Class<?> type = tm.getRequiredType();
            String wanted = type == null ? "a valid value"
                    : type == int.class || type == Integer.class || type == long.class || type == Long.class
                    ? "an integer" : "a " + type.getSimpleName();
            String kind = pv != null ? "path segment" : "parameter";
            if (type != null && wanted.equals("an integer") && tm.getValue() instanceof String text
                    && DecimalParameters.outOfRange(text, type)) {
                return problem(HttpStatus.BAD_REQUEST, ProblemHandler.titleOf("ERANGE"), List.of(new FieldProblem("/" + name,
                        kind + " " + name + " '" + text + "' is out of range (" + DecimalParameters.range(type) + ")",
                        "ERANGE")), exchange);
            }
            return problem(HttpStatus.BAD_REQUEST, "Invalid parameter", List.of(new FieldProblem("/" + name,
                    kind + " " + name + " '" + tm.getValue() + "' is not " + wanted, "EINVAL")), exchange);
        }
        return problem(HttpStatus.BAD_REQUEST, "Malformed request",
                List.of(new FieldProblem("", RefusalWords.input(e), "EINVAL")), exchange);
    }

    @ExceptionHandler(ResponseStatusException.class)
    Mono<ResponseEntity<ProblemDetail>> status(ResponseStatusException e, ServerWebExchange exchange) {
        return drained(exchange, statusProblem(e, exchange));
    }

    /** A problem for any {@link ResponseStatusException} (405, 406, 415, …), keeping its headers (e.g. Allow). */
    static ResponseEntity<ProblemDetail> statusProblem(ResponseStatusException e, ServerWebExchange exchange) {
        if (e instanceof ServerWebInputException in) return inputProblem(in, exchange);
        HttpStatusCode code = e.getStatusCode();
        HttpStatus status = HttpStatus.resolve(code.value());
        String title = status == null ? "Error" : status.getReasonPhrase();
        if (code.value() == 415) {
            // one title for every 415 (breaker 9 F1: Spring's said "Unsupported Media Type", the service's own
            // "Unsupported media type"); on a cgroup path the service's own problem, naming text/plain in Accept:
            // Spring refused a form-urlencoded body (curl -d's default) or Content-Type */* before the operation ran
            title = "Unsupported media type";
            ApiException own = CgroupController.unsupportedBody(exchange);
            if (own != null) {
                ResponseEntity<ProblemDetail> r = problem(own.status(), own.title(), own.problems(), own.total(), exchange);
                return ResponseEntity.status(r.getStatusCode()).headers(r.getHeaders()).headers(own.headers()).body(r.getBody());
            }
        }
        // 413: the codec cut a body without a length (chunked) at the limit: EFBIG, as RequestSizeFilter's for a length
        String errno = code.value() == 404 ? "ENOENT" : code.value() == 413 ? "EFBIG" : code.value() >= 500 ? null : "EINVAL";
        String reason = RefusalWords.status(e, exchange, title);
        if (e instanceof org.springframework.web.server.NotAcceptableStatusException na
                && !na.getSupportedMediaTypes().isEmpty()) {
            reason = acceptsNoneOf(na.getSupportedMediaTypes());
        }
        if (e instanceof org.springframework.web.reactive.resource.NoResourceFoundException) {
            // no route: say so in the API's terms, not as a missing static file
            reason = "no such API path: " + exchange.getRequest().getMethod() + " " + exchange.getRequest().getPath().value()
                    + " (the API's paths: GET /v3/api-docs, docs/api.md)";
        }
        // the field at fault, as every problem names it: a 415's is the Content-Type header (breaker 6 F12: the
        // scenario routes' 415 had pointer "", the cgroup file route's /headers/Content-Type), a 406's the Accept
        String pointer = code.value() == 415 ? "/headers/Content-Type" : code.value() == 406 ? "/headers/Accept" : "";
        ResponseEntity<ProblemDetail> r = problem(status == null ? HttpStatus.INTERNAL_SERVER_ERROR : status, title,
                List.of(new FieldProblem(pointer, reason, errno)), exchange);
        return ResponseEntity.status(code).headers(e.getHeaders()).headers(r.getHeaders()).body(r.getBody());
    }

    /** Spring Security's firewall refused a header or parameter when the handler read it: 400. */
    @ExceptionHandler(ServerExchangeRejectedException.class)
    Mono<ResponseEntity<ProblemDetail>> rejected(ServerExchangeRejectedException e, ServerWebExchange exchange) {
        return drained(exchange, problem(HttpStatus.BAD_REQUEST, "Rejected request",
                List.of(new FieldProblem("", RefusalWords.firewall(exchange), "EINVAL")), exchange));
    }

    /** Why the firewall refused the request of {@code exchange}, in the client's words ({@link RefusalWords#firewall}). */
    public static String firewallReason(ServerWebExchange exchange) {
        return RefusalWords.firewall(exchange);
    }

    /** The reason of a 500: the cause is in the service's log, never in the answer (it would name Java classes). */
    static final String INTERNAL = "internal error: the service logged its cause (a fault of the service, not of the request)";

    /** Anything unexpected: 500, still as a problem body (the cause is logged, not shown). */
    @ExceptionHandler(Exception.class)
    ResponseEntity<ProblemDetail> unexpected(Exception e, ServerWebExchange exchange) {
        String path = exchange.getRequest().getPath().value();
        if (e instanceof IllegalArgumentException && path.startsWith("/actuator/")) {
            // the actuator refuses a path segment it cannot split (/actuator/health/db%2F): no such endpoint
            return problem(HttpStatus.NOT_FOUND, "Not found",
                    List.of(new FieldProblem("", "no such actuator endpoint: " + path, "ENOENT")), exchange);
        }
        // a client that went away (Reactor Netty's AbortedException, a reset): nothing is wrong with the service
        if (!DISCONNECTED.checkAndLogClientDisconnectedException(e)) {
            log.error("unexpected error on {}", exchange.getRequest().getPath(), e);
        }
        return problem(HttpStatus.INTERNAL_SERVER_ERROR, "Internal error",
                List.of(new FieldProblem("", ProblemHandler.INTERNAL, null)), exchange);
    }

    /** Writes a problem answer as application/problem+json, without content negotiation (for filters). */
    static Mono<Void> write(ServerWebExchange exchange, ResponseEntity<ProblemDetail> problem) {
        var response = exchange.getResponse();
        response.setStatusCode(problem.getStatusCode());
        response.getHeaders().addAll(problem.getHeaders());
        response.getHeaders().setContentType(MediaType.APPLICATION_PROBLEM_JSON);
        ProblemDetail pd = problem.getBody();
        // the members in the order, and with the omissions, of a ProblemDetail that a controller's error answers
        // (Spring's Jackson mixin): one shape for every problem, whoever writes it; "type" about:blank is left out
        // (RFC 9457 3.1.1: absent means about:blank)
        Map<String, Object> body = new LinkedHashMap<>();
        if (pd.getType() != null && !"about:blank".equals(pd.getType().toString())) body.put("type", pd.getType().toString());
        body.put("detail", pd.getDetail());
        if (pd.getInstance() != null) body.put("instance", pd.getInstance().toString());
        body.put("status", pd.getStatus());
        body.put("title", pd.getTitle());
        if (pd.getProperties() != null) body.putAll(pd.getProperties());
        byte[] bytes = ScenarioDocs.JSON.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
        return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(bytes)));
    }

    /**
     * Writes a one-problem answer as application/problem+json, for code outside this package that answers
     * before any controller (security's 401/403, the firewall's 400), once the request body, if any, has been
     * read and dropped ({@link #afterBody}).
     */
    public static Mono<Void> write(ServerWebExchange exchange, HttpStatus status, String title, FieldProblem problem) {
        return afterBody(exchange, Mono.defer(() -> write(exchange, problem(status, title, List.of(problem), exchange))));
    }

    /**
     * Runs {@code answer} once the request body has been read and dropped, chunk by chunk (nothing is kept; a
     * body reaches here only within the size limit, {@link RequestSizeFilter}). A refusal that left the body
     * unread would close a connection the client is still sending on: it would see a reset, not the answer.
     */
    public static Mono<Void> afterBody(ServerWebExchange exchange, Mono<Void> answer) {
        long[] read = {0};
        return exchange.getRequest().getBody()
                // at most CloseAfterErrorFilter.MAX_DRAIN_BYTES (a chunked body may never end): then answer anyway
                .takeWhile(b -> (read[0] += b.readableByteCount()) <= CloseAfterErrorFilter.MAX_DRAIN_BYTES
                        || release(b))
                .doOnNext(org.springframework.core.io.buffer.DataBufferUtils::release)
                .onErrorResume(e -> Mono.empty()).then(answer);
    }

    private static boolean release(org.springframework.core.io.buffer.DataBuffer b) {
        org.springframework.core.io.buffer.DataBufferUtils.release(b);
        return false;
    }

    /** Turns parser problems into field problems, each pointer prefixed by {@code prefix} (e.g. {@code /scenario}). */
    static List<FieldProblem> fromScenario(ScenarioException e, String prefix) {
        List<FieldProblem> out = new ArrayList<>();
        for (Problem p : e.problems()) out.add(new FieldProblem(prefix + p.path(), p.reason(), p.errno()));
        return out;
    }

    /** Status for a refused write to one file of the file API: ENOENT 404, EBUSY/EEXIST 409, else 422. */
    static HttpStatus statusOf(List<FieldProblem> problems) {
        String errno = problems.isEmpty() ? null : problems.get(0).errno();
        if ("ENOENT".equals(errno)) return HttpStatus.NOT_FOUND;
        if ("EBUSY".equals(errno) || "EEXIST".equals(errno)) return HttpStatus.CONFLICT;
        return HttpStatus.UNPROCESSABLE_CONTENT;
    }

    static ResponseEntity<ProblemDetail> problem(HttpStatus status, String title, List<FieldProblem> problems,
                                                 ServerWebExchange exchange) {
        return problem(status, title, problems, problems.size(), exchange);
    }

    /** At most this many entries in {@code errors}; {@code detail} says how many more there were. */
    static final int MAX_ERRORS = 100;

    /** The reason of every 406: {@code accepts none of application/json, text/plain}. */
    static String acceptsNoneOf(List<MediaType> offered) {
        return "accepts none of " + String.join(", ", offered.stream().map(t -> t.getType() + "/" + t.getSubtype())
                .distinct().toList());
    }

    /**
     * The title of a 422 by the errno of its first problem: {@code ERANGE} "Value out of range", {@code EINVAL}
     * "Invalid value", {@code ENAMETOOLONG} "Name too long", {@code E2BIG} "Value too long", {@code ENOENT} "No such
     * file or entry", {@code EAGAIN}/{@code EBUSY}/others by their kernel meaning, none (a document's own rule: an
     * unknown key, a required one, a time beyond the duration) "Invalid document".
     */
    static String titleOf(String errno) {
        if (errno == null) return "Invalid document";
        return switch (errno) {
            case "ERANGE" -> "Value out of range";
            case "EINVAL" -> "Invalid value";
            case "ENAMETOOLONG" -> "Name too long";
            case "E2BIG" -> "Value too long";
            case "ENOENT" -> "No such file or entry";
            case "EEXIST" -> "Exists";
            case "EBUSY" -> "Busy";
            case "EPERM" -> "Operation not permitted";
            default -> "Invalid value (" + errno + ")";
        };
    }

    static ResponseEntity<ProblemDetail> problem(HttpStatus status, String title, List<FieldProblem> problems,
                                                 int total, ServerWebExchange exchange) {
        if (status == HttpStatus.NOT_ACCEPTABLE) {
            // one shape for every 406, whoever refused (Spring's content negotiation, the actuator, an operation's
            // own AcceptNegotiation): the Accept header is the field at fault
            title = "Not acceptable";
            problems = problems.stream().map(p -> new FieldProblem("/headers/Accept", p.reason(), "EINVAL")).toList();
        }
        if (status == HttpStatus.UNPROCESSABLE_CONTENT && !problems.isEmpty()) {
            // one title for every 422, whichever document or route the fault came in (a scenario body, a run
            // request, an experiment or its arm's set, a sub-resource, a cgroup file's write): the kind of its first
            // problem, as its errno and pointer are the fault's, not the route's (RFC 9457 3.1.3: the title is the
            // problem type's, not the occurrence's; the detail says where)
            title = titleOf(problems.get(0).errno());
        }
        total = Math.max(total, problems.size());
        ProblemDetail pd = ProblemDetail.forStatus(status);
        pd.setTitle(title);
        try {
            pd.setInstance(URI.create(exchange.getRequest().getPath().value()));
        } catch (IllegalArgumentException notAUri) {
            // left out
        }
        if (!problems.isEmpty()) {
            FieldProblem first = problems.get(0);
            int shown = Math.min(problems.size(), MAX_ERRORS);
            pd.setDetail(first.reason() + (total > 1 ? " (and " + (total - 1) + " more"
                    + (total > shown ? "; errors lists the first " + shown + ", " + (total - shown) + " more not listed" : "")
                    + ")" : ""));
            pd.setProperty("pointer", first.pointer());
            if (first.errno() != null) pd.setProperty("errno", first.errno());
            List<Map<String, Object>> errors = new ArrayList<>();
            for (FieldProblem p : problems.subList(0, shown)) {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("pointer", p.pointer());
                m.put("reason", p.reason());
                if (p.errno() != null) m.put("errno", p.errno());
                errors.add(m);
            }
            pd.setProperty("errors", errors);
        }
        return ResponseEntity.status(status).contentType(MediaType.APPLICATION_PROBLEM_JSON).body(pd);
    }
}
