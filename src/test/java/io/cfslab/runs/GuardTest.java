package io.cfslab.runs;

import static io.cfslab.runs.RunsTestSupport.await;
import static io.cfslab.runs.RunsTestSupport.scenario;
import static io.cfslab.runs.RunsTestSupport.submit;
import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.testsupport.PacedEngine;
import io.cfslab.testsupport.PacedEngineConfig;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.annotation.Import;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/** Per-run guards: the event budget and the wall-time limit end a run as {@code failed} with the reason. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:guards-${random.uuid};DB_CLOSE_DELAY=-1",
        "cfslab.runs.pool-size=2", "cfslab.runs.poll-interval=100ms", "cfslab.runs.progress-interval=50ms",
        "cfslab.runs.max-events=5000", "cfslab.runs.max-wall-time=1s"})
@AutoConfigureWebTestClient(timeout = "30s") // a loaded 2-core CI machine can take more than the default 5 s
@Import(PacedEngineConfig.class)
class GuardTest {
    @Autowired WebTestClient web;

    @BeforeEach
    void reset() { PacedEngine.reset(); }

    @Test
    void eventBudget() throws Exception {
        // 30 s of a throttled hog: far more than 5000 events in the real simulator
        String run = submit(web, Map.of("scenario", scenario("events", 30_000)));
        JsonNode failed = await(web, run, "failed", Duration.ofSeconds(20));
        assertThat(failed.path("error").asString()).startsWith("max events exceeded (5000)");
        assertThat(failed.path("progress").asDouble()).isLessThan(100.0);
        assertThat(failed.path("events").asLong()).as("progress seen before the abort").isPositive();
    }

    @Test
    void wallTime() throws Exception {
        PacedEngine.wallMsPerSimulatedSecond = 10_000; // 400 ms simulated = 4 s wall
        long t0 = System.nanoTime();
        String run = submit(web, Map.of("scenario", scenario("slow", 400)));
        JsonNode failed = await(web, run, "failed", Duration.ofSeconds(10));
        assertThat(failed.path("error").asString()).startsWith("max wall time exceeded (PT1S)");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(3));
    }
}
