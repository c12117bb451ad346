package io.cfslab.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.testsupport.TestApps;
import io.cfslab.testsupport.TestDatabase;
import java.util.List;
import java.util.Map;
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
 * {@code If-Match} and {@code If-None-Match} have one syntax and one treatment (breaker 4 F7): every malformed value
 * is 400 {@code EINVAL} at the header's pointer for both headers on every kind of write, and changes nothing; a
 * well-formed list (empty elements too) is evaluated; a tag's detail shows the client's bytes; a GET honours a stale
 * {@code If-Match} with 412 (RFC 9110 13.1.1).
 */
class ConditionalHeaderSyntaxTest {
    private static ConfigurableApplicationContext app;
    private static WebTestClient web;

    private static final String SCENARIO = """
            {"name": "syntax", "duration": "200ms", "machine": {"cpus": 1}, "cgroups": [{"path": "/g"}],
             "tasks": [{"name": "t", "cgroup": "/g", "workload": {"kind": "hog"}}]}""";

    static final List<String> MALFORMED = List.of("5", "W/5", "\"5", "5\"", "garbage", "*, \"1\"", "\"1\", *",
            "W/ \"1\"", "\"a b\"", "\"a\"b\"");


    static final List<ScenarioWrite> WRITES = List.of(
            new ScenarioWrite("file PUT", HttpMethod.PUT, "/cgroups/g/cpu.weight", MediaType.TEXT_PLAIN, "50"),
            new ScenarioWrite("mkdir", HttpMethod.PUT, "/cgroups/new", null, null),
            new ScenarioWrite("task POST", HttpMethod.POST, "/tasks", MediaType.APPLICATION_JSON,
                    "{\"name\": \"v\", \"cgroup\": \"/g\", \"workload\": {\"kind\": \"hog\"}}"),
            new ScenarioWrite("scenario PUT", HttpMethod.PUT, "", MediaType.APPLICATION_JSON, SCENARIO),
            new ScenarioWrite("scenario DELETE", HttpMethod.DELETE, "", null, null));

    @BeforeAll
    static void start() {
        app = TestApps.start(TestDatabase.h2("condsyntax"), "condsyntax", Map.of("cfslab.runs.execute", "false"));
        web = TestApps.client(app);
    }

    @AfterAll
    static void stop() { app.close(); }

    private static String create() { return ApiTestSupport.createScenario(web, SCENARIO); }

    private static EntityExchangeResult<byte[]> send(String id, ScenarioWrite w, String header, String value) {
        return w.send(web, id, header, value);
    }

    private static String etag(String id) { return ScenarioWrite.etag(web, id); }

    @Test
    void aMalformedConditionIs400ForBothHeadersOnEveryWrite() {
        String id = create();
        SoftAssertions soft = new SoftAssertions();
        int checked = 0;
        for (ScenarioWrite w : WRITES) {
            for (String header : List.of("If-Match", "If-None-Match")) {
                for (String value : MALFORMED) {
                    EntityExchangeResult<byte[]> r = send(id, w, header, value);
                    String body = new String(r.getResponseBody());
                    String what = w + " with " + header + ": " + value + " -> " + body;
                    soft.assertThat(r.getStatus().value()).as(what).isEqualTo(400);
                    JsonNode p = ApiTestSupport.JSON.readTree(body);
                    soft.assertThat(p.path("pointer").asString()).as(what).isEqualTo("/headers/" + header);
                    soft.assertThat(p.path("errno").asString()).as(what).isEqualTo("EINVAL");
                    checked++;
                }
            }
        }
        soft.assertAll();
        assertThat(checked).isEqualTo(WRITES.size() * 2 * MALFORMED.size());
        assertThat(etag(id)).as("nothing was performed").isEqualTo("\"1\"");
    }

    @Test
    void wellFormedListsAreEvaluated() {
        String id = create();
        // empty list elements are allowed (RFC 9110 5.6.1): "1", is the list of "1"
        web.put().uri("/api/scenarios/" + id + "/cgroups/a").header("If-Match", "\"1\",").exchange()
                .expectStatus().isCreated().expectHeader().valueEquals("ETag", "\"2\"");
        web.put().uri("/api/scenarios/" + id + "/cgroups/b").header("If-None-Match", ", W/\"1\"").exchange()
                .expectStatus().isCreated().expectHeader().valueEquals("ETag", "\"3\"");
        web.put().uri("/api/scenarios/" + id + "/cgroups/c").header("If-Match", "\"9\", \"2\"").exchange()
                .expectStatus().isEqualTo(412);
        // breaker 8 F6: a list of empty elements only, or an empty field, is a list of no tag (it was 400, while
        // "\"1\"," was a list): If-Match false on every write, If-None-Match true
        for (ScenarioWrite w : WRITES) {
            for (String empty : List.of(",", ", ,", "")) {
                var r = send(id, w, "If-Match", empty);
                assertThat(r.getStatus().value()).as(w + " If-Match '" + empty + "': " + (r.getResponseBody() == null ? ""
                        : new String(r.getResponseBody()))).isEqualTo(412);
            }
        }
        assertThat(etag(id)).isEqualTo("\"3\"");
        web.put().uri("/api/scenarios/" + id + "/cgroups/d").header("If-None-Match", ",").exchange().expectStatus().isCreated();
        web.put().uri("/api/scenarios/" + id + "/cgroups/e").header("If-None-Match", "").exchange().expectStatus().isCreated();
    }

    @Test
    void aTagIsShownAsTheClientWroteIt() {
        String id = create();
        // the UTF-8 bytes of "é" (C3 A9), sent one char per byte as a header value is
        EntityExchangeResult<byte[]> r = send(id, WRITES.get(1), "If-Match", "\"\u00c3\u00a9\"");
        assertThat(r.getStatus().value()).isEqualTo(412);
        assertThat(ApiTestSupport.JSON.readTree(new String(r.getResponseBody())).path("detail").asString())
                .contains("If-Match \"\u00e9\"").doesNotContain("\u00c3");
    }

    @Test
    void aGetWithAStaleIfMatchIs412() {
        String id = create();
        web.put().uri("/api/scenarios/" + id + "/cgroups/a").exchange().expectStatus().isCreated();
        for (String path : List.of("", "/cgroups", "/cgroups/g/cpu.weight", "/tasks", "/tasks/t")) {
            web.get().uri("/api/scenarios/" + id + path).header("If-Match", "\"1\"").exchange()
                    .expectStatus().isEqualTo(412).expectHeader().valueEquals("ETag", "\"2\"");
            web.get().uri("/api/scenarios/" + id + path).header("If-Match", "\"2\"").exchange()
                    .expectStatus().isOk().expectHeader().valueEquals("ETag", "\"2\"");
        }
    }

    /**
     * One syntax rule on every API route (breaker5 F2, F10): each operation of the OpenAPI document, writes and reads,
     * with a malformed {@code If-Match} or {@code If-None-Match} is 400 at the header's pointer, whether or not the
     * route evaluates the header ({@code POST /api/scenarios} with {@code If-Match: zz} used to create a scenario,
     * a run's cancel with {@code If-Match: garbage} to cancel it). Path variables are filled with a stored
     * scenario's parts, so a route that judged the header only after a lookup would be caught too.
     */
    @Test
    void aMalformedConditionIs400OnEveryRoute() {
        String id = create();
        JsonNode paths = ApiTestSupport.JSON.readTree(new String(web.get().uri("/v3/api-docs").exchange()
                .expectStatus().isOk().expectBody().returnResult().getResponseBody())).path("paths");
        SoftAssertions soft = new SoftAssertions();
        int routes = 0;
        java.util.Set<String> methods = new java.util.TreeSet<>();
        for (var path : paths.properties()) {
            if (!path.getKey().startsWith("/api/")) continue;
            String uri = path.getKey().replaceAll("\\{id}", id).replaceAll("\\{path}", "g")
                    .replaceAll("\\{file}", "cpu.weight").replaceAll("\\{name}", "t").replaceAll("\\{index}", "0")
                    .replaceAll("\\{[^}]+}", "x");
            for (var op : path.getValue().properties()) {
                HttpMethod method = HttpMethod.valueOf(op.getKey().toUpperCase(java.util.Locale.ROOT));
                if (method == HttpMethod.OPTIONS || method == HttpMethod.HEAD) continue;
                methods.add(method.name());
                for (String header : List.of("If-Match", "If-None-Match")) {
                    var spec = web.method(method).uri(uri).header(header, "zz");
                    var res = (method == HttpMethod.GET || method == HttpMethod.DELETE ? spec
                            : spec.contentType(MediaType.APPLICATION_JSON).bodyValue("{}")).exchange()
                            .expectBody().returnResult();
                    String what = method + " " + uri + " with " + header + ": zz -> " + new String(res.getResponseBody());
                    soft.assertThat(res.getStatus().value()).as(what).isEqualTo(400);
                    soft.assertThat(new String(res.getResponseBody())).as(what).contains("/headers/" + header);
                }
                routes++;
            }
        }
        soft.assertAll();
        assertThat(methods).as("writes and reads enumerated").contains("GET", "POST", "PUT", "DELETE");
        assertThat(routes).as("routes enumerated").isGreaterThan(20);
        assertThat(etag(id)).as("nothing was performed").isEqualTo("\"1\"");
        assertThat(ApiTestSupport.JSON.readTree(new String(web.get().uri("/api/scenarios").exchange()
                .expectBody().returnResult().getResponseBody())).findValuesAsString("name")).doesNotContain("{}");
    }
}
