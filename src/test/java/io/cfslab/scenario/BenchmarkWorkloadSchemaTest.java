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
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/**
 * The published scenario schema ({@code static/schemas/scenario.json}) knows the benchmark workloads as the parser
 * does: what the parser takes it takes, and the unknown keys and out-of-range sizes it refuses, it refuses too.
 */
class BenchmarkWorkloadSchemaTest {
    private static final String ID = "https://cfslab.test/schemas/scenario.json";

    private static Schema schema() throws IOException {
        String text = Files.readString(Path.of("src/main/resources/static/schemas/scenario.json"));
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                b -> b.schemas(Map.of(ID, text)));
        return registry.getSchema(SchemaLocation.of(ID));
    }

    private static List<Error> errors(Schema s, String workload) {
        String json = ("{'duration': '1s', 'tasks': [{'name': 'w', 'workload': " + workload + "}]}").replace('\'', '"');
        return s.validate(JsonMapper.builder().build().readTree(json));
    }

    @Test
    void takesWhatTheParserTakes() throws IOException {
        Schema s = schema();
        for (String w : List.of("{'kind': 'hackbench'}",
                "{'kind': 'hackbench', 'mode': 'pipe', 'groups': 1, 'fds': 20, 'loops': 20000, 'datasize': 100}",
                "{'kind': 'hackbench', 'mode': 'socket', 'fds': 1000, 'datasize': 4096}",
                "{'kind': 'netperf-udp-rr'}", "{'kind': 'netperf-udp-rr', 'request_size': 1, 'response_size': 65507}",
                "{'kind': 'go-sleep-loop', 'run': '5ms', 'sleep': '100ms'}",
                "{'kind': 'go-sleep-loop', 'run': '1us', 'sleep': '1us', 'threads': 64}")) {
            assertThat(errors(s, w)).as(w).isEmpty();
            String json = ("{'duration': '1s', 'tasks': [{'name': 'w', 'workload': " + w + "}]}").replace('\'', '"');
            Scenario parsed = ScenarioParser.parse(json);
            assertThat(parsed.tasks()).hasSize(1);
            assertThat(ScenarioParser.parse(ScenarioWriter.toJson(parsed))).as("canonical form round trip").isEqualTo(parsed);
        }
    }

    @Test
    void refusesWhatTheParserRefuses() throws IOException {
        Schema s = schema();
        for (String w : List.of("{'kind': 'hackbench', 'fds': 0}", "{'kind': 'hackbench', 'fds': 1001}",
                "{'kind': 'hackbench', 'datasize': 4097}", "{'kind': 'hackbench', 'mode': 'fifo'}",
                "{'kind': 'hackbench', 'loops': 0}", "{'kind': 'hackbench', 'threads': true}",
                "{'kind': 'netperf-udp-rr', 'request_size': 0}", "{'kind': 'netperf-udp-rr', 'duration': '30s'}",
                "{'kind': 'netperf-udp-rr', 'response_size': 65508}",
                "{'kind': 'go-sleep-loop', 'run': '5ms'}", "{'kind': 'go-sleep-loop', 'run': '5ms', 'sleep': '1ms', 'threads': 2}",
                "{'kind': 'go-sleep-loop', 'run': '5ms', 'sleep': '1ms', 'threads': 65}",
                "{'kind': 'go-sleep-loop', 'run': '5ms', 'sleep': '1ms', 'loops': 3}")) {
            assertThat(errors(s, w)).as(w).isNotEmpty();
            String json = ("{'duration': '1s', 'tasks': [{'name': 'w', 'workload': " + w + "}]}").replace('\'', '"');
            if (w.contains("go-sleep-loop")) {
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> ScenarioParser.parse(json)).as(w)
                        .isInstanceOf(ScenarioException.class);
            }
        }
    }
}
