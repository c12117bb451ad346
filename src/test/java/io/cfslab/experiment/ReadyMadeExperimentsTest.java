package io.cfslab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.scenario.ScenarioParser;
import io.cfslab.store.ReadyMadeExperiments;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Every ready-made experiment ({@code src/main/resources/experiments/}) resolves: its overrides fit its scenario,
 * every arm's scenario is valid, its metrics name what the scenario has, and it says what it simplifies. (Their
 * wall times are measured with the command line and recorded in docs/benchmarks.md, not here.)
 */
class ReadyMadeExperimentsTest {
    static final Path DIR = Path.of("src/main/resources/experiments");

    static Stream<Path> files() throws IOException {
        try (Stream<Path> s = Files.list(DIR)) {
            return s.filter(p -> p.toString().endsWith(".json")).sorted().toList().stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    void resolvesAgainstItsScenario(Path file) throws IOException {
        // a preset for a machine profile still to come is checked once the profile exists (SeedPresetsTest until then)
        Assumptions.assumeTrue(ReadyMadeExperiments.profilesMissing(ScenarioParser.readTree(Files.readString(file))).isEmpty());
        Experiment e = ExperimentParser.parse(Files.readString(file));
        ObjectNode base = e.scenario();
        if (base == null) {
            JsonNode n = ScenarioParser.readTree(Files.readString(Path.of("src/main/resources/scenarios", e.scenarioId() + ".json")));
            base = (ObjectNode) n;
        }
        ExperimentPlan plan = ExperimentPlan.of(e, base, e.scenarioId(), ScenarioParser::parse);
        assertThat(plan.arms().size()).isGreaterThanOrEqualTo(2);
        assertThat(plan.repeats()).isGreaterThanOrEqualTo(5);
        assertThat(e.description()).as("says what it simplifies and why").hasSizeGreaterThan(100);
        // arms differ from each other
        List<String> docs = plan.arms().stream().map(a -> a.document().toString()).distinct().toList();
        assertThat(docs).hasSize(plan.arms().size());
    }

    /**
     * What a user reads first is one paragraph (the home page and the experiment page show it, the rest behind
     * "details"), and no description carries notes about how the product is built or tested: test class names,
     * issue numbers, CPU-minute budgets, what "the build" has, what changed on which date (a newcomer's finding).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("files")
    void saysWhatItShowsInOneParagraphWithoutBuildNotes(Path file) throws IOException {
        String description = ExperimentParser.parse(Files.readString(file)).description();
        String[] parts = ReadyMadeExperiments.paragraphs(description);
        assertThat(parts[0]).as("the summary: one paragraph of a few lines").isNotBlank().hasSizeLessThanOrEqualTo(320)
                .doesNotContain("\n");
        assertThat(parts[1]).as("the details").isNotBlank();
        assertThat(description).as("no build or implementation notes")
                .doesNotContainPattern("\\b[A-Z]\\w+Test\\b")
                .doesNotContainPattern("(?i)\\bissue \\d")
                .doesNotContainPattern("(?i)CPU minutes|budget|the build|before: |until 20\\d\\d|preset took|does not exist yet");
    }

    @org.junit.jupiter.api.Test
    void theIssuesPresetsExist() throws IOException {
        assertThat(files().map(p -> p.getFileName().toString()))
                .contains("seed04-task-vs-task-account.json", "throttle-models-large-tree.json");
        Experiment large = ExperimentParser.parse(Files.readString(DIR.resolve("throttle-models-large-tree.json")));
        assertThat(large.scenarioId()).isEqualTo("seed03-large-tree-async");
        assertThat(large.arms()).extracting(Experiment.Arm::name).containsExactly("cfs_rq+sync", "task+sync", "task+async");
        Experiment s04 = ExperimentParser.parse(Files.readString(DIR.resolve("seed04-task-vs-task-account.json")));
        assertThat(s04.arms()).extracting(Experiment.Arm::name).containsExactly("task", "task-account");
        assertThat(s04.scenario().path("generate").get(0).path("levels").size()).as("3 levels").isEqualTo(3);
    }
}
