package io.cfslab.web;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.reactive.resource.NoResourceFoundException;
import org.springframework.web.reactive.result.view.Rendering;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * No route for a page: the HTML error page with the navigation bar ({@code templates/error.html}). Under
 * {@code /api} and {@code /actuator} the exception goes on to {@code ApiErrorWebExceptionHandler}, which answers a problem.
 */
@ControllerAdvice
@Order(Ordered.HIGHEST_PRECEDENCE)
class PageNotFound {

    @ExceptionHandler(NoResourceFoundException.class)
    Mono<Rendering> noSuchPage(NoResourceFoundException e, ServerWebExchange exchange) {
        String path = exchange.getRequest().getPath().value();
        if (io.cfslab.api.ApiErrorWebExceptionHandler.answersProblems(path)) return Mono.error(e);
        return Mono.just(Rendering.view("error").status(HttpStatus.NOT_FOUND)
                .modelAttribute("status", 404)
                .modelAttribute("error", "Not Found")
                .modelAttribute("path", path)
                .build());
    }
}
