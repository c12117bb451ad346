package io.cfslab.testsupport;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * A database for one test: H2 in a file under {@code target/}, or PostgreSQL in a schema of its own
 * (dropped by {@link #close()}). PostgreSQL comes from {@code CFSLAB_TEST_POSTGRES_URL} (+ {@code _USER},
 * {@code _PASSWORD}) if set, else from Testcontainers where Docker runs; with neither, the test is skipped.
 *
 * @param url      JDBC url for the application
 * @param user     user
 * @param password password
 * @param schema   PostgreSQL schema of this test, or null for H2
 */
public record TestDatabase(String url, String user, String password, String schema) implements AutoCloseable {
    private static PostgreSQLContainer container;

    /** A fresh H2 file database. */
    public static TestDatabase h2(String name) {
        String url = "jdbc:h2:file:./target/test-db/" + name + "-" + UUID.randomUUID().toString().substring(0, 8)
                + ";WRITE_DELAY=0;DB_CLOSE_ON_EXIT=FALSE";
        return new TestDatabase(url, "sa", "", null);
    }

    /** A fresh schema on the test PostgreSQL; skips the test if there is none. */
    public static synchronized TestDatabase postgres() {
        String url = System.getenv("CFSLAB_TEST_POSTGRES_URL");
        String user = System.getenv().getOrDefault("CFSLAB_TEST_POSTGRES_USER", "cfslab");
        String password = System.getenv().getOrDefault("CFSLAB_TEST_POSTGRES_PASSWORD", "cfslab");
        if (url == null || url.isBlank()) {
            boolean docker;
            try {
                docker = DockerClientFactory.instance().isDockerAvailable();
            } catch (Throwable e) {
                docker = false;
            }
            assumeTrue(docker, "no PostgreSQL: set CFSLAB_TEST_POSTGRES_URL (see .ci/postgres.sh) or run Docker");
            if (container == null) {
                container = new PostgreSQLContainer("postgres:15-alpine");
                container.start();
            }
            url = container.getJdbcUrl();
            user = container.getUsername();
            password = container.getPassword();
        }
        String schema = "t_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement()) {
            s.execute("create schema " + schema);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot reach test PostgreSQL at " + url, e);
        }
        String sep = url.contains("?") ? "&" : "?";
        return new TestDatabase(url + sep + "currentSchema=" + schema, user, password, schema);
    }

    /** No database settings at all: the application's own configuration (or profile) decides. */
    public static TestDatabase none() { return new TestDatabase(null, null, null, null); }

    public boolean isPostgres() { return schema != null; }

    /** Spring properties that point an application context at this database. */
    public Map<String, Object> springProperties() {
        Map<String, Object> p = new LinkedHashMap<>();
        if (url == null) return p;
        p.put("spring.datasource.url", url);
        p.put("spring.datasource.username", user);
        p.put("spring.datasource.password", password);
        if (schema != null) {
            p.put("spring.flyway.default-schema", schema);
            p.put("spring.flyway.schemas", schema);
        }
        return p;
    }

    @Override
    public void close() {
        if (schema == null || url == null) return;
        try (Connection c = DriverManager.getConnection(url, user, password); Statement s = c.createStatement()) {
            s.execute("drop schema " + schema + " cascade");
        } catch (SQLException e) {
            // best effort
        }
    }
}
