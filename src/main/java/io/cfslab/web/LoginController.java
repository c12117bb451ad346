package io.cfslab.web;

import io.cfslab.security.SecurityProperties;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.security.web.server.csrf.CsrfToken;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The sign-in page of a service with a token ({@code cfslab.security.token}): one password field for the
 * token; Spring Security's form login checks it at {@code POST /login} and starts a session. Without a
 * token there is nothing to sign in to, and the page sends the browser home.
 */
@Controller
public class LoginController {
    private final SecurityProperties security;

    public LoginController(SecurityProperties security) { this.security = security; }

    @GetMapping("/login")
    public String login(ServerWebExchange exchange, Model model) {
        if (!security.enabled()) return "redirect:/";
        // ?error (a wrong token) and ?logout come without values
        model.addAttribute("failed", exchange.getRequest().getQueryParams().containsKey("error"));
        model.addAttribute("signedOut", exchange.getRequest().getQueryParams().containsKey("logout"));
        return "login";
    }

    /**
     * Every page gets the request's CSRF token as {@code _csrf} (absent without a token): the layout puts it
     * in {@code <meta name="_csrf">}, and the dashboard's scripts send it with their writes.
     */
    @ControllerAdvice(assignableTypes = {PageController.class, LoginController.class})
    static class CsrfAdvice {
        @ModelAttribute("_csrf")
        Mono<CsrfToken> csrf(ServerWebExchange exchange) {
            Mono<CsrfToken> token = exchange.getAttribute(CsrfToken.class.getName());
            return token == null ? Mono.empty() : token;
        }
    }
}
