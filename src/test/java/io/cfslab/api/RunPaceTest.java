package io.cfslab.api;

import static io.cfslab.api.ApiTestSupport.JSON;
import static io.cfslab.api.ApiTestSupport.awaitStatus;
import static io.cfslab.api.ApiTestSupport.json;
import static io.cfslab.api.ApiTestSupport.problem;
import static io.cfslab.api.ApiTestSupport.run;
import static io.cfslab.api.ApiTestSupport.submitRun;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code "pace"} of a run request (issue 12): a paced run takes at least simulated time / pace of wall time, its
 * result is the unpaced run's outside {@code engine}, a cancel stops it at once, and a bad pace is a problem naming
 * {@code /pace}. Also: a run's {@code seed} is the seed it runs with, the same as {@code settings.seed}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:pace-${random.uuid};DB_CLOSE_DELAY=-1;WRITE_DELAY=0",
        "cfslab.runs.max-wall-time=60s"})
@AutoConfigureWebTestClient(timeout = "60s")
class RunPaceTest {
    @Autowired WebTestClient web;

    /** One throttled hog on one CPU for {@code duration}: distribute_cfs_runtime() runs every period. */
    private static JsonNode scenario(String duration) {
        return JSON.readTree("""
                {"name": "paced", "seed": 11, "duration": "%s", "machine": {"profile": "generic", "cpus": 2},
                 "cgroups": [{"path": "/a", "cpu.max": "50000 100000"}],
                 "tasks": [{"name": "hog", "cgroup": "/a", "count": 2, "workload": {"kind": "hog"}}]}
                """.formatted(duration));
    }

    private static String withoutEngine(String resultJson) {
        ObjectNode r = (ObjectNode) JSON.readTree(resultJson);
        r.remove("engine");
        return r.toString();
    }

    private String result(String id) {
        return new String(web.get().uri("/api/runs/" + id + "/result").exchange().expectStatus().isOk()
                .expectBody().returnResult().getResponseBody());
    }

    @Test
    void aPacedRunTakesSimulatedOverPaceAndGivesTheUnpacedResult() throws Exception {
        long start = System.nanoTime();
        String paced = submitRun(web, Map.of("scenario", scenario("1s"), "pace", 2));
        JsonNode p = awaitStatus(web, paced, "done", Duration.ofSeconds(30));
        long wallMs = (System.nanoTime() - start) / 1_000_000;
        String unpaced = submitRun(web, Map.of("scenario", scenario("1s")));
        JsonNode u = awaitStatus(web, unpaced, "done", Duration.ofSeconds(30));

        assertThat(wallMs).as("1 s simulated at 2x real time").isGreaterThanOrEqualTo(500);
        assertThat(p.path("wallMs").asLong()).as("the run's own wall time").isGreaterThanOrEqualTo(500);
        assertThat(p.path("pace").asDouble()).isEqualTo(2.0);
        assertThat(u.path("pace").isNull()).isTrue();
        assertThat(withoutEngine(result(paced))).isEqualTo(withoutEngine(result(unpaced)));
        // the seed it ran with, in both places (it was null in the view while settings.seed had it)
        assertThat(p.path("seed").asLong()).isEqualTo(11).isEqualTo(p.path("settings").path("seed").asLong());
    }

    @Test
    void aPacedRunGrowsWhileItRunsAndStopsAtOnceWhenCancelled() throws Exception {
        // 10 s simulated at 1x real time: it cannot finish within this test unless the pace is ignored
        String id = submitRun(web, Map.of("scenario", scenario("10s"), "pace", 1));
        JsonNode r = awaitStatus(web, id, "running", Duration.ofSeconds(20));
        double first = r.path("progress").asDouble();
        Thread.sleep(1500);
        JsonNode later = run(web, id);
        assertThat(later.path("status").asString()).isEqualTo("running");
        assertThat(later.path("progress").asDouble()).as("progress grows with wall time")
                .isGreaterThan(first).isLessThan(40.0);
        long cancelAt = System.nanoTime();
        web.post().uri("/api/runs/" + id + "/cancel").exchange().expectStatus().isAccepted();
        JsonNode cancelled = awaitStatus(web, id, "cancelled", Duration.ofSeconds(5));
        assertThat((System.nanoTime() - cancelAt) / 1_000_000).as("ms from cancel to cancelled").isLessThan(3000);
        // it stops where it was: the rest of the run is not simulated unpaced after the cancel (it raced to 100 %)
        assertThat(cancelled.path("progress").asDouble()).as("progress when cancelled")
                .isLessThan(later.path("progress").asDouble() + 30.0);
    }

    @Test
    void aBadPaceIsAProblemNamingIt() {
        for (Object bad : List.of("fast", true, List.of(10))) {
            problem(post(Map.of("scenarioId", "e1-one-hog-10pct", "pace", bad)), HttpStatus.UNPROCESSABLE_CONTENT,
                    "/pace", "EINVAL");
        }
        for (Object outOfRange : List.of(0, -1, 0.001, 1e9)) {
            problem(post(Map.of("scenarioId", "e1-one-hog-10pct", "pace", outOfRange)), HttpStatus.UNPROCESSABLE_CONTENT,
                    "/pace", "ERANGE");
        }
        // 100 repeats of 1 s at a tenth of real time: 1000 s of wall time, over the 60 s limit
        JsonNode p = problem(post(Map.of("scenario", scenario("1s"), "repeats", 100, "pace", 0.1)),
                HttpStatus.UNPROCESSABLE_CONTENT, "/pace", "ERANGE");
        assertThat(p.path("detail").asString()).contains("cfslab.runs.max-wall-time").contains("1000 s");
        // null is as fast as possible
        String id = submitRun(web, Map.of("scenarioId", "e1-one-hog-10pct", "pace", JSON.nullNode()));
        assertThat(json(web.get().uri("/api/runs/" + id).exchange().expectStatus().isOk()).path("pace").isNull()).isTrue();
    }

    private WebTestClient.ResponseSpec post(Map<String, Object> body) {
        return web.post().uri("/api/runs").contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }
}
