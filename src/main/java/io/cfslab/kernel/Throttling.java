package io.cfslab.kernel;

import io.cfslab.machine.CostModel;
import io.cfslab.scenario.KernelSpec;
import io.cfslab.scenario.KernelSpec.ThrottledClockStart;

import java.util.Arrays;

import static io.cfslab.kernel.Kernel.NONE;
import static io.cfslab.kernel.Kernel.NO_CLOCK;
import static io.cfslab.kernel.Kernel.T_PARKED;
import static io.cfslab.kernel.Kernel.T_RUNNABLE;

/**
 * Throttling and unthrottling of cfs_rqs (kernel/sched/fair.c, kernel-model.md §3.7, §4): {@code
 * throttle_cfs_rq()} and {@code unthrottle_cfs_rq()} with the subtree walks {@code tg_throttle_down()} /
 * {@code tg_unthrottle_up()}, each group's throttled list, the throttled-time clocks behind {@code cpu.stat}
 * and {@code cpu.stat.local}, and the three throttle models: the cfs_rq model detaches and re-attaches the
 * group entity chain, the task models park tasks on per-cfs_rq limbo lists on their way back to user mode
 * (the task work of the 6.18 and 2026 series) and re-enqueue them on unthrottle.
 *
 * <p>Per-cfs_rq state is indexed {@code q = group * cpus + cpu}; a subtree on one CPU is a range of group
 * indices (pre-order numbering, see {@link GroupTree}); the throttled lists link cfs_rq indices through
 * {@code thrNext}/{@code thrPrev}, the limbo lists task indices through {@code limboNext}/{@code limboPrev}.
 */
final class Throttling {
    private final Kernel k;
    private final int ncpu;
    private final GroupTree tree;
    private final CostModel cost;
    private final KernelObserver observer;
    private final boolean taskBased;
    private final KernelSpec.ListInsert listInsert;
    private final ThrottledClockStart clockStart;
    private final int[] curr, tCpu, tState;
    private final boolean[] throttleWorkPending;
    private CpuTime clock;
    private FairRq fair;
    private BandwidthControl bwc;

    // ---- cfs_rq, index q = g * ncpu + cpu ----
    final boolean[] throttled;
    /** Throttled cfs_rqs at or above this one on its CPU (cfs_rq->throttle_count). */
    final int[] throttleCount;
    final long[] throttledClockNs;
    final long[] throttledClockSelfNs;
    final long[] throttledClockSelfTimeNs;
    final int[] thrNext, thrPrev;
    final int[] limboHead;
    /** Tasks on each cfs_rq's limbo list. */
    final int[] limboCount;

    // ---- tasks: limbo lists ----
    final int[] limboNext, limboPrev;

    Throttling(Kernel k, KernelSpec spec) {
        this.k = k;
        this.ncpu = k.ncpu;
        this.tree = k.tree;
        this.cost = k.cost;
        this.observer = k.observer;
        this.taskBased = k.taskBased;
        this.listInsert = spec.throttledListInsert();
        this.clockStart = k.clockStart;
        this.curr = k.curr;
        this.tCpu = k.tCpu;
        this.tState = k.tState;
        this.throttleWorkPending = k.throttleWorkPending;

        int nq = k.ngroups * ncpu;
        throttled = new boolean[nq];
        throttleCount = new int[nq];
        throttledClockNs = new long[nq];
        throttledClockSelfNs = new long[nq];
        Arrays.fill(throttledClockNs, NO_CLOCK);
        Arrays.fill(throttledClockSelfNs, NO_CLOCK);
        throttledClockSelfTimeNs = new long[nq];
        thrNext = new int[nq];
        thrPrev = new int[nq];
        limboHead = new int[nq];
        limboCount = new int[nq];
        Arrays.fill(limboHead, NONE);
        limboNext = new int[k.ntasks];
        limboPrev = new int[k.ntasks];
    }

    void link(CpuTime clock, FairRq fair, BandwidthControl bwc) {
        this.clock = clock;
        this.fair = fair;
        this.bwc = bwc;
    }

    // =====================================================================================================
    // throttle_cfs_rq()
    // =====================================================================================================

    /**
     * throttle_cfs_rq() (§4.0–4.3): last-chance grant of {@code targetNs}, append to the throttled list, mark
     * the subtree on this CPU ({@code tg_throttle_down}), start the clocks per {@code throttled_clock_start},
     * and in the cfs_rq model dequeue the group entity chain.
     *
     * @return true if the cfs_rq is throttled afterwards
     */
    boolean throttleCfsRq(int q, long targetNs) {
        if (throttled[q]) return true;
        if (bwc.assignCfsRqRuntime(q, targetNs)) return false;
        int g = k.groupOf(q), c = k.cpuOf(q);
        CfsBandwidth b = bwc.bw[g];
        listAddThrottled(b, q);
        int size = tree.subtreeSize(g);
        for (int gg = g; gg < g + size; gg++) { // pre-order
            int x = gg * ncpu + c;
            if (throttleCount[x]++ == 0) {
                // cpu.stat.local counts a cfs_rq only while it has something queued (677ea015f231): whatever
                // throttled_clock_start says for cpu.stat, an empty cfs_rq starts its clock at its first enqueue
                if (clockStart != ThrottledClockStart.FIRST_PARK && fair.hNrRunning[x] > 0) {
                    throttledClockSelfNs[x] = k.now;
                }
            }
        }
        throttled[q] = true;
        if (clockStart == ThrottledClockStart.THROTTLE
                || (clockStart == ThrottledClockStart.NONEMPTY && fair.hNrRunning[q] > 0)) {
            throttledClockNs[q] = k.now;
        }
        if (!taskBased) detachGroupEntity(q);
        clock.steal(c, size * cost.throttleCfsRqNs());
        observer.throttle(k.now, c, g);
        return true;
    }

    /** cfs_rq model: dequeue the group entity and every ancestor entity that becomes empty. */
    private void detachGroupEntity(int q) {
        int se = k.groupEntity(q);
        if (!fair.onRq[se]) return;
        int delta = fair.hNrRunning[q];
        boolean structural = true;
        for (int x = k.parentQ(q); ; x = k.parentQ(x)) {
            if (structural) {
                fair.entRemove(x, se);
                if (fair.nrQueued[x] > 0) structural = false;
            }
            fair.addRunnable(x, -delta);
            if (throttled[x] || k.isRootQ(x)) break;
            se = k.groupEntity(x);
            if (!fair.onRq[se]) structural = false;
        }
    }

    /**
     * Adds cfs_rq q to its group's throttled list: at the tail (5.8+), at the head (3.17–4.18, so that a
     * distribution in progress does not see it), or at the head only while a distribution runs (4.19–5.7).
     */
    private void listAddThrottled(CfsBandwidth b, int q) {
        boolean insertHead = listInsert == KernelSpec.ListInsert.HEAD
                || (listInsert == KernelSpec.ListInsert.TAIL_UNLESS_DISTRIBUTING && b.distributeRunningUntilNs > k.now);
        if (b.throttledHead == NONE) {
            thrPrev[q] = NONE;
            thrNext[q] = NONE;
            b.throttledHead = b.throttledTail = q;
        } else if (insertHead) {
            thrPrev[q] = NONE;
            thrNext[q] = b.throttledHead;
            thrPrev[b.throttledHead] = q;
            b.throttledHead = q;
        } else {
            thrNext[q] = NONE;
            thrPrev[q] = b.throttledTail;
            thrNext[b.throttledTail] = q;
            b.throttledTail = q;
        }
    }

    private void listRemoveThrottled(CfsBandwidth b, int q) {
        int p = thrPrev[q], n = thrNext[q];
        if (p == NONE) b.throttledHead = n; else thrNext[p] = n;
        if (n == NONE) b.throttledTail = p; else thrPrev[n] = p;
        thrPrev[q] = thrNext[q] = NONE;
    }

    // =====================================================================================================
    // unthrottle_cfs_rq()
    // =====================================================================================================

    /**
     * unthrottle_cfs_rq() (§3.7): stop the throttled clock, leave the throttled list, walk the subtree on this
     * CPU post-order ({@code tg_unthrottle_up}) and bring tasks back (limbo lists in the task models, the
     * group entity chain in the cfs_rq model).
     *
     * @return cfs_rqs walked in the upper 32 bits, tasks enqueued in the lower 32
     */
    long unthrottleCfsRq(int q) {
        if (taskBased && bwc.runtimeRemainingNs[q] <= 0) return 0; // 6.18: never unthrottle without runtime
        int g = k.groupOf(q), c = k.cpuOf(q);
        CfsBandwidth b = bwc.bw[g];
        throttled[q] = false;
        if (throttledClockNs[q] != NO_CLOCK) {
            b.throttledTimeNs += k.now - throttledClockNs[q];
            throttledClockNs[q] = NO_CLOCK;
        }
        listRemoveThrottled(b, q);
        if (bwc.csdPending[q]) bwc.removeCsd(q, c);
        int tasks = 0;
        int size = tree.subtreeSize(g);
        for (int gg = g + size - 1; gg >= g; gg--) { // post-order: descendants before ancestors
            int x = gg * ncpu + c;
            if (--throttleCount[x] == 0) {
                if (throttledClockSelfNs[x] != NO_CLOCK) {
                    throttledClockSelfTimeNs[x] += k.now - throttledClockSelfNs[x];
                    throttledClockSelfNs[x] = NO_CLOCK;
                }
                if (taskBased) tasks += unparkLimbo(x, c);
            }
        }
        if (!taskBased) tasks = reattachGroupEntity(q);
        if (curr[c] == NONE && k.nrRunnable(c) > 0) k.requestResched(c);
        return ((long) size << 32) | tasks;
    }

    /**
     * What unthrottle_cfs_rq(q) would do now, without doing it: the cfs_rqs its subtree walk visits and the
     * tasks it would enqueue back (limbo tasks of cfs_rqs whose throttle_count would reach 0 in the task
     * models; the detached subtree's runnable tasks in the cfs_rq model). The sync distribute prices each
     * unthrottle with this before scheduling it.
     *
     * @return cfs_rqs in the upper 32 bits, tasks in the lower 32
     */
    long unthrottleWork(int q) {
        int g = k.groupOf(q), c = k.cpuOf(q);
        int size = tree.subtreeSize(g);
        int tasks = 0;
        if (taskBased) {
            for (int gg = g; gg < g + size; gg++) {
                int x = gg * ncpu + c;
                if (throttleCount[x] == 1) tasks += limboCount[x];
            }
        } else if (fair.nrQueued[q] > 0) {
            tasks = fair.hNrRunning[q];
        }
        return ((long) size << 32) | tasks;
    }

    /** Task models: enqueue every task parked on cfs_rq x's limbo list (wake-up style). */
    private int unparkLimbo(int x, int c) {
        int n = 0;
        for (int t = limboHead[x]; t != NONE; ) {
            int next = limboNext[t];
            limboHead[x] = next;
            limboCount[x]--;
            if (next != NONE) limboPrev[next] = NONE;
            tState[t] = T_RUNNABLE;
            fair.enqueueTask(t, c, true);
            n++;
            t = next;
        }
        return n;
    }

    /** cfs_rq model: re-enqueue the group entity chain up to the first throttled ancestor. */
    private int reattachGroupEntity(int q) {
        int delta = fair.hNrRunning[q];
        if (fair.nrQueued[q] == 0) return 0;
        boolean structural = true;
        int se = k.groupEntity(q);
        for (int x = k.parentQ(q); ; x = k.parentQ(x)) {
            if (structural) {
                if (!fair.onRq[se]) {
                    fair.placeEntity(x, se);
                    fair.entAdd(x, se);
                } else {
                    structural = false;
                }
            }
            fair.addRunnable(x, delta);
            if (throttled[x] || k.isRootQ(x)) break;
            se = k.groupEntity(x);
        }
        return delta;
    }

    // =====================================================================================================
    // Limbo lists (task models)
    // =====================================================================================================

    /**
     * Task models: task t dequeues itself on its way back to user mode and parks on its own cfs_rq's limbo
     * list; the first park of a throttled hierarchy starts its throttled clocks (eb962f251fbb).
     */
    void parkTask(int t, int c) {
        fair.dequeueTask(t, c);
        tState[t] = T_PARKED;
        throttleWorkPending[t] = false;
        int q = k.leafQ(t, c);
        limboPush(q, t);
        if (clockStart == ThrottledClockStart.FIRST_PARK) {
            for (int x = q; !k.isRootQ(x); x = k.parentQ(x)) {
                if (throttleCount[x] == 0) continue;
                if (throttledClockSelfNs[x] == NO_CLOCK) throttledClockSelfNs[x] = k.now;
                if (throttled[x] && throttledClockNs[x] == NO_CLOCK) throttledClockNs[x] = k.now;
            }
        }
        clock.steal(c, cost.taskParkNs());
        observer.park(k.now, c, t);
    }

    /** Puts task t at the head of cfs_rq q's limbo list. */
    void limboPush(int q, int t) {
        limboCount[q]++;
        limboPrev[t] = NONE;
        limboNext[t] = limboHead[q];
        if (limboHead[q] != NONE) limboPrev[limboHead[q]] = t;
        limboHead[q] = t;
    }

    /** Takes task t off its cfs_rq's limbo list (it leaves without an unthrottle). */
    void unlinkLimbo(int t) {
        int q = k.leafQ(t, tCpu[t]);
        limboCount[q]--;
        int p = limboPrev[t], n = limboNext[t];
        if (p == NONE) limboHead[q] = n; else limboNext[p] = n;
        if (n != NONE) limboPrev[n] = p;
    }
}
