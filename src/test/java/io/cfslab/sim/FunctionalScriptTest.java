package io.cfslab.sim;

import io.cfslab.metrics.SimulationResult;
import io.cfslab.scenario.KernelSpec;
import io.cfslab.scenario.Scenario;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Seed 03's functional script (ready-made scenario {@code seed03-functional.json}): one busy task through
 * limits, moves, affinity changes and RT policies. Its per-second CPU % must track every phase within ±3
 * points once the phase has settled (the first second of each 5 s phase is skipped), under every throttle
 * model. In the RT phases {@code cpu.max} does not apply: the task runs at the global RT limit,
 * sched_rt_runtime_us / sched_rt_period_us = 950000 / 1000000.
 */
class FunctionalScriptTest {

    /** Expected CPU % per 5 s phase (seed-figures.md, seed 03). */
    static final double[] PHASES = {100, 10, 50, 100, 50, 10, 10, 10, 100, 50, 95, 95, 50, 100};

    @ParameterizedTest
    @EnumSource(KernelSpec.Throttle.class)
    void cpuPercentFollowsEveryPhase(KernelSpec.Throttle model) {
        String json = Scenarios.text("/scenarios/seed03-functional.json")
                .replace("\"throttle\": \"task\"", "\"throttle\": \"" + io.cfslab.scenario.ScenarioParser.jsonName(model) + "\"");
        Scenario s = io.cfslab.scenario.ScenarioParser.parse(json);
        assertThat(s.kernel().throttle()).isEqualTo(model);
        SimulationResult r = Simulator.run(s, RunControl.NONE);

        for (int p = 0; p < PHASES.length; p++) {
            double mean = Scenarios.meanCpuPercent(r, "nop", p * 5 + 1, p * 5 + 5);
            assertThat(mean).as("phase %d (%d-%d s)", p, p * 5, p * 5 + 5).isCloseTo(PHASES[p], within(3.0));
        }
    }

    @ParameterizedTest
    @EnumSource(KernelSpec.Throttle.class)
    void affinityPhasesRunOnTheChosenCpus(KernelSpec.Throttle model) {
        String json = Scenarios.text("/scenarios/seed03-functional.json")
                .replace("\"throttle\": \"task\"", "\"throttle\": \"" + io.cfslab.scenario.ScenarioParser.jsonName(model) + "\"");
        SimulationResult r = Scenarios.run(json);
        // 30-35 s on CPU 3 at 10 %: 0.5 s of CPU; from 35 s on CPU 10 until the end
        assertThat(r.cpus().get(3).busyUsec()).isCloseTo(500_000L, within(50_000L));
        assertThat(r.cpus().get(10).busyUsec()).isGreaterThan(20_000_000L);
    }
}
