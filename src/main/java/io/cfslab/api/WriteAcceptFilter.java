package io.cfslab.api;

import java.util.List;
import java.util.Set;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * The {@code Accept} of a write ({@code POST}, {@code PUT}, {@code PATCH}, {@code DELETE}) under {@code /api}: one
 * that takes no JSON is 406 before the write is done (refused only when its answer was about to be written, it had
 * already been stored, and a client retrying after the 406 stored it twice).
 *
 * <p>Order (docs/api.md "Order of checks"): after the request's syntax, so after a path the firewall refuses (Spring
 * Security, -100), an unknown or malformed query parameter ({@link QueryParameterFilter}, -45) and a malformed
 * {@code If-Match}/{@code If-None-Match} ({@link ConditionalSyntaxFilter}, -40): breaker 9 F20, the 406 came first,
 * decided in {@link RequestTargetFilter}. A write whose success answers 204 with no body (every {@code DELETE}, a
 * cgroup file's {@code PUT}) has no representation the {@code Accept} could refuse (RFC 9110 12.5.1), so it is not
 * judged (breaker 9 F23: {@code Accept: text/plain}, the file's own type, made a file write 406).
 */
@Component
@Order(-38) // after ConditionalSyntaxFilter (-40) and NotModifiedFilter (-39)
public class WriteAcceptFilter implements WebFilter {
    /** Methods that change what is stored: their Accept is checked before they run. */
    private static final Set<HttpMethod> WRITES = Set.of(HttpMethod.POST, HttpMethod.PUT, HttpMethod.PATCH,
            HttpMethod.DELETE);

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        var request = exchange.getRequest();
        List<String> accept = request.getHeaders().get(HttpHeaders.ACCEPT);
        String path = request.getPath().value();
        if (accept == null || accept.isEmpty() || !path.startsWith("/api/") || !WRITES.contains(request.getMethod())
                || answersNoBody(request.getMethod(), path)) {
            return chain.filter(exchange);
        }
        try {
            AcceptNegotiation.best(String.join(",", accept), List.of(MediaType.APPLICATION_JSON));
            return chain.filter(exchange);
        } catch (ApiException notAcceptable) {
            return ProblemHandler.afterBody(exchange, Mono.defer(() -> ProblemHandler.write(exchange,
                    ProblemHandler.problem(HttpStatus.NOT_ACCEPTABLE, "Not acceptable", List.of(new FieldProblem(
                            "/headers/Accept", ProblemHandler.acceptsNoneOf(List.of(MediaType.APPLICATION_JSON))
                                    + " (every write answers JSON; nothing was changed)", "EINVAL")), exchange))));
        }
    }

    /** A write whose success is 204 No Content: every {@code DELETE}, and a {@code PUT} of a cgroup file. */
    static boolean answersNoBody(HttpMethod method, String path) {
        if (method == HttpMethod.DELETE) return true;
        if (method != HttpMethod.PUT) return false;
        String[] parts = path.split("/", 6); // "", api, scenarios, {id}, cgroups, rest
        if (parts.length < 5 || !parts[2].equals("scenarios") || !parts[4].equals("cgroups")) return false;
        return parts.length == 6 && CgroupController.Target.of("/" + parts[5]).file() != null;
    }
}
