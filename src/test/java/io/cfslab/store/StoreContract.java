package io.cfslab.store;

import static org.assertj.core.api.Assertions.assertThat;

import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import io.cfslab.testsupport.TestDatabase;
import java.time.Instant;
import java.util.List;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The store's behaviour, run on every supported database by a subclass: Flyway migrations apply, the
 * repositories round-trip every field, run state transitions are conditional, and db-scheduler's table
 * accepts the queue's writes.
 */
abstract class StoreContract {
    TestDatabase db;
    DriverManagerDataSource ds;
    ScenarioRepository scenarios;
    RunRepository runs;
    ExperimentRepository experiments;

    abstract TestDatabase database();

    @BeforeEach
    void migrate() {
        db = database();
        ds = new DriverManagerDataSource(db.url(), db.user(), db.password());
        var flyway = Flyway.configure().dataSource(ds).locations("classpath:db/migration");
        if (db.isPostgres()) flyway.schemas(db.schema()).defaultSchema(db.schema());
        // every migration applies to an empty database (as many as there are files)
        int files = countMigrations("src/main/resources/db/migration", "sql")
                + countMigrations("src/main/java/db/migration", "java");
        assertThat(files).isGreaterThanOrEqualTo(1);
        assertThat(flyway.load().migrate().migrationsExecuted).isEqualTo(files);
        JdbcClient jdbc = JdbcClient.create(ds);
        scenarios = new ScenarioRepository(jdbc);
        runs = new RunRepository(jdbc);
        experiments = new ExperimentRepository(jdbc);
    }

    private static int countMigrations(String dir, String ext) {
        if (!java.nio.file.Files.isDirectory(java.nio.file.Path.of(dir))) return 0;
        try (var list = java.nio.file.Files.list(java.nio.file.Path.of(dir))) {
            return (int) list.filter(f -> f.getFileName().toString().matches("V\\d+__.*\\." + ext)).count();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @AfterEach
    void drop() {
        if (db != null) db.close();
    }

    @Test
    void scenariosRoundTripLargeDocuments() {
        String big = "{\"name\": \"big\", \"cgroups\": [" + "{\"path\": \"/é\"},".repeat(20_000) + "{\"path\": \"/z\"}]}";
        scenarios.insert("s1", "big", big);
        scenarios.insert("s2", "other", "{}");
        ScenarioRecord s1 = scenarios.find("s1").orElseThrow();
        assertThat(s1.document()).isEqualTo(big);
        assertThat(s1.version()).isEqualTo(1);
        assertThat(scenarios.update("s1", "big2", "{\"name\": \"big2\"}")).isTrue();
        assertThat(scenarios.find("s1").orElseThrow().version()).isEqualTo(2);
        assertThat(scenarios.find("s1").orElseThrow().name()).isEqualTo("big2");
        assertThat(scenarios.findAll()).extracting(ScenarioRecord::id).containsExactly("s1", "s2");
        assertThat(scenarios.update("nope", "x", "{}")).isFalse();
        assertThat(scenarios.delete("s2")).isTrue();
        assertThat(scenarios.delete("s2")).isFalse();
        assertThat(scenarios.find("s2")).isEmpty();
    }

    @Test
    void runTransitionsAreConditional() {
        runs.insert("r1", "s1", "tiny", "{\"name\": \"tiny\"}", 42L, 2);
        runs.insert("r2", null, "inline", "{}", null, 1);
        RunRecord r1 = runs.find("r1").orElseThrow();
        assertThat(r1.status()).isEqualTo(RunStatus.QUEUED);
        assertThat(r1.seed()).isEqualTo(42L);
        assertThat(r1.repeats()).isEqualTo(2);
        assertThat(runs.find("r2").orElseThrow().seed()).isNull();
        assertThat(runs.count(RunStatus.QUEUED)).isEqualTo(2);

        assertThat(runs.start("r1", "w1", 1_000)).isTrue();
        assertThat(runs.progress("r1", 50.0, 500, 77, 12)).isFalse();
        RunRecord mid = runs.find("r1").orElseThrow();
        assertThat(mid.status()).isEqualTo(RunStatus.RUNNING);
        assertThat(mid.progress()).isEqualTo(50.0);
        assertThat(mid.events()).isEqualTo(77);
        assertThat(mid.attempts()).isEqualTo(1);
        assertThat(mid.worker()).isEqualTo("w1");
        assertThat(runs.requestCancel("r1")).isTrue();
        assertThat(runs.progress("r1", 60.0, 600, 80, 13)).isTrue();
        assertThat(runs.cancelQueued("r1", "x")).as("not queued any more").isFalse();

        assertThat(runs.requeue("r1")).isTrue();
        assertThat(runs.start("r1", "w2", 1_000)).isTrue();
        assertThat(runs.find("r1").orElseThrow().attempts()).isEqualTo(2);
        runs.saveResult("r1", 0, "{\"a\": 1}");
        runs.saveResult("r1", 0, "{\"a\": 2}");
        runs.saveResult("r1", 1, "{\"b\": 1}");
        assertThat(runs.finish("r1", RunStatus.DONE, null, 100, 1_000, 99, 20)).isTrue();
        assertThat(runs.finish("r1", RunStatus.FAILED, "late", 100, 1_000, 99, 20)).isFalse();
        RunRecord done = runs.find("r1").orElseThrow();
        assertThat(done.status()).isEqualTo(RunStatus.DONE);
        assertThat(done.finishedAt()).isNotNull();
        assertThat(runs.findResult("r1", 0)).contains("{\"a\": 2}");
        assertThat(runs.findResult("r1", 1)).contains("{\"b\": 1}");
        assertThat(runs.start("r1", "w3", 1)).as("a finished run never restarts").isFalse();

        assertThat(runs.cancelQueued("r2", "user")).isTrue();
        assertThat(runs.start("r2", "w1", 1)).isFalse();
        assertThat(runs.list(RunStatus.CANCELLED, 10)).extracting(RunRecord::id).containsExactly("r2");
        assertThat(runs.list(null, 10)).hasSize(2);
    }

    @Test
    void queueTableTakesSchedulerWrites() {
        OneTimeTask<Void> task = Tasks.oneTime("cfslab-run").execute((i, c) -> { });
        SchedulerClient client = SchedulerClient.Builder.create(ds, List.of(task)).build();
        client.schedule(task.instance("run-1"), Instant.now());
        client.schedule(task.instance("run-2"), Instant.now().plusSeconds(60));
        List<String> ids = new java.util.ArrayList<>();
        client.fetchScheduledExecutions(e -> ids.add(e.getTaskInstance().getId()));
        assertThat(ids).containsExactlyInAnyOrder("run-1", "run-2");
        client.cancel(task.instance("run-1"));
        ids.clear();
        client.fetchScheduledExecutions(e -> ids.add(e.getTaskInstance().getId()));
        assertThat(ids).containsExactly("run-2");
    }

    @Test
    void experimentsKeepTheirRunsProvenanceAndResult() {
        java.time.Instant t = java.time.Instant.parse("2026-12-01T10:00:00Z");
        experiments.insert("e1", "exp", "s1", "{\"def\": 1}", "{\"plan\": 1, \"limited_groups\": [\"/a\"]}",
                "{\"plan\": 1}", 42, 2, 2, t);
        for (int r = 0; r < 2; r++) {
            for (int a = 0; a < 2; a++) {
                runs.insertForExperiment("e1-" + a + "-" + r, "s1", "tiny", "{\"seed\": " + (100 + r) + "}", 100 + r,
                        "{\"seed\": " + (100 + r) + ", \"kernel\": {\"throttle\": \"task\"}}", "e1", a, a == 0 ? "base" : "head", r, t);
            }
        }
        runs.insert("solo", null, "inline", "{}", null, 1, "{\"seed\": 1}");
        assertThat(runs.listByExperiment("e1")).extracting(RunRecord::id).containsExactly("e1-0-0", "e1-0-1", "e1-1-0", "e1-1-1");
        RunRecord head = runs.find("e1-1-1").orElseThrow();
        assertThat(head.experimentId()).isEqualTo("e1");
        assertThat(head.armIndex()).isEqualTo(1);
        assertThat(head.armName()).isEqualTo("head");
        assertThat(head.repeatIndex()).isEqualTo(1);
        assertThat(head.seed()).isEqualTo(101L);
        assertThat(head.settingsJson()).contains("\"throttle\": \"task\"");
        assertThat(runs.find("solo").orElseThrow().experimentId()).isNull();
        assertThat(runs.list(null, true, 10)).extracting(RunRecord::id).containsExactly("solo");
        assertThat(runs.list(null, false, 10)).hasSize(5);

        ExperimentRecord e = experiments.find("e1").orElseThrow();
        assertThat(e.definitionJson()).isEqualTo("{\"def\": 1}");
        assertThat(e.seed()).isEqualTo(42);
        assertThat(e.resultJson()).isNull();
        assertThat(experiments.list(10)).extracting(ExperimentRecord::id).containsExactly("e1");
        // the list reads the plan's summary (V9), not the plan with its limited groups
        assertThat(e.planJson()).contains("limited_groups");
        assertThat(experiments.list(10).get(0).planJson()).isEqualTo("{\"plan\": 1}");
        assertThat(experiments.saveResult("e1", "{\"r\": 1}")).isTrue();
        assertThat(experiments.saveResult("e1", "{\"r\": 2}")).as("the first stored result stays").isFalse();
        assertThat(experiments.find("e1").orElseThrow().resultJson()).isEqualTo("{\"r\": 1}");
        assertThat(experiments.requestCancel("e1")).isTrue();
        assertThat(experiments.find("e1").orElseThrow().cancelRequested()).isTrue();

        // only finished runs are deleted, with their results
        runs.saveResult("solo", 0, "{}");
        assertThat(runs.deleteFinished("solo")).as("queued").isFalse();
        runs.cancelQueued("solo", "x");
        assertThat(runs.deleteFinished("solo")).isTrue();
        assertThat(runs.findResult("solo", 0)).isEmpty();
        runs.saveResult("e1-0-0", 0, "{}");
        assertThat(runs.deleteExperimentRuns("e1")).isEqualTo(4);
        assertThat(runs.findResult("e1-0-0", 0)).isEmpty();
        assertThat(experiments.delete("e1")).isTrue();
        assertThat(experiments.find("e1")).isEmpty();
        runs.setSettings("none", "{}"); // no such run: nothing happens
    }

    static final String RESULT = """
            {"scenario": {"name": "x"}, "histograms": {"distribute_ns": {"count": 2, "sum": 3, "buckets": [[1, 2, 2]]},
             "period_ns": {"count": 0, "sum": 0, "buckets": []}}, "tasks": [], "cgroups": {"/a": {"cpu.stat": {"nr_throttled": 7}}}}""";

    @Test
    void resultsAreStoredWholeAndInParts() {
        runs.insert("r1", null, "x", "{}", 1L, 2);
        runs.saveResult("r1", 0, RESULT);
        runs.saveResult("r1", 1, "{\"histograms\": {}}");
        assertThat(runs.findResult("r1", 0)).as("byte-identical").contains(RESULT);
        assertThat(runs.findHistogram("r1", 0, "distribute_ns")).contains("{\"count\":2,\"sum\":3,\"buckets\":[[1,2,2]]}");
        assertThat(runs.findHistogram("r1", 0, "nope")).isEmpty();
        assertThat(runs.findHistogram("r1", 1, "distribute_ns")).isEmpty();
        assertThat(runs.findCgroupStats("r1", 0)).contains("{\"/a\":{\"cpu.stat\":{\"nr_throttled\":7}}}");
        assertThat(runs.findCgroupStats("r1", 1)).contains("{}");
        runs.deleteResults("r1");
        assertThat(runs.findHistogram("r1", 0, "distribute_ns")).isEmpty();
        assertThat(runs.findCgroupStats("r1", 0)).isEmpty();
        // a result stored without parts (an older instance on the same database) is cut on its first read
        JdbcClient.create(ds).sql("insert into run_result (run_id, repeat_index, result_json) values ('r1', 0, ?)")
                .param(RESULT).update();
        assertThat(runs.storeMissingParts("r1", 0).orElseThrow().histograms()).containsOnlyKeys("distribute_ns", "period_ns");
        assertThat(runs.findHistogram("r1", 0, "period_ns")).contains("{\"count\":0,\"sum\":0,\"buckets\":[]}");
    }

    @Test
    void interruptedRunsAreCountedAndRequeuedOrGivenUp() {
        runs.insert("r1", null, "x", "{}", 1L, 1);
        assertThat(runs.requeueInterrupted("r1", "w1")).as("not running").isFalse();
        runs.start("r1", "w1", 1_000);
        assertThat(runs.requeueInterrupted("r1", "w1")).isTrue();
        RunRecord r = runs.find("r1").orElseThrow();
        assertThat(r.status()).isEqualTo(RunStatus.QUEUED);
        assertThat(r.interruptions()).isEqualTo(1);
        assertThat(r.interruptedWorker()).isEqualTo("w1");
        assertThat(r.interruptedAt()).isNotNull();
        runs.start("r1", "w2", 1_000);
        assertThat(runs.failInterrupted("r1", "w2", "gave up")).isTrue();
        r = runs.findStatus("r1").orElseThrow();
        assertThat(r.status()).isEqualTo(RunStatus.FAILED);
        assertThat(r.error()).isEqualTo("gave up");
        assertThat(r.interruptions()).isEqualTo(2);
        assertThat(r.attempts()).isEqualTo(2);
        assertThat(r.scenarioJson()).as("a status read leaves the snapshot out").isNull();
        assertThat(r.finishedAt()).isNotNull();
    }

    @Test
    void retentionQueriesSelectOnlyFinishedStandaloneRuns() {
        JdbcClient jdbc = JdbcClient.create(ds);
        Instant now = Instant.now();
        for (int i = 0; i < 5; i++) {
            runs.insert("old" + i, null, "x", "{}", 1L, 1);
            runs.cancelQueued("old" + i, "x");
            jdbc.sql("update run set finished_at = ? where id = ?")
                    .params(java.sql.Timestamp.from(now.minusSeconds(3600L * (10 - i))), "old" + i).update();
        }
        runs.insert("queued", null, "x", "{}", 1L, 1);
        runs.insert("running", null, "x", "{}", 1L, 1);
        runs.start("running", "w", 1);
        experiments.insert("e1", "exp", null, "{}", "{}", "{}", 1, 1, 1, now);
        runs.insertForExperiment("e1-0-0", null, "x", "{}", 1, "{}", "e1", 0, "a", 0, now.minusSeconds(86_400));
        runs.cancelQueued("e1-0-0", "x");
        jdbc.sql("update run set finished_at = ?, created_at = ? where id in ('e1-0-0', 'queued', 'running')")
                .params(java.sql.Timestamp.from(now.minusSeconds(86_400)), java.sql.Timestamp.from(now.minusSeconds(86_400)))
                .update();
        assertThat(runs.finishedStandaloneBefore(now.minusSeconds(3600L * 7 + 60), 10))
                .containsExactly("old0", "old1", "old2");
        assertThat(runs.finishedStandaloneBefore(now.minusSeconds(3600L * 7 + 60), 2)).containsExactly("old0", "old1");
        assertThat(runs.finishedStandaloneBeyond(2, 10)).containsExactlyInAnyOrder("old0", "old1", "old2");
        assertThat(runs.finishedStandaloneBeyond(5, 10)).isEmpty();
    }

    @Test
    void migrationV7CutsResultsStoredBeforeParts() {
        try (TestDatabase old = database()) {
            var ods = new DriverManagerDataSource(old.url(), old.user(), old.password());
            var flyway = Flyway.configure().dataSource(ods).locations("classpath:db/migration");
            if (old.isPostgres()) flyway.schemas(old.schema()).defaultSchema(old.schema());
            flyway.target("5").load().migrate();
            JdbcClient jdbc = JdbcClient.create(ods);
            new RunRepository(jdbc).insert("r0", null, "x", "{}", 1L, 1);
            jdbc.sql("insert into run_result (run_id, repeat_index, result_json) values ('r0', 0, ?)").param(RESULT).update();
            flyway.target("latest").load().migrate();
            RunRepository migrated = new RunRepository(jdbc);
            assertThat(migrated.findResult("r0", 0)).contains(RESULT);
            assertThat(migrated.findHistogram("r0", 0, "distribute_ns")).contains("{\"count\":2,\"sum\":3,\"buckets\":[[1,2,2]]}");
            assertThat(migrated.findCgroupStats("r0", 0)).contains("{\"/a\":{\"cpu.stat\":{\"nr_throttled\":7}}}");
            assertThat(migrated.find("r0").orElseThrow().interruptions()).isZero();
        }
    }

    /** Short run ids resolve as git's abbreviated commits do: one match, none, or ambiguous; never fewer than 8 hex digits. */
    @Test
    void aShortRunIdResolvesToTheOneRunItStartsOrIsAmbiguous() {
        String a1 = "94a7cdbf-0000-4000-8000-000000000001";
        String a2 = "94a7cdbf-1111-4000-8000-000000000002";
        String b = "12345678-9abc-4def-8000-000000000003";
        for (String id : List.of(a1, a2, b)) runs.insert(id, null, "inline", "{}", null, 1);
        assertThat(RunIds.resolve(runs, "12345678").id()).isEqualTo(b);
        assertThat(RunIds.resolve(runs, "12345678-9ABC").id()).as("case and dashes as pasted").isEqualTo(b);
        assertThat(RunIds.resolve(runs, b).id()).isEqualTo(b);
        assertThat(RunIds.resolve(runs, "1234567").ids()).as("7 hex digits are too few").isEmpty();
        assertThat(RunIds.resolve(runs, "ffffffff").ids()).isEmpty();
        assertThat(RunIds.resolve(runs, "1234%678").ids()).as("no LIKE patterns").isEmpty();
        RunIds.Resolution both = RunIds.resolve(runs, "94a7cdbf");
        assertThat(both.ambiguous()).isTrue();
        assertThat(both.ambiguity()).isEqualTo("run id 94a7cdbf is ambiguous: it starts 2 runs (" + a1 + ", " + a2 + "); type more of it");
        assertThat(RunIds.resolve(runs, "94a7cdbf-1").id()).isEqualTo(a2);
    }
}
