package io.cfslab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every file the README's console blocks read ({@code $ cat PATH}, {@code java -jar target/cfslab.jar experiment PATH})
 * ships with the repository, and a {@code cat} shows it as it is: a fresh clone runs the commands as written (the
 * README's experiment read {@code e1-quota.json}, a file a newcomer had to write first).
 */
class ReadmeFilesTest {
    @Test
    void everyFileTheReadmeReadsShipsAndCatShowsItAsItIs() throws IOException {
        List<String> lines = Files.readAllLines(Path.of("README.md"));
        List<String> read = new ArrayList<>();
        Pattern cat = Pattern.compile("^\\$ cat (\\S+)$");
        Pattern experiment = Pattern.compile("^\\$ java -jar target/cfslab.jar (?:experiment|simulate) (\\S+)");
        for (int i = 0; i < lines.size(); i++) {
            Matcher c = cat.matcher(lines.get(i));
            if (c.find()) {
                Path file = Path.of(c.group(1));
                assertThat(file).as("README line " + (i + 1) + " reads it").isRegularFile();
                StringBuilder shown = new StringBuilder();
                for (int j = i + 1; j < lines.size() && !lines.get(j).startsWith("$ ") && !lines.get(j).startsWith("```"); j++) {
                    shown.append(lines.get(j)).append('\n');
                }
                assertThat(shown.toString()).as(file + " as the README shows it").isEqualTo(Files.readString(file));
                read.add(c.group(1));
            }
            Matcher e = experiment.matcher(lines.get(i));
            if (e.find() && !e.group(1).startsWith("-")) {
                assertThat(Path.of(e.group(1))).as("README line " + (i + 1) + " runs it").isRegularFile();
                read.add(e.group(1));
            }
        }
        assertThat(read).contains("docs/examples/e1-quota.json");
    }
}
