package io.cfslab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cfslab.metrics.ResultJson;
import io.cfslab.scenario.ScenarioParser;
import io.cfslab.sim.RunControl;
import io.cfslab.sim.Simulator;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Whole experiments through the real simulator ({@link LocalExperimentRunner}): identical arms are noise on every
 * metric; halving {@code cpu.max} halves {@code usage_usec}, significantly; the same experiment and seed give the
 * same seeds and the same per-run results, whatever the number of threads.
 */
class ExperimentRunTest {

    static ExperimentPlan plan(String arms, int repeats) {
        String text = "{\"name\": \"t\", \"scenario\": " + ExperimentParserTest.SCENARIO + ", \"seed\": 9, \"arms\": "
                + arms + ", \"repeats\": " + repeats + "}";
        Experiment e = ExperimentParser.parse(text);
        return ExperimentPlan.of(e, e.scenario(), null, ScenarioParser::parse);
    }

    static ExperimentResult run(ExperimentPlan plan, int threads) {
        return LocalExperimentRunner.run(plan, threads, Long.MAX_VALUE, (a, r, s, w, d, t) -> { });
    }

    @Test
    void identicalArmsAreNoiseOnEveryMetric() {
        ExperimentResult r = run(plan("[{\"name\": \"base\"}, {\"name\": \"same\", \"set\": {\"/kernel/throttle\": \"task\"}}]", 4), 2);
        // the default metrics: every number the fixed-work benchmark gives, then usage/nr_throttled/throttled_usec
        // of the limited groups /a and /b
        assertThat(r.metrics().keySet()).containsExactly("benchmarks/fw/completion_s", "benchmarks/fw/finished",
                "benchmarks/fw/tasks",
                "cgroups/~1a/cpu.stat/usage_usec", "cgroups/~1a/cpu.stat/nr_throttled", "cgroups/~1a/cpu.stat/throttled_usec",
                "cgroups/~1b/cpu.stat/usage_usec", "cgroups/~1b/cpu.stat/nr_throttled", "cgroups/~1b/cpu.stat/throttled_usec");
        r.metrics().forEach((metric, byArm) -> {
            ExperimentResult.MetricArm same = byArm.get("same");
            assertThat(same.welch().verdict()).as(metric).isEqualTo("noise");
            assertThat(same.welch().pValue()).as(metric).isEqualTo(1.0);
            assertThat(same.values()).as(metric).isEqualTo(byArm.get("base").values());
        });
        // the repeats did differ: the seeds drive the period timers' phases
        assertThat(r.metrics().get("cgroups/~1a/cpu.stat/throttled_usec").get("base").summary().stddev()).isPositive();
        assertThat(r.histograms().get("base").get("distribute_cfs_runtime_ns").count()).isPositive();
        assertThat(r.histograms().get("same")).isEqualTo(r.histograms().get("base"));
    }

    @Test
    void halvingCpuMaxHalvesUsageSignificantly() {
        ExperimentResult r = run(plan("""
                [{"name": "base"}, {"name": "half", "set": {"/cgroups/0/cpu.max": "25000 100000"}}]""", 4), 2);
        ExperimentResult.MetricArm usage = r.metrics().get("cgroups/~1a/cpu.stat/usage_usec").get("half");
        assertThat(usage.welch().diffPercent()).isCloseTo(-50.0, within(3.0));
        assertThat(usage.welch().pValue()).isLessThan(0.001);
        assertThat(usage.welch().verdict()).startsWith("-").endsWith("%");
        double base = r.metrics().get("cgroups/~1a/cpu.stat/usage_usec").get("base").summary().amean();
        assertThat(base).as("two hogs under 50000/100000 for 1 s: about half a CPU").isBetween(450_000.0, 560_000.0);
        // /b was not touched: noise
        assertThat(r.metrics().get("cgroups/~1b/cpu.stat/usage_usec").get("half").welch().verdict()).isEqualTo("noise");
    }

    @Test
    void sameExperimentAndSeedGiveTheSameSeedsAndRuns() {
        String arms = "[{\"name\": \"base\"}, {\"name\": \"cfs\", \"set\": {\"/kernel/throttle\": \"cfs_rq\"}}]";
        ExperimentResult one = run(plan(arms, 3), 1);
        ExperimentResult two = run(plan(arms, 3), 2);
        assertThat(two.seeds()).isEqualTo(one.seeds()).containsExactly(SeedSequence.seed(9, 0), SeedSequence.seed(9, 1),
                SeedSequence.seed(9, 2));
        assertThat(ExperimentResultJson.write(two)).isEqualTo(ExperimentResultJson.write(one));
        // each value is the one a single run of that arm and seed gives
        ExperimentPlan p = plan(arms, 3);
        var single = ScenarioParser.parse(p.arms().get(1).document(one.seeds().get(2)).toString());
        String json = ResultJson.write(Simulator.run(single, RunControl.NONE));
        Double usage = MetricPath.value(tools.jackson.databind.json.JsonMapper.builder().build().readTree(json),
                "cgroups/~1a/cpu.stat/usage_usec");
        assertThat(one.metrics().get("cgroups/~1a/cpu.stat/usage_usec").get("cfs").values().get(2)).isEqualTo(usage);
        // and the result reads back as written
        assertThat(ExperimentResultJson.write(ExperimentResultJson.read(ExperimentResultJson.write(one))))
                .isEqualTo(ExperimentResultJson.write(one));
        Map<String, ?> overrides = one.overrides().get("cfs");
        assertThat(overrides).containsOnlyKeys("/kernel/throttle");
    }
}
