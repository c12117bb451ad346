package io.cfslab.kernel;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link SrcGroupFinder}: sched_balance_find_src_group()'s rules over two LLCs of 4 CPUs (LLC 0 = CPUs 0-3, the
 * newly idle CPU's; LLC 1 = CPUs 4-7), each case computed by hand from the kernel's formulas. A CPU with n tasks
 * has util_avg 1024 if n &gt; 0 (busy all the time) and runnable_avg n × 1024 unless said; capacity 1024 a CPU.
 */
class SrcGroupFinderTest {
    private static final int[][] LLCS = {{0, 1, 2, 3}, {4, 5, 6, 7}};

    /** A finder over {@link #LLCS} with {@code tasks[c]} runnable on CPU c; {@code runnable} overrides runnable_avg. */
    private static SrcGroupFinder finder(int[] tasks, long... runnable) {
        int[] llcIdle = new int[2];
        long[] util = new long[8], run = new long[8];
        for (int c = 0; c < 8; c++) {
            if (tasks[c] == 0) llcIdle[c / 4]++;
            util[c] = tasks[c] > 0 ? 1024 : 0;
            run[c] = runnable.length > 0 ? runnable[c] : tasks[c] * 1024L;
        }
        SrcGroupFinder f = new SrcGroupFinder(LLCS, tasks, llcIdle, util, run);
        f.peltUpdated();
        return f;
    }

    /** {@link #finder} with a domain's own sd_init() values (SrcGroupFinder's full constructor). */
    private static SrcGroupFinder finder(int[][] groups, int[] tasks, int pct, boolean shareLlc, boolean preferSibling,
            boolean smtGroups) {
        int[] idle = new int[groups.length];
        long[] util = new long[8], run = new long[8];
        for (int g = 0; g < groups.length; g++) for (int c : groups[g]) if (tasks[c] == 0) idle[g]++;
        for (int c = 0; c < 8; c++) {
            util[c] = tasks[c] > 0 ? 1024 : 0;
            run[c] = tasks[c] * 1024L;
        }
        SrcGroupFinder f = new SrcGroupFinder(groups, tasks, idle, util, run, 0, pct, shareLlc, preferSibling, smtGroups);
        f.peltUpdated();
        return f;
    }

    @Test
    void insideAnLlcAnOverloadedGroupIsBalancedByTaskCountNotByUtil() {
        // the LLCs as above, but a domain with SD_SHARE_LLC (MC): calculate_imbalance() skips migrate_util. LLC 1
        // overloaded (8 tasks, runnable 8192): migrate_task by sibling_imbalance 8 - 2 = 6, >> 1 = 3 (not 2048)
        SrcGroupFinder f = finder(LLCS, new int[] {0, 0, 1, 1, 2, 2, 2, 2}, 117, true, true, false);
        assertThat(f.findSrcGroup(0, 0, 2, true)).isEqualTo(1);
        assertThat(f.lastMigrationType).isEqualTo(SrcGroupFinder.MIGRATE_TASK);
        assertThat(f.lastImbalance).isEqualTo(3);
        // above the LLC (the 5-argument constructor): migrate_util, 4096 - 2048 = 2048
        SrcGroupFinder above = finder(new int[] {0, 0, 1, 1, 2, 2, 2, 2});
        assertThat(above.findSrcGroup(0, 0, 2, true)).isEqualTo(1);
        assertThat(above.lastMigrationType).isEqualTo(SrcGroupFinder.MIGRATE_UTIL);
        assertThat(above.lastImbalance).isEqualTo(2048);
    }

    @Test
    void aBusyDestinationPullsNothingFromAGroupThatIsNotOverloaded() {
        // as preferSibling's case but CPU_NOT_IDLE: sibling_imbalance() is 0, nothing forces it, and "this CPU is
        // already busy, let another idle CPU try to pull task"
        SrcGroupFinder f = finder(new int[] {0, 0, 1, 1, 3, 2, 0, 0}, 0, 0, 1024, 1024, 2000, 2000, 0, 0);
        assertThat(f.findSrcGroup(0, 0, 2, false)).isEqualTo(-1);
        assertThat(f.findSrcGroup(0, 0, 2, true)).isEqualTo(1);
    }

    @Test
    void ofFullyBusySmtCoresTheFirstIsTheBusiestOfOtherGroupsTheLast() {
        // groups of two CPUs (cores {0,1}, {2,3}, {4,5}); CPU 0 idle, cores {2,3} and {4,5} one task a CPU: fully
        // busy (2 tasks = weight; util 2048 × 117 > 2048 × 100). update_sd_pick_busiest(): avg_load not computed for
        // fully busy groups, so equal; SMT groups keep the first ({2,3}), others take the later ({4,5}). Local
        // {0,1}: 1 task, has spare. The pick, by updateSdPickBusiest() on the types findSrcGroup() left
        int[][] cores = {{0, 1}, {2, 3}, {4, 5}};
        int[] tasks = {1, 0, 1, 1, 1, 1, 0, 0};
        SrcGroupFinder smt = finder(cores, tasks, 117, true, true, true);
        smt.findSrcGroup(0, 0, 3, true);
        assertThat(smt.type).containsExactly(SrcGroupFinder.HAS_SPARE, SrcGroupFinder.FULLY_BUSY, SrcGroupFinder.FULLY_BUSY);
        assertThat(smt.updateSdPickBusiest(2, 1)).isFalse();
        SrcGroupFinder plain = finder(cores, tasks, 117, true, true, false);
        plain.findSrcGroup(0, 0, 3, true);
        assertThat(plain.updateSdPickBusiest(2, 1)).isTrue();
    }

    @Test
    void theSmtDomainsImbalancePctIs110() {
        // one CPU a group (the SMT level): CPU 1 with 2 tasks, util_avg 800, runnable_avg 1150: 1024 × 110 = 112,640
        // < 1150 × 100 = 115,000: overloaded at SMT's 110; at 117 not (119,808), nor by util (1024 × 100 = 102,400 is
        // not below 800 × 117 = 93,600): has spare
        int[][] cpus = {{0}, {1}};
        long[] util = {0, 800, 0, 0, 0, 0, 0, 0}, run = {0, 1150, 0, 0, 0, 0, 0, 0};
        int[] tasks = {0, 2, 0, 0, 0, 0, 0, 0};
        SrcGroupFinder smt = new SrcGroupFinder(cpus, tasks, new int[] {1, 0}, util, run, 0, 110, true, false, false);
        smt.peltUpdated();
        smt.findSrcGroup(0, 0, 2, true);
        assertThat(smt.type[1]).isEqualTo(SrcGroupFinder.OVERLOADED);
        SrcGroupFinder mc = new SrcGroupFinder(cpus, tasks, new int[] {1, 0}, util, run, 0, 117, true, false, false);
        mc.peltUpdated();
        mc.findSrcGroup(0, 0, 2, true);
        assertThat(mc.type[1]).isEqualTo(SrcGroupFinder.HAS_SPARE);
    }

    @Test
    void twoGroupsWithSpareAndAlikeIdleCpusAreBalanced() {
        // LLC 0: 2 tasks, 2 idle (has spare); LLC 1: 3 tasks, 2 idle (has spare, util 2048 of 4096).
        // sibling_imbalance = 3 - 2 = 1, not > 1; busiest not overloaded and local idle 2 <= 2 + 1: balanced
        SrcGroupFinder f = finder(new int[] {0, 0, 1, 1, 2, 1, 0, 0});
        assertThat(f.findSrcGroup(0)).isEqualTo(-1);
        assertThat(f.type).containsExactly(SrcGroupFinder.HAS_SPARE, SrcGroupFinder.HAS_SPARE);
    }

    @Test
    void preferSiblingForcesTheBalanceWhenTheTasksDifferByMoreThanOne() {
        // LLC 1: 5 tasks on CPUs 4-5 (3 + 2), runnable_avg 4,000 in all: 5 > 4 tasks but neither util (2048 × 117 <
        // 4096 × 100) nor runnable (4000 × 100 < 4096 × 117) past capacity: has spare. sibling_imbalance 5 - 2 = 3 > 1:
        // force; calculate_imbalance: migrate_task, 3 >> 1 = 1 > 0: LLC 1
        SrcGroupFinder f = finder(new int[] {0, 0, 1, 1, 3, 2, 0, 0}, 0, 0, 1024, 1024, 2000, 2000, 0, 0);
        assertThat(f.findSrcGroup(0)).isEqualTo(1);
        assertThat(f.type[1]).isEqualTo(SrcGroupFinder.HAS_SPARE);
        assertThat(f.calculateImbalance(0, 1, 0)).isEqualTo(1);
    }

    @Test
    void anOverloadedBusiestGroupFillsTheLocalSpareCapacity() {
        // LLC 1: 2 tasks on each CPU: 8 > 4, runnable 8192 × 100 > 4096 × 117: overloaded. migrate_util:
        // max(4096, 2048) - 2048 = 2048
        SrcGroupFinder f = finder(new int[] {0, 0, 1, 1, 2, 2, 2, 2});
        assertThat(f.findSrcGroup(0)).isEqualTo(1);
        assertThat(f.type[1]).isEqualTo(SrcGroupFinder.OVERLOADED);
        assertThat(f.calculateImbalance(0, 1, 0)).isEqualTo(2048);
    }

    @Test
    void aLocalGroupBusierThanTheBusiestPullsNothing() {
        // LLC 0: 9 tasks on CPUs 1-3, runnable 9216: overloaded although CPU 0 is idle; LLC 1: one task a CPU, util
        // 4096 × 117 > 4096 × 100: fully busy. local overloaded > fully busy: balanced
        SrcGroupFinder f = finder(new int[] {0, 3, 3, 3, 1, 1, 1, 1});
        assertThat(f.findSrcGroup(0)).isEqualTo(-1);
        assertThat(f.type).containsExactly(SrcGroupFinder.OVERLOADED, SrcGroupFinder.FULLY_BUSY);
    }

    @Test
    void twoOverloadedGroupsNeedTheBusiestsAvgLoadPastImbalancePct() {
        // LLC 0 avg_load 9216 × 1024 / 4096 = 2304; LLC 1 (3 tasks a CPU) with runnable 10,240: avg_load 2560;
        // 100 × 2560 = 256,000 <= 117 × 2304 = 269,568: balanced
        long[] run = {0, 3072, 3072, 3072, 2560, 2560, 2560, 2560};
        assertThat(finder(new int[] {0, 3, 3, 3, 3, 3, 3, 3}, run).findSrcGroup(0)).isEqualTo(-1);
        // runnable 12,288: avg_load 3072, 307,200 > 269,568; domain avg (9216 + 12288) × 1024 / 8192 = 2688:
        // migrate_load min((3072 - 2688) × 4096, (2688 - 2304) × 4096) / 1024 = 1536
        long[] run2 = {0, 3072, 3072, 3072, 3072, 3072, 3072, 3072};
        SrcGroupFinder f = finder(new int[] {0, 3, 3, 3, 3, 3, 3, 3}, run2);
        assertThat(f.findSrcGroup(0)).isEqualTo(1);
        assertThat(f.calculateImbalance(0, 1, 2688)).isEqualTo(1536);
    }

    @Test
    void aGroupWithoutTasksIsNeverTheBusiest() {
        assertThat(finder(new int[] {0, 1, 1, 1, 0, 0, 0, 0}).findSrcGroup(0)).isEqualTo(-1);
    }

    @Test
    void siblingImbalanceBetweenGroupsOfUnequalCoresIsPerCore() {
        // local 2 CPUs with 0 tasks, busiest 4 CPUs with 5: (2 × 5 - 4 × 0) = 10, (2 × 10 + 2 + 4) / 6 = 4
        int[][] llcs = {{0, 1}, {2, 3, 4, 5}};
        int[] tasks = {0, 0, 2, 1, 1, 1};
        SrcGroupFinder f = new SrcGroupFinder(llcs, tasks, new int[] {2, 0}, new long[6], new long[6]);
        f.findSrcGroup(0);
        assertThat(f.siblingImbalance(1, 0)).isEqualTo(4);
    }

    @Test
    void adjustNumaImbalanceDropsAPairOnlyWhileTheDestinationIsLightlyLoaded() {
        // Genoa's NUMA level: imb_numa_nr 12 (a socket's CCXs); the destination runs dstRunning tasks with the moved one
        int[][] sockets = {{0, 1}, {2, 3}};
        SrcGroupFinder numa = new SrcGroupFinder(sockets, new int[4], new int[] {2, 2}, new long[4], new long[4], 12);
        assertThat(numa.adjustNumaImbalance(2, 12)).isEqualTo(0);
        assertThat(numa.adjustNumaImbalance(3, 12)).as("more than NUMA_IMBALANCE_MIN").isEqualTo(3);
        assertThat(numa.adjustNumaImbalance(2, 13)).as("destination past imb_numa_nr").isEqualTo(2);
        SrcGroupFinder pkg = new SrcGroupFinder(sockets, new int[4], new int[] {2, 2}, new long[4], new long[4]);
        assertThat(pkg.adjustNumaImbalance(2, 1)).as("not SD_NUMA").isEqualTo(2);
    }

    @Test
    void aDomainOfSomeGroupsLooksOnlyAtThem() {
        // four LLCs of 2 CPUs, the domain LLCs 0-1 (a socket): LLC 3's 4 tasks are outside it; LLC 1's 2 are not
        int[][] llcs = {{0, 1}, {2, 3}, {4, 5}, {6, 7}};
        int[] tasks = {0, 0, 1, 1, 0, 0, 2, 2};
        SrcGroupFinder f = new SrcGroupFinder(llcs, tasks, new int[] {2, 0, 2, 0}, new long[8], new long[8]);
        assertThat(f.findSrcGroup(0, 0, 2)).isEqualTo(1);
        assertThat(f.findSrcGroup(0)).as("the whole machine").isEqualTo(3);
    }

    @Test
    void theGroupsSumsFollowTheChangesOfTheirCpusCounts() {
        // random changes to 8 CPUs' counts, each told through runnableChanged(): every group's sum_nr_running is the
        // sum over its CPUs, as a finder built afresh from the counts has it
        int[][] llcs = {{0, 1}, {2, 3}, {4, 5}, {6, 7}};
        int[] tasks = {1, 0, 3, 0, 0, 2, 0, 0};
        SrcGroupFinder kept = new SrcGroupFinder(llcs, tasks.clone(), new int[4], new long[8], new long[8]);
        java.util.SplittableRandom r = new java.util.SplittableRandom(7);
        for (int i = 0; i < 1_000; i++) {
            int c = r.nextInt(8), delta = tasks[c] == 0 ? 1 : r.nextBoolean() ? 1 : -1;
            tasks[c] += delta;
            kept.runnableChanged(c, delta);
        }
        SrcGroupFinder fresh = new SrcGroupFinder(llcs, tasks, new int[4], new long[8], new long[8]);
        assertThat(kept.nrRunning).containsExactly(fresh.nrRunning);
        assertThat(fresh.nrRunning[1]).isEqualTo(tasks[2] + tasks[3]);
    }
}
