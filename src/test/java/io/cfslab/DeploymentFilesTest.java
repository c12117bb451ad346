package io.cfslab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * {@code docker-compose.yml} runs the app, scalable workers and PostgreSQL with the {@code postgres} profile;
 * where a compose CLI exists, {@code config -q} must accept the file.
 */
class DeploymentFilesTest {

    @Test
    @SuppressWarnings("unchecked")
    void composeFileHasAppWorkerAndPostgres() throws Exception {
        Map<String, Object> compose = new Yaml().load(Files.readString(Path.of("docker-compose.yml")));
        Map<String, Object> services = (Map<String, Object>) compose.get("services");
        assertThat(services).containsOnlyKeys("postgres", "app", "worker");
        Map<String, Object> app = (Map<String, Object>) services.get("app");
        Map<String, Object> worker = (Map<String, Object>) services.get("worker");
        assertThat(app.get("build")).isEqualTo(".");
        assertThat((List<String>) app.get("ports")).containsExactly("8080:8080");
        assertThat(worker).doesNotContainKey("ports"); // so that --scale worker=N does not clash
        assertThat(worker.get("image")).isEqualTo(app.get("image"));
        for (Map<String, Object> s : List.of(app, worker)) {
            Map<String, Object> env = (Map<String, Object>) s.get("environment");
            assertThat(env).containsEntry("SPRING_PROFILES_ACTIVE", "postgres")
                    .containsEntry("CFSLAB_DB_URL", "jdbc:postgresql://postgres:5432/cfslab");
            assertThat((Map<String, Object>) s.get("depends_on")).containsKey("postgres");
            // published on every interface on purpose, so the shared token is required (compose refuses to start
            // without it)
            assertThat(String.valueOf(env.get("CFSLAB_SECURITY_TOKEN"))).startsWith("${CFSLAB_SECURITY_TOKEN:?");
        }
        String dockerfile = Files.readString(Path.of("Dockerfile"));
        assertThat(dockerfile).contains("COPY target/cfslab.jar").contains("ENV SERVER_ADDRESS=0.0.0.0");
    }

    @Test
    void composeCliAcceptsTheFile() throws Exception {
        for (List<String> cmd : List.of(List.of("docker", "compose", "config", "-q"), List.of("docker-compose", "config", "-q"))) {
            if (!onPath(cmd.get(0))) continue;
            if (cmd.size() == 4 && !succeeds(List.of("docker", "compose", "version"))) continue; // no compose plugin
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
            pb.environment().put("CFSLAB_SECURITY_TOKEN", "a-test-token");
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes());
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(String.join(" ", cmd) + ": " + out).isZero();
            // and without the token it refuses, naming the variable
            pb.environment().remove("CFSLAB_SECURITY_TOKEN");
            Process without = pb.start();
            String refusal = new String(without.getInputStream().readAllBytes());
            assertThat(without.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(without.exitValue()).as(String.join(" ", cmd) + " without a token").isNotZero();
            assertThat(refusal).contains("CFSLAB_SECURITY_TOKEN");
        }
    }

    private static boolean succeeds(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0;
    }

    private static boolean onPath(String exe) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, exe))) return true;
        }
        return false;
    }
}
