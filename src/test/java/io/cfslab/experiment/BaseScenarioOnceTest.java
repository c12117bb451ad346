package io.cfslab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.scenario.Problem;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioParser;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Breaker 3, item 5: an experiment's base scenario is parsed once. A fault of the base that no override touches is
 * every arm's: it is reported once, at the same pointer and in the same words as before, after one parse instead of
 * one per arm; a base fault an arm's {@code set} touches is still decided per arm; an arm without overrides reuses the
 * parsed base.
 */
class BaseScenarioOnceTest {
    static final String GOOD = """
            {"duration": "1s", "machine": {"cpus": 2}, "cgroups": [{"path": "/a", "cpu.max": "50000 100000"}],
             "tasks": [{"name": "h", "cgroup": "/a"}]}""";

    static String experiment(String scenario, int arms, String armSet) {
        StringBuilder a = new StringBuilder("{\"name\": \"base\"}");
        for (int i = 1; i < arms; i++) a.append(", {\"name\": \"a").append(i).append("\", \"set\": ").append(armSet.replace("I", "" + i)).append("}");
        return "{\"name\": \"e\", \"scenario\": " + scenario + ", \"repeats\": 1, \"arms\": [" + a + "]}";
    }

    static List<Problem> plan(String text, AtomicInteger parses) {
        Function<String, Scenario> counting = s -> {
            parses.incrementAndGet();
            return ScenarioParser.parse(s);
        };
        Experiment e = ExperimentParser.parse(text);
        try {
            ExperimentPlan.of(e, e.scenario(), null, counting);
            return List.of();
        } catch (ExperimentException x) {
            return x.problems();
        }
    }

    @Test
    void anInvalidBaseIsParsedOnceAndReportedOnce() {
        String tenArms = "{\"/kernel/hz\": 250}";
        for (String[] fault : new String[][] {{"\"cpus\": 2", "\"cpus\": 100000", "/scenario/machine/cpus"},
                {"\"50000 100000\"", "\"10 100000\"", "/scenario/cgroups/0/cpu.max"},
                {"\"duration\": \"1s\"", "\"duration\": \"-1s\"", "/scenario/duration"},
                {"\"cgroup\": \"/a\"", "\"cgroup\": \"/nowhere\"", "/scenario/tasks/0/cgroup"}}) {
            AtomicInteger parses = new AtomicInteger();
            List<Problem> problems = plan(experiment(GOOD.replace(fault[0], fault[1]), 10, tenArms), parses);
            assertThat(parses.get()).as(fault[1]).isEqualTo(1);
            assertThat(problems).as(fault[1]).hasSize(1);
            assertThat(problems.get(0).path()).isEqualTo(fault[2]);
        }
        // the fault an arm overrides: decided per arm (the base arm keeps it, the arm that sets cpus fixes it)
        AtomicInteger parses = new AtomicInteger();
        List<Problem> problems = plan(experiment(GOOD.replace("\"cpus\": 2", "\"cpus\": 100000"), 3, "{\"/machine/cpus\": 4}"), parses);
        assertThat(parses.get()).isEqualTo(4); // the base, then each arm
        assertThat(problems).extracting(Problem::path).containsExactly("/scenario/machine/cpus");
    }

    @Test
    void anArmWithoutOverridesReusesTheParsedBase() {
        AtomicInteger parses = new AtomicInteger();
        assertThat(plan(experiment(GOOD, 4, "{\"/cgroups/0/cpu.max\": \"2I000 100000\"}"), parses)).isEmpty();
        assertThat(parses.get()).isEqualTo(4); // the base (also the base arm), then 3 arms with a set
    }
}
