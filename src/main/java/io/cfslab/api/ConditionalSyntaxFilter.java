package io.cfslab.api;

import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
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
        Preconditions pre;
        try {
            pre = Preconditions.of(exchange.getRequest());
        } catch (ApiException malformed) {
            return ProblemHandler.write(exchange, malformed.status(), malformed.title(), malformed.problems().get(0));
        }
        if (exchange.getRequest().getMethod() == HttpMethod.POST && pre.ifMatch() != null && !pre.ifMatch().strip().equals("*")
                && COLLECTIONS.matcher(exchange.getRequest().getPath().value()).matches()) {
            // a POST that creates targets the collection, which has no ETag: a list of tags names none of its current
            // ones, so If-Match is false (RFC 9110 13.1.1) and nothing is created (breaker 6 F8: it created anyway)
            return ProblemHandler.write(exchange, HttpStatus.PRECONDITION_FAILED, "Precondition failed",
                    new FieldProblem("/id", "If-Match " + Preconditions.shown(pre.ifMatch().strip())
                            + " names a tag, but " + exchange.getRequest().getPath().value() + " (a collection) has none,"
                            + " so no tag can match (RFC 9110 13.1.1): nothing was created; send If-Match: * or none", null));
        }
        return chain.filter(exchange);
    }

    /** The collections a POST creates in: they answer no ETag (a scenario's tasks and timeline share the scenario's). */
    private static final java.util.regex.Pattern COLLECTIONS = java.util.regex.Pattern.compile("^/api/(?:scenarios|runs|experiments)/?$");
}
