package io.cfslab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cfslab.scenario.Problem;
import io.cfslab.scenario.ScenarioException;
import io.cfslab.scenario.ScenarioParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Breaker 3, item 10: one fault, one errno, whichever route it comes in: a scenario on its own, the same scenario inline
 * in an experiment, and the fault written by an arm's {@code set}. Every value beyond its field's range (a negative or
 * too long duration, more tasks than the limit in all or in one hackbench instance, fds × loops beyond hackbench's
 * unsigned int) is ERANGE, as a CPU count or a weight out of range already was; giving two scenarios is EINVAL in an
 * experiment as in a run request; a count of arms, metrics or overrides over its limit is ERANGE as repeats is.
 */
class SameFaultSameErrnoTest {
    static final String BASE = """
            {"name": "b", "duration": "1s", "machine": {"cpus": 2},
             "cgroups": [{"path": "/a", "cpu.max": "50000 100000"}],
             "tasks": [{"name": "h", "cgroup": "/a", "count": 150000},
                       {"name": "hb", "cgroup": "/a", "workload": {"kind": "hackbench", "mode": "pipe", "groups": 1, "fds": 2, "loops": 10, "datasize": 100}}]}""";

    /** Pointer → a value out of its range there. */
    static final Map<String, String> OUT_OF_RANGE = Map.of(
            "/duration", "\"-1s\"",
            "/machine/cpus", "0",
            "/tasks/1/workload/loops", "3000000000",
            "/tasks/1/workload/groups", "100000",
            "/tasks/1/workload/fds", "0",
            "/tasks/0/count", "1000000000");

    static Problem scenarioProblem(String doc) {
        try {
            ScenarioParser.parse(doc);
            throw new AssertionError("accepted: " + doc);
        } catch (ScenarioException e) {
            return e.problems().get(0);
        }
    }

    static Problem experimentProblem(String scenario, String armSet) {
        String text = "{\"name\": \"e\", \"scenario\": " + scenario + ", \"repeats\": 1, \"arms\": [{\"name\": \"a\""
                + (armSet == null ? "" : ", \"set\": " + armSet) + "}]}";
        try {
            Experiment e = ExperimentParser.parse(text);
            ExperimentPlan.of(e, e.scenario(), null, ScenarioParser::parse);
            throw new AssertionError("accepted: " + text);
        } catch (ExperimentException ex) {
            return ex.problems().get(0);
        }
    }

    @Test
    void everyOutOfRangeValueIsErangeOnEveryRoute() {
        List<Map.Entry<String, String>> faults = new ArrayList<>(OUT_OF_RANGE.entrySet());
        faults.add(Map.entry("/duration", "\"1000000000s\""));
        faults.add(Map.entry("/duration", "0"));
        // 150,000 + 60,000 instances: over the task limit in all, no count over it alone
        faults.add(Map.entry("/tasks/1", "{\"name\": \"more\", \"cgroup\": \"/a\", \"count\": 60000}"));
        for (var f : faults) {
            ObjectNode doc = (ObjectNode) ScenarioParser.readTree(BASE);
            List<Problem> none = new ArrayList<>();
            JsonNode value = ScenarioParser.readTree("{\"v\": " + f.getValue() + "}").get("v");
            ScenarioOverrides.apply(doc, Map.of(f.getKey(), value), "/set", none);
            assertThat(none).isEmpty();
            String bad = doc.toString();
            Problem alone = scenarioProblem(bad);
            Problem inline = experimentProblem(bad, null);
            Problem armSet = experimentProblem(BASE, "{" + MetricKeysTest.JSON.writeValueAsString(f.getKey()) + ": " + f.getValue() + "}");
            String what = f.getKey() + " = " + f.getValue() + ": " + alone.line();
            assertThat(alone.errno()).as(what).isEqualTo("ERANGE");
            assertThat(inline.errno()).as(what + " inline: " + inline.line()).isEqualTo("ERANGE");
            assertThat(inline.path()).as(what).isEqualTo("/scenario" + alone.path());
            assertThat(armSet.errno()).as(what + " in a set: " + armSet.line()).isEqualTo("ERANGE");
        }
    }

    @Test
    void experimentFaultsHaveTheRunRequestsErrnos() {
        assertThatThrownBy(() -> ExperimentParser.parse("{\"name\": \"e\", \"scenario\": " + BASE
                + ", \"scenario_id\": \"x\", \"repeats\": 1, \"arms\": [{\"name\": \"a\"}]}"))
                .isInstanceOfSatisfying(ExperimentException.class, e -> assertThat(e.problems().get(0).line())
                        .isEqualTo("/scenario_id: give either \"scenario\" or \"scenario_id\", not both (EINVAL)"));
        StringBuilder arms = new StringBuilder();
        for (int i = 0; i <= Experiment.MAX_ARMS; i++) arms.append(i == 0 ? "" : ",").append("{\"name\": \"a").append(i).append("\"}");
        assertThatThrownBy(() -> ExperimentParser.parse("{\"name\": \"e\", \"scenario\": " + BASE + ", \"repeats\": 1, \"arms\": ["
                + arms + "]}")).isInstanceOfSatisfying(ExperimentException.class,
                e -> assertThat(e.problems()).anyMatch(p -> p.path().equals("/arms") && "ERANGE".equals(p.errno())));
    }
}
