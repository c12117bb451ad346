package io.cfslab.api;

import static io.cfslab.api.ApiTestSupport.JSON;
import static io.cfslab.api.ApiTestSupport.awaitStatus;
import static io.cfslab.api.ApiTestSupport.json;
import static io.cfslab.api.ApiTestSupport.problem;
import static io.cfslab.api.ApiTestSupport.run;
import static io.cfslab.api.ApiTestSupport.submitRun;
import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.store.RunRepository;
import io.cfslab.testsupport.PacedEngine;
import io.cfslab.testsupport.PacedEngineConfig;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * A run cancelled by request keeps what it recorded (the real engine, paced so that a cancel lands mid-run): its
 * result answers with {@code partial} saying where it stopped, every counter covers 0 to that time, and a run or a
 * repeat that never started still has none (409).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:partial-${random.uuid};DB_CLOSE_DELAY=-1",
        "cfslab.runs.pool-size=1", "cfslab.runs.max-paced=0", "cfslab.runs.max-wall-time=120s", "cfslab.runs.progress-interval=50ms"})
@AutoConfigureWebTestClient(timeout = "60s")
@Import(PacedEngineConfig.class) // the real engine, with a hook after a cancelled simulation
class PartialResultTest {
    private static final long DURATION_NS = 60_000_000_000L;
    private static final long PERIOD_US = 100_000;
    private static final long QUOTA_US = 50_000;

    @Autowired WebTestClient web;
    @Autowired RunRepository runs;
    @Autowired io.cfslab.runs.RunService runService;

    @BeforeEach
    void realEngine() {
        PacedEngine.reset(); // unpaced by the engine: the runs' own pace holds them back
    }

    /** One hog limited to half a CPU on one CPU for 60 s: it is throttled in every period. */
    private static JsonNode longScenario() {
        return JSON.readTree("""
                {"name": "long", "seed": 3, "duration": "60s", "machine": {"profile": "generic", "cpus": 1},
                 "cgroups": [{"path": "/a", "cpu.max": "50000 100000"}],
                 "tasks": [{"name": "hog", "cgroup": "/a", "count": 1, "workload": {"kind": "hog"}}],
                 "record": {"interval": "100ms"}}
                """);
    }

    @Test
    void aCancelledRunKeepsItsResultUpToWhereItStopped() throws Exception {
        // 60 s simulated at 4x real time: 15 s of wall time, cancelled after a second or so
        String id = submitRun(web, Map.of("scenario", longScenario(), "pace", 4, "repeats", 2));
        awaitStatus(web, id, "running", Duration.ofSeconds(30));
        long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (run(web, id).path("simulatedNs").asLong() < 1_000_000_000L) {
            assertThat(System.nanoTime()).as("run %s to pass 1 s simulated", id).isLessThan(until);
            Thread.sleep(50);
        }
        web.post().uri("/api/runs/" + id + "/cancel").exchange().expectStatus().isAccepted();
        JsonNode view = awaitStatus(web, id, "cancelled", Duration.ofSeconds(30));

        JsonNode result = json(web.get().uri("/api/runs/" + id + "/result").exchange().expectStatus().isOk());
        JsonNode partial = result.path("partial");
        long stoppedNs = partial.path("stopped_at_ns").asLong();
        assertThat(partial.path("duration_ns").asLong()).isEqualTo(DURATION_NS);
        assertThat(stoppedNs).as("stopped mid-run").isGreaterThanOrEqualTo(1_000_000_000L).isLessThan(DURATION_NS);
        assertThat(result.path("simulated_ns").asLong()).isEqualTo(stoppedNs);
        assertThat(view.path("simulatedNs").asLong()).as("the run's own record of where it stopped").isEqualTo(stoppedNs);

        // every counter covers 0 to the stop: one period per 100 ms, half a CPU's time at most
        JsonNode stat = result.path("cgroups").path("/a").path("cpu.stat");
        long periods = stoppedNs / 1000 / PERIOD_US;
        assertThat(stat.path("nr_periods").asLong()).isBetween(periods - 1, periods + 1);
        assertThat(stat.path("nr_throttled").asLong()).isBetween(periods - 2, stat.path("nr_periods").asLong());
        long usage = stat.path("usage_usec").asLong();
        assertThat(usage).isBetween((periods - 1) * QUOTA_US, (periods + 1) * QUOTA_US);
        assertThat(usage + stat.path("throttled_usec").asLong()).as("run or throttled, never more than the time")
                .isLessThanOrEqualTo(stoppedNs / 1000 + PERIOD_US);
        JsonNode series = result.path("series");
        assertThat(series.size()).isBetween((int) periods - 1, (int) periods);
        assertThat(series.get(series.size() - 1).path("at_ns").asLong()).isLessThanOrEqualTo(stoppedNs);

        // the parts endpoints answer from the same stored result
        JsonNode cpuStat = json(web.get().uri("/api/runs/" + id + "/cpu.stat").exchange().expectStatus().isOk());
        assertThat(cpuStat.path("/a").path("cpu.stat")).isEqualTo(stat);
        web.get().uri("/api/runs/" + id + "/histograms/distribute_cfs_runtime_ns").exchange().expectStatus().isOk();

        // the second repeat never started: it has no result
        JsonNode none = problem(web.get().uri("/api/runs/" + id + "/result?repeat=1").exchange(), HttpStatus.CONFLICT,
                "/id", null);
        assertThat(none.path("detail").asString()).contains("cancelled before repeat 1 started");
    }

    @Test
    void aRunCancelledWhileQueuedHasNoResult() throws Exception {
        // one worker: the first run holds it, the second waits in the queue and is cancelled there
        String first = submitRun(web, Map.of("scenario", longScenario(), "pace", 4));
        awaitStatus(web, first, "running", Duration.ofSeconds(30));
        String queued = submitRun(web, Map.of("scenario", longScenario(), "pace", 4));
        problem(web.get().uri("/api/runs/" + queued + "/result").exchange(), HttpStatus.CONFLICT, "/id", null);
        web.post().uri("/api/runs/" + queued + "/cancel").exchange().expectStatus().isAccepted();
        awaitStatus(web, queued, "cancelled", Duration.ofSeconds(10));
        JsonNode none = problem(web.get().uri("/api/runs/" + queued + "/result").exchange(), HttpStatus.CONFLICT,
                "/id", null);
        assertThat(none.path("detail").asString()).contains("cancelled before it started");
        web.post().uri("/api/runs/" + first + "/cancel").exchange().expectStatus().isAccepted();
        awaitStatus(web, first, "cancelled", Duration.ofSeconds(30));
    }

    @Test
    void aPartialResultIsStoredOnlyWithTheCancelledStatus() throws Exception {
        // between the cancelled simulation and the store, the run is ended elsewhere (another instance gave it up as
        // interrupted): the worker's transaction rolls back, so no partial result hangs off a failed run
        AtomicReference<String> id = new AtomicReference<>();
        PacedEngine.afterCancelledSimulation = () -> runs.failInterrupted(id.get(), "other-instance", "given up (test)");
        id.set(submitRun(web, Map.of("scenario", longScenario(), "pace", 4)));
        awaitStatus(web, id.get(), "running", Duration.ofSeconds(30));
        web.post().uri("/api/runs/" + id.get() + "/cancel").exchange().expectStatus().isAccepted();
        JsonNode failed = awaitStatus(web, id.get(), "failed", Duration.ofSeconds(30));
        assertThat(failed.path("error").asString()).isEqualTo("given up (test)");
        assertThat(runs.hasResult(id.get(), 0)).as("no result stored for the failed run").isFalse();
        assertThat(runs.findCgroupStats(id.get(), 0)).as("nor any part of it").isEmpty();
        problem(web.get().uri("/api/runs/" + id.get() + "/result").exchange(), HttpStatus.CONFLICT, "/id", null);
    }

    @Test
    void aCancelThatLandsAfterTheSimulationEndedLeavesTheRunDone() throws Exception {
        // the cancel arrives once the simulation reached its duration, before the worker stores the result (the
        // breaker's F2): the run finished, so it ends done with its whole result, never cancelled at 100 %
        AtomicReference<String> id = new AtomicReference<>();
        java.util.concurrent.CountDownLatch submitted = new java.util.concurrent.CountDownLatch(1);
        PacedEngine.afterSimulation = () -> {
            // an unpaced 2 s run can end before submitRun has returned its id (a CI flake): wait for the id
            try {
                if (!submitted.await(30, java.util.concurrent.TimeUnit.SECONDS)) return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            runService.cancel(id.get());
        };
        JsonNode scenario = JSON.readTree(longScenario().toString().replace("\"60s\"", "\"2s\""));
        id.set(submitRun(web, Map.of("scenario", scenario)));
        submitted.countDown();
        JsonNode view = awaitStatus(web, id.get(), "done", Duration.ofSeconds(30));
        assertThat(view.path("cancelRequested").asBoolean()).as("the cancel did land").isTrue();
        assertThat(view.path("progress").asDouble()).isEqualTo(100.0);
        JsonNode result = json(web.get().uri("/api/runs/" + id.get() + "/result").exchange().expectStatus().isOk());
        assertThat(result.has("partial")).as("a whole result").isFalse();
        assertThat(result.path("simulated_ns").asLong()).isEqualTo(2_000_000_000L);
    }
}
