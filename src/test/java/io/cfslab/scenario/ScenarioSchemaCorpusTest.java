package io.cfslab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The published JSON Schema (/schemas/scenario.json, what editors validate scenario files with) and the parser
 * agree on one corpus: every ready-made and test scenario and the documents of
 * {@code schema-corpus/scenarios.json} that both must accept, and its structural faults (unknown keys, wrong
 * types and enums, malformed versions, names with control characters, contradictory switches) that both must
 * refuse. The parser checks more than a schema can say (kernel rules such as quota &ge; 1000 µs, limits): such
 * documents are not in the corpus.
 */
class ScenarioSchemaCorpusTest {
    static final JsonMapper JSON = JsonMapper.builder().build();
    static final Path SCHEMA = Path.of("src/main/resources/static/schemas/scenario.json");
    static Schema schema;

    static Schema schema() throws IOException {
        if (schema == null) {
            String text = Files.readString(SCHEMA);
            SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                    b -> b.schemas(Map.of("https://cfslab.test/schemas/scenario.json", text)));
            schema = registry.getSchema(SchemaLocation.of("https://cfslab.test/schemas/scenario.json"));
        }
        return schema;
    }

    static Stream<Arguments> accepted() throws IOException {
        List<Arguments> out = new ArrayList<>();
        for (String dir : List.of("src/main/resources/scenarios", "src/test/resources/eras")) {
            try (Stream<Path> files = Files.list(Path.of(dir))) {
                for (Path p : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                    out.add(Arguments.of(p.toString(), Files.readString(p)));
                }
            }
        }
        JsonNode corpus = JSON.readTree(Files.readString(Path.of("src/test/resources/schema-corpus/scenarios.json")));
        int i = 0;
        for (JsonNode d : corpus.get("accept")) out.add(Arguments.of("accept/" + i++, d.toString()));
        return out.stream();
    }

    static Stream<Arguments> refused() throws IOException {
        JsonNode corpus = JSON.readTree(Files.readString(Path.of("src/test/resources/schema-corpus/scenarios.json")));
        List<Arguments> out = new ArrayList<>();
        for (JsonNode d : corpus.get("refuse")) out.add(Arguments.of(d.get("why").asString(), d.get("doc").toString()));
        return out.stream();
    }

    static List<String> schemaErrors(String doc) throws IOException {
        List<String> out = new ArrayList<>();
        for (Error e : schema().validate(JSON.readTree(doc))) out.add(e.toString());
        return out;
    }

    static List<Problem> parserProblems(String doc) {
        try {
            ScenarioParser.parse(doc);
            return List.of();
        } catch (ScenarioException e) {
            return e.problems();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("accepted")
    void bothAccept(String name, String doc) throws IOException {
        assertThat(parserProblems(doc)).as("parser").isEmpty();
        assertThat(schemaErrors(doc)).as("schema").isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void bothRefuse(String why, String doc) throws IOException {
        assertThat(parserProblems(doc)).as("parser").isNotEmpty();
        assertThat(schemaErrors(doc)).as("schema").isNotEmpty();
    }
}
