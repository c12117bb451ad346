package io.cfslab.cli;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * {@code simulate} with a bad scenario exits 2 and prints exactly one line: the file, the JSON pointer, the
 * reason and, where the kernel refuses the same write, its errno.
 */
class CliBadInputTest {

    static final String GOOD = """
        { "name": "ok", "duration": "1s", "machine": { "profile": "generic", "cpus": 2 },
          "cgroups": [ { "path": "/a", "cpu.max": "10000 100000" }, { "path": "/b" } ],
          "tasks": [ { "name": "nop", "cgroup": "/a", "workload": { "kind": "hog" } } ],
          "timeline": [ { "at": "500ms", "move": "nop", "to": "/b" } ] }
        """;

    static Stream<Arguments> badScenarios() {
        return Stream.of(
            arguments("\"cpu.max\": \"10000 100000\"", "\"cpu.max\": \"0 100000\"", "/cgroups/0/cpu.max", "EINVAL"),
            arguments("\"cpu.max\": \"10000 100000\"", "\"cpu.max\": \"1000 100\"", "/cgroups/0/cpu.max", "EINVAL"),
            arguments("\"cpu.max\": \"10000 100000\"", "\"cpu.max\": \"max 2000000\"", "/cgroups/0/cpu.max", "EINVAL"),
            arguments("\"cpu.max\": \"10000 100000\"", "\"cpu.max\": \"abc\"", "/cgroups/0/cpu.max", "EINVAL"),
            arguments("\"cpu.max\": \"10000 100000\"", "\"cpu.max\": \"999 100000\"", "/cgroups/0/cpu.max", "EINVAL"),
            arguments("\"cpu.max\": \"10000 100000\"", "\"cpu.max\": \"10000 100000\", \"cpu.max.burst\": \"20000\"",
                    "/cgroups/0/cpu.max.burst", "EINVAL"),
            arguments("{ \"path\": \"/b\" }", "{ \"path\": \"/b\", \"cpu.weight\": 0 }", "/cgroups/1/cpu.weight", "ERANGE"),
            arguments("{ \"path\": \"/b\" }", "{ \"path\": \"/b\", \"cpu.weight\": 10001 }", "/cgroups/1/cpu.weight", "ERANGE"),
            arguments("\"name\": \"ok\"", "\"name\": \"ok\", \"colour\": \"red\"", "/colour", null),
            arguments("{ \"path\": \"/b\" }", "{ \"path\": \"/b\", \"cpu.maxx\": \"1\" }", "/cgroups/1/cpu.maxx", null),
            arguments("\"cpus\": 2 }", "\"cpus\": 2, \"turbo\": true }", "/machine/turbo", null),
            arguments("\"profile\": \"generic\"", "\"profile\": \"genoa\"", "/machine/profile", null),
            arguments("\"profile\": \"generic\"", "\"profile\": \"amd-genoa-2s\"", "/machine/cpus", null),
            arguments("\"kind\": \"hog\" }", "\"kind\": \"hog\", \"speed\": 2 }", "/tasks/0/workload/speed", null),
            arguments("\"cgroup\": \"/a\"", "\"cgroup\": \"/missing\"", "/tasks/0/cgroup", "ENOENT"),
            arguments("\"to\": \"/b\"", "\"to\": \"/nowhere\"", "/timeline/0/to", "ENOENT"),
            arguments("\"at\": \"500ms\"", "\"at\": \"5s\"", "/timeline/0/at", null),
            arguments("\"duration\": \"1s\"", "\"duration\": \"-5s\"", "/duration", null),
            arguments("\"duration\": \"1s\"", "\"duration\": \"5\"", "/duration", null),
            arguments("\"duration\": \"1s\"", "\"duration\": \"5 parsecs\"", "/duration", null),
            arguments("\"cpus\": 2", "\"cpus\": 100000", "/machine/cpus", null),
            arguments("\"workload\": { \"kind\": \"hog\" } }",
                    "\"count\": 10000000, \"workload\": { \"kind\": \"hog\" } }", "/tasks/0/count", null),
            arguments("\"cgroups\": [", "\"generate\": [ { \"levels\": [1000, 1000, 1000] } ], \"cgroups\": [",
                    "/generate/0/levels", null),
            arguments("\"workload\": { \"kind\": \"hog\" } }",
                    "\"workload\": { \"kind\": \"hog\" }, \"cpus_allowed\": \"3-1\" }", "/tasks/0/cpus_allowed", "EINVAL"),
            arguments("{ \"at\": \"500ms\", \"move\": \"nop\", \"to\": \"/b\" }",
                    "{ \"at\": \"500ms\", \"write\": \"/a/cpu.max\", \"value\": \"10 100000\" }", "/timeline/0/value", "EINVAL"),
            arguments("{ \"at\": \"500ms\", \"move\": \"nop\", \"to\": \"/b\" }",
                    "{ \"at\": \"500ms\", \"chrt\": \"nop\", \"policy\": \"rr\" }", "/timeline/0/priority", null),
            // found by trying to break it: output forgery, unencodable text, unbounded memory or time
            arguments("\"name\": \"ok\"", "\"name\": \"ok\\nfake.json: /x: forged (EPERM)\"", "/name", null),
            arguments("\"name\": \"ok\"", "\"name\": \"\\ud800\"", "/name", null),
            arguments("\"duration\": \"1s\"", "\"duration\": \"" + "9".repeat(100_000) + "ns\"", "/duration", null),
            arguments("\"name\": \"ok\"", "\"name\": \"ok\", \"record\": { \"interval\": \"1us\" }",
                    "/record/interval", null),
            arguments("\"kind\": \"hog\" }", "\"kind\": \"periodic\", \"run\": \"1ns\", \"sleep\": \"1ns\" }",
                    "/tasks/0/workload/run", null),
            arguments("{ \"path\": \"/b\" }", "{ \"path\": \"/b\" }, { \"path\": \"/a/c\" }", "/tasks/0/cgroup", "EBUSY"),
            arguments("{ \"path\": \"/b\" }", "{ \"path\": \"/b\" }, { \"path\": \"/b/c\" }", "/timeline/0/to", "EBUSY"),
            arguments("{ \"path\": \"/b\" }", "{ \"path\": \"/b\" }, { \"path\": \"/cgroup.procs\" }",
                    "/cgroups/2/path", "EEXIST"),
            arguments("{ \"at\": \"500ms\", \"move\": \"nop\", \"to\": \"/b\" }",
                    "{ \"at\": \"500ms\", \"write\": \"/cpu.max\", \"value\": \"max\" }", "/timeline/0/write", "ENOENT")
        );
    }

    @ParameterizedTest(name = "{1}")
    @MethodSource("badScenarios")
    void badScenarioExitsTwoWithOneLineNamingThePathAndErrno(String good, String bad, String pointer, String errno,
                                                            @TempDir Path dir) throws Exception {
        assertThat(GOOD).contains(good);
        Path file = dir.resolve("bad.json");
        Files.writeString(file, GOOD.replace(good, bad));

        ExperimentCommandTest.Out run = ExperimentCommandTest.run("simulate", file.toString());
        String text = run.err().strip();
        assertThat(run.status()).isEqualTo(2);
        assertThat(text.lines()).hasSize(1);
        assertThat(text).startsWith(file + ": " + pointer + ": ");
        if (errno != null) assertThat(text).endsWith("(" + errno + ")");
        assertThat(run.out()).isEmpty();
    }

    /**
     * Breaker 5 F4: the scenario names the API refuses (422 EINVAL at {@code /name}) every command refuses too, with
     * the same pointer and reason: one rule, in the parser both use; an experiment's inline scenario at
     * {@code /scenario/name} as the API answers it.
     */
    @org.junit.jupiter.api.Test
    void everyCommandRefusesTheNamesTheApiRefuses(@TempDir Path dir) throws Exception {
        java.util.Map<String, String> names = java.util.Map.of("\"\"", "name must not be empty",
                "\"   \"", "name must not be empty", "\"c \"", "name must not begin or end with white space",
                "\" s\"", "name must not begin or end with white space", "\"\\u2003\"", "name must not be empty",
                "\"" + "n".repeat(501) + "\"", "name of 501 characters");
        for (var name : names.entrySet()) {
            Path file = dir.resolve("s.json");
            Files.writeString(file, GOOD.replace("\"ok\"", name.getKey()));
            Path experiment = dir.resolve("e.json");
            Files.writeString(experiment, "{\"name\": \"e\", \"scenario\": " + Files.readString(file)
                    + ", \"arms\": [{\"name\": \"a\"}], \"repeats\": 1}");
            for (String[] args : java.util.List.of(new String[] {"simulate", file.toString()},
                    new String[] {"bench", file.toString()}, new String[] {"experiment", experiment.toString(), "--quiet"})) {
                ExperimentCommandTest.Out run = ExperimentCommandTest.run(args);
                String said = run.err().strip();
                String at = args[0].equals("experiment") ? "/scenario/name" : "/name";
                assertThat(run.status()).as(String.join(" ", args) + " " + name.getKey() + ": " + said).isEqualTo(2);
                assertThat(said).as(name.getKey()).startsWith(args[1] + ": " + at + ": " + name.getValue())
                        .endsWith(name.getValue().startsWith("name of") ? "(ENAMETOOLONG)" : "(EINVAL)");
                assertThat(run.out()).isEmpty();
            }
        }
    }

    @ParameterizedTest(name = "good scenario runs")
    @MethodSource("goodOnly")
    void theUneditedScenarioRuns(String ignored, @TempDir Path dir) throws Exception {
        Path file = dir.resolve("good.json");
        Path out = dir.resolve("result.json");
        Files.writeString(file, GOOD);
        assertThat(Cli.run(new String[] {"simulate", file.toString(), "--out", out.toString()})).isZero();
        assertThat(Files.readString(out)).contains("\"nr_throttled\"");
    }

    static Stream<String> goodOnly() { return Stream.of("x"); }

    /** u64 cgroup files are written through kstrtoull(buf, 0, ...): hex and octal are numbers, as in the kernel. */
    @org.junit.jupiter.api.Test
    void weightsAndBurstsTakeTheKernelsIntegerSyntax() {
        assertThat(io.cfslab.scenario.CgroupFiles.parseWeight("0x10")).isEqualTo(16);
        assertThat(io.cfslab.scenario.CgroupFiles.parseWeight("010")).isEqualTo(8);
        assertThat(io.cfslab.scenario.CgroupFiles.parseWeight("+5\n")).isEqualTo(5);
        assertThat(io.cfslab.scenario.CgroupFiles.parseBurst("0x1000", new io.cfslab.scenario.CpuMax(10_000, 100_000))).isEqualTo(4096);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> io.cfslab.scenario.CgroupFiles.parseWeight(" 5"))
                .hasMessageContaining("not an unsigned number");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> io.cfslab.scenario.CgroupFiles.parseWeight("0x"))
                .hasMessageContaining("not an unsigned number");
    }

    @org.junit.jupiter.api.Test
    void aResultThatCannotBeWrittenIsRefusedBeforeTheRun(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("good.json");
        Files.writeString(file, GOOD);
        Path experiment = dir.resolve("exp.json");
        Files.writeString(experiment, "{\"name\": \"e\", \"scenario\": " + GOOD + ", \"arms\": [{\"name\": \"a\"}],"
                + " \"repeats\": 2}");
        java.util.List<Path> unwritable = new java.util.ArrayList<>(java.util.List.of(dir.resolve("missing/r.json"), dir));
        // a folder that exists and passes permission checks (root passes them all) but where no file can be created
        if (Files.isDirectory(Path.of("/proc/self"))) unwritable.add(Path.of("/proc/self/x"));
        // files of the kernel's pseudo-filesystems open for writing and refuse (or change a setting) only at the write
        if (Files.exists(Path.of("/proc/self/status"))) unwritable.add(Path.of("/proc/self/status"));
        // a device fails only at the write; a FIFO would block the check's open until a reader came
        if (Files.exists(Path.of("/dev/full"))) unwritable.add(Path.of("/dev/full"));
        Path fifo = dir.resolve("fifo");
        if (new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor() == 0) unwritable.add(fifo);
        // the input itself, by its own name or another: the result would replace it
        Path link = dir.resolve("link.json");
        Files.createSymbolicLink(link, file);
        Path expLink = dir.resolve("exp-link.json");
        Files.createLink(expLink, experiment);
        // a path that cannot take the result is an I/O failure, 74 (breaker 5 F14: README.md's "the result could not
        // be written"); an --out that contradicts the arguments (the input itself, no name) is a usage error, 2
        java.util.Map<String[], Integer> cases = new java.util.LinkedHashMap<>();
        for (Path out : unwritable) {
            cases.put(new String[] {"simulate", file.toString(), "--out", out.toString()}, Cli.EXIT_IO_ERROR);
            cases.put(new String[] {"experiment", experiment.toString(), "--out", out.toString()}, Cli.EXIT_IO_ERROR);
        }
        cases.put(new String[] {"simulate", file.toString(), "--out", file.toString()}, Cli.EXIT_BAD_INPUT);
        cases.put(new String[] {"simulate", file.toString(), "--out", link.toString()}, Cli.EXIT_BAD_INPUT);
        cases.put(new String[] {"experiment", experiment.toString(), "--out", experiment.toString()}, Cli.EXIT_BAD_INPUT);
        cases.put(new String[] {"experiment", experiment.toString(), "--out", expLink.toString()}, Cli.EXIT_BAD_INPUT);
        cases.put(new String[] {"simulate", file.toString(), "--out="}, Cli.EXIT_BAD_INPUT);
        {
            for (var c : cases.entrySet()) {
                String[] args = c.getKey();
                String out = args[args.length - 1].startsWith("--out=") ? "--out" : args[args.length - 1];
                ExperimentCommandTest.Out run = ExperimentCommandTest.run(args);
                String said = run.err().strip();
                assertThat(run.status()).as(args[0] + " --out " + out + ": " + said).isEqualTo(c.getValue());
                // one line saying why, and no run started (no progress line)
                assertThat(said.lines()).as(said).hasSize(1);
                assertThat(said).startsWith(out);
            }
        }
        assertThat(dir.resolve("missing")).doesNotExist();
        assertThat(Files.readString(file)).isEqualTo(GOOD);
        assertThat(Files.readString(experiment)).startsWith("{\"name\": \"e\"");
    }

    /**
     * Every numeric option of every command (found through picocli's model, so a new one is checked too), but
     * {@code --seed} (any 64-bit value is a seed), refuses 0 and -1 as a usage error: exit 2 and one line naming the
     * option (a breaker's finding: simulate --max-events=-1 stopped the run at once, exit 3).
     */
    @org.junit.jupiter.api.Test
    void everyNumericOptionRefusesZeroAndNegativeValuesWithExitTwo(@TempDir Path dir) throws Exception {
        Path scenario = dir.resolve("s.json");
        Files.writeString(scenario, GOOD);
        Path experiment = dir.resolve("e.json");
        Files.writeString(experiment, "{\"name\": \"e\", \"scenario\": " + GOOD + ", \"arms\": [{\"name\": \"a\"}],"
                + " \"repeats\": 2}");
        java.util.Map<String, Path> inputs = java.util.Map.of("simulate", scenario, "bench", scenario, "experiment", experiment);
        var commands = new picocli.CommandLine(new Cli()).getSubcommands();
        int checked = 0;
        for (var command : commands.entrySet()) {
            for (var option : command.getValue().getCommandSpec().options()) {
                Class<?> type = option.type();
                boolean numeric = type == int.class || type == long.class || type == Integer.class || type == Long.class;
                if (!numeric || option.longestName().equals("--seed")) continue;
                for (String value : java.util.List.of("0", "-1")) {
                    String[] args = {command.getKey(), inputs.get(command.getKey()).toString(), option.longestName() + "=" + value};
                    ExperimentCommandTest.Out run = ExperimentCommandTest.run(args);
                    String said = run.err().strip();
                    assertThat(run.status()).as(String.join(" ", args) + ": " + said).isEqualTo(2);
                    assertThat(said).as(String.join(" ", args)).contains(option.longestName().substring(2));
                    checked++;
                }
            }
        }
        assertThat(checked).as("numeric options found").isGreaterThanOrEqualTo(8); // max-events x2, runs, repeats, threads
    }

    @org.junit.jupiter.api.Test
    void aMistypedCommandIsAnErrorNotAServer() {
        assertThat(Cli.startsService(new String[] {"simulat"})).isFalse();
        assertThat(Cli.startsService(new String[] {"--server.port=9090"})).isTrue();
        assertThat(Cli.run(new String[] {"simulat", "x.json"})).isEqualTo(2);
    }
}
