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

/**
 * Every resource below a scenario shares its ETag (breaker 4 F4, F5, F6): every read (GET and HEAD of the tree, a
 * group, a file, the tasks, a task, the timeline, an entry) carries the scenario's current ETag, and so does every
 * 409 or 422 refusal of a write; {@code If-None-Match: *} on a write whose target exists is 412 for every kind of
 * target; a write that changes nothing leaves the version as it was.
 */
class ScenarioPartsEtagTest {
    private static ConfigurableApplicationContext app;
    private static WebTestClient web;

    private static final String SCENARIO = """
            {"name": "etag", "duration": "200ms", "machine": {"cpus": 1},
             "cgroups": [{"path": "/g", "cpu.max": "50000 100000"}, {"path": "/h"}],
             "tasks": [{"name": "t", "cgroup": "/g", "workload": {"kind": "hog"}}],
             "timeline": [{"at": "10ms", "write": "/g/cpu.max", "value": "max"}]}""";

    static final List<String> READS = List.of("/cgroups", "/cgroups/g", "/cgroups/g/cpu.max", "/cgroups/h/cpu.weight",
            "/tasks", "/tasks/t", "/timeline", "/timeline/0");


    /** Writes whose target exists in {@link #SCENARIO}: {@code If-None-Match: *} must be 412 for each. */
    static final List<ScenarioWrite> ON_EXISTING = List.of(
            new ScenarioWrite("mkdir of an existing group", HttpMethod.PUT, "/cgroups/h", null, null),
            new ScenarioWrite("task POST of an existing name", HttpMethod.POST, "/tasks", MediaType.APPLICATION_JSON,
                    "{\"name\": \"t\", \"cgroup\": \"/h\", \"workload\": {\"kind\": \"hog\"}}"),
            new ScenarioWrite("file PUT", HttpMethod.PUT, "/cgroups/g/cpu.max", MediaType.TEXT_PLAIN, "20000"));

    /** Writes refused 409 or 422 on {@link #SCENARIO}: each answer carries the current ETag. */
    static final List<ScenarioWrite> REFUSED = List.of(
            new ScenarioWrite("rmdir of a busy group", HttpMethod.DELETE, "/cgroups/g", null, null),
            new ScenarioWrite("task POST of an existing name", HttpMethod.POST, "/tasks", MediaType.APPLICATION_JSON,
                    "{\"name\": \"t\", \"cgroup\": \"/h\", \"workload\": {\"kind\": \"hog\"}}"),
            new ScenarioWrite("task POST into a missing group", HttpMethod.POST, "/tasks", MediaType.APPLICATION_JSON,
                    "{\"name\": \"w\", \"cgroup\": \"/nope\", \"workload\": {\"kind\": \"hog\"}}"),
            new ScenarioWrite("bad cpu.max", HttpMethod.PUT, "/cgroups/g/cpu.max", MediaType.TEXT_PLAIN, "abc"),
            new ScenarioWrite("bad mkdir name", HttpMethod.PUT, "/cgroups/a%20b", null, null),
            new ScenarioWrite("timeline POST beyond the duration", HttpMethod.POST, "/timeline", MediaType.APPLICATION_JSON,
                    "{\"at\": \"20s\", \"write\": \"/h/cpu.weight\", \"value\": \"10\"}"),
            new ScenarioWrite("scenario PUT of a duplicate group", HttpMethod.PUT, "", MediaType.APPLICATION_JSON,
                    "{\"name\": \"x\", \"duration\": \"1s\", \"cgroups\": [{\"path\": \"/a\"}, {\"path\": \"/a\"}]}"));

    /** Writes that change nothing: the version stays. */
    static final List<ScenarioWrite> NO_OPS = List.of(
            new ScenarioWrite("mkdir of an existing group", HttpMethod.PUT, "/cgroups/h", null, null),
            new ScenarioWrite("mkdir -p of an existing path", HttpMethod.PUT, "/cgroups/g", null, null),
            new ScenarioWrite("cpu.max write of its own value", HttpMethod.PUT, "/cgroups/g/cpu.max", MediaType.TEXT_PLAIN,
                    "50000 100000"),
            // the value a file reads back where the document leaves it at its default (breaker5 F6)
            new ScenarioWrite("cpu.max write of the default", HttpMethod.PUT, "/cgroups/h/cpu.max", MediaType.TEXT_PLAIN,
                    "max 100000"),
            new ScenarioWrite("cpu.max quota alone, period as it is", HttpMethod.PUT, "/cgroups/g/cpu.max",
                    MediaType.TEXT_PLAIN, "50000"),
            new ScenarioWrite("cpu.weight write of the default", HttpMethod.PUT, "/cgroups/h/cpu.weight",
                    MediaType.TEXT_PLAIN, "100"),
            new ScenarioWrite("cpu.max.burst write of the default", HttpMethod.PUT, "/cgroups/h/cpu.max.burst",
                    MediaType.TEXT_PLAIN, "0"));

    @BeforeAll
    static void start() {
        app = TestApps.start(TestDatabase.h2("partsetag"), "partsetag", Map.of("cfslab.runs.execute", "false"));
        web = TestApps.client(app);
    }

    @AfterAll
    static void stop() { app.close(); }

    private static String create() { return ApiTestSupport.createScenario(web, SCENARIO); }

    private static String etag(String id) { return ScenarioWrite.etag(web, id); }

    private static EntityExchangeResult<byte[]> send(String id, ScenarioWrite w, String header, String value) {
        return w.send(web, id, header, value);
    }

    private static String body(EntityExchangeResult<byte[]> r) {
        return r.getResponseBody() == null ? "" : new String(r.getResponseBody());
    }

    @Test
    void everyReadBelowAScenarioCarriesItsEtag() {
        String id = create();
        web.put().uri("/api/scenarios/" + id + "/cgroups/bump").exchange().expectStatus().isCreated(); // version 2
        String tag = etag(id);
        assertThat(tag).isEqualTo("\"2\"");
        SoftAssertions soft = new SoftAssertions();
        for (String path : READS) {
            for (HttpMethod m : List.of(HttpMethod.GET, HttpMethod.HEAD)) {
                EntityExchangeResult<byte[]> r = web.method(m).uri("/api/scenarios/" + id + path).exchange()
                        .expectBody().returnResult();
                soft.assertThat(r.getStatus().value()).as("%s %s", m, path).isEqualTo(200);
                soft.assertThat(r.getResponseHeaders().getETag()).as("%s %s", m, path).isEqualTo(tag);
            }
        }
        soft.assertAll();
    }

    /**
     * Conditional reads alike on the scenario and every read below it (breaker5 F10): {@code If-None-Match} naming the
     * current tag (strong or weak), or {@code *}, is 304 with the ETag and no body; a stale tag is 200; a missing part
     * stays 404 whatever the tag.
     */
    @Test
    void aMatchingIfNoneMatchIs304OnEveryReadWithAnEtag() {
        String id = create();
        String tag = etag(id);
        SoftAssertions soft = new SoftAssertions();
        List<String> reads = new java.util.ArrayList<>(READS);
        reads.add("");
        for (String path : reads) {
            for (HttpMethod m : List.of(HttpMethod.GET, HttpMethod.HEAD)) {
                for (String inm : List.of(tag, "W/" + tag, "*", "\"9\", " + tag)) {
                    EntityExchangeResult<byte[]> r = web.method(m).uri("/api/scenarios/" + id + path)
                            .header("If-None-Match", inm).exchange().expectBody().returnResult();
                    soft.assertThat(r.getStatus().value()).as("%s %s If-None-Match: %s", m, path, inm).isEqualTo(304);
                    soft.assertThat(r.getResponseHeaders().getETag()).as("%s %s", m, path).isEqualTo(tag);
                    soft.assertThat(r.getResponseBody()).as("%s %s", m, path).isNullOrEmpty();
                }
                EntityExchangeResult<byte[]> stale = web.method(m).uri("/api/scenarios/" + id + path)
                        .header("If-None-Match", "\"9\"").exchange().expectBody().returnResult();
                soft.assertThat(stale.getStatus().value()).as("%s %s stale", m, path).isEqualTo(200);
            }
        }
        for (String missing : List.of("/tasks/nope", "/timeline/7", "/cgroups/nope")) {
            soft.assertThat(web.get().uri("/api/scenarios/" + id + missing).header("If-None-Match", "*").exchange()
                    .expectBody().returnResult().getStatus().value()).as(missing).isEqualTo(404);
        }
        soft.assertAll();
    }

    @Test
    void everyRefusedWriteCarriesTheCurrentEtag() {
        String id = create();
        String tag = etag(id);
        SoftAssertions soft = new SoftAssertions();
        for (ScenarioWrite w : REFUSED) {
            EntityExchangeResult<byte[]> r = send(id, w, null, null);
            soft.assertThat(r.getStatus().value()).as("%s: %s", w, body(r)).isIn(409, 422);
            soft.assertThat(r.getResponseHeaders().getETag()).as("%s", w).isEqualTo(tag);
        }
        soft.assertAll();
        assertThat(etag(id)).as("refused writes change nothing").isEqualTo(tag);
    }

    @Test
    void ifNoneMatchStarOnAnExistingTargetIs412ForEveryKind() {
        String id = create();
        String tag = etag(id);
        SoftAssertions soft = new SoftAssertions();
        for (ScenarioWrite w : ON_EXISTING) {
            EntityExchangeResult<byte[]> r = send(id, w, "If-None-Match", "*");
            soft.assertThat(r.getStatus().value()).as("%s: %s", w, body(r)).isEqualTo(412);
            soft.assertThat(r.getResponseHeaders().getETag()).as("%s", w).isEqualTo(tag);
        }
        soft.assertAll();
        assertThat(etag(id)).isEqualTo(tag);
    }

    @Test
    void aWriteThatChangesNothingKeepsTheVersion() {
        String id = create();
        String tag = etag(id);
        String doc = new String(web.get().uri("/api/scenarios/" + id).exchange().expectBody().returnResult().getResponseBody());
        SoftAssertions soft = new SoftAssertions();
        for (ScenarioWrite w : NO_OPS) {
            for (int i = 0; i < 2; i++) {
                EntityExchangeResult<byte[]> r = send(id, w, null, null);
                // the status of the same write when it changes something: 204 for a file, 200 for a mkdir of an
                // existing group (docs/api.md)
                soft.assertThat(r.getStatus().value()).as("%s: %s", w, body(r))
                        .isEqualTo(w.path().contains("/cpu.") ? 204 : 200);
                soft.assertThat(r.getResponseHeaders().getETag()).as("%s answers the version it left", w).isEqualTo(tag);
            }
            // a conditional no-op with the current version still succeeds, and keeps it
            EntityExchangeResult<byte[]> r = send(id, w, "If-Match", tag);
            soft.assertThat(r.getStatus().value()).as("%s with If-Match", w).isIn(200, 204);
        }
        soft.assertAll();
        assertThat(etag(id)).isEqualTo(tag);
        assertThat(new String(web.get().uri("/api/scenarios/" + id).exchange().expectBody().returnResult().getResponseBody()))
                .isEqualTo(doc);
        // and a write that does change something still bumps it
        web.put().uri("/api/scenarios/" + id + "/cgroups/g/cpu.max").contentType(MediaType.TEXT_PLAIN).bodyValue("20000")
                .exchange().expectStatus().is2xxSuccessful().expectHeader().valueEquals("ETag", "\"2\"");
    }
}
