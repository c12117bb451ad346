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
        for (String kind : kinds()) {
            assertThat(editor).as("editor's workload select offers %s", kind).contains("<option>" + kind + "</option>");
            if (kind.equals("hog")) continue; // a hog has no parameters
            assertThat(editor).as("editor has the parameter fields of %s", kind).containsPattern("data-kinds=\"[^\"]*\\b" + kind + "\\b");
            assertThat(form).as("taskEntry() sends the parameters of %s", kind).contains("'" + kind + "'");
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
