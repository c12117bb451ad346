package io.cfslab.runs;

import static io.cfslab.runs.RunsTestSupport.await;
import static io.cfslab.runs.RunsTestSupport.get;
import static io.cfslab.runs.RunsTestSupport.scenario;
import static io.cfslab.runs.RunsTestSupport.submit;
import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.testsupport.PacedEngine;
import io.cfslab.testsupport.TestApps;
import io.cfslab.testsupport.TestDatabase;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
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
 * Nothing accepted is lost: runs submitted to one application context, which is stopped mid-run, all
 * reach {@code done} in a new context on the same H2 file; stored scenarios and results are intact; a run
 * left {@code running} by a dead process (stale heartbeat) is executed again.
 */
class RestartTest {

    @Test
    void runsSurviveAStopMidRun() throws Exception {
        PacedEngine.reset();
        try (TestDatabase db = TestDatabase.h2("restart")) {
            List<String> runs = new ArrayList<>();
            String scenarioId;
            String scenarioDoc;
            String finishedRun;
            String finishedResult;
            try (ConfigurableApplicationContext first = TestApps.start(db, "first", Map.of("cfslab.runs.pool-size", "2"))) {
                WebTestClient web = TestApps.client(first);
                PacedEngine.wallMsPerSimulatedSecond = 100;
                var created = web.post().uri("/api/scenarios").contentType(MediaType.APPLICATION_JSON)
                        .bodyValue(scenario("stored", 200).toString()).exchange().expectStatus().isCreated()
                        .expectBody().returnResult();
                String loc = created.getResponseHeaders().getLocation().toString();
                scenarioId = loc.substring(loc.lastIndexOf('/') + 1);
                scenarioDoc = get(web, "/api/scenarios/" + scenarioId).path("scenario").toString();
                finishedRun = submit(web, Map.of("scenarioId", scenarioId));
                await(web, finishedRun, "done", Duration.ofSeconds(10));
                finishedResult = get(web, "/api/runs/" + finishedRun + "/result").toString();

                PacedEngine.wallMsPerSimulatedSecond = 10_000; // 200 ms simulated = 2 s wall: still running at the stop
                for (int i = 0; i < 4; i++) runs.add(submit(web, Map.of("scenario", scenario("r" + i, 200))));
                long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                while (runs.stream().filter(r -> get(web, "/api/runs/" + r).path("progress").asDouble() > 0).count() < 2) {
                    assertThat(System.nanoTime()).isLessThan(end);
                    Thread.sleep(20);
                }
            } // context stopped while two runs execute and two wait

            JdbcClient jdbc = JdbcClient.create(new DriverManagerDataSource(db.url(), db.user(), db.password()));
            List<String> statuses = jdbc.sql("select status from run where id in (?, ?, ?, ?)")
                    .params(runs.get(0), runs.get(1), runs.get(2), runs.get(3)).query(String.class).list();
            assertThat(statuses).as("stopped runs go back to the queue").containsOnly("queued");
            // and a run whose process died: still 'running', picked by an instance that stopped beating
            String zombie = "zombie-run";
            jdbc.sql("""
                    insert into run (id, scenario_name, scenario_json, repeats, status, progress, simulated_ns, duration_ns,
                        events, wall_ms, cancel_requested, attempts, worker, created_at, started_at)
                    values (?, 'zombie', ?, 1, 'running', 40, 0, 0, 0, 0, false, 1, 'dead', ?, ?)""")
                    .params(zombie, scenario("zombie", 200).toString(), Timestamp.from(Instant.now()),
                            Timestamp.from(Instant.now())).update();
            Timestamp old = Timestamp.from(Instant.now().minusSeconds(3600));
            jdbc.sql("""
                    insert into scheduled_tasks (task_name, task_instance, task_data, execution_time, picked, picked_by,
                        last_heartbeat, version) values ('cfslab-run', ?, null, ?, true, 'dead', ?, 1)""")
                    .params(zombie, old, old).update();

            PacedEngine.wallMsPerSimulatedSecond = 500;
            try (ConfigurableApplicationContext second = TestApps.start(db, "second", Map.of("cfslab.runs.pool-size", "2"))) {
                WebTestClient web = TestApps.client(second);
                for (String r : runs) {
                    JsonNode done = await(web, r, "done", Duration.ofSeconds(30));
                    assertThat(done.path("worker").asString()).isEqualTo("second");
                    assertThat(get(web, "/api/runs/" + r + "/result").path("simulated_ns").asLong()).isEqualTo(200_000_000L);
                }
                JsonNode z = await(web, zombie, "done", Duration.ofSeconds(30));
                assertThat(z.path("attempts").asInt()).isEqualTo(2);
                assertThat(get(web, "/api/scenarios/" + scenarioId).path("scenario").toString()).isEqualTo(scenarioDoc);
                assertThat(get(web, "/api/runs/" + finishedRun + "/result").toString()).isEqualTo(finishedResult);
                assertThat(get(web, "/api/runs/" + finishedRun).path("attempts").asInt()).isEqualTo(1);
            }
        }
    }
}
