package io.cfslab.cli;

import io.cfslab.scenario.Problem;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioException;
import io.cfslab.scenario.ScenarioParser;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Reads a scenario file for a command, printing one line per problem. */
final class ScenarioFiles {
    private ScenarioFiles() {}

    /** Largest scenario file read: a scenario with 20,000 explicit cgroups is about 1 MiB. */
    static final int MAX_BYTES = 64 << 20;
    /** Problems printed at most; the rest are counted. */
    static final int MAX_LINES = 100;

    /** @return the scenario, or null after printing every problem to {@code err} */
    static Scenario read(Path file, PrintWriter err) {
        String text = readText(file, err);
        if (text == null) return null;
        try {
            return ScenarioParser.parse(text, declaredYaml(file));
        } catch (ScenarioException e) {
            print(file, e.problems(), err);
            return null;
        }
    }

    /**
     * Whether a file is declared YAML by its extension ({@code .yaml}, {@code .yml}, any case), as a body is by its
     * {@code Content-Type}: one that starts with '{' is then read as YAML where JSON refuses it (breaker 9 F15).
     */
    static boolean declaredYaml(Path file) {
        String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(java.util.Locale.ROOT);
        return name.endsWith(".yaml") || name.endsWith(".yml");
    }

    /** One line per problem ({@code file: /pointer: reason (ERRNO)}), at most {@value #MAX_LINES}. */
    static void print(Path file, List<Problem> problems, PrintWriter err) {
        for (Problem p : problems.subList(0, Math.min(MAX_LINES, problems.size()))) err.println(file + ": " + p.line());
        if (problems.size() > MAX_LINES) err.println(file + ": … and " + (problems.size() - MAX_LINES) + " more problems");
    }

    /** @return the file's text (UTF-8, at most {@link #MAX_BYTES}), or null after printing why not to {@code err} */
    static String readText(Path file, PrintWriter err) {
        String text;
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(MAX_BYTES + 1);
            if (bytes.length > MAX_BYTES) {
                err.println(file + ": larger than " + (MAX_BYTES >> 20) + " MiB; not a scenario");
                return null;
            }
            text = StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes)).toString();
            if (io.cfslab.scenario.ScenarioText.isBlank(text)) { // the API's "empty body"; "empty scenario" was wrong for an experiment's file
                err.println(file + ": empty file (" + (bytes.length == 0 ? "no bytes" : "only white space")
                        + "; a scenario or experiment is a JSON or YAML object)");
                return null;
            }
        } catch (CharacterCodingException e) {
            err.println(file + ": not UTF-8 text");
            return null;
        } catch (IOException e) {
            err.println(file + ": cannot read: " + IoWords.reason(e));
            return null;
        }
        return text;
    }

    /**
     * Whether the result can be written to {@code out}, checked before any run starts (a run may take minutes; an
     * unwritable path found afterwards loses it): by opening it for writing as the write will, since permission
     * bits alone do not tell (root passes every access() check, yet cannot create {@code /proc/self/x}): an existing
     * file is opened without truncating it, and a file is created (and removed) in the directory the write's
     * temporary file goes to. Prints why not.
     * The input file itself (by any name: a link, {@code ./x}) is refused: the result would replace the scenario.
     *
     * <p>One rule for every command with {@code --out} (breaker 5 F14): arguments that contradict themselves (an
     * empty name, the input file) are a usage error, {@link Cli#EXIT_BAD_INPUT}; a path the result cannot be
     * written to (a missing directory, a directory, a device, a pseudo-filesystem, no permission) is an I/O
     * failure, {@link Cli#EXIT_IO_ERROR} (74, as README.md says of a result that could not be written).
     *
     * @param input the file the command reads (its scenario or experiment)
     * @return 0 if {@code out} is null (no output asked for) or writable, else the exit status
     */
    static int outStatus(Path out, Path input, PrintWriter err) {
        if (out == null) return 0;
        if (out.toString().isEmpty()) {
            err.println("--out: an empty file name (give the file to write the result to)");
            return Cli.EXIT_BAD_INPUT;
        }
        try {
            if (input != null && Files.exists(out) && Files.exists(input) && Files.isSameFile(out, input)) {
                err.println(out + ": cannot write the result there: it is the input file " + input
                        + " (the result would replace it)");
                return Cli.EXIT_BAD_INPUT;
            }
        } catch (java.io.IOException e) {
            // cannot compare: the checks below decide
        }
        if (Files.isDirectory(out)) {
            err.println(out + ": cannot write the result there: it is a directory");
            return Cli.EXIT_IO_ERROR;
        }
        boolean existed = Files.exists(out);
        if (existed && !Files.isRegularFile(out)) {
            // a FIFO would block the open until a reader comes, a device (/dev/full) fails only at the write
            err.println(out + ": cannot write the result there: not a regular file");
            return Cli.EXIT_IO_ERROR;
        }
        Path where = existed ? out : out.toAbsolutePath().getParent();
        try {
            String fs = where == null ? "" : Files.getFileStore(where).type();
            if (java.util.Set.of("proc", "sysfs", "devtmpfs", "cgroup", "cgroup2", "debugfs", "tracefs").contains(fs)) {
                // their files open for writing and then refuse (or, as root, change the kernel's settings)
                err.println(out + ": cannot write the result there: a kernel pseudo-filesystem (" + fs + ")");
                return Cli.EXIT_IO_ERROR;
            }
        } catch (java.io.IOException e) {
            // no file store to ask: the open below decides
        }
        try {
            if (existed) {
                // opened without truncating it: the file itself must take a write, as the kernel would check
                try (var ch = java.nio.channels.FileChannel.open(out, java.nio.file.StandardOpenOption.WRITE)) {
                    // opened: writable
                }
            }
            // the result is written to a new file beside the target and renamed over it (CliOutput.writeAtomically):
            // the directory must take a new file
            Path target = CliOutput.target(out);
            Path probe = target.getParent().resolve("." + target.getFileName() + ".probe-" + ProcessHandle.current().pid());
            Files.deleteIfExists(Files.createFile(probe));
        } catch (java.io.IOException | UnsupportedOperationException | SecurityException e) {
            String why = e instanceof java.io.IOException io ? IoWords.reason(io) : "permission denied";
            err.println(out + ": cannot write the result there: " + why);
            return Cli.EXIT_IO_ERROR;
        }
        return 0;
    }
}
