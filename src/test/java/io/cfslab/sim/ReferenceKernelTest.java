package io.cfslab.sim;

import io.cfslab.metrics.ResultJson;
import io.cfslab.metrics.SimulationResult;
import io.cfslab.scenario.ScenarioParser;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Agreement with a real kernel: every experiment of {@code shared/reference/kernel-6.18-2cpu.json} (copied to
 * {@code src/test/resources/reference/}) runs from its scenario file {@code reference/<id>.json} and must land
 * in every band the reference gives (Linux 6.18.44, 2 CPUs, HZ 250, task-based throttle, async unthrottle).
 */
class ReferenceKernelTest {

    static JsonNode reference() throws IOException {
        return ScenarioParser.readTree(resource("/reference/kernel-6.18-2cpu.json"));
    }

    static String resource(String name) throws IOException {
        try (InputStream in = ReferenceKernelTest.class.getResourceAsStream(name)) {
            if (in == null) throw new IOException("missing test resource " + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static Stream<JsonNode> experiments() throws IOException {
        List<JsonNode> list = new ArrayList<>();
        reference().get("experiments").forEach(list::add);
        return list.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("experiments")
    void landsInEveryBandOfTheRealKernel(JsonNode experiment) throws IOException {
        String id = experiment.get("id").asString();
        String scenarioText = resource("/reference/" + id + ".json");
        // the scenario file is the reference's own scenario, not an edited copy
        assertThat(ScenarioParser.readTree(scenarioText)).isEqualTo(experiment.get("scenario"));

        SimulationResult result = Simulator.run(ScenarioParser.parse(scenarioText), RunControl.NONE);
        JsonNode r = ScenarioParser.readTree(ResultJson.write(result));

        List<String> failures = new ArrayList<>();
        for (JsonNode check : experiment.get("checks")) {
            double value = measure(r, check);
            double min = check.get("min").asDouble(), max = check.get("max").asDouble();
            if (!(value >= min && value <= max)) {
                failures.add(id + " " + describe(check) + " = " + value + ", band [" + min + ", " + max + "]");
            }
        }
        assertThat(failures).as("checks outside the real kernel's band").isEmpty();
    }

    static double measure(JsonNode r, JsonNode check) {
        String what = check.get("what").asString();
        switch (what) {
            case "cgroup" -> {
                String file = check.has("file") ? check.get("file").asString() : "cpu.stat";
                JsonNode v = r.get("cgroups").get(check.get("path").asString()).get(file).get(check.get("key").asString());
                assertThat(v).as("result has %s", describe(check)).isNotNull();
                return v.asDouble();
            }
            case "series_task_cpu" -> {
                double from = check.get("from_s").asDouble() * 1e9, to = check.get("to_s").asDouble() * 1e9;
                double sum = 0;
                int n = 0;
                for (JsonNode s : r.get("series")) {
                    double at = s.get("at_ns").asDouble();
                    if (at > from && at <= to) {
                        sum += s.get("tasks").get(check.get("name").asString()).get("cpu_percent").asDouble();
                        n++;
                    }
                }
                assertThat(n).as("series samples in (%s, %s]", from, to).isPositive();
                return sum / n;
            }
            case "benchmark" -> {
                return r.get("benchmarks").get(check.get("name").asString()).get(check.get("key").asString()).asDouble();
            }
            default -> throw new AssertionError("unknown check kind " + what);
        }
    }

    static String describe(JsonNode check) {
        return check.toString();
    }
}
