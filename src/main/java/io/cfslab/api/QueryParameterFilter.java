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
        if (!request.getPath().value().startsWith("/api/") || rawQuery == null || rawQuery.isEmpty()) return chain.filter(exchange);
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
