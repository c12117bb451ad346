package io.cfslab;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The README and docs/ read on a clone anywhere (issue 12): no reference to material beside the repository
 * ({@code ../shared}, {@code shared/design}, {@code shared/seeds}, {@code /work/...}) except where the line says it is
 * kept outside the repository, and every {@code docs/*.md} they name exists.
 */
class DocsSelfContainedTest {
    static final Pattern OUTSIDE = Pattern.compile("\\.\\./shared|\\bshared/(design|seeds|reference)|/work/");
    static final Pattern DOC = Pattern.compile("\\bdocs/([\\w.-]+\\.md)\\b");

    static List<Path> documents() throws IOException {
        List<Path> out = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(out::add);
        }
        return out;
    }

    @Test
    void noDocumentNeedsMaterialBesideTheRepository() throws IOException {
        List<String> found = new ArrayList<>();
        for (Path doc : documents()) {
            List<String> lines = Files.readAllLines(doc);
            for (int i = 0; i < lines.size(); i++) {
                // a reference that says where it is kept (the team's scoreboard) is honest, not a broken link
                String context = String.join(" ", lines.subList(Math.max(0, i - 1), Math.min(lines.size(), i + 2)));
                if (OUTSIDE.matcher(lines.get(i)).find() && !context.contains("outside the repository")
                        && !context.contains("fidelity.py")) {
                    found.add(doc + ":" + (i + 1) + ": " + lines.get(i).strip());
                }
            }
        }
        assertThat(found).as("references to files beside the repository").isEmpty();
    }

    @Test
    void everyDocNamedExists() throws IOException {
        List<String> missing = new ArrayList<>();
        for (Path doc : documents()) {
            Matcher m = DOC.matcher(Files.readString(doc));
            while (m.find()) if (!Files.isRegularFile(Path.of("docs", m.group(1)))) missing.add(doc + " names docs/" + m.group(1));
        }
        assertThat(missing).isEmpty();
    }
}
