package io.cfslab.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.testsupport.TestApps;
import io.cfslab.testsupport.TestDatabase;
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
 * Breaker 9 F27, "Order of checks" on a ready-made scenario: the resource a write names is looked up first (404
 * ENOENT: the group, file, task or timeline entry), then the scenario's read-only rule (409 EPERM), then a false
 * If-Match (412) and the write's own refusals. Every write below a scenario is sent to a ready-made scenario and to a
 * stored copy of it: where the copy answers 404, so does the ready-made one (it said 409 EPERM, as if the target
 * existed and were protected); wherever the copy would perform the write or refuse it otherwise, the ready-made one
 * is 409 EPERM. The writes walked are checked against the OpenAPI document, so a write added later is in the walk.
 */
class ReadyMadeOrderTest {
    private static ConfigurableApplicationContext app;
    private static WebTestClient web;
    private static final String READY = "e1-one-hog-10pct";

    @BeforeAll
    static void start() {
        app = TestApps.start(TestDatabase.h2("readymadeorder"), "readymadeorder", Map.of("cfslab.runs.execute", "false"));
        web = TestApps.client(app);
    }

    @AfterAll
    static void stop() { app.close(); }

    /** A write: method, the template it belongs to, the path below the scenario, content type and body (or null). */
    private record Write(HttpMethod method, String template, String below, String type, String body) {}

    private static List<Write> writes(String group) {
        String text = MediaType.TEXT_PLAIN_VALUE, json = MediaType.APPLICATION_JSON_VALUE;
        String files = "/cgroups/{path}/{file}", groups = "/cgroups/{path}";
        return List.of(
                new Write(HttpMethod.DELETE, "/cgroups", "/cgroups", null, null),
                new Write(HttpMethod.PUT, "/cgroups", "/cgroups", null, null),
                new Write(HttpMethod.DELETE, groups, "/cgroups/nope", null, null),
                new Write(HttpMethod.DELETE, groups, "/cgroups" + group + "/nope", null, null),
                new Write(HttpMethod.DELETE, groups, "/cgroups/nope/deeper", null, null),
                new Write(HttpMethod.PUT, groups, "/cgroups/nope/deeper", null, null),
                new Write(HttpMethod.PUT, groups, "/cgroups/newone", null, null),
                new Write(HttpMethod.PUT, files, "/cgroups/nope/cpu.max", text, "1"),
                new Write(HttpMethod.PUT, files, "/cgroups" + group + "/cpu.nope", text, "1"),
                new Write(HttpMethod.PUT, files, "/cgroups" + group + "/cpu.max", text, "50000 100000"),
                new Write(HttpMethod.PUT, files, "/cgroups" + group + "/cpu.max", text, "garbage"),
                new Write(HttpMethod.DELETE, "/tasks/{name}", "/tasks/nope", null, null),
                new Write(HttpMethod.POST, "/tasks", "/tasks", json, "{\"name\": \"t9\", \"cgroup\": \"/nope\"}"),
                new Write(HttpMethod.POST, "/tasks", "/tasks", json, "{\"bogus\": 1}"),
                new Write(HttpMethod.DELETE, "/timeline/{index}", "/timeline/99", null, null),
                new Write(HttpMethod.POST, "/timeline", "/timeline", json, "{\"bogus\": 1}"),
                new Write(HttpMethod.POST, "/cgroups:generate", "/cgroups:generate", json, "{\"bogus\": 1}"));
    }

    private static EntityExchangeResult<byte[]> send(String id, Write w, String ifMatch) {
        var spec = web.method(w.method()).uri("/api/scenarios/" + id + w.below());
        if (ifMatch != null) spec = spec.header("If-Match", ifMatch);
        return (w.body() == null ? spec : spec.contentType(MediaType.parseMediaType(w.type())).bodyValue(w.body()))
                .exchange().expectBody().returnResult();
    }

    private static String text(EntityExchangeResult<byte[]> r) {
        return r.getResponseBody() == null ? "" : new String(r.getResponseBody());
    }

    @Test
    void aMissingTargetIs404BeforeTheReadOnly409() {
        JsonNode ready = ApiTestSupport.json(web.get().uri("/api/scenarios/" + READY).exchange().expectStatus().isOk());
        String group = ready.path("scenario").path("cgroups").get(0).path("path").asString();
        SoftAssertions soft = new SoftAssertions();
        Set<String> walked = new TreeSet<>();
        int notFound = 0;
        for (Write w : writes(group)) {
            for (String ifMatch : new String[] {null, "\"no-such-tag\""}) {
                // a fresh copy for every write, so that one write's change cannot decide the next one's answer
                String copy = ApiTestSupport.createScenario(web, ready.path("scenario").toString());
                var stored = send(copy, w, ifMatch);
                var readyMade = send(READY, w, ifMatch);
                String what = w.method() + " " + w.below() + (ifMatch == null ? "" : " If-Match " + ifMatch)
                        + ": stored " + stored.getStatus().value() + " " + text(stored) + "; ready-made " + text(readyMade);
                int s = stored.getStatus().value();
                if (s == 404) {
                    notFound++;
                    soft.assertThat(readyMade.getStatus().value()).as(what).isEqualTo(404);
                    soft.assertThat(text(readyMade).replace(READY, "ID")).as(what).isEqualTo(text(stored).replace(copy, "ID"));
                } else if (s == 400 || s == 415) {
                    soft.assertThat(readyMade.getStatus().value()).as(what).isEqualTo(s);
                } else {
                    soft.assertThat(readyMade.getStatus().value()).as(what).isEqualTo(409);
                    soft.assertThat(text(readyMade)).as(what).contains("\"errno\":\"EPERM\"");
                }
            }
            walked.add(w.method() + " /api/scenarios/{id}" + w.template());
        }
        soft.assertAll();
        assertThat(notFound).as("writes whose target is missing").isGreaterThanOrEqualTo(12);
        // every write the document lists below a scenario is walked
        JsonNode paths = ApiTestSupport.JSON.readTree(new String(web.get().uri("/v3/api-docs").exchange()
                .expectStatus().isOk().expectBody().returnResult().getResponseBody())).path("paths");
        Set<String> documented = new TreeSet<>();
        for (var path : paths.properties()) {
            if (!path.getKey().startsWith("/api/scenarios/{id}/")) continue;
            for (var op : path.getValue().properties()) {
                String m = op.getKey().toUpperCase(Locale.ROOT);
                if (Set.of("PUT", "POST", "DELETE", "PATCH").contains(m)) documented.add(m + " " + path.getKey());
            }
        }
        // a file cannot be removed (its DELETE is the group's rmdir's 'a file cannot be removed' refusal)
        documented.remove("DELETE /api/scenarios/{id}/cgroups/{path}/{file}");
        assertThat(walked).containsAll(documented);
    }
}
