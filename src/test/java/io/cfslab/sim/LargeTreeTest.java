package io.cfslab.sim;

import io.cfslab.metrics.SimulationResult;
import io.cfslab.metrics.SimulationResult.DistributeCall;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seed 01/03's large setup (384 CPUs, 2 sockets, SMT 2; tree [2,100,10]; 20,000 hogs; 20 CPUs of quota per
 * level-1 group), shortened to 1.5 s: the distribute calls carry seed 01's counters and durations, and each
 * group gets its quota — interrupt time on a CPU is not charged to the group whose task it interrupts.
 */
class LargeTreeTest {

    static SimulationResult run(String file) {
        String json = Scenarios.text("/scenarios/" + file).replace("\"duration\": \"10s\"", "\"duration\": \"1.5s\"");
        return Scenarios.run(json);
    }

    @Test
    void syncCallsMatchSeed01sTraceLine() {
        SimulationResult r = run("seed01-large-tree-sync.json");
        List<DistributeCall> full = r.distributeCalls().stream().filter(c -> c.rqs() == 384).toList();
        assertThat(full).hasSizeGreaterThanOrEqualTo(2);
        for (DistributeCall c : full) {
            assertThat(c.cfsRqs()).isEqualTo(384 * 1101); // 422,784
            assertThat(c.tasks()).isBetween(9_000, 11_000); // seed 01: 10,000
            assertThat(c.durationNs()).isBetween(32_000_000L, 128_000_000L); // seed 01's two modes
        }
        // interrupts on a CPU run one after another: no CPU spends more than the simulated time in them
        for (var cpu : r.cpus()) assertThat(cpu.irqUsec()).isLessThanOrEqualTo(1_500_000L);
        // sync unthrottles take effect as the walk reaches them: the group waits longer than with async
        SimulationResult async = run("seed03-large-tree-async.json");
        for (String g : List.of("/1", "/2")) {
            assertThat(r.cgroups().get(g).cpuStat().throttledUsec())
                    .isGreaterThan(async.cgroups().get(g).cpuStat().throttledUsec());
        }
    }

    @Test
    void asyncCallsSignalEveryRemoteRqAndUnthrottleTheLocalSubtree() {
        SimulationResult r = run("seed03-large-tree-async.json");
        List<DistributeCall> full = r.distributeCalls().stream().filter(c -> c.rqs() == 384).toList();
        assertThat(full).hasSizeGreaterThanOrEqualTo(2);
        for (DistributeCall c : full) {
            assertThat(c.remoteRqs()).isEqualTo(383);
            assertThat(c.cfsRqs()).isEqualTo(1101);
            assertThat(c.tasks()).isBetween(1, 80);
            assertThat(c.durationNs()).isBetween(512_000L, 4_000_000L); // seed 03's main mode [512K, 4M)
        }
        // seed 01: 69 tasks on the timer CPU, "worse than normal"; 20,000 / 2 / 384 = 26 per CPU on average.
        // Only parked tasks come back: queued tasks of a throttled hierarchy that were never picked stay queued.
        int maxTasks = full.stream().mapToInt(DistributeCall::tasks).max().orElseThrow();
        assertThat(maxTasks).as("most local tasks in one call").isBetween(15, 80);
        long usage1 = r.cgroups().get("/1").cpuStat().usageUsec();
        long usage2 = r.cgroups().get("/2").cpuStat().usageUsec();
        for (long usage : new long[] {usage1, usage2}) {
            // 20 CPUs × 1.5 s, plus up to one more quota from the first, partial period (the pool is refilled
            // at its end after the set-up write filled it) and the debts carried at the end
            assertThat(usage).isBetween(30_000_000L, 33_000_000L);
        }
        // the two groups are symmetric: neither pays for the other's IPIs with its own quota
        assertThat((double) usage1 / usage2).isBetween(0.99, 1.01);
    }
}
