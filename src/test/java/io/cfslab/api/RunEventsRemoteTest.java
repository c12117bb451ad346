package io.cfslab.api;

import static io.cfslab.api.RunEventsTest.named;
import static io.cfslab.api.RunEventsTest.names;
import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.api.RunEventsTest.Sse;
import io.cfslab.testsupport.PacedEngine;
import io.cfslab.testsupport.TestApps;
import io.cfslab.testsupport.TestDatabase;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * Scale-out: a stream served by an instance that does not execute the run (here one with
 * {@code cfslab.runs.execute=false}, on the same database) follows it in the database: progress while it
 * is queued and running elsewhere, then the final state from the stored result and {@code done}.
 */
class RunEventsRemoteTest {

    @Test
    void anotherInstanceStreamsProgressFromTheDatabaseThenTheFinalState() {
        PacedEngine.reset();
        PacedEngine.wallMsPerSimulatedSecond = 6000; // 200 ms simulated = 1.2 s of paced progress
        TestDatabase db = TestDatabase.h2("remote-events");
        try (ConfigurableApplicationContext worker = TestApps.start(db, "worker", Map.of("cfslab.runs.pool-size", "1"));
             ConfigurableApplicationContext api = TestApps.start(db, "api", Map.of("cfslab.runs.execute", "false",
                     "cfslab.live.db-poll-interval", "100ms"))) {
            WebTestClient web = TestApps.client(api).mutate().responseTimeout(Duration.ofSeconds(60)).build();
            String id = ApiTestSupport.submitRun(web, Map.of("scenario", ApiTestSupport.JSON.readTree(RunEventsTest.tiny("remote"))));
            List<Sse> all = RunEventsTest.stream(web, id, m -> false, Duration.ofSeconds(60));

            List<String> names = names(all);
            assertThat(names.get(0)).isEqualTo("progress");
            assertThat(names.get(names.size() - 1)).isEqualTo("done");
            List<JsonNode> progress = named(all, "progress").stream().map(Sse::json).toList();
            assertThat(progress).extracting(p -> p.path("status").asString()).contains("running").last().isEqualTo("done");
            assertThat(progress.stream().filter(p -> p.path("status").asString().equals("running")).count())
                    .as("progress polled from the database while the other instance runs it").isGreaterThanOrEqualTo(2);
            assertThat(progress).extracting(p -> p.path("progress").asDouble()).isSorted();
            // no live state here: the charts' data arrive once, from the stored result, just before done
            int first = names.indexOf("histogram");
            assertThat(first).isPositive();
            assertThat(names.subList(first, names.size()))
                    .containsExactly("histogram", "cpustat", "distribute", "cpus", "cgroups", "done");
            assertThat(names.stream().filter("cpus"::equals).count()).as("the CPU timeline once, the stored one").isEqualTo(1);
            assertThat(named(all, "cpustat").get(0).json().path("samples").size()).isEqualTo(20);
        }
    }
}
