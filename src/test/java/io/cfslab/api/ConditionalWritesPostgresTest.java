package io.cfslab.api;

import io.cfslab.testsupport.TestApps;
import io.cfslab.testsupport.TestDatabase;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@link ConditionalWritesTest}'s race on PostgreSQL (its own class: an application closed in a class closes the
 * shared Netty resources of another one still running there). Skipped without a PostgreSQL: set
 * {@code CFSLAB_TEST_POSTGRES_URL}, e.g. {@code eval "$(bash .ci/postgres.sh | grep '^export ')"}.
 */
class ConditionalWritesPostgresTest {
    @Test
    void twoWritersWithTheSameIfMatchCannotBothSucceedOnPostgres() throws Exception {
        try (TestDatabase db = TestDatabase.postgres();
             ConfigurableApplicationContext pg = TestApps.start(db, "cond-pg", Map.of("cfslab.runs.execute", "false"))) {
            ConditionalWritesTest.race(pg);
        }
    }
}
