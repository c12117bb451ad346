package io.cfslab.api;

import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * One syntax rule for {@code If-Match} and {@code If-None-Match} on every API route and method (breaker5 F2, F10): a
 * malformed header is 400 {@code EINVAL} at {@code /headers/If-Match} or {@code /headers/If-None-Match}
 * ({@link Preconditions}), before anything is looked up, whether or not the route evaluates it (a {@code POST
 * /api/scenarios} with {@code If-Match: zz} used to create the scenario). What a well-formed header means is each
 * route's: a scenario's version ({@link Preconditions#failure}), a run's or an experiment's state
 * ({@link Preconditions#requireOn}, {@link StateTags}).
 */
@Component
@Order(-40) // after Spring Security (-100) and RequestEdgeFilter (-50): an unauthenticated caller learns nothing more
public class ConditionalSyntaxFilter implements WebFilter {
    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!exchange.getRequest().getPath().value().startsWith("/api/")) return chain.filter(exchange);
        try {
            Preconditions.of(exchange.getRequest());
        } catch (ApiException malformed) {
            return ProblemHandler.write(exchange, malformed.status(), malformed.title(), malformed.problems().get(0));
        }
        return chain.filter(exchange);
    }
}
