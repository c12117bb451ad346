package io.cfslab.sim;

import io.cfslab.metrics.SimulationResult;
import io.cfslab.metrics.SimulationResult.DistributeCall;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The three throttle models and two unthrottle modes differ where the kernel's do (kernel-model.md §4.4). */
class ThrottleModelsTest {

    /**
     * One task that runs 1 ms in user mode, then 60 ms in the kernel (a long syscall), then sleeps 39 ms;
     * quota 5 ms per 100 ms; preemptible kernel, so the cfs_rq model can throttle mid-syscall. Watched for
     * the first 60 ms: the first syscall.
     */
    static String kernelModeScenario(String throttle) {
        return """
            { "name": "kernel-mode stretch", "seed": 5, "duration": "60ms",
              "machine": { "profile": "generic", "cpus": 1 },
              "kernel": { "throttle": "%s", "unthrottle": "async", "hz": 1000, "preempt": "full" },
              "cgroups": [ { "path": "/g", "cpu.max": "5000 100000" } ],
              "tasks": [ { "name": "k", "cgroup": "/g",
                           "workload": { "kind": "periodic", "run": "1ms", "kernel": "60ms", "sleep": "39ms" } } ] }
            """.formatted(throttle);
    }

    @Test
    void taskInKernelModeKeepsRunningAfterThrottleUnderTaskButNotUnderCfsRq() {
        SimulationResult cfsRq = Scenarios.run(kernelModeScenario("cfs_rq"));
        SimulationResult task = Scenarios.run(kernelModeScenario("task"));
        SimulationResult taskAccount = Scenarios.run(kernelModeScenario("task-account"));
        // cfs_rq: the group entity is dequeued at the first tick past the quota, mid-syscall; at most one
        // refill falls inside the 60 ms, so at most 2 × (5 ms + one 1 ms tick of overrun)
        long cfsRqUsage = cfsRq.cgroups().get("/g").cpuStat().usageUsec();
        assertThat(cfsRqUsage).isBetween(5_000L, 12_000L);
        // task-based: the hierarchy is throttled after 5 ms, yet the task finishes its syscall: it only parks
        // on its way back to user mode
        for (SimulationResult r : List.of(task, taskAccount)) {
            var stat = r.cgroups().get("/g").cpuStat();
            assertThat(stat.usageUsec()).isGreaterThanOrEqualTo(59_000L);
            assertThat(stat.systemUsec()).isGreaterThanOrEqualTo(58_000L);
        }
    }

    /** 8 CPUs, tree [1,3,2] (10 groups), quota on level 1, 2 hogs per leaf: everything throttles every period. */
    static String treeScenario(String unthrottle) {
        return """
            { "name": "full tree", "seed": 7, "duration": "3s",
              "machine": { "profile": "generic", "cpus": 8 },
              "kernel": { "throttle": "task", "unthrottle": "%s", "hz": 1000 },
              "generate": [ { "under": "/", "levels": [1, 3, 2], "cpu.max": { "1": "20000 100000" } } ],
              "tasks": [ { "name": "hog", "cgroup": "leaves:/", "count": 2, "workload": { "kind": "hog" } } ] }
            """.formatted(unthrottle);
    }

    @Test
    void syncDistributeWalksEveryCpusSubtreeAndTheTimerCpuPaysForAll() {
        SimulationResult r = Scenarios.run(treeScenario("sync"));
        List<DistributeCall> full = r.distributeCalls().stream().filter(c -> c.rqs() == 8).toList();
        assertThat(full).isNotEmpty();
        for (DistributeCall c : full) {
            assertThat(c.cfsRqs()).as("cfs_rqs = rqs × subtree size").isEqualTo(8 * 10);
            assertThat(c.tasks()).as("every parked task comes back").isEqualTo(12);
            assertThat(c.remoteRqs()).isZero();
        }
        int timerCpu = full.get(0).cpu();
        assertThat(r.cpus().get(timerCpu).irqUsec()).isPositive();
        for (var cpu : r.cpus()) if (cpu.cpu() != timerCpu) assertThat(cpu.irqUsec()).as("cpu %d", cpu.cpu()).isZero();
    }

    @Test
    void asyncDistributeUnthrottlesOnlyTheLocalSubtreeAndEachCpuPaysForItsOwn() {
        SimulationResult r = Scenarios.run(treeScenario("async"));
        List<DistributeCall> full = r.distributeCalls().stream().filter(c -> c.rqs() == 8).toList();
        assertThat(full).isNotEmpty();
        for (DistributeCall c : full) {
            assertThat(c.remoteRqs()).isEqualTo(7);
            assertThat(c.cfsRqs()).as("only the local cfs_rq's subtree").isEqualTo(10);
            assertThat(c.tasks()).isLessThan(12);
        }
        long cpusPaying = r.cpus().stream().filter(c -> c.irqUsec() > 0).count();
        assertThat(cpusPaying).as("IPI'd CPUs pay for their own unthrottle").isEqualTo(8);
        // the async call is far shorter than the sync one for the same tree
        long syncMax = Scenarios.run(treeScenario("sync")).distributeCalls().stream()
                .mapToLong(DistributeCall::durationNs).max().orElseThrow();
        long asyncMax = full.stream().mapToLong(DistributeCall::durationNs).max().orElseThrow();
        assertThat(asyncMax).isLessThan(syncMax);
    }

    @Test
    void everyDistributeCallWalksWholeSubtrees() {
        for (String mode : List.of("sync", "async")) {
            for (DistributeCall c : Scenarios.run(treeScenario(mode)).distributeCalls()) {
                assertThat(c.cfsRqs() % 10).as("%s call %s", mode, c).isZero();
                assertThat(c.durationNs()).isPositive();
            }
        }
    }
}
