package io.cfslab.kernel;

import io.cfslab.event.EventQueue;
import io.cfslab.machine.CostModel;
import io.cfslab.machine.IpcCosts;
import io.cfslab.machine.MachineProfile;
import io.cfslab.machine.SmtCurve;
import io.cfslab.machine.Topology;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioParser;
import io.cfslab.scenario.TaskSpec;
import io.cfslab.workload.Workloads;
import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code task_hot()} and {@code detach_tasks()}'s walk at new-idle ({@link LoadBalancer#newIdleBalance}), on hand-made
 * cases with hand-computed answers. Machine: 8 CPUs, 2 sockets, one LLC each, SMT 2 (cores {0,1}, {2,3}, ...; LLC 0
 * = CPUs 0-3, LLC 1 = CPUs 4-7). The clock stands at {@link #NOW}; a task "ran d ago" has exec_start NOW - d.
 */
class TaskHotTest {
    private static final long NOW = 10_000_000L;
    private static final long US = 1_000L;

    @Test
    void aTaskThatRan100UsAgoIsNotPulledAtMcButOneThatRan600UsAgoIs() {
        // CPU 2 (LLC 0, not CPU 0's SMT sibling) has a running task and a queued one; CPU 0 is newly idle
        Kernel k = kernel(new int[] {2, 2});
        k.tExecStartNs[1] = NOW - 100 * US; // 100 µs < sysctl_sched_migration_cost (500 µs): hot
        assertThat(k.balancer.newIdleBalance(0)).isFalse();
        assertThat(k.tCpu[1]).isEqualTo(2);

        k.tExecStartNs[1] = NOW - 600 * US; // 600 µs: cold
        assertThat(k.balancer.newIdleBalance(0)).isTrue();
        assertThat(k.tCpu[1]).isEqualTo(0);
    }

    @Test
    void theBoundaryIsStrict() {
        Kernel k = kernel(new int[] {2, 2});
        k.tExecStartNs[1] = NOW - 500 * US + 1; // delta 499,999 ns < 500,000: hot
        assertThat(k.balancer.newIdleBalance(0)).isFalse();
        k.tExecStartNs[1] = NOW - 500 * US; // delta == 500 µs: not < the cost, cold
        assertThat(k.balancer.newIdleBalance(0)).isTrue();
    }

    @Test
    void aHotTaskIsPulledOnceTheDomainHasFailedMoreThanItsCacheNiceTries() {
        Kernel k = kernel(new int[] {2, 2});
        k.tExecStartNs[1] = NOW - 100 * US;
        k.balancer.nrBalanceFailed[LoadBalancer.LEVEL_LLC][0] = 1; // MC's cache_nice_tries is 1: not more
        assertThat(k.balancer.newIdleBalance(0)).isFalse();
        k.balancer.nrBalanceFailed[LoadBalancer.LEVEL_LLC][0] = 2;
        assertThat(k.balancer.newIdleBalance(0)).isTrue();
        assertThat(k.tCpu[1]).isEqualTo(0);
    }

    @Test
    void acrossTheSocketsTheNumaLevelAllowsTwoFailures() {
        // the only queued tasks are on CPU 6 (the other socket): the LLC step finds nothing, the machine's step (NUMA,
        // cache_nice_tries 2) refuses them while hot unless its domain failed 3 times. Three tasks there, not two:
        // sibling_imbalance 3 - 0 = 3 > NUMA_IMBALANCE_MIN, so adjust_numa_imbalance() keeps it (3 >> 1 = 1)
        Kernel k = kernel(new int[] {6, 6, 6});
        k.tExecStartNs[1] = k.tExecStartNs[2] = NOW - 100 * US;
        k.balancer.nrBalanceFailed[LoadBalancer.LEVEL_TOP][0] = 2;
        assertThat(k.balancer.newIdleBalance(0)).isFalse();
        k.balancer.nrBalanceFailed[LoadBalancer.LEVEL_TOP][0] = 3;
        assertThat(k.balancer.newIdleBalance(0)).isTrue();
        assertThat(k.tCpu[1]).isEqualTo(0);
        assertThat(k.llcMigrations()).isEqualTo(1);
    }

    @Test
    void smtSiblingsShareTheirCacheSoAHotTaskOfTheSiblingIsPulled() {
        // SD_SHARE_CPUCAPACITY: task_hot() returns 0 at the SMT level, which new-idle balances first
        Kernel k = kernel(new int[] {1, 1, 2, 2});
        k.tExecStartNs[1] = NOW - 10 * US;
        k.tExecStartNs[3] = NOW - 10 * US;
        assertThat(k.balancer.newIdleBalance(0)).isTrue();
        assertThat(k.tCpu[1]).as("from CPU 1, CPU 0's sibling").isEqualTo(0);
        assertThat(k.tCpu[3]).isEqualTo(2);
    }

    @Test
    void aMovedTaskIsColdUntilItRunsAgain() {
        Kernel k = kernel(new int[] {2, 2});
        k.tExecStartNs[1] = NOW - 100 * US;
        k.migrated(1, 3, 2); // ENQUEUE_MIGRATED: exec_start = 0
        assertThat(k.balancer.taskHot(1)).isFalse();
        assertThat(k.balancer.newIdleBalance(0)).isTrue();
    }

    @Test
    void theWalkStartsAtTheTailAndLooksAtMostAt32Tasks() {
        // CPU 2: tasks 0..34 enqueued in that order (each at the list's head), task 0 running: the tail is task 0.
        // All hot but task 34, at the head: loop_max = min(32, nr_running 35) = 32 tasks looked at, tasks 0..31
        // (the running one counts), so 34 is never reached and the balance fails
        int[] cpus = new int[35];
        java.util.Arrays.fill(cpus, 2);
        Kernel k = kernel(cpus);
        for (int t = 1; t < 35; t++) k.tExecStartNs[t] = NOW - 100 * US;
        k.tExecStartNs[34] = Kernel.EXEC_START_COLD;
        assertThat(k.balancer.newIdleBalance(0)).isFalse();
        // made cold, task 31 (the 32nd looked at) is within reach and is the one pulled; task 32 would not be
        k.tExecStartNs[32] = Kernel.EXEC_START_COLD;
        assertThat(k.balancer.newIdleBalance(0)).isFalse();
        k.tExecStartNs[31] = Kernel.EXEC_START_COLD;
        assertThat(k.balancer.newIdleBalance(0)).isTrue();
        assertThat(k.tCpu[31]).isEqualTo(0);
        assertThat(k.tCpu[32]).isEqualTo(2);
    }

    @Test
    void theTaskQueuedLongestIsLookedAtFirst() {
        // tasks 1, 2, 3 queued on CPU 2 after the running 0, all cold: the tail's first queued task, 1, is pulled;
        // the periodic balance walks from the head and takes 3
        Kernel k = kernel(new int[] {2, 2, 2, 2});
        assertThat(k.balancer.newIdleBalance(0)).isTrue();
        assertThat(k.tCpu[1]).isEqualTo(0);
        assertThat(k.balancer.pullOne(2, 4)).isTrue();
        assertThat(k.tCpu[3]).isEqualTo(4);
    }

    @Test
    void aHotRefusalEndsTheDomainsBalanceButThePinnedKindTriesTheNextBusiest() {
        // CPU 2: running + 2 queued, hot; CPU 3: running + 1 queued, cold. The busiest is CPU 2: its tasks could run
        // on CPU 0, so LBF_ALL_PINNED is cleared and there is no redo: CPU 3's cold task stays
        Kernel k = kernel(new int[] {2, 2, 2, 3, 3});
        k.tExecStartNs[1] = k.tExecStartNs[2] = NOW - 100 * US;
        assertThat(k.balancer.newIdleBalance(0)).isFalse();
        assertThat(k.tCpu[4]).isEqualTo(3);
        // pinned to CPU 2 instead of hot: the redo without CPU 2 takes CPU 3's task
        k.tExecStartNs[1] = k.tExecStartNs[2] = Kernel.EXEC_START_COLD;
        for (int t = 0; t < 3; t++) k.tAllowed[t].clear(0); // the running task too: affinity comes first
        assertThat(k.balancer.newIdleBalance(0)).isTrue();
        assertThat(k.tCpu[4]).isEqualTo(0);
    }

    @Test
    void thePeriodicBalanceIgnoresTaskHot() {
        Kernel k = kernel(new int[] {2, 2});
        k.tExecStartNs[1] = NOW - 100 * US;
        assertThat(k.balancer.pullOne(2, 0)).isTrue();
    }

    @Test
    void aPairOnTheOtherSocketStaysThere() {
        // two cold tasks on CPU 6, none on socket 0: sibling_imbalance 2 - 0 = 2 forces the balance, but
        // adjust_numa_imbalance(2, 0 + 1, imb_numa_nr 2 = the machine's 2 LLCs) drops it: 1 <= 2 and 2 <= 2
        Kernel k = kernel(new int[] {6, 6});
        assertThat(k.balancer.newIdleBalance(0)).isFalse();
        assertThat(k.tCpu[1]).isEqualTo(6);
    }

    /**
     * Hogs in an unlimited group, task i queued on CPU {@code cpus[i]}, allowed everywhere, never run (cold); the
     * first task of each CPU runs there (at the tail of the list: it was queued first). Nothing else is queued.
     */
    private static Kernel kernel(int[] cpus) {
        return kernel(new Topology(8, 2, 2, 2, true), cpus);
    }

    /** {@link #kernel(int[])} on the machine {@code topo}; the clock at {@link #NOW}. */
    static Kernel kernel(Topology topo, int[] cpus) {
        return kernel(topo, cpus, "{}");
    }

    /** {@link #kernel(Topology, int[])} with the scenario's {@code kernel} section {@code kernelJson}. */
    static Kernel kernel(Topology topo, int[] cpus, String kernelJson) {
        int n = topo.cpus();
        Scenario s = ScenarioParser.parse("""
                {"duration": "1s", "machine": {"cpus": %d}, "kernel": %s, "cgroups": [{"path": "/g"}],
                 "tasks": [{"name": "h", "cgroup": "/g", "count": %d, "workload": {"kind": "hog"}}]}
                """.formatted(n, kernelJson, cpus.length));
        GroupTree tree = new GroupTree(s.cgroups());
        MachineProfile machine = new MachineProfile("test", topo, CostModel.generic(),
                SmtCurve.twoLevel(2, 0.6), IpcCosts.generic(), null);
        Kernel k = new Kernel(machine, s.kernel(), tree, cpus.length, new EventQueue(), new SplittableRandom(1),
                new KernelObserver() { });
        int g = tree.indexOf("/g");
        TaskSpec ts = s.tasks().get(0);
        boolean[] hasCurr = new boolean[n];
        for (int t = 0; t < cpus.length; t++) {
            BitSet all = new BitSet();
            all.set(0, n);
            k.initTask(t, g, ts.policy(), ts.rtPriority(), all, Workloads.create(ts.workload()));
            int c = cpus[t];
            k.tCpu[t] = c;
            k.tState[t] = Kernel.T_RUNNABLE;
            k.fair.enqueueTask(t, c, false);
            if (!hasCurr[c]) {
                hasCurr[c] = true;
                k.curr[c] = t;
                k.tState[t] = Kernel.T_RUNNING;
            }
        }
        k.now = NOW;
        return k;
    }
}
