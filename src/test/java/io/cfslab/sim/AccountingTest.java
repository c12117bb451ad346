package io.cfslab.sim;

import io.cfslab.metrics.SimulationResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

    /**
     * The throttle task work of the task models (throttle_cfs_rq_work(), 6.18) runs on the parking task's clock: each
     * park is task_park_ns (2 µs on generic) of its system time and of its group's usage, charged to the quota like
     * any other time it runs. One hog at 20 % on one CPU parks once per throttle; the cfs_rq model has no parks.
     */
    @ParameterizedTest
    @CsvSource({"task, 2", "task-account, 2", "cfs_rq, 0"})
    void aParkIsChargedToTheParkingTask(String model, long parkUsec) {
        SimulationResult r = Scenarios.run("""
                { "name": "parks charged", "seed": 1, "duration": "1010ms",
                  "machine": { "profile": "generic", "cpus": 1, "exact_time": true },
                  "kernel": { "throttle": "%s", "hz": 1000 },
                  "cgroups": [ { "path": "/a", "cpu.max": "20000 100000" } ],
                  "tasks": [ { "name": "hog", "cgroup": "/a", "workload": { "kind": "hog" } } ] }
                """.formatted(model));
        var stat = r.cgroups().get("/a").cpuStat();
        var hog = r.tasks().get("hog");
        assertThat(stat.nrThrottled()).as(model).isEqualTo(10L); // the run ends 10 ms into a period: none pending
        assertThat(hog.systemUsec()).as(model + ": system time = parks").isEqualTo(parkUsec * stat.nrThrottled());
        assertThat(stat.systemUsec()).isEqualTo(hog.systemUsec());
        // the CPU's side: the park is busy time of the CPU (the task ran it), not scheduler overhead
        long busy = r.cpus().stream().mapToLong(SimulationResult.CpuStats::busyUsec).sum();
        assertThat(busy).isCloseTo(hog.usageUsec(), org.assertj.core.data.Offset.offset(2L));
    }
}
