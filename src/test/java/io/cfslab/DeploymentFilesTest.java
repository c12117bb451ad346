package io.cfslab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * {@code docker-compose.yml} runs the app, scalable workers and PostgreSQL with the {@code postgres} profile;
 * where a compose CLI exists, {@code config -q} must accept the file (skipped, with the reason, where none exists).
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
        // both built from this directory, never pulled (Compose v2 would otherwise try to pull cfslab:latest)
        for (Map<String, Object> s : List.of(app, worker)) {
            assertThat(s.get("build")).isEqualTo(".");
            assertThat(s.get("pull_policy")).isEqualTo("build");
        }
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
        assertThat(dockerfile).contains("ENV SERVER_ADDRESS=0.0.0.0");
    }

    /** The image compiles the project itself (Maven and Node in a build stage), so a fresh clone needs no jar. */
    @Test
    void theDockerfileBuildsFromSourceAndItsContextLeavesOutBuildOutput() throws Exception {
        List<String> lines = Files.readAllLines(Path.of("Dockerfile"));
        List<String> froms = lines.stream().filter(l -> l.startsWith("FROM ")).toList();
        assertThat(froms).as("a build stage and a runtime stage").hasSizeGreaterThanOrEqualTo(2);
        assertThat(froms).anyMatch(f -> f.endsWith(" AS build"));
        assertThat(froms.get(froms.size() - 1)).contains("-jre");
        String dockerfile = String.join("\n", lines);
        assertThat(dockerfile).contains("./mvnw -B package -DskipTests", "npm ci", "COPY --from=build /src/target/cfslab.jar")
                // installed once: ensure-deps.mjs stamps node_modules, so Maven's own run of it skips a second npm ci
                .contains("RUN cd frontend && node ensure-deps.mjs")
                .doesNotContain("COPY target/");
        // what the build copies exists in the repository
        for (String l : lines) {
            if (l.startsWith("COPY ") && !l.startsWith("COPY --from")) {
                String[] parts = l.substring(5).trim().split("\\s+");
                for (int i = 0; i < parts.length - 1; i++) assertThat(Path.of(parts[i])).as(l).exists();
            }
        }
        List<String> ignored = Files.readAllLines(Path.of(".dockerignore"));
        assertThat(ignored).contains(".git", "data/", "target/", "node_modules/", "frontend/node_modules/");
    }

    /**
     * Every image the Dockerfile (its FROM lines) and docker-compose.yml (services that are not built here) name is in
     * README's images table with the date its maintenance ends (postgres:15 was not), and none of those dates has passed (Node 20's image was used past its end of life, a newcomer's finding); the
     * Node.js the README asks for names the image's major version.
     */
    @Test
    @SuppressWarnings("unchecked")
    void everyImageTheDockerfileAndComposeFileNameIsListedInTheReadmeAndStillMaintained() throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        List<String> images = new java.util.ArrayList<>(Files.readAllLines(Path.of("Dockerfile")).stream().filter(l -> l.startsWith("FROM "))
                .map(l -> l.substring(5).trim().split("\\s+")[0]).toList());
        assertThat(images).isNotEmpty();
        // compose's images, but for those it builds from this directory (build: ., never pulled)
        Map<String, Object> compose = new Yaml().load(Files.readString(Path.of("docker-compose.yml")));
        List<String> composeImages = ((Map<String, Map<String, Object>>) compose.get("services")).values().stream()
                .filter(s -> s.get("image") != null && s.get("build") == null).map(s -> String.valueOf(s.get("image"))).toList();
        assertThat(composeImages).as("compose pulls its database").contains("postgres:15");
        images.addAll(composeImages);
        for (String image : images) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\| `" + java.util.regex.Pattern.quote(image)
                    + "` \\| [^|]+ \\| (\\d{4}-\\d{2}-\\d{2}) \\|").matcher(readme);
            assertThat(m.find()).as(image + " in README's base images table").isTrue();
            assertThat(java.time.LocalDate.parse(m.group(1))).as(image + " still maintained").isAfterOrEqualTo(java.time.LocalDate.now());
        }
        String node = images.stream().filter(i -> i.startsWith("node:")).findFirst().orElseThrow();
        String major = node.substring("node:".length()).split("[-.]")[0];
        assertThat(Integer.parseInt(major)).as("not Node 20 (end of life 2026-04-30)").isGreaterThan(20);
        assertThat(readme).contains("Node.js " + major + ", the current LTS").contains("use 24 or " + major);
    }

    @Test
    void composeCliAcceptsTheFile() throws Exception {
        // like the PostgreSQL tests: skipped, with the reason, where no compose command is installed
        Assumptions.assumeTrue(onPath("docker-compose") || onPath("docker") && succeeds(List.of("docker", "compose", "version")),
                "no compose command (docker compose or docker-compose) on PATH: apt-get install docker-compose");
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

    /**
     * Issue 13, "Done means": README says how to expose the service safely (token, bind address) and the settings it
     * names are the service's: the default bind address in {@code application.yml} is 127.0.0.1, the token property
     * exists (empty by default), and the compose file, which publishes on every interface, needs the token.
     */
    @Test
    void theReadmeSaysHowToExposeTheServiceSafelyWithTheServicesOwnSettings() throws Exception {
        String readme = Files.readString(Path.of("README.md"));
        int at = readme.indexOf("## Exposing the service safely");
        assertThat(at).as("README section").isNotNegative();
        String section = readme.substring(at, readme.indexOf("\n## ", at + 3));
        assertThat(section).contains("127.0.0.1", "CFSLAB_SECURITY_TOKEN", "Authorization: Bearer", "/login",
                "--server.address=0.0.0.0", "127.0.0.1:8080:8080", "429", "Retry-After", "TLS");
        @SuppressWarnings("unchecked")
        Map<String, Object> yml = (Map<String, Object>) new Yaml().load(Files.readString(
                Path.of("src/main/resources/application.yml")));
        @SuppressWarnings("unchecked")
        Map<String, Object> server = (Map<String, Object>) yml.get("server");
        assertThat(server.get("address")).isEqualTo("127.0.0.1");
        @SuppressWarnings("unchecked")
        Map<String, Object> security = (Map<String, Object>) ((Map<String, Object>) yml.get("cfslab")).get("security");
        assertThat(security).containsEntry("token", "");
        assertThat(Files.readString(Path.of("docker-compose.yml"))).contains("\"8080:8080\"", "${CFSLAB_SECURITY_TOKEN:?");
    }
}
