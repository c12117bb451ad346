package io.cfslab.sim;

import io.cfslab.metrics.SimulationResult;
import io.cfslab.metrics.SimulationResult.DistributeCall;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What seed 01's async trace line counts as "tasks": the debug patch of the seed's author ("add profile for
 * distribute_cfs_runtime()", upstream.diff) zeroes {@code rq->unthrottled_task} under the timer CPU's rq lock just
 * before the local {@code unthrottle_cfs_rq()} and adds one per task that {@code tg_unthrottle_up()} takes off a
 * limbo list and enqueues (kernel/sched/fair.c, tip 2025 and 6.18). So a full async call reports exactly the tasks
 * of that group parked on the timer CPU: the group's hogs there, all of them once the CPU has had time to pick
 * and park each (throttle_cfs_rq_work()), and none of any other group. The figure follows the placement of the
 * hogs, not the throttle path.
 */
class LocalUnthrottleTasksTest {

    /** Hogs of group /1 pinned per CPU: 7 on CPU 0 (5 + 2 in two leaves), 3 on CPU 1, 1 on CPUs 2 and 3. */
    private static final int[] PINNED = {7, 3, 1, 1};

    private static String scenario(int seed) {
        return """
                {
                  "name": "local unthrottle counts the timer CPU's parked tasks",
                  "seed": %d,
                  "duration": "1s",
                  "machine": { "profile": "generic", "cpus": 4 },
                  "kernel": { "throttle": "task", "unthrottle": "async", "hz": 1000, "bandwidth_slice_us": 5000,
                              "timer_placement": "random" },
                  "generate": [ { "under": "/", "levels": [1, 2], "cpu.max": { "1": "40000 100000" } } ],
                  "cgroups": [ { "path": "/o" } ],
                  "tasks": [
                    { "name": "a", "cgroup": "/1/1_1", "count": 5, "workload": { "kind": "hog" }, "cpus_allowed": "0" },
                    { "name": "b", "cgroup": "/1/1_2", "count": 2, "workload": { "kind": "hog" }, "cpus_allowed": "0" },
                    { "name": "c", "cgroup": "/1/1_1", "count": 3, "workload": { "kind": "hog" }, "cpus_allowed": "1" },
                    { "name": "d", "cgroup": "/1/1_2", "count": 1, "workload": { "kind": "hog" }, "cpus_allowed": "2" },
                    { "name": "e", "cgroup": "/1/1_2", "count": 1, "workload": { "kind": "hog" }, "cpus_allowed": "3" },
                    { "name": "o", "cgroup": "/o", "count": 2, "workload": { "kind": "hog" }, "cpus_allowed": "0" }
                  ],
                  "record": { "interval": "1s" }
                }
                """.formatted(seed);
    }

    /**
     * 40 ms of quota a period for 4 CPUs: each CPU's cfs_rq throttles within the period, so from the second period
     * on every call reaches all four (3 remote rqs signalled, the timer CPU's own subtree of 3 cfs_rqs walked) and
     * re-enqueues exactly the hogs pinned to the timer CPU (7, 3 or 1), never the unlimited group's two hogs that
     * share CPU 0. Over seeds 1–6 the writer's CPU, which the period timer stays pinned to, takes several values.
     */
    @Test
    void aFullAsyncCallReenqueuesTheGroupsHogsParkedOnTheTimerCpu() {
        Set<Integer> timerCpus = new HashSet<>();
        for (int seed = 1; seed <= 6; seed++) {
            SimulationResult r = Scenarios.run(scenario(seed));
            List<DistributeCall> full = r.distributeCalls().stream()
                    .filter(c -> c.rqs() == 4 && c.atNs() > 150_000_000L).toList();
            assertThat(full).as("seed %d: full calls", seed).hasSizeGreaterThanOrEqualTo(5);
            for (DistributeCall c : full) {
                assertThat(c.remoteRqs()).isEqualTo(3);
                assertThat(c.cfsRqs()).isEqualTo(3); // /1, /1/1_1, /1/1_2 on the timer CPU
                assertThat(c.tasks()).as("seed %d, timer CPU %d", seed, c.cpu()).isEqualTo(PINNED[c.cpu()]);
                timerCpus.add(c.cpu());
            }
        }
        assertThat(timerCpus).as("timer CPUs covered").hasSizeGreaterThanOrEqualTo(2);
    }
}
