package io.cfslab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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

    /**
     * The README's table of optional test dependencies is complete by construction: its PostgreSQL row names every
     * test class that asks for a PostgreSQL ({@code TestDatabase.postgres()}, which skips the test without one: the
     * row lacked {@code ConditionalWritesPostgresTest}), its Chromium row every class that drives the browser (a
     * subclass of {@code BrowserTestBase}, or one calling {@code Chromium}'s helpers), and each row names only test
     * classes that exist. A call is code, not a mention: this class's own javadoc and patterns do not count.
     */
    @Test
    void theOptionalDependenciesTableNamesEveryTestThatNeedsOne() throws IOException {
        List<String> rows = Files.readAllLines(Path.of("README.md")).stream().filter(l -> l.startsWith("| ")).toList();
        Map<String, String> sources = new TreeMap<>();
        try (var files = Files.walk(Path.of("src/test/java"))) {
            for (Path f : files.filter(f -> f.toString().endsWith("Test.java")).toList()) {
                sources.put(f.getFileName().toString().replace(".java", ""), Files.readString(f));
            }
        }
        checkRow(rows, "a PostgreSQL server", sources, Pattern.compile("(?:[=(]\\s*|return\\s+)TestDatabase\\.postgres\\(\\)"));
        checkRow(rows, "`chromium`", sources, Pattern.compile("extends\\s+BrowserTestBase\\b|\\bChromium\\.[a-z]\\w*\\("));
    }

    private static void checkRow(List<String> rows, String dependency, Map<String, String> sources,
                                 Pattern needs) {
        String row = rows.stream().filter(r -> r.startsWith("| " + dependency)).findFirst().orElseThrow(
                () -> new AssertionError("README has no row for " + dependency));
        String tests = row.split(" \\| ")[1];
        List<String> needing = sources.entrySet().stream().filter(e -> needs.matcher(e.getValue()).find()).map(Map.Entry::getKey).toList();
        assertThat(needing).as("test classes that need " + dependency).isNotEmpty();
        for (String name : needing) assertThat(tests).as("the README's row for " + dependency).contains("`" + name + "`");
        Matcher named = Pattern.compile("`(\\w+Test)`").matcher(tests);
        while (named.find()) assertThat(sources).as("a test the row for " + dependency + " names").containsKey(named.group(1));
    }
}
