package io.cfslab.web;

import io.cfslab.api.ApiException;
import io.cfslab.api.FieldProblem;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.reactive.result.view.Rendering;
import org.springframework.web.server.ServerWebExchange;

/**
 * A page that cannot be shown (an unknown run, scenario or experiment) answers the HTML error page with the
 * navigation bar ({@code templates/error.html}, the same page Spring Boot renders for an unknown path), not the
 * API's problem JSON.
 */
@ControllerAdvice(assignableTypes = PageController.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class PageErrors {

    @ExceptionHandler(ApiException.class)
    Rendering apiException(ApiException e, ServerWebExchange exchange) {
        String detail = e.problems().stream().map(FieldProblem::reason).filter(r -> r != null && !r.isBlank())
                .findFirst().orElse(null);
        return Rendering.view("error").status(e.status())
                .modelAttribute("status", e.status().value())
                .modelAttribute("error", e.status().getReasonPhrase())
                .modelAttribute("path", exchange.getRequest().getPath().value())
                .modelAttribute("detail", detail)
                .build();
    }
}
