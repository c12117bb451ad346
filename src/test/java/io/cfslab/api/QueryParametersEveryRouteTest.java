package io.cfslab.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.testsupport.TestApps;
import io.cfslab.testsupport.TestDatabase;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * One query-parameter rule on every operation, whatever its method (breaker5 F9: {@code POST /api/runs?bogus=1} ran a
 * run and {@code POST /api/scenarios?id_prefix=zz} stored a scenario, where {@code GET} refused them): each operation
 * of the OpenAPI document, with a parameter it does not declare, is 400 {@code EINVAL} at {@code /<name>} and performs
 * nothing; each declared parameter given twice is 400 naming it. Walking the document covers a route added later.
 */
class QueryParametersEveryRouteTest {
    private static ConfigurableApplicationContext app;
    private static WebTestClient web;

    @BeforeAll
    static void start() {
        app = TestApps.start(TestDatabase.h2("queryparams"), "queryparams", Map.of("cfslab.runs.execute", "false"));
        web = TestApps.client(app);
    }

    @AfterAll
    static void stop() { app.close(); }

    private static JsonNode paths() {
        return ApiTestSupport.JSON.readTree(new String(web.get().uri("/v3/api-docs").exchange()
                .expectStatus().isOk().expectBody().returnResult().getResponseBody())).path("paths");
    }

    /** One documented operation with its path filled in. */
    private record Op(HttpMethod method, String uri, JsonNode node) {}

    /** Every operation of the OpenAPI document under /api but HEAD and OPTIONS, its variables naming {@code scenario}'s parts. */
    private static java.util.List<Op> operations(String scenario) {
        java.util.List<Op> out = new java.util.ArrayList<>();
        for (var path : paths().properties()) {
            if (!path.getKey().startsWith("/api/")) continue;
            for (var op : path.getValue().properties()) {
                HttpMethod method = HttpMethod.valueOf(op.getKey().toUpperCase(Locale.ROOT));
                if (method != HttpMethod.OPTIONS && method != HttpMethod.HEAD) out.add(new Op(method, uriOf(path.getKey(), scenario), op.getValue()));
            }
        }
        return out;
    }

    private static EntityExchangeResult<byte[]> send(HttpMethod method, String uri, String body) {
        var spec = web.method(method).uri(uri);
        return (method == HttpMethod.GET || method == HttpMethod.DELETE ? spec
                : spec.contentType(MediaType.APPLICATION_JSON).bodyValue(body)).exchange().expectBody().returnResult();
    }

    private static String uriOf(String template, String scenario) {
        return template.replaceAll("\\{id}", scenario).replaceAll("\\{path}", "a").replaceAll("\\{file}", "cpu.weight")
                .replaceAll("\\{name}", "nop").replaceAll("\\{index}", "0").replaceAll("\\{[^}]+}", "x");
    }

    private static int count(String list) {
        return ApiTestSupport.json(web.get().uri(list).exchange().expectStatus().isOk()).size();
    }

    @Test
    void everyOperationRefusesAParameterItDoesNotDeclare() {
        String scenario = ApiTestSupport.createScenario(web, ApiTestSupport.tiny("params"));
        String etag = ScenarioWrite.etag(web, scenario);
        int scenarios = count("/api/scenarios"), runs = count("/api/runs"), experiments = count("/api/experiments");
        // a body that would be taken (a run of the stored scenario) where one is needed: only the parameter is wrong
        String body = "{\"scenarioId\": \"" + scenario + "\"}";
        SoftAssertions soft = new SoftAssertions();
        Set<String> methods = new TreeSet<>();
        int routes = 0;
        for (Op op : operations(scenario)) {
            HttpMethod method = op.method();
            String uri = op.uri();
            methods.add(method.name());
            for (String bad : new String[] {"bogus", "id_prefx", "Repeat"}) {
                var r = send(method, uri + "?" + bad + "=1", body);
                String text = new String(r.getResponseBody());
                String what = method + " " + uri + "?" + bad + "=1 -> " + text;
                soft.assertThat(r.getStatus().value()).as(what).isEqualTo(400);
                JsonNode p = ApiTestSupport.JSON.readTree(text);
                soft.assertThat(p.path("pointer").asString()).as(what).isEqualTo("/" + bad);
                soft.assertThat(p.path("errno").asString()).as(what).isEqualTo("EINVAL");
                soft.assertThat(p.path("detail").asString()).as(what)
                        .contains("unknown query parameter \"" + bad + "\"").contains(method.name() + " ");
            }
            routes++;
        }
        soft.assertAll();
        assertThat(methods).as("writes and reads enumerated").contains("GET", "POST", "PUT", "DELETE");
        assertThat(routes).as("routes enumerated").isGreaterThan(20);
        // nothing was performed: no scenario stored or changed, no run or experiment submitted
        assertThat(count("/api/scenarios")).isEqualTo(scenarios);
        assertThat(count("/api/runs")).isEqualTo(runs);
        assertThat(count("/api/experiments")).isEqualTo(experiments);
        assertThat(ScenarioWrite.etag(web, scenario)).isEqualTo(etag);
    }

    @Test
    void aDeclaredParameterOnAnotherMethodIsUnknownThere() {
        // GET /api/scenarios takes id_prefix; POST does not (it stored the scenario)
        JsonNode p = ApiTestSupport.problem(web.post().uri("/api/scenarios?id_prefix=zz").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(ApiTestSupport.tiny("posted")).exchange(), org.springframework.http.HttpStatus.BAD_REQUEST,
                "/id_prefix", "EINVAL");
        assertThat(p.path("detail").asString()).contains("POST /api/scenarios takes no parameter");
        assertThat(ApiTestSupport.json(web.get().uri("/api/scenarios").exchange().expectStatus().isOk())
                .findValuesAsString("name")).doesNotContain("posted");
    }

    @Test
    void everyDeclaredParameterGivenTwiceIsRefused() {
        String scenario = ApiTestSupport.createScenario(web, ApiTestSupport.tiny("twice"));
        SoftAssertions soft = new SoftAssertions();
        int checked = 0;
        for (Op op : operations(scenario)) {
            HttpMethod method = op.method();
            String uri = op.uri();
            for (JsonNode param : op.node().path("parameters")) {
                if (!param.path("in").asString().equals("query")) continue;
                String name = param.path("name").asString();
                var r = send(method, uri + "?" + name + "=1&" + name + "=1", "{}");
                String text = new String(r.getResponseBody());
                String what = method + " " + uri + "?" + name + " twice -> " + text;
                soft.assertThat(r.getStatus().value()).as(what).isEqualTo(400);
                soft.assertThat(ApiTestSupport.JSON.readTree(text).path("detail").asString()).as(what)
                        .contains(name + " given 2 times");
                checked++;
            }
        }
        soft.assertAll();
        assertThat(checked).as("declared parameters enumerated (status, standalone, id_prefix, repeat, format, ...)")
                .isGreaterThan(6);
    }

    /**
     * Breaker 6 F7: a declared parameter given with an empty value or with none ({@code ?repeat=}, {@code ?repeat}) is
     * one bad value on every operation, 400 {@code EINVAL} at {@code /<name>} (it was the default 0, the default, or
     * 400, by parameter); a parameter with no name ({@code ?=1}) is 400 saying so (it was named as the parameter "1").
     */
    @Test
    void aParameterWithoutAValueOrANameIsOneBadValueEverywhere() {
        String scenario = ApiTestSupport.createScenario(web, ApiTestSupport.tiny("empty values"));
        SoftAssertions soft = new SoftAssertions();
        int checked = 0;
        for (Op op : operations(scenario)) {
            for (JsonNode param : op.node().path("parameters")) {
                if (!param.path("in").asString().equals("query")) continue;
                String name = param.path("name").asString();
                for (String given : new String[] {name + "=", name}) {
                    var r = send(op.method(), op.uri() + "?" + given, "{}");
                    String text = new String(r.getResponseBody());
                    String what = op.method() + " " + op.uri() + "?" + given + " -> " + text;
                    soft.assertThat(r.getStatus().value()).as(what).isEqualTo(400);
                    JsonNode p = ApiTestSupport.JSON.readTree(text);
                    soft.assertThat(p.path("pointer").asString()).as(what).isEqualTo("/" + name);
                    soft.assertThat(p.path("errno").asString()).as(what).isEqualTo("EINVAL");
                    soft.assertThat(p.path("detail").asString()).as(what).contains("parameter " + name + " has no value");
                    checked++;
                }
            }
            // sent as written: a URI template reads "?=1" as the parameter "1"
            String base = "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");
            // "?=" has no name and no value, but an "=": refused as "?=1" is (breaker 7 N8: dropped silently)
            for (String query : java.util.List.of("?=1", "?=", "?=&=")) {
                var spec = web.method(op.method()).uri(java.net.URI.create(base + op.uri() + query));
                var r = (op.method() == HttpMethod.GET || op.method() == HttpMethod.DELETE ? spec
                        : spec.contentType(MediaType.APPLICATION_JSON).bodyValue("{}")).exchange().expectBody().returnResult();
                String text = new String(r.getResponseBody());
                String what = op.method() + " " + op.uri() + query + " -> " + text;
                soft.assertThat(r.getStatus().value()).as(what).isEqualTo(400);
                soft.assertThat(ApiTestSupport.JSON.readTree(text).path("detail").asString()).as(what)
                        .startsWith(query.equals("?=1") ? "a query parameter with no name (its value is \"1\")" : "a query parameter with no name:");
            }
        }
        soft.assertAll();
        assertThat(checked).as("declared parameters enumerated").isGreaterThan(12);
    }

    /**
     * Breaker 8 F9: OPTIONS takes no query parameter, on every path of the document, and its query is checked as every
     * other method's is (a NUL, a parameter without a value, a nameless one, an unknown one: 400), before the
     * resource is looked up; without a query it answers 200 with Allow.
     */
    @Test
    void optionsChecksItsQueryOnEveryPath() {
        String scenario = ApiTestSupport.createScenario(web, ApiTestSupport.tiny("options query"));
        String base = "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");
        SoftAssertions soft = new SoftAssertions();
        Set<String> uris = new TreeSet<>();
        for (var path : paths().properties()) if (path.getKey().startsWith("/api/")) uris.add(uriOf(path.getKey(), scenario));
        for (String uri : uris) {
            var plain = web.options().uri(java.net.URI.create(base + uri)).exchange().expectBody().returnResult();
            if (plain.getStatus().value() != 200) continue; // a part that does not exist (task nop): 404 either way
            soft.assertThat(plain.getResponseHeaders().getFirst("Allow")).as("OPTIONS " + uri).contains("OPTIONS");
            for (String query : java.util.List.of("?bogus=1", "?a", "?=", "?%00", "?repeat=1")) {
                var r = web.options().uri(java.net.URI.create(base + uri + query)).exchange().expectBody().returnResult();
                String text = r.getResponseBody() == null ? "" : new String(r.getResponseBody());
                soft.assertThat(r.getStatus().value()).as("OPTIONS " + uri + query + " -> " + text).isEqualTo(400);
            }
        }
        soft.assertAll();
        assertThat(uris).as("paths enumerated").hasSizeGreaterThan(20);
    }
}
