package io.cfslab.sim;

import io.cfslab.metrics.SimulationResult;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * E5b's bimodal throttled times (reference kernel 6.18, docs/fidelity.md "Fifth pass"): a parent {@code /p} at
 * 50 ms per 100 ms with two hogs, {@code a} (its own 10 ms per 100 ms) and {@code b}, one per CPU. Where a's period
 * timer fires within the parent's period (x ms after it) decides which of a's and p's cfs_rqs holds a back on a's
 * CPU. Every period b runs 40 ms and a 10 ms of p's 50, so p runs out at 40 ms and b waits 60 ms (b's
 * cpu.stat.local). a's CPU is held back 90 ms per period in all (a's cpu.stat.local), split so:
 * <ul>
 *   <li>x = 0 (timers aligned): a's refill comes while p still has runtime; a runs its 10 ms and is throttled at
 *       its own level for 90 ms. p's cfs_rq on a's CPU is never throttled: p's throttled time is b's CPU's only
 *       (the kernel's first run: p 2998 ms = b's 2998 ms, a 4513 ms = a's local).</li>
 *   <li>x = 50 ms (timers half a period apart): a's refill finds p's pool empty; p's cfs_rq on a's CPU is
 *       throttled (check_enqueue_throttle(), or at the next tick once its last local millisecond is used) until
 *       p's refill, 50 ms; then a runs its 10 ms and waits at its own level until x, 40 ms (the kernel's other two
 *       runs: 47 / 55 ms and 43 / 36 ms per period, x ≈ 53 and 45 ms).</li>
 * </ul>
 * The phases are set with {@code timer_placement}: {@code aligned} (phase 0 for both) and {@code spread} (the
 * limited groups evenly over the period: p at 0, a at 50 ms).
 */
class NestedQuotaPhaseTest {

    private static SimulationResult e5b(String placement) {
        return Scenarios.run("""
                {"name": "E5b", "seed": 11, "duration": "5s", "machine": {"cpus": 2},
                 "kernel": {"throttle": "task", "unthrottle": "async", "hz": 250, "bandwidth_slice_us": 5000,
                            "timer_placement": "%s"},
                 "cgroups": [{"path": "/p", "cpu.max": "50000 100000"}, {"path": "/p/a", "cpu.max": "10000 100000"},
                             {"path": "/p/b"}],
                 "tasks": [{"name": "a", "cgroup": "/p/a", "count": 1, "workload": {"kind": "hog"}},
                           {"name": "b", "cgroup": "/p/b", "count": 1, "workload": {"kind": "hog"}}]}
                """.formatted(placement));
    }

    private static double throttledMs(SimulationResult r, String path, String file) {
        SimulationResult.CgroupStats g = r.cgroups().get(path);
        return (file.equals("cpu.stat") ? g.cpuStat().throttledUsec() : g.cpuStatLocal().throttledUsec()) / 1e3;
    }

    private static double perPeriod(SimulationResult r, double ms) {
        return ms / r.cgroups().get("/p/a").cpuStat().nrPeriods();
    }

    private static void commonToBoth(SimulationResult r) {
        assertThat(r.tasks().get("a").cpu()).isNotEqualTo(r.tasks().get("b").cpu());
        assertThat(perPeriod(r, throttledMs(r, "/p/b", "cpu.stat.local"))).isBetween(57.0, 63.0);
        assertThat(perPeriod(r, throttledMs(r, "/p/a", "cpu.stat.local"))).isBetween(87.0, 92.0);
    }

    @Test
    void alignedTimersThrottleAAtItsOwnLevelAndPOnlyOnBsCpu() {
        SimulationResult r = e5b("aligned");
        commonToBoth(r);
        assertThat(throttledMs(r, "/p", "cpu.stat")).isEqualTo(throttledMs(r, "/p/b", "cpu.stat.local"));
        assertThat(throttledMs(r, "/p/a", "cpu.stat")).isEqualTo(throttledMs(r, "/p/a", "cpu.stat.local"));
    }

    @Test
    void timersHalfAPeriodApartSplitAsCpuBetweenPAndA() {
        SimulationResult r = e5b("spread");
        commonToBoth(r);
        double pOnAsCpu = throttledMs(r, "/p", "cpu.stat") - throttledMs(r, "/p/b", "cpu.stat.local");
        assertThat(perPeriod(r, pOnAsCpu)).isBetween(45.0, 51.0);
        assertThat(perPeriod(r, throttledMs(r, "/p/a", "cpu.stat"))).isBetween(39.0, 45.0);
    }
}
