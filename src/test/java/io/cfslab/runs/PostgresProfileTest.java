package io.cfslab.runs;

import static io.cfslab.runs.RunsTestSupport.await;
import static io.cfslab.runs.RunsTestSupport.get;
import static io.cfslab.runs.RunsTestSupport.submit;
import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.testsupport.PacedEngine;
import io.cfslab.testsupport.TestApps;
import io.cfslab.testsupport.TestDatabase;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * The {@code postgres} profile as docker-compose uses it ({@code CFSLAB_DB_URL}, {@code CFSLAB_DB_USER},
 * {@code CFSLAB_DB_PASSWORD}): Flyway migrates PostgreSQL, health reports it, a ready-made scenario runs.
 */
class PostgresProfileTest {

    @Test
    void profileRunsOnPostgres() throws Exception {
        PacedEngine.reset();
        try (TestDatabase db = TestDatabase.postgres()) {
            Map<String, Object> props = new LinkedHashMap<>();
            props.put("spring.profiles.active", "postgres");
            props.put("CFSLAB_DB_URL", db.url());
            props.put("CFSLAB_DB_USER", db.user());
            props.put("CFSLAB_DB_PASSWORD", db.password());
            props.put("spring.flyway.default-schema", db.schema());
            props.put("spring.flyway.schemas", db.schema());
            // the database's name is a detail, shown to anonymous callers only when configured so
            props.put("management.endpoint.health.show-details", "always");
            try (ConfigurableApplicationContext app = TestApps.start(TestDatabase.none(), "pg-profile", props)) {
                WebTestClient web = TestApps.client(app);
                JsonNode health = get(web, "/actuator/health");
                assertThat(health.path("components").path("db").path("details").path("database").asString())
                        .isEqualTo("PostgreSQL");
                String run = submit(web, Map.of("scenarioId", "e1-one-hog-10pct"));
                JsonNode done = await(web, run, "done", Duration.ofSeconds(60));
                assertThat(done.path("simulatedNs").asLong()).isEqualTo(5_000_000_000L);
                JsonNode e1 = get(web, "/api/runs/" + run + "/cpu.stat").path("/e1").path("cpu.stat");
                assertThat(e1.path("nr_periods").asLong()).isBetween(48L, 51L);
            }
        }
    }
}
