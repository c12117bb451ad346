package io.cfslab.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.store.ReadyMadeExperiments;
import io.cfslab.store.ReadyMadeScenarios;
import io.cfslab.store.RunIds;
import io.cfslab.testsupport.TestApps;
import io.cfslab.testsupport.TestDatabase;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * One rule for an id on every route, page and body (breaker 5 F12, and the body ids of the brief's item 4): ASCII
 * spaces and tabs around it are a paste's and trimmed, its ASCII letters are in any case ({@link RunIds#canonical});
 * a ready-made scenario's or experiment's id is lower case by construction, so {@code E1-ONE-HOG-10PCT} and
 * {@code %20e1-one-hog-10pct} name {@code e1-one-hog-10pct} at every {@code /api/scenarios/{id}…} operation (the page
 * trimmed, the API answered 404), on the page, and in a run's {@code scenarioId} and an experiment's
 * {@code scenario_id} (which refused a tab the run took); any other control character is refused in a body as in a
 * path; a near miss stays 404 naming what was typed.
 */
class ReadyMadeIdsTest {
    private static ConfigurableApplicationContext app;
    private static WebTestClient web;
    private static String base;
    private static final String ID = "e1-one-hog-10pct";

    @BeforeAll
    static void start() {
        app = TestApps.start(TestDatabase.h2("readymadeids"), "readymadeids", Map.of("cfslab.runs.execute", "false"));
        web = TestApps.client(app);
        base = "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");
    }

    @AfterAll
    static void stop() { app.close(); }

    /** The forms a person types or pastes, percent-encoded for a path. */
    static List<String> forms(String id) {
        return List.of(id.toUpperCase(Locale.ROOT), "%20" + id, id + "%20", "%09" + id.substring(0, 1).toUpperCase(Locale.ROOT)
                + id.substring(1) + "%09");
    }

    private static EntityExchangeResult<byte[]> send(HttpMethod method, String target) {
        var spec = web.method(method).uri(URI.create(base + target));
        return (method == HttpMethod.GET || method == HttpMethod.DELETE ? spec
                : spec.contentType(MediaType.APPLICATION_JSON).bodyValue("{}")).exchange().expectBody().returnResult();
    }

    /** What an answer says, without its instance (the target as sent). */
    private static String said(EntityExchangeResult<byte[]> r) {
        String body = r.getResponseBody() == null ? "" : new String(r.getResponseBody());
        return r.getStatus().value() + " " + body.replaceAll("\"instance\":\"[^\"]*\",?", "");
    }

    @Test
    void everyShippedIdIsInItsCanonicalForm() {
        // so that reading any case cannot make two shipped ids one
        List<String> ids = new ArrayList<>();
        new ReadyMadeScenarios().all().forEach(e -> ids.add(e.id()));
        new ReadyMadeExperiments().all().forEach(e -> ids.add(e.id()));
        assertThat(ids).hasSizeGreaterThan(10).allSatisfy(id -> assertThat(RunIds.canonical(id)).isEqualTo(id));
    }

    @Test
    void everyScenarioOperationReadsAReadyMadeIdInEveryForm() {
        JsonNode paths = ApiTestSupport.JSON.readTree(new String(web.get().uri("/v3/api-docs").exchange()
                .expectStatus().isOk().expectBody().returnResult().getResponseBody())).path("paths");
        SoftAssertions soft = new SoftAssertions();
        int routes = 0;
        for (var path : paths.properties()) {
            if (!path.getKey().startsWith("/api/scenarios/{id}")) continue;
            for (var op : path.getValue().properties()) {
                HttpMethod method = HttpMethod.valueOf(op.getKey().toUpperCase(Locale.ROOT));
                if (method == HttpMethod.OPTIONS || method == HttpMethod.HEAD) continue;
                String template = path.getKey().replaceAll("\\{path}", "a").replaceAll("\\{file}", "cpu.max")
                        .replaceAll("\\{name}", "hog").replaceAll("\\{index}", "0").replaceAll("\\{(?!id)[^}]+}", "x");
                String expected = said(send(method, template.replace("{id}", ID)));
                for (String form : forms(ID)) {
                    String target = template.replace("{id}", form);
                    soft.assertThat(said(send(method, target))).as(method + " " + target).isEqualTo(expected);
                }
                routes++;
            }
        }
        soft.assertAll();
        assertThat(routes).as("scenario operations enumerated").isGreaterThan(10);
        for (String form : forms(ID)) {
            web.get().uri(URI.create(base + "/api/scenarios/" + form)).exchange().expectStatus().isOk()
                    .expectBody().jsonPath("$.id").isEqualTo(ID);
        }
        // a write to a ready-made one is 409 EPERM in any form, nothing stored
        ApiTestSupport.problem(web.method(HttpMethod.PUT).uri(URI.create(base + "/api/scenarios/E1-ONE-HOG-10PCT/cgroups/z"))
                .exchange(), HttpStatus.CONFLICT, null, "EPERM");
    }

    @Test
    void aReadyMadeExperimentIsReadInEveryForm() {
        String id = ApiTestSupport.json(web.get().uri("/api/experiments/ready-made").exchange().expectStatus().isOk())
                .get(0).path("id").asString();
        String expected = said(send(HttpMethod.GET, "/api/experiments/ready-made/" + id));
        assertThat(expected).startsWith("200 ");
        for (String form : forms(id)) {
            assertThat(said(send(HttpMethod.GET, "/api/experiments/ready-made/" + form))).as(form).isEqualTo(expected);
        }
    }

    @Test
    void thePageSendsEveryFormToTheShippedId() {
        for (String form : forms(ID)) {
            web.get().uri(URI.create(base + "/scenarios/" + form)).exchange().expectStatus().isSeeOther()
                    .expectHeader().valueEquals("Location", "/scenarios/" + ID);
        }
    }

    @Test
    void aNearMissIs404NamingWhatWasTyped() {
        JsonNode p = ApiTestSupport.problem(web.get().uri("/api/scenarios/e1-one-hog").exchange(), HttpStatus.NOT_FOUND,
                "/id", "ENOENT");
        assertThat(p.path("detail").asString()).contains("e1-one-hog");
        ApiTestSupport.problem(web.get().uri("/api/experiments/ready-made/SEED-NONE").exchange(), HttpStatus.NOT_FOUND,
                "/id", "ENOENT");
    }

    /** The ids of a body, by the same rule, for every body that carries one: a run's and an experiment's. */
    @Test
    void everyBodyIdIsReadByThePathsRule() {
        String stored = ApiTestSupport.createScenario(web, ApiTestSupport.tiny("body ids"));
        List<String[]> cases = new ArrayList<>();
        for (String typed : List.of("\t" + ID, ID + "\t", " E1-ONE-HOG-10PCT ", "\tE1-one-hog-10PCT")) cases.add(new String[] {typed, ID});
        for (String typed : List.of("\t" + stored, stored.toUpperCase(Locale.ROOT) + "\t", " \t" + stored.substring(0, 8))) {
            cases.add(new String[] {typed, stored});
        }
        for (String[] c : cases) {
            String run = ApiTestSupport.submitRun(web, Map.of("scenarioId", c[0]));
            assertThat(ApiTestSupport.run(web, run).path("scenarioId").asString()).as("run of " + c[0]).isEqualTo(c[1]);
            var posted = web.post().uri("/api/experiments").contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("name", "x", "repeats", 1, "scenario_id", c[0], "arms", List.of(Map.of("name", "a"))))
                    .exchange().expectBody(String.class).returnResult();
            assertThat(posted.getStatus().value()).as("experiment of " + c[0] + ": " + posted.getResponseBody()).isEqualTo(202);
            String x = ApiTestSupport.JSON.readTree(posted.getResponseBody()).path("id").asString();
            assertThat(ApiTestSupport.json(web.get().uri("/api/experiments/" + x).exchange().expectStatus().isOk())
                    .path("scenarioId").asString()).as("experiment of " + c[0]).isEqualTo(c[1]);
        }
        // another control character is refused in both, as in a path, and not echoed into an ENOENT
        for (String control : List.of("\u000b", "\u001f", "\u0085", "\u007f")) {
            JsonNode p = ApiTestSupport.problem(web.post().uri("/api/runs").contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("scenarioId", ID + control)).exchange(), HttpStatus.UNPROCESSABLE_CONTENT,
                    "/scenarioId", "EINVAL");
            assertThat(p.path("detail").asString()).contains("control character").doesNotContain(control);
            p = ApiTestSupport.problem(web.post().uri("/api/experiments").contentType(MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("name", "x", "repeats", 1, "scenario_id", ID + control, "arms", List.of(Map.of("name", "a"))))
                    .exchange(), HttpStatus.UNPROCESSABLE_CONTENT, "/scenario_id", "EINVAL");
            assertThat(p.path("detail").asString()).contains("control character").doesNotContain(control);
        }
    }
}
