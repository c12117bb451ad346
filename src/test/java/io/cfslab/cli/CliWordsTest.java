package io.cfslab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Breaker 3, item 9: every command says what is wrong with its input file or its {@code --out} in the user's words, in
 * one line: the API's words for a document that is not an object, the reason of a file that cannot be read (no such
 * file), a {@code .json} array read as JSON, and never a Java class name ({@code NoSuchFileException}).
 */
class CliWordsTest {

    @Test
    void everyFileFaultOfEveryCommandInOneLineOfTheUsersWords(@TempDir Path dir) throws Exception {
        Path good = dir.resolve("good.json");
        Files.writeString(good, CliBadInputTest.GOOD);
        Map<String, String> contents = new LinkedHashMap<>();
        contents.put("", "empty file (no bytes");
        contents.put(" \n\t", "empty file (only white space");
        contents.put("null", "must be a JSON object, not null (EINVAL)");
        contents.put("~\n", "must be a JSON object, not null (EINVAL)");
        contents.put("[1]", "must be a JSON object, not an array (EINVAL)");
        contents.put("[{\"name\": \"x\"}]", "must be a JSON object, not an array (EINVAL)");
        contents.put("3", "must be a JSON object, not number 3 (EINVAL)");
        contents.put("[1,2", "malformed JSON");
        contents.put("[".repeat(600), "malformed JSON");
        Map<Path, String> files = new LinkedHashMap<>();
        int i = 0;
        for (var e : contents.entrySet()) {
            Path f = dir.resolve("f" + i++ + ".json");
            Files.writeString(f, e.getKey());
            files.put(f, e.getValue());
        }
        files.put(dir.resolve("missing.json"), "cannot read: no such file or directory");
        Path dangling = dir.resolve("dangling.json");
        Files.createSymbolicLink(dangling, dir.resolve("nowhere.json"));
        files.put(dangling, "cannot read: no such file or directory");
        int checked = 0;
        for (String cmd : new picocli.CommandLine(new Cli()).getSubcommands().keySet()) {
            for (var f : files.entrySet()) {
                ExperimentCommandTest.Out run = ExperimentCommandTest.run(cmd, f.getKey().toString());
                String said = run.err().strip();
                assertThat(run.status()).as(cmd + " " + f.getKey() + ": " + said).isEqualTo(2);
                assertThat(said.lines()).as(said).hasSize(1);
                assertThat(said).as(cmd + " " + f.getKey()).startsWith(f.getKey() + ": ").contains(f.getValue())
                        .doesNotContain("malformed YAML", "empty scenario").doesNotContainPattern("[A-Z][A-Za-z]*(Exception|Error)\\b");
                checked++;
            }
        }
        // --out where no file can be created
        for (String cmd : List.of("simulate", "experiment")) {
            Path input = good;
            if (cmd.equals("experiment")) {
                input = dir.resolve("e.json");
                Files.writeString(input, CliWritesTest.EXPERIMENT_OF.formatted(CliBadInputTest.GOOD));
            }
            for (var out : Map.of("/nonexistent/r.json", "no such file or directory",
                    good + "/x", "not a directory", dangling.toString(), "no such file or directory").entrySet()) {
                Path target = out.getKey().equals(dangling.toString()) ? dir.resolve("sub/r.json") : null;
                if (target != null) {
                    Files.delete(dangling);
                    Files.createSymbolicLink(dangling, target);
                }
                ExperimentCommandTest.Out run = ExperimentCommandTest.run(cmd, input.toString(), "--out", out.getKey());
                String said = run.err().strip();
                // a result that cannot be written is an I/O fault, sysexits' EX_IOERR (74), as README says (breaker 5 F14)
                assertThat(run.status()).as(cmd + " --out " + out.getKey() + ": " + said).isEqualTo(74);
                assertThat(said).isEqualTo(out.getKey() + ": cannot write the result there: " + out.getValue());
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(30);
    }
}
