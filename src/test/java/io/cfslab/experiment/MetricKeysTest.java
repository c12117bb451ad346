package io.cfslab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.metrics.ResultJson;
import io.cfslab.scenario.ScenarioParser;
import io.cfslab.sim.RunControl;
import io.cfslab.sim.Simulator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Item 7 of the breaker's findings (issue 13): an experiment's metric is checked against what a result can hold, for
 * every key. Every number of real results (cgroup v2 and v1, a periodic task with its latencies, a histogram) is
 * accepted as a metric, and each of its fixed keys misspelt (a letter added, as {@code usage_usecs} or
 * {@code cpu.stats}) is refused at its pointer, where it was accepted and its table was all n/a.
 */
class MetricKeysTest {
    static final JsonMapper JSON = JsonMapper.builder().build();

    static String scenario(String cgroup) {
        return """
                {"name": "keys", "seed": 1, "duration": "300ms", "machine": {"profile": "generic", "cpus": 2},
                 "cgroups": [%s],
                 "tasks": [{"name": "p", "cgroup": "/a", "workload": {"kind": "periodic", "run": "2ms", "sleep": "3ms"}}]}
                """.formatted(cgroup);
    }

    /** Every path from the root of {@code n} to a number, as metric paths. */
    static void numbers(JsonNode n, String path, List<String> out) {
        if (n.isNumber()) {
            out.add(path);
        } else if (n.isObject()) {
            for (var e : n.properties()) numbers(e.getValue(), (path.isEmpty() ? "" : path + "/") + MetricPath.escape(e.getKey()), out);
        } else if (n.isArray() && n.size() > 0) {
            numbers(n.get(0), path + "/0", out);
        }
    }

    static String problem(String scenario, String metric) {
        String text = "{\"name\": \"m\", \"scenario\": " + scenario + ", \"arms\": [{\"name\": \"base\"}], \"repeats\": 1,"
                + " \"metrics\": [" + JSON.writeValueAsString(metric) + "]}";
        try {
            Experiment e = ExperimentParser.parse(text);
            ExperimentPlan.of(e, e.scenario(), null, ScenarioParser::parse);
            return null;
        } catch (ExperimentException e) {
            assertThat(e.problems().get(0).path()).isEqualTo("/metrics/0");
            return e.problems().get(0).reason();
        }
    }

    @Test
    void everyNumberOfAResultIsAMetricAndEveryMisspeltKeyIsRefused() {
        int checked = 0;
        for (String cgroup : List.of("{\"path\": \"/a\", \"cpu.max\": \"20000 100000\"}",
                "{\"path\": \"/a\", \"cpu.cfs_quota_us\": 20000}")) {
            String scenario = scenario(cgroup);
            JsonNode result = JSON.readTree(ResultJson.write(Simulator.run(ScenarioParser.parse(scenario), RunControl.NONE)));
            List<String> paths = new ArrayList<>();
            for (String top : ExperimentPlan.RESULT_KEYS) {
                if (result.has(top)) numbers(result.get(top), MetricPath.escape(top), paths);
            }
            assertThat(paths).as("the result's numbers").anyMatch(p -> p.contains("cpu.stat/nr_throttled"))
                    .anyMatch(p -> p.startsWith("tasks/")).anyMatch(p -> p.startsWith("histograms/"));
            for (String metric : paths) {
                assertThat(problem(scenario, metric)).as(metric).isNull();
                List<String> steps = MetricPath.steps(metric);
                for (int i = 0; i < steps.size(); i++) {
                    if (steps.get(i).matches("[0-9]+")) continue; // a list index: another index is another entry
                    List<String> bad = new ArrayList<>(steps);
                    bad.set(i, steps.get(i) + "s");
                    String misspelt = MetricPath.of(bad.toArray(String[]::new));
                    boolean histogramName = steps.get(0).equals("histograms") && i == 1; // names the run chooses
                    if (histogramName) continue;
                    assertThat(problem(scenario, misspelt)).as(misspelt).isNotNull();
                    checked++;
                }
            }
            // the other cgroup version's keys are n/a in every run: refused too
            String other = cgroup.contains("cpu.max") ? "cgroups/~1a/cpu.stat/throttled_time" : "cgroups/~1a/cpu.stat/throttled_usec";
            assertThat(problem(scenario, other)).as(other).contains("prints no");
        }
        assertThat(checked).isGreaterThan(50);
    }
}
