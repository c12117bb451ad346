package io.cfslab.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cfslab.metrics.SimulationResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * RT throttling as kernel/sched/rt.c does it, for the global sysctls and for a group's cgroup v1 files alike
 * (one mechanism, RtClass): an rt_rq is throttled once its rt_time exceeds its runtime; a runtime of the whole
 * period never throttles; each period pays back one runtime ({@code rt_time -= min(rt_time, runtime)}), so time
 * run past the runtime before the tick noticed it is a debt carried over, not forgiven at the boundary.
 * One SCHED_FIFO hog pinned to CPU 0 for 500 ms.
 */
class RtThrottlingTest {
    static final String GLOBAL = """
            {"name": "rt", "duration": "500ms", "machine": {"cpus": 2, "exact_time": true},
             "kernel": {"hz": %d, "sched_rt_runtime_us": %d, "sched_rt_period_us": %d},
             "tasks": [{"name": "h", "workload": {"kind": "hog"}, "policy": "fifo", "priority": 10, "cpus_allowed": "0"}]}""";

    /**
     * Runtime ≥ period never throttles; 950/1000 µs with a 1 ms tick overshoots by up to a tick each period and
     * pays that debt back, about 95 % in all; 1/1000 µs: one tick's run is a debt of 999 periods (the kernel's
     * long-run share is 0.1 %; 1 ms in 500 ms here); 200/250 ms: two whole periods of 200 ms each.
     */
    @ParameterizedTest(name = "sched_rt_runtime_us={0} sched_rt_period_us={1} hz={2}: {3} %")
    @CsvSource({
            "1000,    1000,    1000, 100,  0.5",
            "950,     1000,    1000, 95,   1.5",
            "1,       1000,    1000, 0.2,  0.05",
            "9500,    10000,   100,  95,   1.5",
            "950000,  1000000, 1000, 100,  0.5", // 500 ms < 950 ms
            "200000,  250000,  1000, 80,   1.5",
            "0,       1000,    1000, 100,  0.5"}) // runtime 0: rt.c forgives the time instead of throttling
    void globalSysctlsCarryTheOvershootOver(long runtimeUs, long periodUs, int hz, double percent, double tolerance) {
        SimulationResult r = Scenarios.run(GLOBAL.formatted(hz, runtimeUs, periodUs));
        assertThat(r.tasks().get("h").usageUsec() / 5000.0).isCloseTo(percent, within(tolerance));
    }

    /** The same rules for a group's cpu.rt_runtime_us / cpu.rt_period_us under RT group scheduling (cgroup v1). */
    @ParameterizedTest(name = "cpu.rt_runtime_us={0} cpu.rt_period_us={1}: {2} %")
    @CsvSource({
            "950,   1000,  95,  1.5",
            "1000,  1000,  100, 0.5",
            "1,     1000,  0.2, 0.05",
            "20000, 50000, 40,  1.5"})
    void groupFilesFollowTheSameMechanism(long runtimeUs, long periodUs, double percent, double tolerance) {
        String json = """
                {"name": "rt", "duration": "500ms", "machine": {"cpus": 2, "exact_time": true},
                 "kernel": {"rt_group_sched": true, "sched_rt_runtime_us": 1000000, "sched_rt_period_us": 1000000},
                 "cgroups": [{"path": "/a", "cpu.rt_period_us": %d, "cpu.rt_runtime_us": %d}],
                 "tasks": [{"name": "h", "cgroup": "/a", "workload": {"kind": "hog"}, "policy": "fifo", "priority": 10,
                            "cpus_allowed": "0"}]}""".formatted(periodUs, runtimeUs);
        SimulationResult r = Scenarios.run(json);
        assertThat(r.tasks().get("h").usageUsec() / 5000.0).isCloseTo(percent, within(tolerance));
    }
}
