package io.cfslab.runs;

import static io.cfslab.runs.RunsTestSupport.await;
import static io.cfslab.runs.RunsTestSupport.get;
import static io.cfslab.runs.RunsTestSupport.scenario;
import static io.cfslab.runs.RunsTestSupport.status;
import static io.cfslab.runs.RunsTestSupport.submit;
import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.testsupport.PacedEngine;
import io.cfslab.testsupport.TestApps;
import io.cfslab.testsupport.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * 10 runs submitted at once on a pool of 2: all finish, at most 2 execute at a time, and cancelling one
 * running and one queued run leaves exactly those two {@code cancelled}.
 */
class ConcurrencyTest {

    @Test
    void tenRunsOnAPoolOfTwo() throws Exception {
        PacedEngine.reset();
        PacedEngine.wallMsPerSimulatedSecond = 3000; // 200 ms simulated = 600 ms wall
        // every run holds before its end until the cancels are done: on a loaded machine a 600 ms run could
        // otherwise end between the status poll that saw it running and the DELETE (seen at load 35)
        java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
        PacedEngine.gate = gate;
        try (TestDatabase db = TestDatabase.h2("concurrency");
             ConfigurableApplicationContext app = TestApps.start(db, "pool2", Map.of("cfslab.runs.pool-size", "2"))) {
            WebTestClient web = TestApps.client(app);
            List<CompletableFuture<String>> submits = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                int n = i;
                submits.add(CompletableFuture.supplyAsync(() -> submit(web, Map.of("scenario", scenario("c" + n, 200)))));
            }
            List<String> runs = submits.stream().map(CompletableFuture::join).toList();
            assertThat(runs).doesNotHaveDuplicates().hasSize(10);

            // wait for two running, then cancel one running and one queued
            long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            List<String> running;
            while ((running = withStatus(web, runs, "running")).size() < 2) {
                assertThat(System.nanoTime()).isLessThan(end);
                Thread.sleep(20);
            }
            String cancelRunning = running.get(0);
            web.post().uri("/api/runs/" + cancelRunning + "/cancel").exchange().expectStatus().isAccepted();
            List<String> queued = withStatus(web, runs, "queued");
            assertThat(queued).isNotEmpty();
            String cancelQueued = queued.get(queued.size() - 1);
            web.post().uri("/api/runs/" + cancelQueued + "/cancel").exchange().expectStatus().isAccepted();
            assertThat(status(web, cancelQueued)).isEqualTo("cancelled");
            await(web, cancelRunning, "cancelled", Duration.ofSeconds(30));
            gate.countDown();

            for (String r : runs) {
                if (r.equals(cancelRunning) || r.equals(cancelQueued)) continue;
                var done = await(web, r, "done", Duration.ofSeconds(120));
                assertThat(done.path("attempts").asInt()).isEqualTo(1);
                assertThat(done.path("progress").asDouble()).isEqualTo(100.0);
            }
            assertThat(status(web, cancelRunning)).isEqualTo("cancelled");
            assertThat(status(web, cancelQueued)).isEqualTo("cancelled");
            assertThat(get(web, "/api/runs/" + cancelQueued).path("attempts").asInt()).isZero();
            assertThat(PacedEngine.maxConcurrent.get()).isEqualTo(2);
            assertThat(withStatus(web, runs, "done")).hasSize(8);
            // each run executed once; the queued-then-cancelled one never
            String queuedName = get(web, "/api/runs/" + cancelQueued).path("scenarioName").asString();
            assertThat(PacedEngine.executions).doesNotContainKey(queuedName + "#1");
            assertThat(PacedEngine.executions.values()).allSatisfy(c -> assertThat(c.get()).isEqualTo(1));
            assertThat(PacedEngine.executions).hasSize(9);
        } finally {
            gate.countDown();
            PacedEngine.reset();
        }
    }

    private static List<String> withStatus(WebTestClient web, List<String> runs, String status) {
        return runs.stream().filter(r -> status(web, r).equals(status)).toList();
    }
}
