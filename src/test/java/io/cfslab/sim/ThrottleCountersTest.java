package io.cfslab.sim;

import io.cfslab.metrics.SimulationResult;
import io.cfslab.metrics.SimulationResult.MachineStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The result's counters of what throttling does to tasks (seed 00 asks for them: task-based throttling dequeues
 * a throttled cfs_rq's tasks one by one, and tasks woken into a throttled hierarchy run on in kernel mode):
 * {@code machine.parks} (throttle task work dequeues), {@code machine.throttled_wakeups} (wake-ups into a
 * throttled hierarchy).
 */
class ThrottleCountersTest {

    /** Two hogs on one CPU, 10 ms of quota per 100 ms: one throttle per period, and both hogs are queued then. */
    private static String hogs(String throttle) {
        return """
            { "name": "two hogs", "seed": 3, "duration": "1s",
              "machine": { "profile": "generic", "cpus": 1 },
              "kernel": { "throttle": "%s", "hz": 1000 },
              "cgroups": [ { "path": "/g", "cpu.max": "10000 100000" } ],
              "tasks": [ { "name": "h", "cgroup": "/g", "count": 2, "workload": { "kind": "hog" } } ] }
            """.formatted(throttle);
    }

    @Test
    void everyThrottleParksBothQueuedHogsUnderTaskBasedThrottling() {
        SimulationResult r = Scenarios.run(hogs("task"));
        long nrThrottled = r.cgroups().get("/g").cpuStat().nrThrottled();
        assertThat(nrThrottled).isGreaterThanOrEqualTo(9);
        // nr_throttled counts a throttled period at the next period's timer, so the last period's throttle is not in
        // it yet at the end of the run
        assertThat(r.machine().parks()).as("each throttle parks the two hogs, one by one")
                .isEqualTo(2 * (nrThrottled + 1));
        assertThat(r.machine().throttledWakeups()).as("hogs never sleep").isZero();
    }

    @Test
    void thePerCfsRqModelParksNothing() {
        SimulationResult r = Scenarios.run(hogs("cfs_rq"));
        assertThat(r.cgroups().get("/g").cpuStat().nrThrottled()).isGreaterThanOrEqualTo(9);
        assertThat(r.machine().parks()).isZero();
    }

    /**
     * A hog and a task that runs 100 µs every 2 ms share one CPU; with 20 ms of quota per 100 ms the group is
     * throttled for about 80 ms of each period. The sleeper is woken into the throttled hierarchy at most once in
     * each throttled stretch (then it waits for the unthrottle, queued under per-cfs_rq throttling, parked under
     * task-based throttling: either way it does not sleep again), and usually is, as it sleeps 95 % of the time;
     * none without a quota. Under task-based throttling each such wake-up runs the task up to its park.
     */
    @ParameterizedTest
    @ValueSource(strings = {"cfs_rq", "task"})
    void wakeUpsIntoAThrottledHierarchyAreCounted(String throttle) {
        String limited = sleeper(throttle, "\"cpu.max\": \"20000 100000\"");
        SimulationResult r = Scenarios.run(limited);
        MachineStats m = r.machine();
        long nrThrottled = r.cgroups().get("/g").cpuStat().nrThrottled();
        assertThat(nrThrottled).isGreaterThanOrEqualTo(9);
        assertThat(m.throttledWakeups()).isBetween(nrThrottled / 2, nrThrottled + 1);
        if (throttle.equals("task")) assertThat(m.parks()).isGreaterThanOrEqualTo(m.throttledWakeups());
        assertThat(Scenarios.run(sleeper(throttle, "\"cpu.max\": \"max 100000\"")).machine().throttledWakeups())
                .as("no quota, no throttled hierarchy").isZero();
    }

    private static String sleeper(String throttle, String cpuMax) {
        return """
            { "name": "sleeper beside a hog", "seed": 4, "duration": "1s",
              "machine": { "profile": "generic", "cpus": 1 },
              "kernel": { "throttle": "%s", "hz": 1000 },
              "cgroups": [ { "path": "/g", %s } ],
              "tasks": [ { "name": "h", "cgroup": "/g", "workload": { "kind": "hog" } },
                         { "name": "p", "cgroup": "/g",
                           "workload": { "kind": "periodic", "run": "100us", "sleep": "1900us" } } ] }
            """.formatted(throttle, cpuMax);
    }
}
