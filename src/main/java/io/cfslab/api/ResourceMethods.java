package io.cfslab.api;

import io.cfslab.store.ExperimentRepository;
import io.cfslab.store.Jdbc;
import io.cfslab.store.ReadyMadeExperiments;
import io.cfslab.store.RunRepository;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.PathContainer;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.result.method.RequestMappingInfo;
import org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.util.pattern.PathPattern;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ArrayNode;

/**
 * What each resource under {@code /api} answers, from the operations themselves (the controllers' mappings), so that
 * every answer says the same (RFC 9110 §9.3.7, §15.5.6):
 * <ul>
 *   <li>{@code Allow}, on every 405 and every OPTIONS answer, lists exactly the methods the resource answers:
 *       those its mappings declare, HEAD wherever GET is (Spring answers HEAD with GET's handler), OPTIONS; a cgroup
 *       file is not removable, so its DELETE is left out ({@link CgroupController#allowOf}). Spring's own 405 listed
 *       the mappings of the route without HEAD, and a file's DELETE.</li>
 *   <li>a method the resource does not answer (405) and OPTIONS look the resource up first, as GET does: a missing
 *       scenario, run or experiment, or a missing group, file, task or timeline entry within a scenario, is 404
 *       {@code ENOENT} ("Order of checks": the resource before anything about it).</li>
 * </ul>
 */
@Component
@Order(-49) // after Spring Security (-100) and RequestEdgeFilter (-50): nobody unauthenticated learns whether an id exists
public class ResourceMethods implements WebFilter {
    /** The order methods are listed in. */
    private static final List<HttpMethod> ORDER = List.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.POST, HttpMethod.PUT,
            HttpMethod.DELETE, HttpMethod.OPTIONS);

    private final ObjectProvider<RequestMappingHandlerMapping> mappings;
    private final Jdbc jdbc;
    private final ScenarioService scenarios;
    private final ObjectProvider<CgroupController> cgroups;
    private final RunRepository runs;
    private final ExperimentRepository experiments;
    private final ReadyMadeExperiments readyMade;

    public ResourceMethods(@Qualifier("requestMappingHandlerMapping") ObjectProvider<RequestMappingHandlerMapping> mappings,
                           Jdbc jdbc, ScenarioService scenarios, ObjectProvider<CgroupController> cgroups, RunRepository runs,
                           ExperimentRepository experiments, ReadyMadeExperiments readyMade) {
        this.mappings = mappings;
        this.jdbc = jdbc;
        this.scenarios = scenarios;
        this.cgroups = cgroups;
        this.runs = runs;
        this.experiments = experiments;
        this.readyMade = readyMade;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        var request = exchange.getRequest();
        if (!request.getPath().value().startsWith("/api/")) return chain.filter(exchange);
        PathContainer path = request.getPath().pathWithinApplication();
        Map<PathPattern, Set<HttpMethod>> matching = matching(path);
        if (matching.isEmpty()) return chain.filter(exchange); // no such route: 404 (ProblemHandler)
        Set<HttpMethod> allowed = allowed(matching, path);
        exchange.getAttributes().put(ALLOWED, allowed); // a 405's detail names these, as its Allow does (breaker 6 F11)
        exchange.getResponse().beforeCommit(() -> {
            var status = exchange.getResponse().getStatusCode();
            if (status != null && (status.value() == 405 || (request.getMethod() == HttpMethod.OPTIONS && status.is2xxSuccessful()))) {
                exchange.getResponse().getHeaders().set(HttpHeaders.ALLOW, format(allowed));
            }
            return Mono.empty();
        });
        PathPattern best = mostSpecific(matching.keySet());
        if (literal(best) && request.getMethod() != HttpMethod.OPTIONS && !allowed.contains(request.getMethod())) {
            // a method only a variable's pattern declares (DELETE /api/experiments/{id}) on a literal path that shadows
            // it (/api/experiments/ready-made): 405, as Allow says (breaker 7 N10: a 404 "experiment ready-made")
            return ProblemHandler.write(exchange, ProblemHandler.statusProblem(
                    new org.springframework.web.server.MethodNotAllowedException(request.getMethod(), allowed), exchange));
        }
        boolean declared = matching.values().stream().anyMatch(m -> m.contains(request.getMethod()))
                || (request.getMethod() == HttpMethod.HEAD && allowed.contains(HttpMethod.GET));
        if (declared && request.getMethod() != HttpMethod.OPTIONS) return chain.filter(exchange);
        var vars = best.matchAndExtract(path);
        Map<String, String> v = vars == null ? Map.of() : vars.getUriVariables();
        return jdbc.call(() -> {
            lookUp(best.getPatternString(), v);
            return Boolean.TRUE;
        }).then(chain.filter(exchange)).onErrorResume(ApiException.class, e -> ProblemHandler.afterBody(exchange,
                Mono.defer(() -> ProblemHandler.write(exchange, ProblemHandler.problem(e.status(), e.title(), e.problems(),
                        exchange))))); // filters' errors skip ProblemHandler's advice
    }

    /** Every mapping's patterns with the methods it declares, read once: the mappings do not change after start-up. */
    private volatile List<Map.Entry<PathPattern, Set<HttpMethod>>> routes;

    private List<Map.Entry<PathPattern, Set<HttpMethod>>> routes() {
        List<Map.Entry<PathPattern, Set<HttpMethod>>> r = routes;
        if (r == null) {
            List<Map.Entry<PathPattern, Set<HttpMethod>>> all = new java.util.ArrayList<>();
            for (RequestMappingInfo info : mappings.getObject().getHandlerMethods().keySet()) {
                Set<HttpMethod> m = new java.util.HashSet<>();
                info.getMethodsCondition().getMethods().forEach(rm -> m.add(rm.asHttpMethod()));
                for (PathPattern p : info.getPatternsCondition().getPatterns()) all.add(Map.entry(p, Set.copyOf(m)));
            }
            routes = r = List.copyOf(all);
        }
        return r;
    }

    /** The mappings whose patterns match {@code path}, with the methods each declares. */
    private Map<PathPattern, Set<HttpMethod>> matching(PathContainer path) {
        Map<PathPattern, Set<HttpMethod>> out = new java.util.LinkedHashMap<>();
        for (var route : routes()) {
            if (route.getKey().matches(path)) out.computeIfAbsent(route.getKey(), k -> new java.util.HashSet<>()).addAll(route.getValue());
        }
        return out;
    }

    /** Whether {@code p} is a path without variables, which shadows every pattern with a variable that also matches. */
    private static boolean literal(PathPattern p) { return p.getPatternString().indexOf('{') < 0; }

    /**
     * What the resource answers: the declared methods, HEAD with GET, OPTIONS; a cgroup file's DELETE left out; on a
     * literal path only its own mapping's (breaker 7 N10: {@code /api/experiments/ready-made} listed the DELETE of
     * {@code /api/experiments/{id}}, which answered 404 for the id "ready-made").
     */
    private static Set<HttpMethod> allowed(Map<PathPattern, Set<HttpMethod>> matching, PathContainer path) {
        Set<HttpMethod> out = new java.util.HashSet<>();
        PathPattern best = mostSpecific(matching.keySet());
        if (literal(best)) out.addAll(matching.get(best));
        else matching.values().forEach(out::addAll);
        if (out.contains(HttpMethod.GET)) out.add(HttpMethod.HEAD);
        out.add(HttpMethod.OPTIONS);
        if (best.getPatternString().endsWith("/cgroups/{*path}")) {
            var vars = best.matchAndExtract(path);
            String p = vars == null ? "" : vars.getUriVariables().getOrDefault("path", "");
            if (CgroupController.allowOf(p).equals(CgroupController.FILE_ALLOW)) out.remove(HttpMethod.DELETE);
        }
        return out;
    }

    /** The exchange attribute holding the methods the resource answers ({@code Set<HttpMethod>}), as {@code Allow} lists them. */
    static final String ALLOWED = ResourceMethods.class.getName() + ".allowed";

    static String format(Set<HttpMethod> methods) {
        return ORDER.stream().filter(methods::contains).map(HttpMethod::name).collect(Collectors.joining(","));
    }

    private static PathPattern mostSpecific(Set<PathPattern> patterns) {
        return patterns.stream().sorted(PathPattern.SPECIFICITY_COMPARATOR).findFirst().orElseThrow();
    }

    /**
     * Looks up what the pattern's variables name, as the operations' GET does (blocking).
     * @throws ApiException 404 {@code ENOENT}, or 400 for a timeline index that is not plain decimal
     */
    private void lookUp(String pattern, Map<String, String> v) {
        String id = v.get("id");
        String index = v.get("index");
        if (index != null && DecimalParameters.outOfRange(index, int.class)) {
            throw ApiException.of(HttpStatus.BAD_REQUEST, ProblemHandler.titleOf("ERANGE"), "/index",
                    "path segment index '" + index + "' is out of range (" + DecimalParameters.range(int.class) + ")", "ERANGE");
        }
        if (index != null && (!DecimalParameters.DECIMAL.matcher(index).matches() || index.equals("-0") || index.length() > 11)) {
            // a path segment of the wrong type is a syntax error: before the resource (docs/api.md, "Order of checks")
            throw ApiException.of(HttpStatus.BAD_REQUEST, "Invalid parameter", "/index",
                    "path segment index '" + index + "' is not an integer", "EINVAL");
        }
        if (pattern.startsWith("/api/scenarios/{id}")) {
            if (pattern.endsWith("/cgroups/{*path}")) {
                cgroups.getObject().locate(id, v.getOrDefault("path", ""));
                return;
            }
            var entry = scenarios.get(id);
            if (pattern.endsWith("/tasks/{name}")) {
                var doc = ScenarioDocs.readObject(entry.document(), "");
                boolean found = false;
                if (doc.get("tasks") instanceof ArrayNode ts) {
                    for (var t : ts) found |= v.get("name").equals(t.path("name").asString(""));
                }
                if (!found) throw ApiException.notFound("task " + v.get("name"), "/name");
            } else if (pattern.endsWith("/timeline/{index}")) {
                var doc = ScenarioDocs.readObject(entry.document(), "");
                long i = Long.parseLong(index);
                int size = doc.get("timeline") instanceof ArrayNode tl ? tl.size() : 0;
                if (i < 0 || i >= size) throw ApiException.notFound("timeline entry " + index, "/index");
            }
        } else if (pattern.startsWith("/api/runs/{id}")) {
            if (runs.findStatus(id).isEmpty()) throw ApiException.notFound("run " + id, "/id");
        } else if (pattern.startsWith("/api/experiments/ready-made/{id}")) {
            if (readyMade.find(id).isEmpty()) throw ApiException.notFound("ready-made experiment " + id, "/id");
        } else if (pattern.startsWith("/api/experiments/{id}")) {
            if (experiments.find(id).isEmpty()) throw ApiException.notFound("experiment " + id, "/id");
        }
    }
}
