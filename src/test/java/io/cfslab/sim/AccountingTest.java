package io.cfslab.sim;

import io.cfslab.metrics.SimulationResult;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Per-task and per-CPU accounting that the kernel's counters imply. */
class AccountingTest {

    @Test
    void aThrottledHogIsSwitchedBackInOncePerPeriod() {
        // E1: one hog at 10 %, throttled in each of ~50 periods; each unthrottle switches it in from idle
        SimulationResult r = Scenarios.run(Scenarios.text("/reference/E1.json"));
        long throttled = r.cgroups().get("/e1").cpuStat().nrThrottled();
        assertThat(r.tasks().get("nop").nrSwitches()).isBetween(throttled, throttled + 2);
    }

    @Test
    void cpuTimeAddsUp() {
        SimulationResult r = Scenarios.run(Scenarios.text("/reference/E3.json"));
        long busy = r.cpus().stream().mapToLong(SimulationResult.CpuStats::busyUsec).sum();
        long tasks = r.tasks().values().stream().mapToLong(SimulationResult.TaskStats::usageUsec).sum();
        assertThat(busy).isCloseTo(tasks, org.assertj.core.data.Offset.offset(10L));
        assertThat(r.cgroups().get("/e3").cpuStat().usageUsec()).isCloseTo(tasks, org.assertj.core.data.Offset.offset(10L));
        for (var cpu : r.cpus()) {
            assertThat(cpu.busyUsec() + cpu.irqUsec() + cpu.schedUsec()).isLessThanOrEqualTo(r.simulatedNs() / 1000);
        }
    }
}
