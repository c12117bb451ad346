package io.cfslab.kernel;

import io.cfslab.scenario.KernelSpec.ThrottledClockStart;

import java.util.Arrays;

import static io.cfslab.kernel.Kernel.NICE_0_LOAD;
import static io.cfslab.kernel.Kernel.NONE;
import static io.cfslab.kernel.Kernel.NO_CLOCK;

/**
 * The fair class's runqueues (kernel/sched/fair.c): a {@code cfs_rq} per task group per CPU
 * ({@code q = group * cpus + cpu}) with its queued entities (tasks {@code t < tasks}, group entities
 * {@code tasks + q}), vruntimes and runnable counts; {@code enqueue_task_fair()}, {@code dequeue_task_fair()},
 * {@code place_entity()}, the hierarchical pick and the group entity weights of {@code calc_group_shares()}.
 * Also each CPU's list of queued tasks (fair and RT), which the load balancer walks.
 *
 * <p>Bandwidth control decides where the walks stop: in the cfs_rq model a throttled cfs_rq's subtree is
 * detached, so runnable counts stop there.
 */
final class FairRq {
    private final Kernel k;
    private final int ntasks;
    private final long schedSliceNs;
    private final boolean taskBased;
    private final ThrottledClockStart clockStart;
    private BandwidthControl bwc;
    private Throttling thr;

    // ---- task groups ----
    final long[] shares;
    final int[] groupRunnable;

    // ---- cfs_rq, index q = g * ncpu + cpu ----
    final int[] nrQueued;
    final int[] hNrRunning;
    final long[] minVruntime;
    final int[] entHead;

    // ---- scheduling entities: tasks, then one group entity per cfs_rq ----
    final int[] entNext, entPrev;
    final long[] vruntime;
    final boolean[] onRq;

    // ---- per-CPU list of queued tasks (fair and RT) ----
    final int[] cpuTaskHead;
    /** Tasks on each CPU's list: queued fair tasks, in a throttled subtree or not, and queued RT tasks. */
    final int[] cpuTaskCount;
    final int[] cpuTaskNext, cpuTaskPrev;

    /** Set by {@link #pickFair}: the pick crossed a throttled level (task models). */
    boolean lastPickThrottled;

    FairRq(Kernel k) {
        this.k = k;
        this.ntasks = k.ntasks;
        this.schedSliceNs = k.schedSliceNs;
        this.taskBased = k.taskBased;
        this.clockStart = k.clockStart;
        shares = new long[k.ngroups];
        Arrays.fill(shares, NICE_0_LOAD);
        groupRunnable = new int[k.ngroups];
        int nq = k.ngroups * k.ncpu;
        nrQueued = new int[nq];
        hNrRunning = new int[nq];
        minVruntime = new long[nq];
        entHead = new int[nq];
        Arrays.fill(entHead, NONE);
        int ne = ntasks + nq;
        entNext = new int[ne];
        entPrev = new int[ne];
        vruntime = new long[ne];
        onRq = new boolean[ne];
        cpuTaskHead = new int[k.ncpu];
        Arrays.fill(cpuTaskHead, NONE);
        cpuTaskCount = new int[k.ncpu];
        cpuTaskNext = new int[ntasks];
        cpuTaskPrev = new int[ntasks];
    }

    void link(BandwidthControl bwc, Throttling thr) {
        this.bwc = bwc;
        this.thr = thr;
    }

    /**
     * The fair part of update_curr() at every level of running task t's hierarchy: vruntime, and
     * account_cfs_rq_runtime() where a quota applies.
     */
    void updateCurrFair(int t, int c, long d) {
        vruntime[t] += d;
        for (int q = k.leafQ(t, c); !k.isRootQ(q); q = k.parentQ(q)) {
            bwc.accountCfsRqRuntime(q, d, t);
            vruntime[k.groupEntity(q)] += d * NICE_0_LOAD / groupEntityWeight(q);
        }
    }

    /** calc_group_shares(): the group's shares split by this CPU's share of its runnable tasks. */
    long groupEntityWeight(int q) {
        int g = k.groupOf(q);
        int total = groupRunnable[g];
        long w = total > 0 ? shares[g] * Math.max(1, hNrRunning[q]) / total : shares[g];
        return Math.max(2, w);
    }

    void entAdd(int q, int se) {
        int h = entHead[q];
        entPrev[se] = NONE;
        entNext[se] = h;
        if (h != NONE) entPrev[h] = se;
        entHead[q] = se;
        onRq[se] = true;
        nrQueued[q]++;
    }

    void entRemove(int q, int se) {
        int p = entPrev[se], n = entNext[se];
        if (p == NONE) entHead[q] = n; else entNext[p] = n;
        if (n != NONE) entPrev[n] = p;
        onRq[se] = false;
        nrQueued[q]--;
    }

    /** place_entity(): a waking entity gets no more than half a slice of credit below min_vruntime. */
    void placeEntity(int q, int se) {
        long floor = minVruntime[q] - schedSliceNs / 2;
        if (vruntime[se] < floor) vruntime[se] = floor;
    }

    void addRunnable(int x, int delta) {
        hNrRunning[x] += delta;
        groupRunnable[k.groupOf(x)] += delta;
    }

    /**
     * enqueue_task_fair(): enqueue entities upwards while they are off the runqueue; the runnable counts stop
     * at a throttled cfs_rq in the cfs_rq model (its subtree is detached).
     */
    void enqueueTask(int t, int c, boolean wakeup) {
        int q = k.leafQ(t, c);
        if (wakeup) placeEntity(q, t);
        cpuTaskAdd(c, t);
        boolean structural = true;
        int se = t;
        for (int x = q; ; x = k.parentQ(x)) {
            if (structural) {
                if (!onRq[se]) {
                    if (se != t) placeEntity(x, se);
                    entAdd(x, se);
                    if (nrQueued[x] == 1 && !k.isRootQ(x)) bwc.checkEnqueueThrottle(x);
                } else {
                    structural = false;
                }
            }
            addRunnable(x, 1);
            if (clockStart != ThrottledClockStart.FIRST_PARK && thr.throttleCount[x] > 0) {
                if (thr.throttledClockSelfNs[x] == NO_CLOCK) thr.throttledClockSelfNs[x] = k.now;
                if (clockStart == ThrottledClockStart.NONEMPTY && thr.throttled[x] && thr.throttledClockNs[x] == NO_CLOCK) {
                    thr.throttledClockNs[x] = k.now;
                }
            }
            if ((!taskBased && thr.throttled[x]) || k.isRootQ(x)) break;
            se = k.groupEntity(x);
        }
        k.onAvailabilityChange(c);
    }

    /** dequeue_task_fair(): dequeue entities upwards while their cfs_rq empties; return slack on empty ones. */
    void dequeueTask(int t, int c) {
        int q = k.leafQ(t, c);
        cpuTaskRemove(c, t);
        boolean structural = true;
        int se = t;
        for (int x = q; ; x = k.parentQ(x)) {
            if (structural && onRq[se]) {
                entRemove(x, se);
                if (nrQueued[x] == 0) {
                    if (!k.isRootQ(x)) bwc.returnCfsRqRuntime(x);
                } else {
                    structural = false;
                }
            } else {
                structural = false;
            }
            addRunnable(x, -1);
            if ((!taskBased && thr.throttled[x]) || k.isRootQ(x)) break;
            se = k.groupEntity(x);
        }
        k.onAvailabilityChange(c);
    }

    void cpuTaskAdd(int c, int t) {
        cpuTaskCount[c]++;
        int h = cpuTaskHead[c];
        cpuTaskPrev[t] = NONE;
        cpuTaskNext[t] = h;
        if (h != NONE) cpuTaskPrev[h] = t;
        cpuTaskHead[c] = t;
    }

    void cpuTaskRemove(int c, int t) {
        cpuTaskCount[c]--;
        int p = cpuTaskPrev[t], n = cpuTaskNext[t];
        if (p == NONE) cpuTaskHead[c] = n; else cpuTaskNext[p] = n;
        if (n != NONE) cpuTaskPrev[n] = p;
    }

    /**
     * pick_next_entity() from the root down; runs check_cfs_rq_runtime() at each level. cfs_rq model: a level
     * throttled during the pick is dequeued and the pick restarts. Task models: the pick continues and
     * {@link #lastPickThrottled} records that a throttled level was crossed.
     */
    int pickFair(int c) {
        restart:
        while (true) {
            lastPickThrottled = false;
            int x = c;
            while (true) {
                if (nrQueued[x] == 0) return NONE;
                if (!k.isRootQ(x)) {
                    if (bwc.checkCfsRqRuntime(x)) {
                        if (!taskBased) continue restart;
                        lastPickThrottled = true;
                    }
                    if (thr.throttleCount[x] > 0) lastPickThrottled = true;
                }
                int best = entHead[x];
                long bv = vruntime[best];
                for (int e = entNext[best]; e != NONE; e = entNext[e]) {
                    long v = vruntime[e];
                    if (v < bv || (v == bv && e < best)) { best = e; bv = v; }
                }
                if (bv > minVruntime[x]) minVruntime[x] = bv;
                if (best < ntasks) return best;
                x = best - ntasks;
            }
        }
    }

    void migrateVruntime(int t, int from, int to) {
        vruntime[t] = vruntime[t] - minVruntime[k.leafQ(t, from)] + minVruntime[k.leafQ(t, to)];
    }
}
