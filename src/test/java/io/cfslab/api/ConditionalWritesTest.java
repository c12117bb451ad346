package io.cfslab.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.store.ScenarioEntry;
import io.cfslab.testsupport.TestApps;
import io.cfslab.testsupport.TestDatabase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;

/**
 * Every write below a stored scenario honours {@code If-Match} and {@code If-None-Match} against the scenario's ETag
 * (RFC 9110 13.1.1/13.1.2, breaker 2 N2): a false condition answers 412 and performs nothing (the version and the
 * document stay as they were); a true one performs the write, whose answer carries the new ETag. The check and the
 * write are one conditional update: two writers with the same {@code If-Match} cannot both succeed (on H2 here, on
 * PostgreSQL when one is configured, see {@code .ci/postgres.sh}).
 */
class ConditionalWritesTest {
    private static ConfigurableApplicationContext app;
    private static WebTestClient web;

    private static final String SCENARIO = """
            {"name": "cond", "duration": "200ms", "machine": {"cpus": 1},
             "cgroups": [{"path": "/g", "cpu.max": "50000 100000"}, {"path": "/h"}],
             "tasks": [{"name": "t", "cgroup": "/g", "workload": {"kind": "hog"}},
                       {"name": "u", "cgroup": "/g", "workload": {"kind": "hog"}}],
             "timeline": [{"at": "10ms", "write": "/g/cpu.max", "value": "max"}]}""";

    /** A write below a scenario: method, path below {@code /api/scenarios/{id}}, body type and body (or none). */

    /** Every kind of write below a scenario, each one that succeeds on {@link #SCENARIO}. */
    static final List<ScenarioWrite> WRITES = List.of(
            new ScenarioWrite("file PUT", HttpMethod.PUT, "/cgroups/g/cpu.max", MediaType.TEXT_PLAIN, "20000"),
            new ScenarioWrite("weight PUT", HttpMethod.PUT, "/cgroups/h/cpu.weight", MediaType.TEXT_PLAIN, "50"),
            new ScenarioWrite("mkdir", HttpMethod.PUT, "/cgroups/new", null, null),
            new ScenarioWrite("mkdir of an existing group", HttpMethod.PUT, "/cgroups/h", null, null),
            new ScenarioWrite("rmdir", HttpMethod.DELETE, "/cgroups/h", null, null),
            new ScenarioWrite("task POST", HttpMethod.POST, "/tasks", MediaType.APPLICATION_JSON,
                    "{\"name\": \"v\", \"cgroup\": \"/h\", \"workload\": {\"kind\": \"hog\"}}"),
            new ScenarioWrite("task DELETE", HttpMethod.DELETE, "/tasks/u", null, null),
            new ScenarioWrite("timeline POST", HttpMethod.POST, "/timeline", MediaType.APPLICATION_JSON,
                    "{\"at\": \"20ms\", \"write\": \"/h/cpu.weight\", \"value\": \"10\"}"),
            new ScenarioWrite("timeline DELETE", HttpMethod.DELETE, "/timeline/0", null, null),
            new ScenarioWrite("generate POST", HttpMethod.POST, "/cgroups:generate", MediaType.APPLICATION_JSON,
                    "{\"under\": \"/h\", \"levels\": [2]}"),
            new ScenarioWrite("scenario PUT", HttpMethod.PUT, "", MediaType.APPLICATION_JSON, SCENARIO),
            new ScenarioWrite("scenario DELETE", HttpMethod.DELETE, "", null, null));

    @BeforeAll
    static void start() {
        app = TestApps.start(TestDatabase.h2("conditional"), "cond", Map.of("cfslab.runs.execute", "false"));
        web = TestApps.client(app);
    }

    @AfterAll
    static void stop() { app.close(); }

    private static String create() {
        var res = web.post().uri("/api/scenarios").contentType(MediaType.APPLICATION_JSON).bodyValue(SCENARIO)
                .exchange().expectStatus().isCreated().expectHeader().valueEquals("ETag", "\"1\"").expectBody().returnResult();
        String location = res.getResponseHeaders().getLocation().toString();
        return location.substring(location.lastIndexOf('/') + 1);
    }

    /** The scenario's ETag and document, or null if it is gone. */
    private static String[] state(String id) {
        EntityExchangeResult<byte[]> r = web.get().uri("/api/scenarios/" + id).exchange().expectBody().returnResult();
        if (r.getStatus().value() == 404) return null;
        return new String[] {r.getResponseHeaders().getETag(), new String(r.getResponseBody())};
    }

    private static EntityExchangeResult<byte[]> send(String id, ScenarioWrite w, String header, String value) {
        return w.send(web, id, header, value);
    }

    /** Bumps the scenario to version 2 with a write none of {@link #WRITES} depends on. */
    private static void bump(String id) {
        web.put().uri("/api/scenarios/" + id + "/cgroups/bump").exchange().expectStatus().isCreated().expectBody().returnResult();
    }

    private static void refused(String id, ScenarioWrite w, String header, String value, String why) {
        String[] before = state(id);
        EntityExchangeResult<byte[]> r = send(id, w, header, value);
        JsonNode p = ApiTestSupport.JSON.readTree(new String(r.getResponseBody()));
        assertThat(r.getStatus().value()).as("%s with %s: %s (%s)", w, header + ": " + value, why, p).isEqualTo(412);
        assertThat(p.path("pointer").asString()).as("%s", w).isEqualTo("/id");
        assertThat(p.path("title").asString()).isEqualTo("Precondition failed");
        assertThat(r.getResponseHeaders().getETag()).as("%s: the 412 names the current version", w).isEqualTo(before[0]);
        String[] after = state(id);
        assertThat(after).as("%s with a false %s: nothing is performed", w, header).isNotNull();
        assertThat(after[0]).as("%s: version kept", w).isEqualTo(before[0]);
        assertThat(after[1]).as("%s: document kept", w).isEqualTo(before[1]);
    }

    @Test
    void aFalseIfMatchPerformsNoWrite() {
        for (ScenarioWrite w : WRITES) {
            String id = create();
            bump(id); // now at "2"
            refused(id, w, "If-Match", "\"1\"", "a version that was");
            refused(id, w, "If-Match", "\"nonsense\"", "no version");
            refused(id, w, "If-Match", "W/\"2\"", "a weak tag (strong comparison)");
            refused(id, w, "If-None-Match", "\"2\"", "the current version");
            refused(id, w, "If-None-Match", "W/\"1\", W/\"2\"", "the current version, weakly");
        }
    }

    @Test
    void aTrueIfMatchPerformsTheWriteAndAnswersTheNewEtag() {
        for (ScenarioWrite w : WRITES) {
            for (String[] cond : new String[][] {{"If-Match", "\"2\""}, {"If-Match", "\"9\", \"2\""},
                    {"If-Match", "*"}, {"If-None-Match", "\"1\""}, {null, null}}) {
                String id = create();
                bump(id);
                EntityExchangeResult<byte[]> r = send(id, w, cond[0], cond[1]);
                assertThat(r.getStatus().is2xxSuccessful()).as("%s with %s: %s", w, cond[0], r).isTrue();
                String[] after = state(id);
                if (w.method() == HttpMethod.DELETE && w.path().isEmpty()) {
                    assertThat(after).isNull();
                    continue;
                }
                // a write that changes nothing (mkdir of an existing group) keeps the version (breaker 4 F6)
                String version = w.name().equals("mkdir of an existing group") ? "\"2\"" : "\"3\"";
                assertThat(after[0]).as("%s: a write makes version 3", w).isEqualTo(version);
                assertThat(r.getResponseHeaders().getETag()).as("%s answers the new ETag", w).isEqualTo(version);
            }
        }
    }

    /** {@code If-None-Match: *}: only a write that creates its resource (201) is performed. */
    @Test
    void ifNoneMatchStarAllowsOnlyCreation() {
        for (ScenarioWrite w : WRITES) {
            String id = create();
            EntityExchangeResult<byte[]> probe = send(create(), w, null, null);
            if (probe.getStatus().value() == 201) {
                EntityExchangeResult<byte[]> r = send(id, w, "If-None-Match", "*");
                assertThat(r.getStatus().value()).as("%s creates: performed", w).isEqualTo(201);
                assertThat(r.getResponseHeaders().getETag()).isEqualTo("\"2\"");
            } else {
                refused(id, w, "If-None-Match", "*", "the target exists");
            }
        }
    }

    /** RFC 9110 13.2.1: a target that does not exist answers 404 whatever the condition. */
    @Test
    void aMissingTargetIsNotFoundWhateverTheCondition() {
        String id = create();
        for (String path : List.of("/tasks/nope", "/timeline/7", "/cgroups/nope")) {
            var r = web.delete().uri("/api/scenarios/" + id + path).header("If-Match", "\"1\"").exchange();
            r.expectStatus().isNotFound().expectBody().returnResult();
        }
        web.put().uri("/api/scenarios/" + id + "/cgroups/nope/cpu.max").header("If-Match", "\"8\"")
                .contentType(MediaType.TEXT_PLAIN).bodyValue("1000").exchange().expectStatus().isNotFound().expectBody().returnResult();
    }

    @Test
    void twoWritersWithTheSameIfMatchCannotBothSucceedOnH2() throws Exception {
        race(app);
    }

    /**
     * Two edits with {@code If-Match: "1"} that both read version 1 before either writes (a barrier in the edit
     * holds each until the other has read): exactly one is stored, the other answers 412 and its change is not.
     */
    static void race(ConfigurableApplicationContext ctx) throws Exception {
        ScenarioService scenarios = ctx.getBean(ScenarioService.class);
        ScenarioEntry e = scenarios.create((tools.jackson.databind.node.ObjectNode) ApiTestSupport.JSON.readTree(SCENARIO));
        CyclicBarrier bothRead = new CyclicBarrier(2);
        AtomicInteger calls = new AtomicInteger();
        Preconditions pre = new Preconditions("\"1\"", null);
        Function<String, Mono<ResponseEntity<Void>>> writer = name -> scenarios.edit(e.id(), pre, (doc, s) -> {
            if (calls.getAndIncrement() < 2) { // the first attempt of each; the loser's retry reads version 2
                try {
                    bothRead.await(10, TimeUnit.SECONDS);
                } catch (Exception x) {
                    throw new IllegalStateException("the two writers did not both read version 1", x);
                }
            }
            ((ArrayNode) doc.get("cgroups")).addObject().put("path", "/" + name);
            return ResponseEntity.noContent().build();
        });
        List<Object> outcomes = new ArrayList<>();
        Mono.zip(writer.apply("first").subscribeOn(Schedulers.boundedElastic()).map(Object.class::cast)
                                .onErrorResume(x -> Mono.just(x)),
                        writer.apply("second").subscribeOn(Schedulers.boundedElastic()).map(Object.class::cast)
                                .onErrorResume(x -> Mono.just(x)))
                .doOnNext(t -> { outcomes.add(t.getT1()); outcomes.add(t.getT2()); }).block();
        long stored = outcomes.stream().filter(ResponseEntity.class::isInstance).count();
        List<ApiException> refused = outcomes.stream().filter(ApiException.class::isInstance)
                .map(ApiException.class::cast).toList();
        assertThat(stored).as("%s", outcomes).isEqualTo(1);
        assertThat(refused).hasSize(1);
        assertThat(refused.get(0).status()).isEqualTo(HttpStatus.PRECONDITION_FAILED);
        ScenarioEntry now = scenarios.get(e.id());
        assertThat(now.version()).isEqualTo(2);
        assertThat(now.document().contains("\"/first\"") ^ now.document().contains("\"/second\""))
                .as("exactly one writer's change is stored: %s", now.document()).isTrue();
    }

    /**
     * An {@code If-Match} naming a tag that is not the run's or experiment's current one is false (RFC 9110 13.1.1), so
     * a conditional cancel or DELETE answers 412 and performs nothing (breaker5 F2: it deleted anyway);
     * {@code If-None-Match: *} is false on them too (they exist); {@code If-Match: *} holds.
     */
    @Test
    void aTaggedIfMatchOnARunOrExperimentPerformsNothing() {
        String scenario = ApiTestSupport.createScenario(web, SCENARIO);
        String run = ApiTestSupport.submitRun(web, Map.of("scenarioId", scenario));
        String experiment = ApiTestSupport.JSON.readTree(new String(web.post().uri("/api/experiments")
                .contentType(MediaType.APPLICATION_JSON).bodyValue("""
                        {"name": "e", "scenario": %s, "repeats": 1, "arms": [{"name": "a"}, {"name": "b", "set": {"/cgroups/0/cpu.max": "25000 100000"}}]}"""
                        .formatted(SCENARIO))
                .exchange().expectStatus().isAccepted().expectBody().returnResult().getResponseBody())).path("id").asString();
        record Route(String what, HttpMethod method, String uri, String statusUri) { }
        List<Route> routes = List.of(
                new Route("run cancel", HttpMethod.POST, "/api/runs/" + run + "/cancel", "/api/runs/" + run),
                new Route("run DELETE", HttpMethod.DELETE, "/api/runs/" + run, "/api/runs/" + run),
                new Route("experiment cancel", HttpMethod.POST, "/api/experiments/" + experiment + "/cancel",
                        "/api/experiments/" + experiment),
                new Route("experiment DELETE", HttpMethod.DELETE, "/api/experiments/" + experiment,
                        "/api/experiments/" + experiment));
        for (Route r : routes) {
            String before = ApiTestSupport.JSON.readTree(new String(web.get().uri(r.statusUri()).exchange()
                    .expectStatus().isOk().expectBody().returnResult().getResponseBody())).path("status").asString();
            for (String[] h : List.of(new String[] {"If-Match", "\"nope\""}, new String[] {"If-Match", "\"1\""},
                    new String[] {"If-Match", "W/\"1\", \"queued\""}, new String[] {"If-None-Match", "*"})) {
                var res = web.method(r.method()).uri(r.uri()).header(h[0], h[1]).exchange().expectBody().returnResult();
                assertThat(res.getStatus().value()).as(r.what() + " with " + h[0] + ": " + h[1]).isEqualTo(412);
                String after = ApiTestSupport.JSON.readTree(new String(web.get().uri(r.statusUri()).exchange()
                        .expectStatus().isOk().expectBody().returnResult().getResponseBody())).path("status").asString();
                assertThat(after).as(r.what() + " refused: nothing performed").isEqualTo(before);
            }
        }
        // If-Match: * holds on a resource that exists
        web.post().uri("/api/runs/" + run + "/cancel").header("If-Match", "*").exchange().expectStatus().isAccepted().expectBody().returnResult();
        web.delete().uri("/api/runs/" + run).header("If-Match", "*").exchange().expectStatus().isNoContent().expectBody().returnResult();
        web.post().uri("/api/experiments/" + experiment + "/cancel").header("If-Match", "*").exchange().expectStatus().isAccepted().expectBody().returnResult();
        web.delete().uri("/api/experiments/" + experiment).header("If-Match", "*").exchange().expectStatus().isNoContent().expectBody().returnResult();
        // a missing one is 404 whatever the condition
        web.delete().uri("/api/runs/" + run).header("If-Match", "\"1\"").exchange().expectStatus().isNotFound().expectBody().returnResult();
    }

    private static EntityExchangeResult<byte[]> call(HttpMethod method, String uri, String header, String value) {
        var spec = web.method(method).uri(uri);
        return (header == null ? spec : spec.header(header, value)).exchange().expectBody().returnResult();
    }

    private static String etagOf(String uri) {
        var r = call(HttpMethod.GET, uri, null, null);
        assertThat(r.getStatus().value()).as(uri).isEqualTo(200);
        return r.getResponseHeaders().getETag();
    }

    /**
     * Runs and experiments have strong ETags (brief item 5): their GET answers one derived from the stored state (the
     * same on every GET of the same state; a cancel changes it, and the cancel's answer carries the new one), so
     * {@code If-None-Match} is 304 on a GET and {@code If-Match} holds on a cancel or DELETE exactly when it names the
     * current tag; a stale or other tag is 412 with the current {@code ETag}, and nothing is performed.
     */
    @Test
    void runsAndExperimentsHaveStrongEtagsThatConditionTheirWrites() {
        String scenario = ApiTestSupport.createScenario(web, SCENARIO);
        String run = "/api/runs/" + ApiTestSupport.submitRun(web, Map.of("scenarioId", scenario));
        String experiment = "/api/experiments/" + ApiTestSupport.JSON.readTree(new String(web.post().uri("/api/experiments")
                .contentType(MediaType.APPLICATION_JSON).bodyValue("""
                        {"name": "e", "scenario": %s, "repeats": 1, "arms": [{"name": "a"}]}""".formatted(SCENARIO))
                .exchange().expectStatus().isAccepted().expectBody().returnResult().getResponseBody())).path("id").asString();
        for (String uri : List.of(run, experiment)) {
            String tag = etagOf(uri);
            assertThat(tag).as(uri).matches("\"[0-9a-f]{20}\"");
            assertThat(etagOf(uri)).as(uri + ": the same state, the same tag").isEqualTo(tag);
            // conditional reads
            for (String same : List.of(tag, "W/" + tag, "\"x\", " + tag, "*")) {
                var r = call(HttpMethod.GET, uri, "If-None-Match", same);
                assertThat(r.getStatus().value()).as(uri + " If-None-Match " + same).isEqualTo(304);
                assertThat(r.getResponseBody()).as("no body").isNull();
                assertThat(r.getResponseHeaders().getETag()).isEqualTo(tag);
            }
            assertThat(call(HttpMethod.GET, uri, "If-None-Match", "\"x\"").getStatus().value()).isEqualTo(200);
            var staleRead = call(HttpMethod.GET, uri, "If-Match", "\"x\"");
            assertThat(staleRead.getStatus().value()).as(uri + " GET with another If-Match").isEqualTo(412);
            assertThat(staleRead.getResponseHeaders().getETag()).isEqualTo(tag);
            assertThat(call(HttpMethod.GET, uri, "If-Match", tag).getStatus().value()).isEqualTo(200);
            // conditional cancel: another tag, W/ of the current one (strong comparison), If-None-Match naming it
            for (String[] h : List.of(new String[] {"If-Match", "\"x\""}, new String[] {"If-Match", "W/" + tag},
                    new String[] {"If-None-Match", tag}, new String[] {"If-None-Match", "*"})) {
                var r = call(HttpMethod.POST, uri + "/cancel", h[0], h[1]);
                assertThat(r.getStatus().value()).as(uri + " cancel with " + h[0] + ": " + h[1]).isEqualTo(412);
                assertThat(r.getResponseHeaders().getETag()).isEqualTo(tag);
                assertThat(etagOf(uri)).as("nothing performed").isEqualTo(tag);
            }
            var cancelled = call(HttpMethod.POST, uri + "/cancel", "If-Match", tag);
            assertThat(cancelled.getStatus().value()).as(uri + " cancel with its tag").isEqualTo(202);
            String after = etagOf(uri);
            assertThat(after).as(uri + ": the state changed, so did the tag").isNotEqualTo(tag);
            assertThat(cancelled.getResponseHeaders().getETag()).as("the cancel answers the new tag").isEqualTo(after);
            // conditional DELETE: the tag from before the cancel is stale
            var stale = call(HttpMethod.DELETE, uri, "If-Match", tag);
            assertThat(stale.getStatus().value()).as(uri + " DELETE with the stale tag").isEqualTo(412);
            assertThat(stale.getResponseHeaders().getETag()).isEqualTo(after);
            assertThat(call(HttpMethod.DELETE, uri, "If-None-Match", after).getStatus().value()).isEqualTo(412);
            assertThat(etagOf(uri)).as(uri + " still there, unchanged").isEqualTo(after);
            assertThat(call(HttpMethod.DELETE, uri, "If-Match", "\"x\", " + after).getStatus().value()).isEqualTo(204);
            assertThat(call(HttpMethod.GET, uri, null, null).getStatus().value()).isEqualTo(404);
        }
    }
}
