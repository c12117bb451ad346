package io.cfslab.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.testsupport.TestApps;
import io.cfslab.testsupport.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
 * {@code If-Match} and {@code If-None-Match} mean one thing on every operation of the OpenAPI document (RFC 9110 13),
 * whether the resource answers an {@code ETag} or not (breaker 6 F4, F6, F8):
 * <ul>
 *   <li>a {@code GET} that answers 200 answers 412 to {@code If-Match} with a tag that cannot match (a run's
 *       {@code /result}, an experiment's {@code /table}, which have no tag, answered 200), 200 to {@code If-Match: *},
 *       and 304 to {@code If-None-Match: *} (an existing representation);</li>
 *   <li>a {@code GET} that answers 404 answers 404 with either header (a missing task with a stale {@code If-Match}
 *       was 412);</li>
 *   <li>a {@code POST}, {@code PUT} or {@code DELETE} with {@code If-Match} naming a tag that cannot match performs
 *       nothing: a {@code POST} that creates in a collection (which has no tag) is 412 (it created).</li>
 * </ul>
 * Walking the document covers a route added later.
 */
class ConditionalEveryOperationTest {
    private static ConfigurableApplicationContext app;
    private static WebTestClient web;
    private static final String NO_SUCH_TAG = "\"no-such-tag\"";

    @BeforeAll
    static void start() {
        app = TestApps.start(TestDatabase.h2("conditionalops"), "conditionalops", Map.of());
        web = TestApps.client(app);
    }

    @AfterAll
    static void stop() { app.close(); }

    /** One documented operation; {@code json}: its request body may be JSON. */
    private record Op(HttpMethod method, String template, String uri, boolean json) {}

    /** Every operation under /api but HEAD and OPTIONS, its variables naming stored, finished things. */
    private static List<Op> operations(String scenario, String run, String experiment) {
        JsonNode paths = ApiTestSupport.JSON.readTree(new String(web.get().uri("/v3/api-docs").exchange()
                .expectStatus().isOk().expectBody().returnResult().getResponseBody())).path("paths");
        List<Op> out = new ArrayList<>();
        for (var path : paths.properties()) {
            String t = path.getKey();
            if (!t.startsWith("/api/")) continue;
            String id = t.startsWith("/api/runs/") ? run : t.startsWith("/api/experiments/ready-made/") ? "seed00-netperf"
                    : t.startsWith("/api/experiments/") ? experiment : scenario;
            String uri = t.replace("{id}", id).replace("{path}", "a").replace("{file}", "cpu.max").replace("{name}", "nop")
                    .replace("{index}", "0").replaceAll("\\{[^}]+}", "x");
            for (var op : path.getValue().properties()) {
                HttpMethod method = HttpMethod.valueOf(op.getKey().toUpperCase(Locale.ROOT));
                if (method != HttpMethod.OPTIONS && method != HttpMethod.HEAD) {
                    out.add(new Op(method, t, uri, op.getValue().path("requestBody").path("content").has("application/json")));
                }
            }
        }
        return out;
    }

    private static EntityExchangeResult<byte[]> send(HttpMethod method, String uri, String header, String value, String body) {
        var spec = web.method(method).uri(uri);
        if (header != null) spec = spec.header(header, value);
        return (body == null ? spec : spec.contentType(MediaType.APPLICATION_JSON).bodyValue(body)).exchange()
                .expectBody().returnResult();
    }

    /** {@code GET uri} with these headers. */
    private static EntityExchangeResult<byte[]> get(String uri, String... headers) {
        var spec = web.get().uri(uri);
        for (int i = 0; i < headers.length; i += 2) spec = spec.header(headers[i], headers[i + 1]);
        return spec.exchange().expectBody().returnResult();
    }

    /** Valid JSON that is not an object: the body's content, refused (422) only after a false condition (412). */
    private static final List<String> NOT_OBJECTS = List.of("[1]", "null", "1", "\"x\"", "true", "{\"name\": 1e400}");

    private static String text(EntityExchangeResult<byte[]> r) {
        return r.getResponseBody() == null ? "" : new String(r.getResponseBody());
    }

    private static int count(String list) {
        return ApiTestSupport.json(web.get().uri(list).exchange().expectStatus().isOk()).size();
    }

    @Test
    void everyOperationHonoursTheConditionalHeaders() throws InterruptedException {
        String scenario = ApiTestSupport.createScenario(web, ApiTestSupport.tiny("conditional"));
        String run = ApiTestSupport.submitRun(web, Map.of("scenarioId", scenario));
        ApiTestSupport.awaitStatus(web, run, "done", Duration.ofSeconds(60));
        String experiment = ApiTestSupport.json(web.post().uri("/api/experiments").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"name\": \"x\", \"repeats\": 1, \"scenario_id\": \"" + scenario + "\", \"arms\": [{\"name\": \"a\"}]}")
                .exchange().expectStatus().isAccepted()).path("id").asString();
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!ApiTestSupport.json(web.get().uri("/api/experiments/" + experiment).exchange()).path("status").asString().equals("done")) {
            assertThat(System.nanoTime()).as("experiment done").isLessThan(end);
            Thread.sleep(50);
        }
        String etag = ScenarioWrite.etag(web, scenario);
        int scenarios = count("/api/scenarios"), runs = count("/api/runs"), experiments = count("/api/experiments");
        String runBody = "{\"scenarioId\": \"" + scenario + "\"}";
        Map<String, String> creates = Map.of("/api/scenarios", ApiTestSupport.tiny("created anyway"), "/api/runs", runBody,
                "/api/experiments", "{\"name\": \"x\", \"repeats\": 1, \"scenario_id\": \"" + scenario
                        + "\", \"arms\": [{\"name\": \"a\"}]}");
        SoftAssertions soft = new SoftAssertions();
        Set<String> ok = new TreeSet<>();
        int missing = 0, writes = 0, jsonWrites = 0, tagged = 0;
        for (Op op : operations(scenario, run, experiment)) {
            if (op.method() == HttpMethod.GET) {
                var plain = send(HttpMethod.GET, op.uri(), null, null, null);
                int status = plain.getStatus().value();
                String what = "GET " + op.uri() + " (" + status + " without a condition)";
                var stale = send(HttpMethod.GET, op.uri(), "If-Match", NO_SUCH_TAG, null);
                var any = send(HttpMethod.GET, op.uri(), "If-Match", "*", null);
                var none = send(HttpMethod.GET, op.uri(), "If-None-Match", "*", null);
                if (status == 200) {
                    ok.add(op.template());
                    soft.assertThat(stale.getStatus().value()).as(what + " If-Match " + NO_SUCH_TAG + ": " + text(stale)).isEqualTo(412);
                    // at the resource's id, as every 412 of a scenario, a run or an experiment
                    soft.assertThat(text(stale)).as(what).contains("\"pointer\":\"/id\"");
                    soft.assertThat(any.getStatus().value()).as(what + " If-Match *").isEqualTo(200);
                    soft.assertThat(none.getStatus().value()).as(what + " If-None-Match *").isEqualTo(304);
                    soft.assertThat(none.getResponseBody()).as(what + " If-None-Match * body").isNullOrEmpty();
                    // breaker 8 F6: an empty list (RFC 9110 5.6.1: empty elements are ignored) names no tag, so
                    // If-Match is false and If-None-Match true; it was 400, while "\"a\", " was a list
                    for (String empty : List.of(",", ", ,")) {
                        soft.assertThat(get(op.uri(), "If-Match", empty).getStatus().value()).as(what + " If-Match '" + empty + "'").isEqualTo(412);
                        soft.assertThat(get(op.uri(), "If-None-Match", empty).getStatus().value()).as(what + " If-None-Match '" + empty + "'").isEqualTo(200);
                    }
                    // breaker 8 F3: an answer the Accept refuses is 406, and the conditions are not evaluated on it
                    // (RFC 9110 13.2.1: only for an answer that would be 2xx): it was 304, or 412
                    String refused = "application/x-nope";
                    soft.assertThat(get(op.uri(), "Accept", refused).getStatus().value()).as(what + " Accept " + refused).isEqualTo(406);
                    for (String[] condition : List.of(new String[] {"If-None-Match", "*"}, new String[] {"If-Match", NO_SUCH_TAG},
                            new String[] {"If-Match", "*"})) {
                        var r = get(op.uri(), "Accept", refused, condition[0], condition[1]);
                        soft.assertThat(r.getStatus().value()).as(what + " Accept " + refused + ", " + condition[0] + " " + condition[1]
                                + ": " + text(r)).isEqualTo(406);
                    }
                    // breaker 9 F19: the same with a list naming the current tag (strong, weak, among others), on GET
                    // and HEAD: Spring's own check answered 304 before the Accept was judged, on every resource whose
                    // ETag is its own (a scenario's version, a run's or an experiment's state); only * was 406
                    String tag = plain.getResponseHeaders().getETag();
                    if (tag != null) {
                        tagged++;
                        String bare = tag.startsWith("W/") ? tag.substring(2) : tag;
                        soft.assertThat(get(op.uri(), "If-None-Match", tag).getStatus().value()).as(what + " If-None-Match " + tag).isEqualTo(304);
                        for (String list : List.of(tag, "W/" + bare, "\"zz\", " + bare)) {
                            var r = get(op.uri(), "Accept", refused, "If-None-Match", list);
                            soft.assertThat(r.getStatus().value()).as(what + " Accept " + refused + ", If-None-Match " + list
                                    + ": " + text(r)).isEqualTo(406);
                            var h = web.head().uri(op.uri()).header("Accept", refused).header("If-None-Match", list)
                                    .exchange().expectBody().returnResult();
                            soft.assertThat(h.getStatus().value()).as("HEAD " + op.uri() + " Accept " + refused + ", If-None-Match " + list)
                                    .isEqualTo(406);
                        }
                    }
                } else if (status == 404) {
                    missing++;
                    soft.assertThat(stale.getStatus().value()).as(what + " If-Match " + NO_SUCH_TAG).isEqualTo(404);
                    soft.assertThat(none.getStatus().value()).as(what + " If-None-Match *").isEqualTo(404);
                }
            } else {
                String body = op.method() == HttpMethod.DELETE ? null : creates.getOrDefault(op.uri(), runBody);
                var r = send(op.method(), op.uri(), "If-Match", NO_SUCH_TAG, body);
                String what = op.method() + " " + op.uri() + " If-Match " + NO_SUCH_TAG + ": " + text(r);
                soft.assertThat(r.getStatus().is2xxSuccessful()).as(what).isFalse();
                if (creates.containsKey(op.uri())) {
                    soft.assertThat(r.getStatus().value()).as(what).isEqualTo(412);
                    soft.assertThat(text(r)).as(what).contains("\"pointer\":\"/id\"");
                    // the collection exists, so If-None-Match: * is false too (breaker 7 N5: it created)
                    var none = send(op.method(), op.uri(), "If-None-Match", "*", body);
                    soft.assertThat(none.getStatus().value()).as(op.uri() + " If-None-Match *: " + text(none)).isEqualTo(412);
                }
                if (op.json()) {
                    // "Order of checks": the body's syntax (400) and type (415) before a false condition (412), on
                    // every operation that takes a body (breaker 7 N4: a POST to a collection answered 412 first)
                    var malformed = send(op.method(), op.uri(), "If-Match", NO_SUCH_TAG, "{\"name\":");
                    soft.assertThat(malformed.getStatus().value()).as(op.method() + " " + op.uri() + " malformed: " + text(malformed))
                            .isIn(400, 404);
                    var type = web.method(op.method()).uri(op.uri()).header("If-Match", NO_SUCH_TAG)
                            .contentType(MediaType.parseMediaType("application/x-nope")).bodyValue("x").exchange().expectBody().returnResult();
                    soft.assertThat(type.getStatus().value()).as(op.method() + " " + op.uri() + " wrong type: " + text(type))
                            .isIn(404, 415);
                    // a 415 names the header at fault on every route (breaker 6 F12: pointer "" on the task route)
                    if (type.getStatus().value() == 415) {
                        soft.assertThat(text(type)).as(op.method() + " " + op.uri() + " 415").contains("\"pointer\":\"/headers/Content-Type\"");
                    }
                    // breaker 8 F2: JSON that is not an object is content (422), judged after a false condition
                    for (String notObject : NOT_OBJECTS) {
                        var n = send(op.method(), op.uri(), "If-Match", NO_SUCH_TAG, notObject);
                        soft.assertThat(n.getStatus().value()).as(op.method() + " " + op.uri() + " " + notObject + ": " + text(n))
                                .isIn(404, 412);
                    }
                    var yaml = web.method(op.method()).uri(op.uri()).header("If-Match", NO_SUCH_TAG)
                            .contentType(MediaType.parseMediaType("application/yaml")).bodyValue("- 1\n").exchange().expectBody().returnResult();
                    soft.assertThat(yaml.getStatus().value()).as(op.method() + " " + op.uri() + " YAML list: " + text(yaml)).isIn(404, 412);
                    if (creates.containsKey(op.uri())) {
                        soft.assertThat(send(op.method(), op.uri(), "If-Match", ",", body).getStatus().value())
                                .as(op.uri() + " If-Match ,").isEqualTo(412);
                        soft.assertThat(malformed.getStatus().value()).as(op.uri() + " malformed").isEqualTo(400);
                        soft.assertThat(type.getStatus().value()).as(op.uri() + " wrong type").isEqualTo(415);
                    }
                    jsonWrites++;
                }
                writes++;
            }
        }
        // the reads of the finding, which answer no ETag, among those walked; and a missing part of a scenario
        soft.assertThat(ok).contains("/api/runs/{id}/result", "/api/runs/{id}/scenario", "/api/runs/{id}/cpu.stat",
                "/api/experiments/{id}/table", "/api/experiments/{id}/definition", "/api/experiments/{id}/result");
        soft.assertAll();
        assertThat(missing).as("404 reads walked (a task nop does not exist, an index 0 of an empty timeline)").isGreaterThan(0);
        assertThat(writes).as("writes walked").isGreaterThan(10);
        assertThat(tagged).as("reads with an ETag of their own walked (scenario, run, experiment, parts)").isGreaterThan(3);
        assertThat(jsonWrites).as("writes with a JSON body walked").isGreaterThan(5);
        // nothing was performed
        assertThat(count("/api/scenarios")).isEqualTo(scenarios);
        assertThat(count("/api/runs")).isEqualTo(runs);
        assertThat(count("/api/experiments")).isEqualTo(experiments);
        assertThat(ScenarioWrite.etag(web, scenario)).isEqualTo(etag);
    }

    /**
     * Breaker 6 F10: a PUT of the scenario's own document, as JSON, with its keys in another order, or as YAML, changes
     * nothing, so it keeps the version (each one made a new version, and every other client's If-Match failed); a PUT
     * that changes it makes the next one.
     */
    @Test
    void aPutThatChangesNothingKeepsTheVersion() {
        String scenario = ApiTestSupport.createScenario(web, ApiTestSupport.tiny("unchanged"));
        String etag = ScenarioWrite.etag(web, scenario);
        JsonNode doc = ApiTestSupport.json(web.get().uri("/api/scenarios/" + scenario).exchange().expectStatus().isOk()).path("scenario");
        tools.jackson.databind.node.ObjectNode reordered = ApiTestSupport.JSON.createObjectNode();
        List<String> keys = new ArrayList<>(doc.propertyNames());
        java.util.Collections.reverse(keys);
        for (String k : keys) reordered.set(k, doc.get(k));
        String yaml = tools.jackson.dataformat.yaml.YAMLMapper.builder().build().writeValueAsString(doc);
        for (String[] put : new String[][] {{ApiTestSupport.JSON.writeValueAsString(doc), "application/json"},
                {ApiTestSupport.JSON.writeValueAsString(reordered), "application/json"}, {yaml, "application/yaml"}}) {
            var r = web.put().uri("/api/scenarios/" + scenario).header("If-Match", etag)
                    .contentType(MediaType.parseMediaType(put[1])).bodyValue(put[0]).exchange().expectBody().returnResult();
            assertThat(r.getStatus().value()).as(put[1] + " " + text(r)).isEqualTo(200);
            assertThat(r.getResponseHeaders().getETag()).as(put[1] + ": the version it left").isEqualTo(etag);
            assertThat(ScenarioWrite.etag(web, scenario)).as(put[1]).isEqualTo(etag);
        }
        String changed = ApiTestSupport.tiny("changed");
        web.put().uri("/api/scenarios/" + scenario).contentType(MediaType.APPLICATION_JSON).bodyValue(changed).exchange()
                .expectStatus().isOk();
        assertThat(ScenarioWrite.etag(web, scenario)).as("a change makes a new version").isNotEqualTo(etag);
    }
}
