package io.cfslab.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.testsupport.TestApps;
import io.cfslab.testsupport.TestDatabase;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * Breaker 6 F9: "a text/plain PUT is always a write, never a mkdir", at the cgroup root too: {@code echo x >
 * /sys/fs/cgroup/} writes to a directory, which the kernel refuses ({@code EISDIR}); it was a mkdir of the root that
 * answered 200 and dropped the body. Nothing is changed.
 */
class CgroupRootWriteTest {
    private static ConfigurableApplicationContext app;
    private static WebTestClient web;

    @BeforeAll
    static void start() {
        app = TestApps.start(TestDatabase.h2("cgrouproot"), "cgrouproot", Map.of("cfslab.runs.execute", "false"));
        web = TestApps.client(app);
    }

    @AfterAll
    static void stop() { app.close(); }

    @Test
    void aTextPlainPutToTheRootIsAWriteToADirectory() {
        String scenario = ApiTestSupport.createScenario(web, ApiTestSupport.tiny("root write"));
        String etag = ScenarioWrite.etag(web, scenario);
        for (String root : List.of("/cgroups", "/cgroups/")) {
            JsonNode p = ApiTestSupport.problem(web.put().uri("/api/scenarios/" + scenario + root).contentType(MediaType.TEXT_PLAIN)
                    .bodyValue("x").exchange(), HttpStatus.UNPROCESSABLE_CONTENT, "/path", "EISDIR");
            assertThat(p.path("detail").asString()).as(root).contains("the cgroup root is a directory");
        }
        // a mkdir of the root (no text/plain body) is still the mkdir -p of what exists
        web.put().uri("/api/scenarios/" + scenario + "/cgroups/").exchange().expectStatus().isOk();
        assertThat(ScenarioWrite.etag(web, scenario)).isEqualTo(etag);
    }

    /**
     * Breaker 7 N3: a text/plain PUT to a directory, the root or an existing group, is one fault, 422 {@code EISDIR},
     * judged as content: after the scenario (404), a ready-made one (409 {@code EPERM}) and a false If-Match (412).
     */
    @Test
    void aTextPlainPutToAnyDirectoryIsEisdirAfterTheScenarioAndIfMatchChecks() {
        String scenario = ApiTestSupport.createScenario(web, ApiTestSupport.tiny("dir write"));
        web.put().uri("/api/scenarios/" + scenario + "/cgroups/g").exchange().expectStatus().isCreated();
        String etag = ScenarioWrite.etag(web, scenario);
        for (String dir : List.of("/cgroups", "/cgroups/", "/cgroups/g", "/cgroups/g/")) {
            ApiTestSupport.problem(web.put().uri("/api/scenarios/00000000-0000-0000-0000-000000000000" + dir)
                    .contentType(MediaType.TEXT_PLAIN).bodyValue("x").exchange(), HttpStatus.NOT_FOUND, null, "ENOENT");
            if (!dir.startsWith("/cgroups/g")) {
                ApiTestSupport.problem(web.put().uri("/api/scenarios/e1-one-hog-10pct" + dir)
                        .contentType(MediaType.TEXT_PLAIN).bodyValue("x").exchange(), HttpStatus.CONFLICT, null, "EPERM");
            }
            web.put().uri("/api/scenarios/" + scenario + dir).header("If-Match", "\"99\"").contentType(MediaType.TEXT_PLAIN)
                    .bodyValue("x").exchange().expectStatus().isEqualTo(HttpStatus.PRECONDITION_FAILED);
            JsonNode p = ApiTestSupport.problem(web.put().uri("/api/scenarios/" + scenario + dir).contentType(MediaType.TEXT_PLAIN)
                    .bodyValue("x").exchange(), HttpStatus.UNPROCESSABLE_CONTENT, "/path", "EISDIR");
            assertThat(p.path("detail").asString()).as(dir).contains("is a directory");
        }
        assertThat(ScenarioWrite.etag(web, scenario)).isEqualTo(etag);
    }
}
