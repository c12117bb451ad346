package io.cfslab.runs;

import static io.cfslab.runs.RunsTestSupport.JSON;
import static io.cfslab.runs.RunsTestSupport.get;
import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.testsupport.PacedEngine;
import io.cfslab.testsupport.TestApps;
import io.cfslab.testsupport.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * Experiments are as safe as runs: one stopped mid-way (its running repeats go back to the queue) finishes in a new
 * instance on the same database, with the results an uninterrupted experiment gives; a failed repeat ends the
 * experiment as failed and cancels its other runs.
 */
class ExperimentRestartTest {

    static String experiment(String name, int repeats, String arms) {
        return """
                {"name": "%s", "seed": 21, "repeats": %d,
                 "scenario": {"name": "%s", "duration": "200ms", "machine": {"profile": "generic", "cpus": 1},
                              "cgroups": [{"path": "/a", "cpu.max": "50000 100000"}],
                              "tasks": [{"name": "nop", "cgroup": "/a", "workload": {"kind": "hog"}}]},
                 "arms": %s}""".formatted(name, repeats, name, arms);
    }

    static final String TWO_ARMS = "[{\"name\": \"base\"}, {\"name\": \"cfs\", \"set\": {\"/kernel/throttle\": \"cfs_rq\"}}]";

    static String create(WebTestClient web, String body) {
        var res = web.post().uri("/api/experiments").contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange()
                .expectStatus().isAccepted().expectBody().returnResult();
        String loc = res.getResponseHeaders().getLocation().toString();
        return loc.substring(loc.lastIndexOf('/') + 1);
    }

    static JsonNode await(WebTestClient web, String id, String status, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        JsonNode x = get(web, "/api/experiments/" + id);
        while (!x.path("status").asString().equals(status)) {
            assertThat(System.nanoTime()).as("experiment %s to reach %s; last %s", id, status, x).isLessThan(end);
            Thread.sleep(50);
            x = get(web, "/api/experiments/" + id);
        }
        return x;
    }

    @Test
    void anExperimentSurvivesAStopMidWay() throws Exception {
        PacedEngine.reset();
        try (TestDatabase db = TestDatabase.h2("exp-restart")) {
            String id;
            try (ConfigurableApplicationContext first = TestApps.start(db, "first", Map.of("cfslab.runs.pool-size", "2"))) {
                WebTestClient web = TestApps.client(first);
                PacedEngine.wallMsPerSimulatedSecond = 5000; // 1 s wall per run
                id = create(web, experiment("interrupted", 3, TWO_ARMS));
                long end = System.nanoTime() + Duration.ofSeconds(15).toNanos();
                JsonNode x = get(web, "/api/experiments/" + id);
                while (x.path("done").asInt() < 2 || !running(x)) {
                    assertThat(System.nanoTime()).as("two runs done and more running: %s", x).isLessThan(end);
                    Thread.sleep(20);
                    x = get(web, "/api/experiments/" + id);
                }
            } // stopped with runs done, running and queued

            JdbcClient jdbc = JdbcClient.create(new DriverManagerDataSource(db.url(), db.user(), db.password()));
            List<String> statuses = jdbc.sql("select status from run where experiment_id = ?").param(id).query(String.class).list();
            assertThat(statuses).hasSize(6).contains("done", "queued").doesNotContain("running", "failed", "cancelled");

            PacedEngine.wallMsPerSimulatedSecond = 0;
            try (ConfigurableApplicationContext second = TestApps.start(db, "second", Map.of("cfslab.runs.pool-size", "2"))) {
                WebTestClient web = TestApps.client(second);
                JsonNode done = await(web, id, "done", Duration.ofSeconds(60));
                assertThat(done.path("done").asInt()).isEqualTo(6);
                JsonNode result = get(web, "/api/experiments/" + id + "/result");
                // the same experiment, never interrupted, gives the same values run by run
                String fresh = create(web, experiment("interrupted", 3, TWO_ARMS));
                await(web, fresh, "done", Duration.ofSeconds(60));
                assertThat(get(web, "/api/experiments/" + fresh + "/result").path("metrics")).isEqualTo(result.path("metrics"));
                List<String> workers = new ArrayList<>();
                done.path("arms").forEach(a -> a.path("runs").forEach(r -> workers.add(get(web, "/api/runs/" + r.path("id").asString())
                        .path("worker").asString())));
                assertThat(workers).contains("first", "second");
            }
        }
    }

    private static boolean running(JsonNode x) {
        for (JsonNode a : x.path("arms")) for (JsonNode r : a.path("runs")) if (r.path("status").asString().equals("running")) return true;
        return false;
    }

    @Test
    void aFailedRepeatFailsTheExperimentAndCancelsTheRest() throws Exception {
        PacedEngine.reset();
        try (TestDatabase db = TestDatabase.h2("exp-fail");
             ConfigurableApplicationContext app = TestApps.start(db, "only", Map.of("cfslab.runs.pool-size", "1",
                     "cfslab.runs.max-wall-time", "3s"))) {
            WebTestClient web = TestApps.client(app);
            // short arm 0.04 s of paced wall time, long arm 8 s: over the 3 s limit; the margin on both sides is wide
            // because the short arm's first run also pays the JIT's warm-up, seconds on a loaded machine
            PacedEngine.wallMsPerSimulatedSecond = 4000;
            String id = create(web, experiment("failing", 2,
                    "[{\"name\": \"short\", \"set\": {\"/duration\": \"10ms\"}}, {\"name\": \"long\", \"set\": {\"/duration\": \"2s\"}}]"));
            JsonNode failed = await(web, id, "failed", Duration.ofSeconds(30));
            assertThat(failed.path("error").asString()).startsWith("arm long, run 1").contains("max wall time exceeded");
            JsonNode shortArm = failed.path("arms").get(0);
            JsonNode longArm = failed.path("arms").get(1);
            assertThat(shortArm.path("runs").get(0).path("status").asString()).isEqualTo("done");
            assertThat(longArm.path("runs").get(0).path("status").asString()).isEqualTo("failed");
            assertThat(shortArm.path("runs").get(1).path("status").asString()).isEqualTo("cancelled");
            assertThat(longArm.path("runs").get(1).path("status").asString()).isEqualTo("cancelled");
            assertThat(JSON.readTree(web.get().uri("/api/experiments/" + id + "/table").exchange().expectStatus().isEqualTo(409)
                    .expectBody(String.class).returnResult().getResponseBody()).path("detail").asString()).contains("failed");
        }
    }
}
