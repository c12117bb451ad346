package io.cfslab.kernel;

import io.cfslab.machine.Topology;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * 6.18's periodic balance ({@link SchedBalanceDomains}, {@code kernel.periodic_balance} kernel) on hand-made cases
 * with hand-computed answers. Machine: 8 CPUs, SMT 2 with a core's threads numbered together (core k = CPUs 2k,
 * 2k+1), 2 sockets of one LLC of 2 cores each (LLC 0 = CPUs 0-3, LLC 1 = CPUs 4-7), HZ 1000. Its domains: SMT
 * (weight 2, groups the two CPUs), MC (weight 4, groups the two cores), NUMA (weight 8, groups the two LLCs). The
 * clock stands at {@link #NOW}; PELT averages are 0 (never sampled) unless a test sets them.
 */
class SchedBalanceDomainsTest {
    private static final long NOW = 10_000_000L;
    private static final long US = 1_000L, MS = 1_000_000L;
    /** Level indices of {@link SchedBalanceDomains} on this machine. */
    private static final int SMT = 0, MC = 1, NUMA = 2;

    @Test
    void theDomainsAreSmtMcAndNumaWithTheirWeightsInMsAsIntervals() {
        SchedBalanceDomains p = kernel(new int[] {0}).balancer.periodic;
        assertThat(p.levels).containsExactly(LoadBalancer.LEVEL_SMT, LoadBalancer.LEVEL_LLC, LoadBalancer.LEVEL_TOP);
        // idle: balance_interval = the weight, ms; busy: × busy_factor 16, one jiffy (1 ms) less
        assertThat(p.intervalNs(SMT, 0, false)).isEqualTo(2 * MS);
        assertThat(p.intervalNs(SMT, 0, true)).isEqualTo(31 * MS);
        assertThat(p.intervalNs(MC, 0, false)).isEqualTo(4 * MS);
        assertThat(p.intervalNs(MC, 0, true)).isEqualTo(63 * MS);
        assertThat(p.intervalNs(NUMA, 0, false)).isEqualTo(8 * MS);
        assertThat(p.intervalNs(NUMA, 0, true)).isEqualTo(127 * MS);
    }

    @Test
    void aBalancedDomainDoublesItsIntervalUpToTwiceTheWeightAndAnImbalanceResetsIt() {
        // one task on CPU 2: nothing to pull anywhere for CPU 0 (MC: busiest core {2,3} runs one task)
        Kernel k = kernel(new int[] {2});
        SchedBalanceDomains p = k.balancer.periodic;
        k.balancer.nrBalanceFailed[LoadBalancer.LEVEL_LLC][0] = 1;
        assertThat(p.schedBalanceRq(0, MC, true)).isFalse();
        assertThat(p.balanceIntervalMs[MC][0]).isEqualTo(8); // 4 -> 8 (max_interval 8)
        assertThat(k.balancer.nrBalanceFailed[LoadBalancer.LEVEL_LLC][0]).as("out_balanced resets it").isZero();
        assertThat(p.schedBalanceRq(0, MC, true)).isFalse();
        assertThat(p.balanceIntervalMs[MC][0]).isEqualTo(8);
        // a second queued task on CPU 2 (cold): sibling_imbalance 2 - 0 forces, 2 >> 1 = 1 task moves, interval 4
        Kernel k2 = kernel(new int[] {2, 2});
        k2.balancer.periodic.balanceIntervalMs[MC][0] = 8;
        assertThat(k2.balancer.periodic.schedBalanceRq(0, MC, true)).isTrue();
        assertThat(k2.tCpu[1]).isEqualTo(0);
        assertThat(k2.balancer.periodic.balanceIntervalMs[MC][0]).isEqualTo(4);
    }

    @Test
    void aHotTaskIsRefusedUntilThePeriodicBalanceHasFailedMoreThanCacheNiceTries() {
        // CPU 2 runs task 0, task 1 queued and hot (ran 100 µs ago); CPU 0 idle balances MC: each failed periodic
        // balance counts (nr_balance_failed 1, 2); MC's cache_nice_tries is 1, so the third takes the hot task
        Kernel k = kernel(new int[] {2, 2});
        k.tExecStartNs[1] = NOW - 100 * US;
        SchedBalanceDomains p = k.balancer.periodic;
        assertThat(p.schedBalanceRq(0, MC, true)).isFalse();
        assertThat(k.balancer.nrBalanceFailed[LoadBalancer.LEVEL_LLC][0]).isEqualTo(1);
        assertThat(p.schedBalanceRq(0, MC, true)).isFalse();
        assertThat(k.balancer.nrBalanceFailed[LoadBalancer.LEVEL_LLC][0]).isEqualTo(2);
        // new-idle reads the same counter: 2 > 1, so it would take it now too
        assertThat(p.schedBalanceRq(0, MC, true)).isTrue();
        assertThat(k.tCpu[1]).isEqualTo(0);
        assertThat(k.balancer.nrBalanceFailed[LoadBalancer.LEVEL_LLC][0]).as("reset on success").isZero();
    }

    @Test
    void afterMoreThanCacheNiceTriesPlusTwoFailuresTheStopperPushesTheRunningTask() {
        // core {2,3}: CPU 2 runs task 0, CPU 3 task 1, nothing queued; core {0,1} idle. MC for CPU 0:
        // sibling_imbalance 2 - 0 = 2 forces, 2 >> 1 = 1 (migrate_task); the busiest CPU is CPU 2 (first of equals),
        // whose one task runs: nr_running 1, nothing to detach, a failure each time. MC's cache_nice_tries is 1: the
        // fourth failure (4 > 1 + 2) kicks the stopper, which preempts task 0 and moves it to CPU 0
        Kernel k = kernel(new int[] {2, 3});
        SchedBalanceDomains p = k.balancer.periodic;
        for (int failed = 1; failed <= 3; failed++) {
            assertThat(p.schedBalanceRq(0, MC, true)).isFalse();
            assertThat(k.balancer.nrBalanceFailed[LoadBalancer.LEVEL_LLC][0]).isEqualTo(failed);
            assertThat(k.tCpu[0]).isEqualTo(2);
        }
        assertThat(k.schedCalls()).isZero();
        assertThat(p.schedBalanceRq(0, MC, true)).as("ld_moved: the stopper's move is its own").isFalse();
        assertThat(p.activeBalances).isEqualTo(1);
        assertThat(k.tCpu[0]).isEqualTo(0);
        assertThat(k.curr[2]).isEqualTo(Kernel.NONE);
        assertThat(k.balancer.nrBalanceFailed[LoadBalancer.LEVEL_LLC][0]).as("Active balancing done").isZero();
        // the switch to the stopper and its exit's __schedule() (CPU 2 then idle: its new-idle balance finds no
        // CPU with a queued task)
        assertThat(k.schedCalls()).isEqualTo(2);
        assertThat(k.contextSwitches()).isEqualTo(1);
    }

    @Test
    void theSmtLevelIgnoresTaskHot() {
        // SD_SHARE_CPUCAPACITY: CPU 1's hot queued task is taken by its idle sibling CPU 0 at the first try
        // (groups {0} and {1}: sibling_imbalance is not forced at SMT, no child; busiest {1} has 2 tasks, weight 1:
        // calculate_imbalance() by sibling_imbalance 2 - 0 = 2, >> 1 = 1)
        Kernel k = kernel(new int[] {1, 1});
        k.tExecStartNs[1] = NOW - 10 * US;
        assertThat(k.balancer.periodic.schedBalanceRq(0, SMT, true)).isTrue();
        assertThat(k.tCpu[1]).isEqualTo(0);
    }

    @Test
    void aPeriodicBalanceMovesTasksUpToTheImbalanceFromTheTail() {
        // core {2,3}: CPU 2 runs task 0 with tasks 1-4 queued, CPU 3 runs task 5; core {0,1} idle. MC: busiest
        // {2,3} has 6 tasks, local 0: sibling_imbalance 6, >> 1 = 3 tasks (migrate_task); the busiest CPU is CPU 2
        // (5). From the tail: task 0 (running, left), then 1, 2, 3 moved; task 4 stays
        Kernel k = kernel(new int[] {2, 2, 2, 2, 2, 3});
        assertThat(k.balancer.periodic.schedBalanceRq(0, MC, true)).isTrue();
        assertThat(new int[] {k.tCpu[1], k.tCpu[2], k.tCpu[3], k.tCpu[4], k.tCpu[5]}).containsExactly(0, 0, 0, 2, 3);
        // new-idle, by contrast, stops after one task (CONFIG_PREEMPTION)
        Kernel n = kernel(new int[] {2, 2, 2, 2, 2, 3});
        assertThat(n.balancer.newIdleBalance(0)).isTrue();
        assertThat(new int[] {n.tCpu[1], n.tCpu[2], n.tCpu[3]}).containsExactly(0, 2, 2);
    }

    @Test
    void aTaskLeftByTheWalkGoesToTheHeadSoTheNextWalkGoesFurther() {
        // CPU 2: tasks 0..34 (0 running), all hot but task 33. loop_max 32: the first walk looks at 0..31 from the
        // tail and moves each to the head (detach_tasks()'s "next:" list_move()): the list's tail is now 32, then
        // 33; the second walk reaches 33, cold, and takes it (nr_balance_failed 1 still refuses the hot ones)
        int[] cpus = new int[35];
        java.util.Arrays.fill(cpus, 2);
        Kernel k = kernel(cpus);
        for (int t = 1; t < 35; t++) k.tExecStartNs[t] = NOW - 100 * US;
        k.tExecStartNs[33] = Kernel.EXEC_START_COLD;
        SchedBalanceDomains p = k.balancer.periodic;
        assertThat(p.schedBalanceRq(0, MC, true)).isFalse();
        assertThat(k.fair.cpuTaskTail[2]).isEqualTo(32);
        assertThat(p.schedBalanceRq(0, MC, true)).isTrue();
        assertThat(k.tCpu[33]).isEqualTo(0);
        // without the kernel's list (periodic_balance counts) new-idle's walk never gets past task 31
        Kernel c = kernel(cpus, "counts");
        for (int t = 1; t < 35; t++) c.tExecStartNs[t] = NOW - 100 * US;
        c.tExecStartNs[33] = Kernel.EXEC_START_COLD;
        assertThat(c.balancer.newIdleBalance(0)).isFalse();
        assertThat(c.balancer.newIdleBalance(0)).isFalse();
        assertThat(c.fair.cpuTaskTail[2]).isEqualTo(0);
    }

    @Test
    void onlyTheFirstIdleCpuOfTheGroupBalancesAnIdleCoreFirst() {
        // NUMA level, local group LLC 0 = CPUs 0-3. CPU 0 busy, 1-3 idle: CPU 1 is idle on a busy core, CPU 2 the
        // first CPU of an idle core: CPU 2 balances, not 1 (nor 0, 3)
        Kernel k = kernel(new int[] {0});
        SchedBalanceDomains p = k.balancer.periodic;
        assertThat(p.shouldWeBalance(NUMA, 2)).isTrue();
        assertThat(p.shouldWeBalance(NUMA, 1)).isFalse();
        assertThat(p.shouldWeBalance(NUMA, 3)).isFalse();
        assertThat(p.shouldWeBalance(NUMA, 0)).isFalse();
        // CPUs 0 and 2 busy: no idle core; the first idle CPU of a busy core, CPU 1
        Kernel k2 = kernel(new int[] {0, 2});
        assertThat(k2.balancer.periodic.shouldWeBalance(NUMA, 1)).isTrue();
        assertThat(k2.balancer.periodic.shouldWeBalance(NUMA, 3)).isFalse();
        // all four busy: the group's first CPU
        Kernel k3 = kernel(new int[] {0, 1, 2, 3});
        assertThat(k3.balancer.periodic.shouldWeBalance(NUMA, 0)).isTrue();
        assertThat(k3.balancer.periodic.shouldWeBalance(NUMA, 1)).isFalse();
        // at SMT the group is the CPU itself: every CPU balances its own
        assertThat(k3.balancer.periodic.shouldWeBalance(SMT, 1)).isTrue();
    }

    @Test
    void aBusyCpuPullsOnlyFromAnOverloadedGroupAndAcrossLlcsByUtil() {
        // CPU 0 runs a task (CPU_NOT_IDLE); CPU 4 runs task 1 with 2 and 3 queued (LLC 1). Not overloaded (PELT 0):
        // "let another idle CPU try to pull task"
        Kernel k = kernel(new int[] {0, 4, 4, 4});
        SchedBalanceDomains p = k.balancer.periodic;
        assertThat(p.schedBalanceRq(0, NUMA, false)).isFalse();
        // LLC 1 overloaded: 5 tasks on its 4 CPUs, group_runnable 5120: 4096 × 117 < 5120 × 100
        Kernel o = kernel(new int[] {0, 4, 4, 4, 4, 5});
        o.balancer.runnableAvg[4] = 4 * 1024;
        o.balancer.runnableAvg[5] = 1024;
        o.balancer.utilAvg[4] = o.balancer.utilAvg[5] = 1024;
        o.balancer.groups.peltUpdated();
        // LLC 0: 1 task, has spare; LLC 1: overloaded; migrate_util: capacity 4096 - util 0 = 4096; the busiest CPU
        // by util among those with more than one task: CPU 4. Each of its 4 tasks counts 1024 / 4 = 256: the walk
        // from the tail leaves 1 (running) and takes 2, 3, 4 (768 of 4096: the list ends first; a busy destination
        // may empty the source of its queued tasks)
        assertThat(o.balancer.periodic.schedBalanceRq(0, NUMA, false)).isTrue();
        assertThat(new int[] {o.tCpu[1], o.tCpu[2], o.tCpu[3], o.tCpu[4]}).containsExactly(4, 0, 0, 0);
    }

    @Test
    void thePickedTaskMovesToTheHeadOfItsCpusList() {
        // CPU 2 runs task 0, tasks 1 and 2 queued after it (list head 2, 1, 0 tail); __schedule() picks one of
        // them: __set_next_task_fair()'s list_move() makes it the head; with the model's own list it stays put
        Kernel k = kernel(new int[] {2, 2, 2});
        k.schedule(2);
        assertThat(k.fair.cpuTaskHead[2]).isEqualTo(k.curr[2]);
        Kernel c = kernel(new int[] {2, 2, 2}, "counts");
        c.schedule(2);
        assertThat(c.fair.cpuTaskHead[2]).isEqualTo(2);
        assertThat(c.curr[2]).isNotEqualTo(2); // the pick itself is the same either way: not the last enqueued
        assertThat(k.curr[2]).isEqualTo(c.curr[2]);
    }

    @Test
    void aBalancingCpuThatIsNotTheGroupsFirstLeavesTheLevelsAbove() {
        // run(): CPU 1 idle on a busy core (CPU 0 runs task 0), CPU 2/3 idle core. At MC CPU 1's group is core
        // {0,1}: CPU 1 is its first idle CPU (SMT siblings within the group are not skipped for themselves), so
        // it balances MC; at NUMA CPU 2 is the group's balancer, and CPU 1 does not stamp NUMA's last_balance
        Kernel k = kernel(new int[] {0});
        SchedBalanceDomains p = k.balancer.periodic;
        assertThat(p.shouldWeBalance(MC, 1)).isTrue();
        k.now = NOW + 100 * MS;
        p.run();
        assertThat(p.lastBalanceNs[NUMA][1]).isEqualTo(NOW + 100 * MS); // stamped, then stopped (continue_balancing 0)
        assertThat(p.lastBalanceNs[NUMA][2]).isEqualTo(NOW + 100 * MS);
        // CPU 3 stopped at MC (CPU 2 is core {2,3}'s first idle CPU): its NUMA level was not reached
        assertThat(p.lastBalanceNs[MC][3]).isEqualTo(NOW + 100 * MS);
        assertThat(p.lastBalanceNs[NUMA][3]).isZero();
    }

    private static Kernel kernel(int[] cpus) { return kernel(cpus, "kernel"); }

    /**
     * TaskHotTest's hand-made kernel (task i queued on CPU {@code cpus[i]}, each CPU's first task running, all
     * cold), with {@code kernel.periodic_balance} {@code rule}, the idle counts brought up to date.
     */
    private static Kernel kernel(int[] cpus, String rule) {
        Kernel k = TaskHotTest.kernel(new Topology(8, 2, 2, 2, true), cpus, "{\"periodic_balance\": \"" + rule + "\"}");
        for (int c = 0; c < k.ncpu; c++) {
            k.balancer.nrRunningChanged(c);
            k.balancer.updateIdle(c);
        }
        return k;
    }
}
