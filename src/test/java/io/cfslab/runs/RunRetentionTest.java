package io.cfslab.runs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cfslab.store.ExperimentRepository;
import io.cfslab.store.RunRepository;
import io.cfslab.testsupport.TestDatabase;
import java.sql.Timestamp;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Retention (issues 12 and 13): finished standalone runs older than {@code max-age} or beyond the newest
 * {@code max-runs} are deleted with their results; queued and running runs and the runs of an experiment never are.
 */
class RunRetentionTest {
    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    @Test
    void deletesOnlyFinishedStandaloneRunsBeyondAgeOrCount() {
        try (TestDatabase db = TestDatabase.h2("retention")) {
            var ds = new DriverManagerDataSource(db.url(), db.user(), db.password());
            Flyway.configure().dataSource(ds).locations("classpath:db/migration").load().migrate();
            JdbcClient jdbc = JdbcClient.create(ds);
            RunRepository runs = new RunRepository(jdbc);
            // finished d days ago, d = 0..9
            for (int d = 0; d < 10; d++) {
                String id = "done" + d;
                runs.insert(id, null, "x", "{}", 1L, 1);
                runs.start(id, "w", 1);
                runs.saveResult(id, 0, "{\"histograms\": {\"h\": {\"count\": 0, \"sum\": 0, \"buckets\": []}}}");
                runs.finish(id, io.cfslab.store.RunStatus.DONE, null, 100, 1, 1, 1);
                ended(jdbc, id, NOW.minus(Duration.ofDays(d)));
            }
            runs.insert("queued", null, "x", "{}", 1L, 1);
            runs.insert("running", null, "x", "{}", 1L, 1);
            runs.start("running", "w", 1);
            jdbc.sql("update run set created_at = ? where id in ('queued', 'running')")
                    .param(Timestamp.from(NOW.minus(Duration.ofDays(100)))).update();
            new ExperimentRepository(jdbc).insert("e1", "exp", null, "{}", "{}", "{}", 1, 1, 1, NOW.minus(Duration.ofDays(100)));
            runs.insertForExperiment("e1-0-0", null, "x", "{}", 1, "{}", "e1", 0, "a", 0, NOW.minus(Duration.ofDays(100)));
            runs.start("e1-0-0", "w", 1);
            runs.finish("e1-0-0", io.cfslab.store.RunStatus.DONE, null, 100, 1, 1, 1);
            ended(jdbc, "e1-0-0", NOW.minus(Duration.ofDays(99)));
            Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);

            RunRetention byAge = new RunRetention(runs, new RetentionProperties(Duration.ofDays(7).plusHours(1), 0, null), clock);
            assertThat(byAge.apply()).isEqualTo(2); // 8 and 9 days old
            assertThat(runs.find("done8")).isEmpty();
            assertThat(runs.findResult("done9", 0)).isEmpty();
            assertThat(runs.findHistogram("done9", 0, "h")).isEmpty();
            assertThat(runs.find("done7")).isPresent();

            RunRetention byCount = new RunRetention(runs, new RetentionProperties(Duration.ZERO, 3, null), clock);
            assertThat(byCount.apply()).isEqualTo(5); // done3..done7
            assertThat(runs.list(null, true, 100)).extracting(r -> r.id())
                    .containsExactlyInAnyOrder("done0", "done1", "done2", "queued", "running");
            assertThat(runs.find("e1-0-0")).as("an experiment's run stays with its experiment").isPresent();
            assertThat(runs.findHistogram("done0", 0, "h")).isPresent();
            assertThat(byCount.apply()).as("idempotent").isZero();

            RunRetention everything = new RunRetention(runs, new RetentionProperties(Duration.ZERO, 0, null), clock);
            assertThat(everything.apply()).isZero();
        }
    }

    @Test
    void defaultsAndBadSettings() {
        RetentionProperties d = new RetentionProperties(null, null, null);
        assertThat(d.maxAge()).isEqualTo(Duration.ofDays(30));
        assertThat(d.maxRuns()).isEqualTo(1000);
        assertThat(d.interval()).isEqualTo(Duration.ofHours(1));
        assertThat(d.keepsEverything()).isFalse();
        assertThatThrownBy(() -> new RetentionProperties(Duration.ofDays(-1), null, null))
                .hasMessageContaining("cfslab.retention.max-age");
        assertThatThrownBy(() -> new RetentionProperties(null, -1, null)).hasMessageContaining("cfslab.retention.max-runs");
    }

    private static void ended(JdbcClient jdbc, String id, Instant at) {
        jdbc.sql("update run set finished_at = ? where id = ?").params(Timestamp.from(at), id).update();
    }
}
