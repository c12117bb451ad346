package io.cfslab.api;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatus;
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
 * </ul>
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
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
        return chain.filter(exchange);
    }

    /** Writes a problem answer directly (a WebFilter's errors do not reach {@link ProblemHandler}). */
    static Mono<Void> write(ServerWebExchange exchange, ResponseEntity<ProblemDetail> problem) {
        var response = exchange.getResponse();
        response.setStatusCode(problem.getStatusCode());
        response.getHeaders().addAll(problem.getHeaders());
        ProblemDetail pd = problem.getBody();
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", pd.getType() == null ? "about:blank" : pd.getType().toString());
        body.put("title", pd.getTitle());
        body.put("status", pd.getStatus());
        body.put("detail", pd.getDetail());
        body.put("instance", pd.getInstance() == null ? null : pd.getInstance().toString());
        if (pd.getProperties() != null) body.putAll(pd.getProperties());
        byte[] bytes = ScenarioDocs.JSON.writeValueAsString(body).getBytes(StandardCharsets.UTF_8);
        DataBuffer buffer = response.bufferFactory().wrap(bytes);
        return response.writeWith(Mono.just(buffer));
    }
}
