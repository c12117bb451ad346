package io.cfslab.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;

/**
 * The default H2 URL commits durably: H2 delays writing commits by {@code WRITE_DELAY} (500 ms by default),
 * so a {@code kill -9} would lose writes already acknowledged. The URL sets it to 0.
 */
class H2DurabilityTest {
    @TempDir Path dir;

    private static String appUrl() throws Exception {
        var sources = new YamlPropertySourceLoader().load("app", new ClassPathResource("application.yml"));
        for (PropertySource<?> s : sources) {
            Object url = s.getProperty("spring.datasource.url");
            if (url != null) return url.toString();
        }
        throw new AssertionError("no spring.datasource.url in application.yml");
    }

    @Test
    void defaultUrlCommitsWithoutDelay() throws Exception {
        String url = appUrl();
        assertThat(url).startsWith("jdbc:h2:file:./data/cfslab").contains(";WRITE_DELAY=0");
        String here = url.replace("./data/cfslab", dir.resolve("db").toAbsolutePath().toString());
        try (Connection c = DriverManager.getConnection(here, "sa", ""); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery(
                    "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = 'WRITE_DELAY'")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("0");
            }
            s.execute("create table t (x int)");
            s.execute("insert into t values (1)");
            s.execute("SHUTDOWN IMMEDIATELY"); // like kill -9: nothing written on the way out
        } catch (java.sql.SQLException closedByShutdown) {
            // the connection is gone after SHUTDOWN IMMEDIATELY
        }
        try (Connection c = DriverManager.getConnection(here, "sa", ""); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("select count(*) from t")) {
            rs.next();
            assertThat(rs.getInt(1)).as("acknowledged insert survives").isEqualTo(1);
        }
    }
}
