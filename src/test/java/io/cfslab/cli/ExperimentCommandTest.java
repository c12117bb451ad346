package io.cfslab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code experiment}: prints the seeds' table and writes the result JSON (exit 0); a bad experiment exits 2 with
 * one line per problem naming the file, the JSON pointer in the experiment and the reason.
 */
class ExperimentCommandTest {
    static final String GOOD = """
            { "name": "halve /a", "seed": 5, "repeats": 3,
              "scenario": { "name": "one group", "duration": "500ms", "machine": { "profile": "generic", "cpus": 2 },
                            "cgroups": [ { "path": "/a", "cpu.max": "50000 100000" } ],
                            "tasks": [ { "name": "nop", "cgroup": "/a", "count": 2, "workload": { "kind": "hog" } } ] },
              "arms": [ { "name": "base" }, { "name": "half", "set": { "/cgroups/0/cpu.max": "25000 100000" } } ] }
            """;

    record Out(int status, String out, String err) { }

    static Out run(String... args) {
        return runInto(new ByteArrayOutputStream(), args);
    }

    /** The command's status, standard output (if {@code out} keeps it) and standard error. */
    static Out runInto(java.io.OutputStream out, String... args) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream oldErr = System.err, oldOut = System.out;
        try {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            int status = Cli.run(args);
            String printed = out instanceof ByteArrayOutputStream b ? b.toString(StandardCharsets.UTF_8) : "";
            return new Out(status, printed, err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setErr(oldErr);
            System.setOut(oldOut);
        }
    }

    /** A ready-made scenario_id is read as the service reads an id: white space around it, any case (breaker 5 F12). */
    @Test
    void aReadyMadeScenarioIdIsReadAsTheServiceReadsIt() {
        for (String typed : new String[] {"e1-one-hog-10pct", "\te1-one-hog-10pct ", "E1-ONE-HOG-10PCT"}) {
            assertThat(ExperimentCommand.readyMade(typed)).as(typed).isNotNull();
        }
        assertThat(ExperimentCommand.readyMade("e1-one-hog")).isNull();
    }

    @Test
    void printsTheTableAndWritesTheResult(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("exp.json");
        Path result = dir.resolve("result.json");
        Files.writeString(file, GOOD);
        Out o = run("experiment", file.toString(), "--out", result.toString(), "--threads", "2");
        assertThat(o.status()).as(o.err()).isZero();
        assertThat(o.out()).startsWith("Experiment: halve /a\n")
                .containsPattern("cgroups/~1a/cpu\\.stat/usage_usec +\\d+±[\\d.]+% +\\d+±[\\d.]+% +-\\d+\\.\\d%\n")
                .contains("  AMean CoefVar  : ", "  p (Welch)      : ", "@distribute_cfs_runtime_ns:");
        assertThat(o.err()).contains("[6/6] half run 3").contains("6 runs on 2 threads");
        JsonNode json = JsonMapper.builder().build().readTree(Files.readString(result));
        assertThat(json.path("arms").toString()).isEqualTo("[\"base\",\"half\"]");
        JsonNode usage = json.path("metrics").path("cgroups/~1a/cpu.stat/usage_usec").path("half");
        assertThat(usage.path("values").size()).isEqualTo(3);
        assertThat(usage.path("diff_percent").asDouble()).isBetween(-53.0, -47.0);

        // --repeats and --format
        Out md = run("experiment", file.toString(), "--repeats", "2", "--format", "markdown", "--quiet");
        assertThat(md.status()).isZero();
        assertThat(md.out()).startsWith("## halve /a\n").contains("| metric | base | half | diff |");
        assertThat(md.err()).isEmpty();
        Out csv = run("experiment", file.toString(), "--repeats", "2", "--format", "csv", "--quiet");
        assertThat(csv.out()).startsWith("metric,arm,n,min,max,median,amean,");
    }

    @Test
    void aReadyMadeScenarioIsNamedById(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("exp.json");
        Files.writeString(file, """
                { "name": "e1 at 250 and 1000 Hz", "scenario_id": "e1-one-hog-10pct", "repeats": 2,
                  "set": { "/duration": "1s" },
                  "arms": [ { "name": "250", "set": { "/kernel/hz": 250 } }, { "name": "1000", "set": { "/kernel/hz": 1000 } } ] }
                """);
        Out o = run("experiment", file.toString(), "--quiet", "--format", "json");
        assertThat(o.status()).as(o.err()).isZero();
        JsonNode json = JsonMapper.builder().build().readTree(o.out());
        assertThat(json.path("scenario_id").asString()).isEqualTo("e1-one-hog-10pct");
        assertThat(json.path("metrics").has("cgroups/~1e1/cpu.stat/usage_usec")).isTrue();
    }

    static Stream<Arguments> badExperiments() {
        return Stream.of(
                arguments("\"/cgroups/0/cpu.max\": \"25000 100000\"", "\"/cgroups/3/cpu.max\": \"25000 100000\"",
                        "/arms/1/set/~1cgroups~13~1cpu.max: unknown pointer /cgroups/3/cpu.max: /cgroups has 1 entry, no index 3"),
                arguments("\"/cgroups/0/cpu.max\": \"25000 100000\"", "\"/kernel/unthrottel\": \"sync\"",
                        "/arms/1/set/~1kernel~1unthrottel: unknown key \"unthrottel\" (arm \"half\", scenario /kernel/unthrottel)"),
                arguments("\"/cgroups/0/cpu.max\": \"25000 100000\"", "\"/cgroups/0/cpu.max\": 25000.5",
                        "/arms/1/set/~1cgroups~10~1cpu.max: must be a string such as \"50000 100000\", not number 25000.5 (the kernel refuses such text with EINVAL) (arm \"half\", scenario /cgroups/0/cpu.max) (EINVAL)"),
                arguments("\"/cgroups/0/cpu.max\": \"25000 100000\"", "\"/kernel/hz\": \"fast\"",
                        "/arms/1/set/~1kernel~1hz: hz must be an integer, not string \"fast\" (arm \"half\", scenario /kernel/hz) (EINVAL)"),
                arguments("\"repeats\": 3", "\"repeats\": 0",
                        "/repeats: repeats 0 is outside 1..100: every arm needs at least one run (ERANGE)"),
                arguments("\"repeats\": 3", "\"repeats\": 3, \"scenario_id\": \"nope\"",
                        "/scenario_id: give either \"scenario\" or \"scenario_id\", not both (EINVAL)"));
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("badExperiments")
    void aBadExperimentExitsTwoWithOneClearLine(String good, String bad, String line, @TempDir Path dir) throws Exception {
        assertThat(GOOD).contains(good);
        Path file = dir.resolve("bad.json");
        Files.writeString(file, GOOD.replace(good, bad));
        Out o = run("experiment", file.toString());
        assertThat(o.status()).isEqualTo(2);
        assertThat(o.err().strip()).isEqualTo(file + ": " + line);
        assertThat(o.out()).isEmpty();
    }

    @Test
    void badOptionsAndMissingScenariosExitTwo(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("exp.json");
        Files.writeString(file, GOOD);
        Out zero = run("experiment", file.toString(), "--repeats", "0");
        assertThat(zero.status()).isEqualTo(2);
        assertThat(zero.err().strip()).isEqualTo("--repeats 0: repeats 0 is outside 1..100: every arm needs at least one run (ERANGE)");
        // every fault of an option names the option, not the file (the file's own repeats are fine): breaker 3, item 7
        Files.writeString(file, GOOD.replace("\"repeats\": 3", "\"repeats\": 1").replace("\"arms\": [",
                "\"arms\": [ { \"name\": \"third\" },"));
        for (String bad : new String[] {"0", "-1", "101", "100", "1000000000"}) {
            Out o = run("experiment", file.toString(), "--repeats", bad);
            assertThat(o.status()).as(bad).isEqualTo(2);
            assertThat(o.err().strip()).as(bad).startsWith("--repeats " + bad + ": ").doesNotContain(file.toString())
                    .endsWith("(ERANGE)");
        }
        Files.writeString(file, GOOD);
        assertThat(run("experiment", file.toString(), "--format", "xml").status()).isEqualTo(2);
        for (String bad : new String[] {"0", "-1"}) {
            Out budget = run("experiment", file.toString(), "--max-events", bad);
            assertThat(budget.status()).as("--max-events " + bad + " is a bad option, not an exceeded budget").isEqualTo(2);
            assertThat(budget.err().strip()).isEqualTo("--max-events must be at least 1, not " + bad);
        }
        // breaker 3 #13: an exceeded budget names the run that exceeded it (here only the 5 s arm does; 1000 events
        // are about 1.1 s of this scenario, measured), and writes no table
        Files.writeString(file, GOOD.replace("\"repeats\": 3", "\"repeats\": 2").replace("\"500ms\"", "\"50ms\"")
                .replace("{ \"name\": \"half\", \"set\": { \"/cgroups/0/cpu.max\": \"25000 100000\" } }",
                        "{ \"name\": \"long\", \"set\": { \"/duration\": \"5s\" } }"));
        Out over = run("experiment", file.toString(), "--max-events", "1000", "--threads", "1", "--quiet");
        assertThat(over.status()).isEqualTo(Cli.EXIT_ABORTED);
        assertThat(over.err().strip()).startsWith(file + ": arm \"long\" run 1 of 2 (seed ")
                .contains("): event budget of 1000 events exceeded at ").endsWith("(raise --max-events to go on)");
        assertThat(over.out()).isEmpty();
        Files.writeString(file, "{ \"scenario_id\": \"no-such\", \"repeats\": 1, \"arms\": [ { \"name\": \"a\" } ] }");
        Out missing = run("experiment", file.toString());
        assertThat(missing.status()).isEqualTo(2);
        assertThat(missing.err().strip()).startsWith(file + ": /scenario_id: no ready-made scenario no-such").endsWith("(ENOENT)");
        assertThat(run("experiment", dir.resolve("absent.json").toString()).status()).isEqualTo(2);
    }
}
