package io.cfslab.api;

import java.util.List;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Requests at the edges of HTTP that Spring would answer wrongly, answered as RFC 9110/9112 say:
 * <ul>
 *   <li>an HTTP/1.1 request without a {@code Host} header, or with more than one: 400 problem, pointer
 *       {@code /headers/Host} (RFC 9112 §3.2: a server MUST answer 400). HTTP/1.0 may leave it out.</li>
 *   <li>{@code OPTIONS *} (the server as a whole, RFC 9110 §9.3.7): 200 with {@code Allow} of every method the API
 *       uses and an empty body (Spring found no route: an HTML 404).</li>
 *   <li>({@code OPTIONS} of a resource that does not exist, and its {@code Allow}: {@link ResourceMethods}.)</li>
 *   <li>Spring's OPTIONS answer carries an empty {@code Accept-Patch} when no operation takes PATCH; RFC 5789 §3.1
 *       defines the field as a non-empty list of media types, so an empty one is dropped.</li>
 * </ul>
 */
@Component
@Order(-50) // after Spring Security (-100): with a token, an OPTIONS tells nobody unauthenticated whether an id exists
public class RequestEdgeFilter implements WebFilter {
    /** What {@code OPTIONS *} lists: every method some operation of the API takes. */
    static final String SERVER_ALLOW = "GET,HEAD,POST,PUT,DELETE,OPTIONS";

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        var request = exchange.getRequest();
        Object nativeRequest = ServerHttpRequestDecorator.getNativeRequest(request);
        if (nativeRequest instanceof reactor.netty.http.server.HttpServerRequest http) {
            if (http.version().minorVersion() >= 1 && http.version().majorVersion() == 1
                    && request.getHeaders().getOrEmpty(HttpHeaders.HOST).size() != 1) {
                int hosts = request.getHeaders().getOrEmpty(HttpHeaders.HOST).size();
                return ProblemHandler.write(exchange, HttpStatus.BAD_REQUEST, "Invalid header", new FieldProblem("/headers/Host",
                        hosts == 0 ? "an HTTP/1.1 request must carry a Host header (RFC 9112 3.2)"
                                : "a request carries one Host header, not " + hosts + " (RFC 9112 3.2)", "EINVAL"));
            }
            if (request.getMethod() == HttpMethod.OPTIONS && "*".equals(http.uri())) {
                var response = exchange.getResponse();
                response.setStatusCode(HttpStatus.OK);
                response.getHeaders().set(HttpHeaders.ALLOW, SERVER_ALLOW);
                response.getHeaders().setContentLength(0);
                return response.setComplete();
            }
        }
        if (request.getMethod() != HttpMethod.OPTIONS || !request.getPath().value().startsWith("/api/")) {
            return chain.filter(exchange);
        }
        exchange.getResponse().beforeCommit(() -> {
            List<String> patch = exchange.getResponse().getHeaders().get("Accept-Patch");
            if (patch != null && patch.stream().allMatch(String::isBlank)) exchange.getResponse().getHeaders().remove("Accept-Patch");
            return Mono.empty();
        });
        return chain.filter(exchange); // OPTIONS of a missing resource: 404 (ResourceMethods)
    }
}
