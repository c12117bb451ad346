package io.cfslab.api;

import java.util.List;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * The actuator's own refusals as problem+json, like every other error of the service's machine paths. An actuator
 * endpoint that finds nothing ({@code /actuator/health/nope}, {@code /actuator/metrics/no.such.metric}) answers its
 * status with an empty body, which is neither an exception ({@link ApiErrorWebExceptionHandler}) nor a controller's
 * ({@link ProblemHandler}): this filter turns an error status completed without a body under {@code /actuator} into
 * the problem of that status ({@code ENOENT} for a 404). Bodies the actuator writes itself (health's 503 with its
 * components) are left as they are.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 20)
public class ActuatorProblems implements WebFilter {
    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String path = exchange.getRequest().getPath().value();
        if (!path.equals("/actuator") && !path.startsWith("/actuator/")) return chain.filter(exchange);
        ServerHttpResponseDecorator response = new ServerHttpResponseDecorator(exchange.getResponse()) {
            @Override
            public Mono<Void> setComplete() {
                HttpStatusCode code = getStatusCode();
                if (code == null || !code.isError() || isCommitted()) return super.setComplete();
                HttpStatus status = HttpStatus.resolve(code.value());
                if (status == null) return super.setComplete();
                String reason = status == HttpStatus.NOT_FOUND ? "no such actuator endpoint or component: " + path
                        : status.getReasonPhrase() + ": " + path;
                String errno = status == HttpStatus.NOT_FOUND ? "ENOENT" : status.is5xxServerError() ? null : "EINVAL";
                getHeaders().remove(org.springframework.http.HttpHeaders.CONTENT_LENGTH);
                return ProblemHandler.write(exchange.mutate().response(getDelegate()).build(), ProblemHandler.problem(
                        status, status.getReasonPhrase(),
                        List.of(new FieldProblem("", reason, errno)), exchange));
            }
        };
        return chain.filter(exchange.mutate().response(response).build());
    }
}
