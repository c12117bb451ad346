package io.cfslab.runs;

import static io.cfslab.runs.RunsTestSupport.await;
import static io.cfslab.runs.RunsTestSupport.scenario;
import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.testsupport.PacedEngine;
import io.cfslab.testsupport.TestApps;
import io.cfslab.testsupport.TestDatabase;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * Crash safety (issue 13): an instance that restarts under its name knows that the executions its previous process
 * had picked died with it. It re-queues them at once (not after db-scheduler's missed heartbeats, 4 minutes
 * here), shows each as interrupted with the attempt number, and ends a run {@code failed} with a clear message once
 * {@code cfslab.runs.max-attempts} attempts have died. A run revived from another, dead, instance counts the same way.
 */
class CrashRecoveryTest {

    /** A run row as a killed process leaves it: {@code running}, picked by {@code worker}, its heartbeat {@code beat}. */
    private static void leaveRunning(JdbcClient jdbc, String id, String worker, int attempts, int interruptions,
                                     Instant beat) {
        jdbc.sql("""
                insert into run (id, scenario_name, scenario_json, repeats, status, progress, simulated_ns, duration_ns,
                    events, wall_ms, cancel_requested, attempts, worker, created_at, started_at, interruptions)
                values (?, 'crashed', ?, 1, 'running', 40, 80000000, 200000000, 1000, 800, false, ?, ?, ?, ?, ?)""")
                .params(id, scenario(id, 200).toString(), attempts, worker, Timestamp.from(Instant.now()),
                        Timestamp.from(Instant.now()), interruptions).update();
        jdbc.sql("""
                insert into scheduled_tasks (task_name, task_instance, task_data, execution_time, picked, picked_by,
                    last_heartbeat, version) values ('cfslab-run', ?, null, ?, true, ?, ?, 1)""")
                .params(id, Timestamp.from(beat), worker, Timestamp.from(beat)).update();
    }

    @Test
    void aRestartedInstanceRequeuesItsOwnDeadExecutionsAtOnceAndGivesUpAfterMaxAttempts() throws Exception {
        PacedEngine.reset();
        PacedEngine.wallMsPerSimulatedSecond = 500;
        try (TestDatabase db = TestDatabase.h2("crash-recovery")) {
            Map<String, Object> slowRevival = Map.of("cfslab.runs.pool-size", "2", "cfslab.runs.max-attempts", "3",
                    "cfslab.runs.heartbeat-interval", "1m", // db-scheduler's own revival: after 4 missed = 4 min
                    "cfslab.runs.nice", "10"); // the default (the tests' application.properties sets 0)
            try (ConfigurableApplicationContext first = TestApps.start(db, "node-a", slowRevival)) {
                // creates the schema
            }
            JdbcClient jdbc = JdbcClient.create(new DriverManagerDataSource(db.url(), db.user(), db.password()));
            Instant now = Instant.now(); // a fresh heartbeat: db-scheduler would wait 4 minutes before reviving these
            leaveRunning(jdbc, "first-crash", "node-a", 1, 0, now);
            leaveRunning(jdbc, "third-crash", "node-a", 3, 2, now);
            leaveRunning(jdbc, "elsewhere", "node-b", 1, 0, now); // another instance's: not this one's to judge

            long t0 = System.nanoTime();
            try (ConfigurableApplicationContext again = TestApps.start(db, "node-a", slowRevival)) {
                WebTestClient web = TestApps.client(again);
                JsonNode done = await(web, "first-crash", "done", Duration.ofSeconds(60));
                assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("re-queued at once, not after missed heartbeats")
                        .isLessThan(Duration.ofMinutes(4));
                assertThat(done.path("attempts").asInt()).as("attempt number").isEqualTo(2);
                assertThat(done.path("interruptions").asInt()).isEqualTo(1);
                assertThat(done.path("interruptedWorker").asString()).isEqualTo("node-a");
                assertThat(done.path("interruptedAt").isNull()).isFalse();
                assertThat(done.path("worker").asString()).isEqualTo("node-a");
                Integer mine = ThreadNice.niceOf(0);
                if (mine != null && mine <= RunsProperties.DEFAULT_NICE) { // Linux, and 10 is a lower priority
                    assertThat(PacedEngine.lastNice).as("simulation threads run at cfslab.runs.nice (default 10)")
                            .isEqualTo(RunsProperties.DEFAULT_NICE);
                }

                JsonNode failed = await(web, "third-crash", "failed", Duration.ofSeconds(5));
                assertThat(failed.path("error").asString()).contains("interrupted 3 times")
                        .contains("cfslab.runs.max-attempts=3");
                assertThat(failed.path("interruptions").asInt()).isEqualTo(3);
                assertThat(failed.path("attempts").asInt()).as("not started again").isEqualTo(3);
                assertThat(jdbc.sql("select count(*) from scheduled_tasks where task_instance = 'third-crash'")
                        .query(Long.class).single()).as("its queue entry is removed").isZero();

                assertThat(RunsTestSupport.status(web, "elsewhere")).as("node-b's run waits for its heartbeats")
                        .isEqualTo("running");
            }
        }
    }

    @Test
    void aRunRevivedFromADeadInstanceCountsTheInterruption() throws Exception {
        PacedEngine.reset();
        PacedEngine.wallMsPerSimulatedSecond = 500;
        try (TestDatabase db = TestDatabase.h2("crash-revival")) {
            Map<String, Object> props = Map.of("cfslab.runs.max-attempts", "2");
            try (ConfigurableApplicationContext first = TestApps.start(db, "node-a", props)) {
                // creates the schema
            }
            JdbcClient jdbc = JdbcClient.create(new DriverManagerDataSource(db.url(), db.user(), db.password()));
            Instant old = Instant.now().minusSeconds(3600);
            leaveRunning(jdbc, "revived", "node-dead", 1, 0, old);
            leaveRunning(jdbc, "revived-twice", "node-dead", 2, 1, old);
            try (ConfigurableApplicationContext other = TestApps.start(db, "node-a", props)) {
                WebTestClient web = TestApps.client(other);
                JsonNode done = await(web, "revived", "done", Duration.ofSeconds(30));
                assertThat(done.path("interruptions").asInt()).isEqualTo(1);
                assertThat(done.path("interruptedWorker").asString()).isEqualTo("node-dead");
                assertThat(done.path("attempts").asInt()).isEqualTo(2);
                JsonNode failed = await(web, "revived-twice", "failed", Duration.ofSeconds(30));
                assertThat(failed.path("error").asString()).contains("interrupted 2 times").contains("node-dead");
            }
        }
    }
}
