package io.cfslab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Breaker 3, items 2 and 4: a write that fails is reported, in one line without Java's class names, with exit 74
 * (EX_IOERR), and loses nothing. Standard output that refuses the bytes (a full disk, {@code > /dev/full}) fails every
 * command, help and version included (found through picocli's model); an {@code --out} that fails half-way (a full
 * file system) leaves the previous file as it was and no partial or temporary file.
 */
class CliWritesTest {
    static final String EXPERIMENT_OF = "{\"name\": \"e\", \"scenario\": %s, \"arms\": [{\"name\": \"a\"}], \"repeats\": 1}";

    /** Standard output that takes nothing: the disk is full. */
    static final class FullDisk extends OutputStream {
        @Override public void write(int b) throws IOException { throw new IOException("No space left on device"); }
        @Override public void write(byte[] b, int off, int len) throws IOException { write(0); }
    }

    static ExperimentCommandTest.Out runInto(Supplier<OutputStream> stdout, String... args) {
        try (OutputStream o = stdout.get()) {
            return ExperimentCommandTest.runInto(o, args);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void lostStandardOutputFailsEveryCommand(@TempDir Path dir) throws Exception {
        Path scenario = dir.resolve("s.json");
        Files.writeString(scenario, CliBadInputTest.GOOD);
        Path experiment = dir.resolve("e.json");
        Files.writeString(experiment, EXPERIMENT_OF.formatted(CliBadInputTest.GOOD));
        java.util.Map<String, List<String>> runs = java.util.Map.of(
                "simulate", List.of("simulate", scenario.toString()),
                "bench", List.of("bench", scenario.toString()),
                "experiment", List.of("experiment", experiment.toString(), "--quiet", "--format", "csv"));
        List<String[]> cases = new ArrayList<>();
        cases.add(new String[] {"--help"});
        cases.add(new String[] {"--version"});
        for (String cmd : new picocli.CommandLine(new Cli()).getSubcommands().keySet()) {
            assertThat(runs).as("a run of every command").containsKey(cmd);
            cases.add(runs.get(cmd).toArray(String[]::new));
            cases.add(new String[] {cmd, "--help"});
        }
        List<Supplier<OutputStream>> sinks = new ArrayList<>(List.of(FullDisk::new));
        if (Files.isWritable(Path.of("/dev/full"))) {
            sinks.add(() -> {
                try {
                    return new FileOutputStream("/dev/full");
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            });
        }
        for (Supplier<OutputStream> sink : sinks) {
            for (String[] args : cases) {
                ExperimentCommandTest.Out run = runInto(sink, args);
                String said = run.err().strip();
                assertThat(run.status()).as(Arrays.toString(args) + ": " + said).isEqualTo(Cli.EXIT_IO_ERROR);
                assertThat(said.lines().filter(l -> l.contains("standard output"))).as(said).hasSize(1);
                assertThat(said).doesNotContainPattern("[A-Z][A-Za-z]*(Exception|Error)\\b");
            }
        }
    }

    @Test
    void aResultIsReplacedWholeOrNotAtAll(@TempDir Path dir) throws Exception {
        Path scenario = dir.resolve("s.json");
        Files.writeString(scenario, CliBadInputTest.GOOD);
        Path out = dir.resolve("r.json");
        Files.writeString(out, "{\"previous\": \"result\"}");
        Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rw-r-----"));
        Path link = dir.resolve("link.json");
        Files.createSymbolicLink(link, out.getFileName());
        ExperimentCommandTest.Out ok = ExperimentCommandTest.run("simulate", scenario.toString(), "--out", link.toString());
        assertThat(ok.status()).as(ok.err()).isZero();
        assertThat(Files.isSymbolicLink(link)).as("the link stays; its file is replaced").isTrue();
        assertThat(Files.readString(out)).contains("\"nr_throttled\"");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(out))).isEqualTo("rw-r-----");
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("s.json", "r.json", "link.json");
        }
        // a dangling link: its file is created
        Path dangling = dir.resolve("dangling.json");
        Files.createSymbolicLink(dangling, Path.of("new.json"));
        assertThat(ExperimentCommandTest.run("simulate", scenario.toString(), "--out", dangling.toString()).status()).isZero();
        assertThat(Files.readString(dir.resolve("new.json"))).contains("\"nr_throttled\"");

        // the write fails after the check: the directory went away; one line, no class name, nothing left behind
        Path gone = dir.resolve("gone");
        Files.createDirectory(gone);
        var err = new java.io.StringWriter();
        Files.delete(gone);
        assertThat(CliOutput.writeAtomically(gone.resolve("r.json"), "{}", new java.io.PrintWriter(err))).isFalse();
        assertThat(err.toString().strip()).isEqualTo(gone.resolve("r.json") + ": cannot write: no such file or directory");
    }

    /** A full file system, as the breaker made it (a tmpfs, here of 8 KiB); needs mount(2), so root: skipped otherwise. */
    @Test
    void aFullFileSystemKeepsThePreviousResult(@TempDir Path dir) throws Exception {
        Path small = dir.resolve("small");
        Files.createDirectory(small);
        boolean mounted;
        try {
            mounted = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=8k", "tmpfs", small.toString())
                    .redirectErrorStream(true).start().waitFor() == 0;
        } catch (IOException noMount) {
            mounted = false;
        }
        assumeTrue(mounted, "mount -t tmpfs needs root");
        try {
            // a result larger than the file system: 40 hogs over 60 s, every second sampled
            Path scenario = dir.resolve("big.json");
            Files.writeString(scenario, """
                    {"name": "big", "duration": "60s", "machine": {"cpus": 8},
                     "cgroups": [{"path": "/a", "cpu.max": "50000 100000"}],
                     "tasks": [{"name": "h", "cgroup": "/a", "count": 40}]}""");
            Path experiment = dir.resolve("e.json");
            Files.writeString(experiment, EXPERIMENT_OF.formatted(Files.readString(scenario)).replace("\"repeats\": 1", "\"repeats\": 3"));
            for (String[] args : List.of(new String[] {"simulate", scenario.toString()},
                    new String[] {"experiment", experiment.toString(), "--quiet"})) {
                Path out = small.resolve("r.json");
                Files.writeString(out, "{\"previous\": \"result\"}");
                // an experiment's result is small (2 KB here): the rest of the file system is taken first
                boolean fill = args[0].equals("experiment");
                if (fill) {
                    try (OutputStream f = Files.newOutputStream(small.resolve("fill"))) {
                        for (int i = 0; i < 1 << 20; i++) f.write(new byte[512]);
                    } catch (IOException full) {
                        // full
                    }
                }
                List<String> a = new ArrayList<>(List.of(args));
                a.addAll(List.of("--out", out.toString()));
                ExperimentCommandTest.Out run = ExperimentCommandTest.run(a.toArray(String[]::new));
                String said = run.err().strip();
                assertThat(run.status()).as(a + ": " + said).isEqualTo(Cli.EXIT_IO_ERROR);
                assertThat(said).isEqualTo(out + ": cannot write: no space left on device (the file is unchanged)");
                assertThat(Files.readString(out)).isEqualTo("{\"previous\": \"result\"}");
                try (var files = Files.list(small)) {
                    assertThat(files.map(p -> p.getFileName().toString()).filter(n -> !n.equals("fill")))
                            .containsExactly("r.json");
                }
                Files.deleteIfExists(small.resolve("fill"));
            }
        } finally {
            new ProcessBuilder("umount", small.toString()).start().waitFor();
        }
    }
}
