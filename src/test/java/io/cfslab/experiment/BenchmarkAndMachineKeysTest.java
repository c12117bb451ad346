package io.cfslab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.machine.MachineProfiles;
import io.cfslab.metrics.ResultJson;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioParser;
import io.cfslab.scenario.TaskSpec;
import io.cfslab.sim.Benchmarks;
import io.cfslab.sim.RunControl;
import io.cfslab.sim.Simulator;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * Breaker 3, item 3: an experiment's {@code benchmarks/ENTRY/KEY} and {@code machine/KEY} metrics are checked against
 * what the scenario's workloads and machine produce, for every workload kind and every machine profile: every number
 * a real result holds there is accepted; every figure of another workload (and a misspelt one), any figure of a
 * workload without figures, and a machine key the profile leaves out (power on {@code generic}, LLC migrations on one
 * LLC) is refused at {@code /metrics/0}, and the result indeed has no number there (where it was accepted and every
 * value was n/a).
 */
class BenchmarkAndMachineKeysTest {
    static final String TASKS = """
            [{"name": "hog", "cgroup": "/a"},
             {"name": "per", "cgroup": "/a", "workload": {"kind": "periodic", "run": "2ms", "sleep": "3ms"}},
             {"name": "fix", "cgroup": "/a", "workload": {"kind": "fixed-work", "work": "20ms"}},
             {"name": "hb", "cgroup": "/a", "workload": {"kind": "hackbench", "mode": "pipe", "groups": 1, "fds": 2, "loops": 20, "datasize": 100}},
             {"name": "np", "cgroup": "/a", "workload": {"kind": "netperf-udp-rr", "request_size": 1, "response_size": 1}},
             {"name": "go", "cgroup": "/a", "workload": {"kind": "go-sleep-loop", "run": "1ms", "sleep": "5ms", "threads": 3}}]""";

    static String scenario(String machine, String duration, String tasks) {
        return """
                {"name": "keys", "seed": 1, "duration": "%s", "machine": %s,
                 "cgroups": [{"path": "/a", "cpu.max": "50000 100000"}], "tasks": %s}""".formatted(duration, machine, tasks);
    }

    @Test
    void everyWorkloadKindsFiguresAndNoOthers() {
        String scenario = scenario("{\"profile\": \"generic\", \"cpus\": 4}", "300ms", TASKS);
        Scenario s = ScenarioParser.parse(scenario);
        JsonNode result = MetricKeysTest.JSON.readTree(ResultJson.write(Simulator.run(s, RunControl.NONE)));
        Set<String> kinds = new LinkedHashSet<>();
        Set<String> every = new LinkedHashSet<>(List.of("completion_sec", "time"));
        for (TaskSpec t : s.tasks()) {
            kinds.add(t.workload().kind());
            every.addAll(Benchmarks.keys(t.workload()));
        }
        assertThat(kinds).as("every workload kind").containsExactlyInAnyOrder("hog", "periodic", "fixed-work", "hackbench",
                "netperf-udp-rr", "go-sleep-loop");
        int refused = 0;
        for (TaskSpec t : s.tasks()) {
            JsonNode figures = result.path("benchmarks").path(t.name());
            figures.properties().forEach(e -> assertThat(MetricKeysTest.problem(scenario, "benchmarks/" + t.name() + "/" + e.getKey()))
                    .as(t.name() + " " + e.getKey()).isNull());
            for (String key : every) {
                String metric = "benchmarks/" + t.name() + "/" + key;
                String problem = MetricKeysTest.problem(scenario, metric);
                if (Benchmarks.keys(t.workload()).contains(key)) {
                    assertThat(problem).as(metric).isNull();
                } else {
                    assertThat(problem).as(metric).isNotNull().contains(t.name());
                    assertThat(figures.has(key)).as(metric + " is in no result").isFalse();
                    refused++;
                }
            }
        }
        assertThat(MetricKeysTest.problem(scenario, "benchmarks/hog/completion_s")).contains("hog, which has no benchmark figures");
        assertThat(MetricKeysTest.problem(scenario, "benchmarks/fix/completion_sec"))
                .isEqualTo("no figure completion_sec for task entry fix (metric benchmarks/fix/completion_sec; fixed-work's are"
                        + " completion_s, finished, tasks)");
        assertThat(refused).isGreaterThan(20);
    }

    @Test
    void everyMachineProfilesKeysAndNoOthers() {
        List<String> profiles = new ArrayList<>(List.of("{\"profile\": \"generic\", \"cpus\": 2}",
                "{\"profile\": \"generic\", \"cpus\": 4, \"sockets\": 2}"));
        for (String named : MachineProfiles.NAMED) profiles.add("{\"profile\": \"" + named + "\"}");
        Set<String> every = new LinkedHashSet<>(List.of("power_w", "energy_j", "llc_migrations", "sched_calls", "power"));
        int accepted = 0, refused = 0;
        for (String machine : profiles) {
            String scenario = scenario(machine, "20ms", "[{\"name\": \"h\", \"cgroup\": \"/a\"}]");
            JsonNode m = MetricKeysTest.JSON.readTree(ResultJson.write(Simulator.run(ScenarioParser.parse(scenario), RunControl.NONE)))
                    .path("machine");
            for (String key : every) {
                String problem = MetricKeysTest.problem(scenario, "machine/" + key);
                if (m.has(key)) {
                    assertThat(problem).as(machine + " " + key).isNull();
                    accepted++;
                } else {
                    assertThat(problem).as(machine + " " + key + " is in no result").isNotNull();
                    refused++;
                }
            }
        }
        assertThat(MetricKeysTest.problem(scenario("{\"profile\": \"generic\", \"cpus\": 2}", "1s", "[]"), "machine/power_w"))
                .isEqualTo("machine generic has no power_w (metric machine/power_w; no power model: only the named profiles have one)");
        assertThat(accepted).isGreaterThan(5);
        assertThat(refused).isGreaterThan(5);
    }

    /** Breaker 3, item 8: an experiment with nothing to measure (no default metric, none named) is refused. */
    @Test
    void anExperimentThatMeasuresNothingIsRefused() {
        for (String tasks : List.of("[]", "[{\"name\": \"h\"}]",
                "[{\"name\": \"p\", \"workload\": {\"kind\": \"periodic\", \"run\": \"2ms\", \"sleep\": \"3ms\"}}]")) {
            String text = "{\"name\": \"m\", \"scenario\": {\"duration\": \"1s\", \"tasks\": " + tasks
                    + "}, \"arms\": [{\"name\": \"b\"}], \"repeats\": 1}";
            Experiment e = ExperimentParser.parse(text);
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> ExperimentPlan.of(e, e.scenario(), null, ScenarioParser::parse))
                    .isInstanceOfSatisfying(ExperimentException.class, x -> assertThat(x.problems().get(0).line())
                            .as(tasks).startsWith("/metrics: nothing to compare"));
            // a named metric, a limited group or a benchmark is something to compare
            Experiment named = ExperimentParser.parse(text.replace("\"repeats\": 1", "\"repeats\": 1, \"metrics\": [\"simulated_ns\"]"));
            assertThat(ExperimentPlan.of(named, named.scenario(), null, ScenarioParser::parse).metrics()).hasSize(1);
        }
        String fixed = "{\"name\": \"m\", \"scenario\": {\"duration\": \"1s\", \"tasks\": [{\"name\": \"f\", \"workload\":"
                + " {\"kind\": \"fixed-work\", \"work\": \"10ms\"}}]}, \"arms\": [{\"name\": \"b\"}], \"repeats\": 1}";
        Experiment f = ExperimentParser.parse(fixed);
        assertThat(ExperimentPlan.of(f, f.scenario(), null, ScenarioParser::parse).arms()).hasSize(1);
    }
}
