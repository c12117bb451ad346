package io.cfslab.api;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.security.web.server.firewall.ServerExchangeRejectedException;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;

/**
 * Errors under {@code /api} and {@code /actuator} that never reach {@link ProblemHandler} (no route: 404/405; a 406 while
 * writing a successful answer; errors of filters) also answer {@code application/problem+json}, ahead of
 * Spring Boot's default error JSON.
 */
@Component
@Order(-2)
public class ApiErrorWebExceptionHandler implements WebExceptionHandler {
    private static final Logger log = LoggerFactory.getLogger(ApiErrorWebExceptionHandler.class);

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable ex) {
        String path = exchange.getRequest().getPath().value();
        if (ProblemHandler.DISCONNECTED.checkAndLogClientDisconnectedException(ex)) {
            return Mono.empty(); // the client went away: there is no one to answer, and nothing to log as an error
        }
        if (!answersProblems(path) || exchange.getResponse().isCommitted()) {
            return Mono.error(ex);
        }
        exchange.getResponse().getHeaders().clear();
        return ProblemHandler.afterBody(exchange, Mono.defer(() -> answer(exchange, ex, path)));
    }

    /**
     * True for the paths whose every error is a problem+json body: the API ({@code /api}) and the actuator
     * ({@code /actuator}), which machines call; the pages answer with the HTML error page.
     */
    public static boolean answersProblems(String path) {
        return path.equals("/api") || path.startsWith("/api/") || path.equals("/actuator") || path.startsWith("/actuator/");
    }

    private static Mono<Void> answer(ServerWebExchange exchange, Throwable ex, String path) {
        if (ex instanceof ApiException e) {
            exchange.getResponse().getHeaders().addAll(e.headers());
            return ProblemHandler.write(exchange, ProblemHandler.problem(e.status(), e.title(), e.problems(), e.total(),
                    exchange));
        }
        if (ex instanceof ServerExchangeRejectedException) {
            return ProblemHandler.write(exchange, HttpStatus.BAD_REQUEST, "Rejected request",
                    new FieldProblem("", RefusalWords.firewall(exchange), "EINVAL"));
        }
        if (ex instanceof ResponseStatusException e) {
            return ProblemHandler.write(exchange, ProblemHandler.statusProblem(e, exchange));
        }
        log.error("unexpected error on {}", path, ex);
        return ProblemHandler.write(exchange, ProblemHandler.problem(HttpStatus.INTERNAL_SERVER_ERROR, "Internal error",
                List.of(new FieldProblem("", ProblemHandler.INTERNAL, null)), exchange));
    }
}
