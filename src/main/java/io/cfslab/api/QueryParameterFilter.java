package io.cfslab.api;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodParameter;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.PathContainer;
import org.springframework.stereotype.Component;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.result.method.RequestMappingInfo;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.util.pattern.PathPattern;
import reactor.core.publisher.Mono;

/**
 * One query-parameter rule for every API operation, whatever its method (breaker5 F9: {@code POST /api/runs?bogus=1}
 * ran, {@code POST /api/scenarios?id_prefix=zz} stored a scenario, where {@code GET} refused them): a parameter the
 * operation does not declare ({@code @RequestParam}) is 400 {@code EINVAL} at {@code /<name>} listing the ones it
 * takes, and a declared single-valued one given twice is 400 naming it ({@link ListParameters#check}). The declared
 * parameters are read from the operations themselves, so a new route is covered with no change here; an operation
 * that takes every parameter (a {@code Map} of them) is left alone. Judged before the resource is looked up or the
 * body read: a parameter is part of the request's syntax ("Order of checks").
 */
@Component
@Order(-45) // after ResourceMethods (-49), which answers 405/OPTIONS, and before ConditionalSyntaxFilter (-40)
public class QueryParameterFilter implements WebFilter {
    private final ObjectProvider<RequestMappingHandlerMapping> mappings;

    /** An operation's patterns and methods (empty: every method) with the query parameters it declares. */
    private record Route(PathPattern pattern, Set<HttpMethod> methods, Set<String> parameters, boolean takesAny) {}

    /** Read once: the mappings do not change after start-up. */
    private volatile List<Route> routes;

    public QueryParameterFilter(@Qualifier("requestMappingHandlerMapping") ObjectProvider<RequestMappingHandlerMapping> mappings) {
        this.mappings = mappings;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        var request = exchange.getRequest();
        // the raw query, not the parsed parameters: "?=" parses to none, and was dropped silently (breaker 7 N8)
        String rawQuery = request.getURI().getRawQuery();
        if (rawQuery == null || rawQuery.isEmpty()) return chain.filter(exchange);
        if (!request.getPath().value().startsWith("/api/")) return pageQuery(exchange, chain, rawQuery);
        HttpMethod method = request.getMethod() == HttpMethod.HEAD ? HttpMethod.GET : request.getMethod();
        PathContainer path = request.getPath().pathWithinApplication();
        Set<String> known = new HashSet<>();
        boolean matched = false;
        // OPTIONS of any resource takes no parameter: it is answered for the resource (ResourceMethods), and its
        // query was not checked at all (breaker 8 F9: OPTIONS …?%00 and …?a were 200 where every other method is 400)
        boolean options = method == HttpMethod.OPTIONS;
        for (Route r : routes()) {
            if (options && r.pattern().matches(path)) {
                matched = true;
                continue;
            }
            if ((r.methods().isEmpty() || r.methods().contains(method)) && r.pattern().matches(path)) {
                if (r.takesAny()) return chain.filter(exchange);
                known.addAll(r.parameters());
                matched = true;
            }
        }
        if (!matched) return chain.filter(exchange); // no such operation: 404 or 405, answered elsewhere
        try {
            ListParameters.check(request, known);
        } catch (ApiException e) {
            return ProblemHandler.write(exchange, e.status(), e.title(), e.problems().get(0));
        }
        return chain.filter(exchange);
    }

    /**
     * A page's query (breaker 8 F8, breaker 7: {@code /?%00} and {@code /?=} were 200, {@code /compare?…&%00} 400): the
     * request's syntax is judged as the API's, a parameter with no name or a control character (Unicode Cc) in a name
     * or value is 400 (a tab aside, trimmed around an id); a parameter the page does not read is left alone, as a link may carry one (a page is opened
     * from a browser, a mail or a chat; refusing {@code ?utm_source=…} would only break the link).
     */
    private Mono<Void> pageQuery(ServerWebExchange exchange, WebFilterChain chain, String rawQuery) {
        PathContainer path = exchange.getRequest().getPath().pathWithinApplication();
        boolean page = false;
        for (Route r : routes()) page |= !r.pattern().getPatternString().startsWith("/api") && r.pattern().matches(path);
        if (!page) return chain.filter(exchange);
        for (String element : rawQuery.split("&", -1)) {
            if (element.isEmpty()) continue;
            String reason = element.startsWith("=") ? "a query parameter with no name" : null;
            String decoded;
            try {
                decoded = java.net.URLDecoder.decode(element, java.nio.charset.StandardCharsets.UTF_8);
            } catch (IllegalArgumentException badEscape) {
                decoded = element; // RequestTargetFilter answers a malformed escape
            }
            for (int i = 0; reason == null && i < decoded.length(); i++) {
                // a tab aside: ASCII spaces and tabs around an id are a paste's (the compare page's a and b)
                if (decoded.charAt(i) != '\t' && io.cfslab.scenario.ScenarioText.isControl(decoded.charAt(i))) {
                    reason = "a query parameter holds a control character (" + String.format("U+%04X", (int) decoded.charAt(i)) + ")";
                }
            }
            if (reason != null) return refusedPage(exchange, reason);
        }
        return chain.filter(exchange);
    }

    /**
     * A page's 400, as the error page words it (a filter's error never reaches the page's own error view, and Spring
     * Boot's page would say only "Bad Request"): the path escaped, the reason the service's own words.
     */
    private static Mono<Void> refusedPage(ServerWebExchange exchange, String reason) {
        var response = exchange.getResponse();
        response.setStatusCode(org.springframework.http.HttpStatus.BAD_REQUEST);
        response.getHeaders().setContentType(org.springframework.http.MediaType.parseMediaType("text/html;charset=UTF-8"));
        String path = org.springframework.web.util.HtmlUtils.htmlEscape(exchange.getRequest().getPath().value());
        String html = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>400 Bad Request · CFS Bandwidth Lab</title>"
                + "<link rel=\"stylesheet\" href=\"/ui/app.css\"></head>\n<body><main><h1>400 Bad Request</h1>"
                + "<p id=\"error-text\">The server could not answer <code>" + path + "</code>: " + reason + ".</p>"
                + "<p><a href=\"/\">Home</a></p></main></body></html>\n";
        byte[] bytes = html.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return response.writeWith(Mono.just(response.bufferFactory().wrap(bytes)));
    }

    private List<Route> routes() {
        List<Route> r = routes;
        if (r == null) {
            List<Route> all = new ArrayList<>();
            for (Map.Entry<RequestMappingInfo, HandlerMethod> e : mappings.getObject().getHandlerMethods().entrySet()) {
                Set<HttpMethod> methods = new HashSet<>();
                e.getKey().getMethodsCondition().getMethods().forEach(m -> methods.add(m.asHttpMethod()));
                Set<String> parameters = new HashSet<>();
                boolean any = false;
                for (MethodParameter p : e.getValue().getMethodParameters()) {
                    RequestParam rp = p.getParameterAnnotation(RequestParam.class);
                    if (rp == null) continue;
                    if (Map.class.isAssignableFrom(p.getParameterType())) {
                        any = true;
                        continue;
                    }
                    p.initParameterNameDiscovery(new DefaultParameterNameDiscoverer());
                    parameters.add(rp.name().isEmpty() ? p.getParameterName() : rp.name());
                }
                for (PathPattern p : e.getKey().getPatternsCondition().getPatterns()) {
                    all.add(new Route(p, Set.copyOf(methods), Set.copyOf(parameters), any));
                }
            }
            routes = r = List.copyOf(all);
        }
        return r;
    }
}
