package io.cfslab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every workload kind the parser takes ({@link WorkloadSection#KINDS}) can be added from the scenario editor and is
 * named by the published schema and the scenario reference: a kind added to the parser alone (go-sleep-loop was,
 * for a while) fails here.
 */
class WorkloadKindsEverywhereTest {
    private static List<String> kinds() {
        return Arrays.stream(WorkloadSection.KINDS.split(",")).map(String::trim).toList();
    }

    @Test
    void theEditorOffersEveryKindWithItsParameters() throws IOException {
        String editor = Files.readString(Path.of("src/main/resources/templates/editor.html"));
        String form = Files.readString(Path.of("frontend/src/pages/editor.ts"));
        assertThat(kinds()).hasSizeGreaterThanOrEqualTo(6);
        // the workload select is rendered from the parser's own list (ScenarioDefaults.choices(); NewcomerBrowserTest
        // reads the options the page shows)
        assertThat(editor).as("editor's workload select").contains("<select name=\"kind\" aria-label=\"workload\"><option th:each=\"v : ${choices['kind']}\"");
        assertThat(ScenarioDefaults.choices().get("kind")).isEqualTo(kinds());
        for (String kind : kinds()) {
            if (kind.equals("hog")) continue; // a hog has no parameters
            assertThat(editor).as("editor has the parameter fields of %s", kind).containsPattern("data-kinds=\"[^\"]*\\b" + kind + "\\b");
            assertThat(form).as("taskEntry() sends the parameters of %s (WORKLOAD_KEYS)", kind).contains("'" + kind + "': [");
        }
    }

    @Test
    void theSchemaAndTheReferenceNameEveryKind() throws IOException {
        String schema = Files.readString(Path.of("src/main/resources/static/schemas/scenario.json"));
        String reference = Files.readString(Path.of("docs/scenarios.md"));
        for (String kind : kinds()) {
            assertThat(schema).as("schema names %s", kind).contains("\"" + kind + "\"");
            assertThat(reference).as("docs/scenarios.md names %s", kind).contains(kind);
        }
    }
}
