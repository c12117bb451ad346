package io.cfslab.security;

import io.cfslab.api.FieldProblem;
import io.cfslab.api.ProblemHandler;
import java.net.URI;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.web.server.context.NoOpServerSecurityContextRepository;
import org.springframework.security.web.server.context.ServerSecurityContextRepository;
import org.springframework.security.web.server.context.WebSessionServerSecurityContextRepository;
import org.springframework.security.web.server.savedrequest.NoOpServerRequestCache;
import org.springframework.security.web.server.savedrequest.ServerRequestCache;
import org.springframework.security.web.server.savedrequest.WebSessionServerRequestCache;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.security.authentication.ReactiveAuthenticationManager;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.config.annotation.web.reactive.EnableWebFluxSecurity;
import org.springframework.security.config.web.server.SecurityWebFiltersOrder;
import org.springframework.security.config.web.server.ServerHttpSecurity;
import org.springframework.security.web.server.SecurityWebFilterChain;
import org.springframework.security.web.server.ServerAuthenticationEntryPoint;
import org.springframework.security.web.server.authentication.AuthenticationWebFilter;
import org.springframework.security.web.server.authentication.RedirectServerAuthenticationEntryPoint;
import org.springframework.security.web.server.authentication.RedirectServerAuthenticationFailureHandler;
import org.springframework.security.web.server.authentication.ServerAuthenticationFailureHandler;
import org.springframework.security.web.server.authentication.logout.RedirectServerLogoutSuccessHandler;
import org.springframework.security.web.server.authorization.ServerAccessDeniedHandler;
import org.springframework.security.web.server.firewall.ServerExchangeRejectedHandler;
import org.springframework.security.web.server.firewall.ServerWebExchangeFirewall;
import org.springframework.security.web.server.firewall.StrictServerWebExchangeFirewall;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatcher;
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatcher.MatchResult;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The optional shared token ({@link SecurityProperties}), with Spring Security.
 *
 * <p>Without a token every request is let through, as a service listening on 127.0.0.1 only should be
 * (no login, no CSRF tokens). With a token:
 * <ul>
 *   <li>{@code /api/**} and {@code /actuator/**} (but {@code health}) need {@code Authorization: Bearer <token>}
 *       or the session of a browser that signed in; otherwise 401 {@code application/problem+json} with
 *       {@code WWW-Authenticate: Bearer}. A wrong bearer token is a 401 too.</li>
 *   <li>the dashboard's pages send a browser to {@code /login} (one field: the token), which starts a session
 *       (cookie {@code SESSION}) and returns it to the page it asked for; the pages' own fetches and event
 *       streams then ride on that cookie.</li>
 *   <li>CSRF: a state-changing request that carries the session cookie must also carry the CSRF token
 *       ({@code X-CSRF-TOKEN}, which the pages read from their {@code <meta name="_csrf">}); requests with no
 *       session cookie have no ambient credential to forge and are not checked (bearer clients, curl).
 *       A refused token is a 403 problem.</li>
 *   <li>open to anyone: the sign-in page, the dashboard's static files, {@code /actuator/health} (details
 *       only for an authenticated caller: {@code show-details: when-authorized}, application.yml), the OpenAPI document, Swagger
 *       UI and {@code /schemas/**} (they describe the API, not its data).</li>
 * </ul>
 */
@Configuration(proxyBeanMethods = false)
@EnableWebFluxSecurity
@EnableConfigurationProperties(SecurityProperties.class)
public class SecurityConfig {
    /** Session cookie of WebFlux's default session id resolver. */
    static final String SESSION_COOKIE = "SESSION";

    @Bean
    ReactiveAuthenticationManager tokenAuthenticationManager(SecurityProperties props) {
        // also keeps Spring Boot from creating its default user with a generated password
        return props.enabled() ? new TokenAuthenticationManager(props.token())
                : auth -> Mono.error(new IllegalStateException("no token configured"));
    }

    /**
     * Spring Security's firewall, letting through what task names may hold: an encoded {@code %} ({@code %25}),
     * {@code ;} ({@code %3B}; a raw one is refused earlier, by {@code RequestTargetFilter}) and {@code \}
     * ({@code %5C}), and {@code /} ({@code %2F}) for cgroup paths. Encoded periods, NUL and line ends stay refused.
     */
    @Bean
    ServerWebExchangeFirewall firewall() {
        StrictServerWebExchangeFirewall f = new StrictServerWebExchangeFirewall();
        f.setAllowUrlEncodedPercent(true);
        f.setAllowSemicolon(true);
        f.setAllowBackSlash(true);
        // an encoded '/' in a cgroup path ({path} of the OpenAPI document, which clients encode): /web%2Ffrontend
        // is /web/frontend; in any other parameter it makes a name that cannot exist (404)
        f.setAllowUrlEncodedSlash(true);
        // A path is decoded once, into path variables; the firewall's check of the decoded path for encoded
        // sequences (%2F, %2E, …: against a second decoding, which never happens here) would refuse a task
        // literally named "%2F", whose URL carries %252F.
        f.getDecodedUrlBlocklist().removeIf(s -> s.startsWith("%"));
        return f;
    }

    /** A request the firewall refuses: 400 problem+json (Spring Security's own answer has no body). */
    @Bean
    ServerExchangeRejectedHandler rejectedHandler() {
        return (exchange, ex) -> {
            exchange.getResponse().getHeaders().set(HttpHeaders.CONNECTION, "close");
            return ProblemHandler.write(exchange, HttpStatus.BAD_REQUEST, "Rejected request",
                    new FieldProblem("/path", ProblemHandler.firewallReason(exchange), "EINVAL"));
        };
    }

    @Bean
    SecurityWebFilterChain securityWebFilterChain(ServerHttpSecurity http, SecurityProperties props,
                                                  ReactiveAuthenticationManager tokens) {
        if (!props.enabled()) {
            // no sign-in, so no security context to keep: without this every request asked its WebSession for one,
            // and creating a session hops to boundedElastic and back to parallel (InMemoryWebSessionStore)
            return http.securityContextRepository(NoOpServerSecurityContextRepository.getInstance())
                    .requestCache(c -> c.requestCache(NoOpServerRequestCache.getInstance()))
                    .authorizeExchange(a -> a.anyExchange().permitAll())
                    .csrf(ServerHttpSecurity.CsrfSpec::disable)
                    .httpBasic(ServerHttpSecurity.HttpBasicSpec::disable)
                    .formLogin(ServerHttpSecurity.FormLoginSpec::disable)
                    .logout(ServerHttpSecurity.LogoutSpec::disable)
                    .headers(h -> h.cache(ServerHttpSecurity.HeaderSpec.CacheSpec::disable))
                    .build();
        }
        AuthenticationWebFilter bearer = new AuthenticationWebFilter(tokens);
        bearer.setServerAuthenticationConverter(SecurityConfig::bearerToken);
        bearer.setRequiresAuthenticationMatcher(SecurityConfig::hasBearer);
        bearer.setAuthenticationFailureHandler(problemOnFailure());
        RedirectServerLogoutSuccessHandler loggedOut = new RedirectServerLogoutSuccessHandler();
        loggedOut.setLogoutSuccessUrl(URI.create("/login?logout"));
        return http
                .securityContextRepository(new SessionCookieContextRepository())
                .requestCache(c -> c.requestCache(new SessionCookieRequestCache()))
                .addFilterAt(bearer, SecurityWebFiltersOrder.AUTHENTICATION)
                .formLogin(f -> f.loginPage("/login").authenticationManager(tokens)
                        .authenticationFailureHandler(new RedirectServerAuthenticationFailureHandler("/login?error")))
                .logout(l -> l.logoutUrl("/logout").logoutSuccessHandler(loggedOut))
                .httpBasic(ServerHttpSecurity.HttpBasicSpec::disable)
                .csrf(c -> c.requireCsrfProtectionMatcher(SecurityConfig::needsCsrf)
                        .accessDeniedHandler(problemOnDenied()))
                .headers(h -> h.cache(ServerHttpSecurity.HeaderSpec.CacheSpec::disable))
                .exceptionHandling(e -> e.authenticationEntryPoint(entryPoint()).accessDeniedHandler(problemOnDenied()))
                .authorizeExchange(a -> a
                        .pathMatchers("/login", "/ui/**", "/favicon.ico", "/schemas/**", "/v3/api-docs", "/v3/api-docs/**",
                                "/swagger-ui.html", "/swagger-ui/**", "/webjars/**", "/actuator/health",
                                "/actuator/health/**").permitAll()
                        .anyExchange().authenticated())
                .build();
    }

    /**
     * The browser's sign-in lives in its WebSession, as Spring Security keeps it by default; but a request without the
     * session cookie (a bearer client, a first visit) has no session to load, and asking for one creates it, which
     * costs a hop to boundedElastic and back to parallel (InMemoryWebSessionStore) on every such request. So the
     * session is read only when the request carries its cookie; saving (at sign-in) is unchanged.
     */
    static final class SessionCookieContextRepository implements ServerSecurityContextRepository {
        private final WebSessionServerSecurityContextRepository sessions = new WebSessionServerSecurityContextRepository();

        @Override
        public Mono<Void> save(ServerWebExchange exchange, SecurityContext context) {
            return sessions.save(exchange, context);
        }

        @Override
        public Mono<SecurityContext> load(ServerWebExchange exchange) {
            return exchange.getRequest().getCookies().containsKey(SESSION_COOKIE) ? sessions.load(exchange) : Mono.empty();
        }
    }

    /**
     * The page a browser asked for before it was sent to sign in, kept in its session (Spring Security's default);
     * looked for only in a request that carries the session cookie, for the same reason as
     * {@link SessionCookieContextRepository} (the request cache asked every request's session for a saved request).
     */
    static final class SessionCookieRequestCache implements ServerRequestCache {
        private final WebSessionServerRequestCache sessions = new WebSessionServerRequestCache();

        @Override
        public Mono<Void> saveRequest(ServerWebExchange exchange) { return sessions.saveRequest(exchange); }

        @Override
        public Mono<java.net.URI> getRedirectUri(ServerWebExchange exchange) {
            return hasSession(exchange) ? sessions.getRedirectUri(exchange) : Mono.empty();
        }

        @Override
        public Mono<org.springframework.http.server.reactive.ServerHttpRequest> removeMatchingRequest(
                ServerWebExchange exchange) {
            return hasSession(exchange) ? sessions.removeMatchingRequest(exchange) : Mono.empty();
        }

        private static boolean hasSession(ServerWebExchange exchange) {
            return exchange.getRequest().getCookies().containsKey(SESSION_COOKIE);
        }
    }

    /** {@code Authorization: Bearer …} present (whatever its token: a wrong one is a 401, not a redirect). */
    private static Mono<MatchResult> hasBearer(ServerWebExchange exchange) {
        String h = exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
        return h != null && h.regionMatches(true, 0, "Bearer ", 0, 7) ? MatchResult.match() : MatchResult.notMatch();
    }

    private static Mono<org.springframework.security.core.Authentication> bearerToken(ServerWebExchange exchange) {
        String h = exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
        return Mono.just(UsernamePasswordAuthenticationToken.unauthenticated(TokenAuthenticationManager.USER,
                h.substring(7).strip()));
    }

    /**
     * CSRF applies to state-changing requests that carry the session cookie (the one credential a browser
     * sends by itself); not to safe methods and not to requests without a session (bearer clients).
     */
    private static Mono<MatchResult> needsCsrf(ServerWebExchange exchange) {
        HttpMethod m = exchange.getRequest().getMethod();
        boolean safe = m == HttpMethod.GET || m == HttpMethod.HEAD || m == HttpMethod.OPTIONS || m == HttpMethod.TRACE;
        boolean session = exchange.getRequest().getCookies().containsKey(SESSION_COOKIE);
        return !safe && session ? MatchResult.match() : MatchResult.notMatch();
    }

    private static boolean machineClient(ServerWebExchange exchange) {
        String path = exchange.getRequest().getPath().value();
        return path.equals("/api") || path.startsWith("/api/") || path.startsWith("/actuator");
    }

    /** API and actuator: 401 problem; pages: to the sign-in page (which returns to the page afterwards). */
    private static ServerAuthenticationEntryPoint entryPoint() {
        RedirectServerAuthenticationEntryPoint toLogin = new RedirectServerAuthenticationEntryPoint("/login");
        return (exchange, ex) -> machineClient(exchange) ? unauthorized(exchange, "this service needs its token: "
                + "send Authorization: Bearer <token> (cfslab.security.token), or sign in at /login in a browser")
                : toLogin.commence(exchange, ex);
    }

    private static ServerAuthenticationFailureHandler problemOnFailure() {
        return (webFilterExchange, ex) -> unauthorized(webFilterExchange.getExchange(),
                "the bearer token is not this service's token");
    }

    private static Mono<Void> unauthorized(ServerWebExchange exchange, String reason) {
        exchange.getResponse().getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"cfslab\"");
        return ProblemHandler.write(exchange, HttpStatus.UNAUTHORIZED, "Unauthorized",
                new FieldProblem("", reason, "EACCES"));
    }

    private static ServerAccessDeniedHandler problemOnDenied() {
        return (exchange, ex) -> ProblemHandler.write(exchange, HttpStatus.FORBIDDEN, "Forbidden",
                new FieldProblem("", "refused: a write with the session cookie must carry this session's CSRF token"
                        + " (a signed-in page sends it in X-CSRF-TOKEN; <meta name=\"_csrf\">)", "EACCES"));
    }
}
