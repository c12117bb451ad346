package io.cfslab.runs;

import static io.cfslab.runs.RunsTestSupport.await;
import static io.cfslab.runs.RunsTestSupport.scenario;
import static io.cfslab.runs.RunsTestSupport.submit;
import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.testsupport.PacedEngine;
import io.cfslab.testsupport.TestApps;
import io.cfslab.testsupport.TestDatabase;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * Two application instances on one PostgreSQL database (the scale-out of {@code docker compose --scale
 * worker=N}): 10 runs submitted to one of them each execute exactly once, and both instances execute some.
 * Skipped without a PostgreSQL (see {@link TestDatabase#postgres()}).
 */
class ScaleOutTest {

    @Test
    void twoInstancesShareTheQueue() throws Exception {
        PacedEngine.reset();
        PacedEngine.wallMsPerSimulatedSecond = 3000; // 200 ms simulated = 600 ms wall
        try (TestDatabase db = TestDatabase.postgres();
             ConfigurableApplicationContext a = TestApps.start(db, "instance-a", Map.of("cfslab.runs.pool-size", "2"));
             ConfigurableApplicationContext b = TestApps.start(db, "instance-b", Map.of("cfslab.runs.pool-size", "2"))) {
            WebTestClient web = TestApps.client(a);
            List<String> runs = new ArrayList<>();
            for (int i = 0; i < 10; i++) runs.add(submit(web, Map.of("scenario", scenario("scale" + i, 200))));

            Set<String> workers = new HashSet<>();
            WebTestClient other = TestApps.client(b);
            for (String r : runs) {
                JsonNode done = await(other, r, "done", Duration.ofSeconds(60)); // either instance answers for any run
                assertThat(done.path("attempts").asInt()).as("run %s executed once", r).isEqualTo(1);
                workers.add(done.path("worker").asString());
            }
            assertThat(workers).containsExactlyInAnyOrder("instance-a", "instance-b");
            assertThat(PacedEngine.executions).hasSize(10);
            assertThat(PacedEngine.executions.values()).allSatisfy(c -> assertThat(c.get()).isEqualTo(1));
        }
    }

    /** An experiment's runs are jobs of the shared queue too: both instances execute some, each exactly once. */
    @Test
    void anExperimentRunsOnEveryInstance() throws Exception {
        PacedEngine.reset();
        PacedEngine.wallMsPerSimulatedSecond = 3000; // 200 ms simulated = 600 ms wall
        try (TestDatabase db = TestDatabase.postgres();
             ConfigurableApplicationContext a = TestApps.start(db, "instance-a", Map.of("cfslab.runs.pool-size", "1"));
             ConfigurableApplicationContext b = TestApps.start(db, "instance-b", Map.of("cfslab.runs.pool-size", "1"))) {
            WebTestClient web = TestApps.client(a);
            String id = ExperimentRestartTest.create(web, ExperimentRestartTest.experiment("scale-out", 4,
                    ExperimentRestartTest.TWO_ARMS));
            JsonNode done = ExperimentRestartTest.await(TestApps.client(b), id, "done", Duration.ofSeconds(60));
            Set<String> workers = new HashSet<>();
            for (JsonNode arm : done.path("arms")) {
                for (JsonNode r : arm.path("runs")) {
                    JsonNode run = RunsTestSupport.get(web, "/api/runs/" + r.path("id").asString());
                    assertThat(run.path("attempts").asInt()).isEqualTo(1);
                    workers.add(run.path("worker").asString());
                }
            }
            assertThat(workers).containsExactlyInAnyOrder("instance-a", "instance-b");
            assertThat(PacedEngine.executions.values().stream().mapToInt(c -> c.get()).sum()).isEqualTo(8);
            assertThat(RunsTestSupport.get(web, "/api/experiments/" + id + "/result").path("repeats").asInt()).isEqualTo(4);
        }
    }
}
