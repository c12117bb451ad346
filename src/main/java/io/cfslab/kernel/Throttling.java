package io.cfslab.kernel;

import io.cfslab.machine.CostModel;
import io.cfslab.scenario.KernelSpec;
import io.cfslab.scenario.KernelSpec.ThrottledClockStart;

import java.util.Arrays;

import static io.cfslab.kernel.Kernel.NONE;
import static io.cfslab.kernel.Kernel.NO_CLOCK;
import static io.cfslab.kernel.Kernel.T_PARKED;
import static io.cfslab.kernel.Kernel.T_RUNNABLE;
import static io.cfslab.kernel.SchedRecords.CLOCK_SELF;
import static io.cfslab.kernel.SchedRecords.LIMBO_NEXT;
import static io.cfslab.kernel.SchedRecords.LIMBO_PREV;

/**
 * Throttling and unthrottling of cfs_rqs (kernel/sched/fair.c, kernel-model.md §3.7, §4): {@code
 * throttle_cfs_rq()} and {@code unthrottle_cfs_rq()} with the subtree walks {@code tg_throttle_down()} /
 * {@code tg_unthrottle_up()}, each group's throttled list, the throttled-time clocks behind {@code cpu.stat}
 * and {@code cpu.stat.local}, and the three throttle models: the cfs_rq model detaches and re-attaches the
 * group entity chain, the task models park tasks on per-cfs_rq limbo lists on their way back to user mode
 * (the task work of the 6.18 and 2026 series) and re-enqueue them on unthrottle.
 *
 * <p>Per-cfs_rq state is indexed {@code q = Kernel.cfsRq(group, cpu)}; a subtree on one CPU is a range of group
 * indices (pre-order numbering, see {@link GroupTree}); the throttled lists link cfs_rq indices through
 * {@code thrNext}/{@code thrPrev}, the limbo lists task indices through the tasks' {@link SchedRecords} (each
 * cfs_rq's list head and count are {@code limboLists}), which also hold each cfs_rq's {@code throttled_clock_self}.
 *
 * <p><b>The walks are accounted, not made.</b> The kernel's {@code tg_throttle_down()} and
 * {@code tg_unthrottle_up()} visit every cfs_rq of the subtree on the CPU (1,101 per CPU in the seeds' large
 * tree) to keep {@code cfs_rq->throttle_count}; the simulator charges that walk's cost and reports its size
 * ({@code subtreeSize} cfs_rqs), but holds the state so that it need not visit them. The invariants:
 * <ul>
 * <li>{@link #throttleCount} is derived, not stored: the number of throttled cfs_rqs at or above q on its
 *     CPU (O(depth)), plus one while an unthrottle walk of an ancestor has not yet reached q (the kernel's
 *     post-order walk decrements q's count only when it gets there, and the tasks it re-enqueues on the way
 *     can see that).</li>
 * <li>A cfs_rq with {@code throttle_count == 0} has no running {@code throttled_clock_self}; a cfs_rq
 *     whose count is 0 and that has no clock running and no parked task is left exactly as the walk
 *     would leave it. So the walks visit only the cfs_rqs set in {@link #clockRunning} and {@link #limbo}
 *     (and, at throttle, the ones whose clock starts: the non-empty ones, none with {@code first-park}), in
 *     the kernel's order.</li>
 * </ul>
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
    private final int[] curr, tCpu, tState, tGroup, segKind;
    private final boolean[] throttleWorkPending;
    private CpuTime clock;
    private FairRq fair;
    private BandwidthControl bwc;

    // ---- cfs_rq, index q = Kernel.cfsRq(group, cpu) ----
    final boolean[] throttled;
    final long[] throttledClockNs;
    final int[] thrNext, thrPrev;

    // ---- cfs_rqs and tasks: limbo lists and throttled_clock_self, in the records ----
    private final SchedRecords records;
    private final int[] recInts;
    /**
     * Each cfs_rq's limbo list: at {@code 2q} its first task (or NONE), at {@code 2q + 1} its length. Beside the
     * records, not in them: a park and an unpark touch them at the task's leaf only, where the records' lag fields
     * are touched at every level, so the lag fields took their slots. Head and count share a line.
     */
    private final int[] limboLists;
    /**
     * throttled_clock_self_time summed per group (cpu.stat.local reads only the sum over CPUs): one hot array of
     * groups instead of a field per cfs_rq that a stopping clock would miss in cache.
     */
    private final long[] clockSelfTimeNsByGroup;

    // ---- per CPU and group: throttled cfs_rqs again, packed by CPU, for the walks up a path ----
    /** {@link #throttled} as one bitmap row per CPU: a path's marks are a few words apart, not a few MB. */
    private final GroupBitmap throttledBits;
    /** Throttled cfs_rqs per CPU: none (the common case while runtime lasts) needs no walk up at all. */
    private final int[] nrThrottledOnCpu;

    // ---- per CPU and group: which cfs_rqs a subtree walk has anything to do for ----
    /** cfs_rqs with tasks on their limbo list. */
    private final GroupBitmap limbo;
    /** cfs_rqs whose throttled_clock_self runs. */
    private final GroupBitmap clockRunning;

    // ---- the tg_unthrottle_up() walk in progress (at most one: nothing it calls unthrottles) ----
    private int walkCpu = NONE;
    /** The walk's subtree root (a group) and the group it has reached: [walkTop, walkPos) is still to come. */
    private int walkTop, walkPos;

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
        this.tGroup = k.tGroup;
        this.segKind = k.segKind;
        this.throttleWorkPending = k.throttleWorkPending;

        int nq = k.nq;
        throttled = new boolean[nq];
        throttledClockNs = new long[nq];
        Arrays.fill(throttledClockNs, NO_CLOCK);
        thrNext = new int[nq];
        thrPrev = new int[nq];
        records = k.records;
        recInts = records.ints;
        limboLists = new int[Math.multiplyExact(nq, 2)];
        for (int q = 0; q < nq; q++) limboLists[2 * q] = NONE;
        clockSelfTimeNsByGroup = new long[k.ngroups];
        throttledBits = new GroupBitmap(k.ngroups, ncpu);
        nrThrottledOnCpu = new int[ncpu];
        limbo = new GroupBitmap(k.ngroups, ncpu);
        clockRunning = new GroupBitmap(k.ngroups, ncpu);
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
        tgThrottleDown(g, c, size);
        setThrottled(q, g, c, true);
        if (clockStart == ThrottledClockStart.THROTTLE
                || (clockStart == ThrottledClockStart.NONEMPTY && fair.hNrRunning(q) > 0)) {
            throttledClockNs[q] = k.now;
        }
        if (!taskBased) detachGroupEntity(q);
        clock.steal(c, size * cost.throttleCfsRqNs());
        observer.throttle(k.now, c, g);
        return true;
    }

    /**
     * tg_throttle_down() over group g's subtree on CPU c, before g's cfs_rq is marked throttled: every cfs_rq
     * whose throttle_count goes from 0 to 1 starts its throttled_clock_self if it has something queued
     * (cpu.stat.local counts a cfs_rq only while it has, 677ea015f231; an empty one starts at its first enqueue),
     * unless the clocks start at the first park ({@code throttled_clock_start=first-park}). The counts themselves
     * are derived ({@link #throttleCount}), so only the non-empty cfs_rqs are visited; the walk's cost is
     * charged by the caller for all {@code size}.
     */
    private void tgThrottleDown(int g, int c, int size) {
        if (clockStart == ThrottledClockStart.FIRST_PARK) return;
        int end = g + size;
        GroupBitmap nonEmpty = fair.nonEmpty;
        for (int gg = nonEmpty.next(c, g, end); gg >= 0; gg = nonEmpty.next(c, gg + 1, end)) {
            if (throttleCount(gg, c) == 0) startSelfClock(k.cfsRq(gg, c));
        }
    }

    /** cfs_rq model: dequeue the group entity and every ancestor entity that becomes empty. */
    private void detachGroupEntity(int q) {
        int se = k.groupEntity(q);
        if (!fair.onRq(se)) return;
        int delta = fair.hNrRunning(q);
        boolean structural = true;
        for (int x = k.parentQ(q); ; x = k.parentQ(x)) {
            if (structural) {
                fair.entRemove(x, se);
                if (fair.nrQueued(x) > 0) structural = false;
            }
            fair.addRunnable(x, -delta);
            if (throttled[x] || k.isRootQ(x)) break;
            se = k.groupEntity(x);
            if (!fair.onRq(se)) structural = false;
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
        setThrottled(q, g, c, false);
        if (throttledClockNs[q] != NO_CLOCK) {
            b.throttledTimeNs += k.now - throttledClockNs[q];
            throttledClockNs[q] = NO_CLOCK;
        }
        listRemoveThrottled(b, q);
        if (bwc.csdPending[q]) bwc.removeCsd(q, c);
        int size = tree.subtreeSize(g);
        int tasks = tgUnthrottleUp(g, c, size);
        if (!taskBased) tasks = reattachGroupEntity(q);
        if (curr[c] == NONE && k.nrRunnable(c) > 0) k.requestResched(c);
        return ((long) size << 32) | tasks;
    }

    /**
     * tg_unthrottle_up() over group g's subtree on CPU c, post-order (descendants before ancestors; the
     * pre-order numbering backwards), after g's cfs_rq is marked unthrottled: every cfs_rq whose
     * throttle_count reaches 0 stops its throttled_clock_self and, in the task models, re-enqueues the tasks
     * parked on its limbo list. Only cfs_rqs with a clock running or parked tasks are visited, in the same
     * order; the re-enqueues may throttle cfs_rqs again on the way (check_enqueue_throttle), which the
     * derived counts see as the kernel's counters would.
     *
     * @return tasks enqueued
     */
    private int tgUnthrottleUp(int g, int c, int size) {
        if (walkCpu != NONE) throw new IllegalStateException("tg_unthrottle_up() inside another one");
        walkCpu = c;
        walkTop = g;
        walkPos = g + size;
        int tasks = 0;
        GroupBitmap parked = taskBased ? limbo : null;
        int touchFrom = walkPos - 1, touchedAhead = 0;
        for (int gg; (gg = clockRunning.prevInEither(parked, c, walkPos - 1, g)) >= 0; ) {
            if (touchedAhead-- == 0) { // the next few cfs_rqs' records and first parked tasks, misses in parallel
                touchFrom = touchAhead(parked, c, Math.min(touchFrom, gg), g);
                touchedAhead = TOUCH_AHEAD - 1;
            }
            walkPos = gg; // from here on gg's count no longer includes the walk's root
            if (throttleCount(gg, c) == 0) {
                int x = k.cfsRq(gg, c);
                stopSelfClock(x);
                if (taskBased) tasks += unparkLimbo(x, c);
            }
        }
        walkCpu = NONE;
        return tasks;
    }

    /** cfs_rqs whose records {@link #touchAhead} reads before the walk gets to them. */
    private static final int TOUCH_AHEAD = 16;
    /** What {@link #touchAhead} read: stored so that the JIT keeps the loads. */
    private int touchedSum;

    /**
     * Reads the records of the next {@link #TOUCH_AHEAD} cfs_rqs the walk will visit (set in {@link #clockRunning}
     * or {@code parked}, from group {@code from} down to {@code lo} on CPU c) and of their parents, and the record
     * and task-list links of the first task on each one's limbo list. Nothing depends on what it reads: each visit's first touch is a cache miss (the other CPUs'
     * park storms evicted them), and these loads do not depend on each other, so the core overlaps them instead
     * of waiting for each in turn inside the walk, as a prefetch would. Results cannot change; only speed.
     *
     * @return where to continue: the group below the last one read, or {@code lo - 1}
     */
    private int touchAhead(GroupBitmap parked, int c, int from, int lo) {
        int sum = 0, gg = from;
        for (int n = 0; n < TOUCH_AHEAD && (gg = clockRunning.prevInEither(parked, c, gg, lo)) >= 0; n++, gg--) {
            int x = k.cfsRq(gg, c);
            int head = limboLists[2 * x];
            sum += recInts[records.rq(x) + SchedRecords.NR_QUEUED];
            // the parent's record: the re-enqueue places x's group entity there before the walk reaches it
            if (gg != 0) sum += recInts[records.rq(k.cfsRq(tree.parent(gg), c)) + SchedRecords.NR_QUEUED];
            if (head != NONE) {
                sum += recInts[records.ent(head) + LIMBO_NEXT] + tState[head] + tGroup[head]
                        + fair.cpuTaskNext[head] + fair.cpuTaskPrev[head];
            }
        }
        touchedSum += sum;
        return gg < lo ? lo - 1 : gg;
    }

    /** Queued tasks of a CPU whose records {@link #touchBeforeParks} reads at most. */
    private static final int TOUCH_TASKS = 64;

    /**
     * Before the first park of a {@code __schedule()} on CPU c (a park storm follows: every task picked in the
     * throttled hierarchy parks in turn): reads the records of the first {@link #TOUCH_TASKS} tasks on c's list
     * and of their leaf and parent cfs_rqs, which each park's pick and dequeue will touch, and the task's other
     * fields a park reads or writes (its kill and task-work flags, policy, usage), so that their cache misses
     * overlap instead of coming one at a time. Reads only; results cannot change.
     */
    void touchBeforeParks(int c) {
        int sum = 0, n = 0;
        int[] next = fair.cpuTaskNext, prev = fair.cpuTaskPrev;
        boolean[] kill = k.killPending;
        Object[] policy = k.tPolicy;
        long[] usage = clock.usageNs, system = clock.systemNs;
        long lsum = 0;
        for (int t = fair.cpuTaskHead[c]; t != NONE && n < TOUCH_TASKS; t = next[t], n++) {
            int leaf = k.leafQ(t, c);
            sum += recInts[records.ent(t) + SchedRecords.PREV] + recInts[records.rq(leaf) + SchedRecords.NR_QUEUED]
                    + limboLists[2 * leaf] + segKind[t] + tState[t] + prev[t]
                    + (kill[t] ? 1 : 0) + (throttleWorkPending[t] ? 1 : 0) + (policy[t] == null ? 1 : 0);
            lsum += usage[t] + system[t];
            if (!k.isRootQ(leaf)) sum += recInts[records.rq(k.parentQ(leaf)) + SchedRecords.NR_QUEUED];
        }
        touchedSum += sum + (int) lsum;
    }

    // =====================================================================================================
    // cfs_rq->throttle_count, derived
    // =====================================================================================================

    /**
     * cfs_rq->throttle_count of cfs_rq q: the throttled cfs_rqs at or above it on its CPU, plus one while an
     * unthrottle walk of an ancestor (or of q) has not reached q yet (the kernel decrements each count when
     * its post-order walk gets there). O(depth).
     */
    int throttleCount(int q) {
        int g = k.groupOf(q);
        return throttleCount(g, k.cpuOf(q));
    }

    private int throttleCount(int g, int c) {
        return throttledOnPath(g, c) + (inWalk(g, c) ? 1 : 0);
    }

    /** Throttled cfs_rqs at or above group g's cfs_rq on CPU c. */
    private int throttledOnPath(int g, int c) {
        if (nrThrottledOnCpu[c] == 0) return 0;
        int n = 0;
        for (int y = g; y >= 0; y = tree.parent(y)) if (throttledBits.get(y, c)) n++;
        return n;
    }

    /** Marks cfs_rq q (group g on CPU c) throttled or not. */
    private void setThrottled(int q, int g, int c, boolean value) {
        throttled[q] = value;
        if (value) {
            throttledBits.set(g, c);
            nrThrottledOnCpu[c]++;
        } else {
            throttledBits.clear(g, c);
            nrThrottledOnCpu[c]--;
        }
    }

    /**
     * {@code throttled[q]} of group g's cfs_rq on CPU c, read from the per-CPU bitmap: the pick asks at every
     * level, and the bitmap's row of a CPU stays in cache where {@code throttled[]} (one byte per cfs_rq) does not.
     */
    boolean isThrottled(int g, int c) { return nrThrottledOnCpu[c] != 0 && throttledBits.get(g, c); }

    /** Whether any cfs_rq of CPU c is throttled (O(1): the CPU timeline samples it for every CPU). */
    boolean anyThrottledOn(int c) { return nrThrottledOnCpu[c] > 0; }

    /** throttled_hierarchy(): cfs_rq q or an ancestor on its CPU is throttled (throttle_count &gt; 0). */
    boolean throttledHierarchy(int q) {
        int g = k.groupOf(q);
        return throttledHierarchy(g, k.cpuOf(q));
    }

    /** {@link #throttledHierarchy(int)} of group g's cfs_rq on CPU c. */
    boolean throttledHierarchy(int g, int c) {
        if (walkCpu == c && g >= walkTop && g < walkPos) return true;
        if (nrThrottledOnCpu[c] == 0) return false;
        for (int y = g; y >= 0; y = tree.parent(y)) if (throttledBits.get(y, c)) return true;
        return false;
    }

    /**
     * The throttled cfs_rqs of CPU c as pre-order group ranges {@code [from, to)}, written pairwise into
     * {@code ranges}: a group's cfs_rq on c is in a throttled hierarchy iff the group is in one of them. For
     * callers that ask about many tasks of one CPU (the load balancer): a few comparisons per task instead
     * of a walk up its path.
     *
     * @return the number of ranges, or -1 if there are more than fit (or an unthrottle walk runs on c): then
     *         ask {@link #throttledHierarchy(int, int)}
     */
    int throttledRanges(int c, int[] ranges) {
        int n = nrThrottledOnCpu[c];
        if (n * 2 > ranges.length || walkCpu == c) return -1;
        int i = 0;
        for (int g = throttledBits.next(c, 0, k.ngroups); g >= 0 && i < n; g = throttledBits.next(c, g + 1, k.ngroups)) {
            ranges[2 * i] = g;
            ranges[2 * i + 1] = g + tree.subtreeSize(g);
            i++;
        }
        return i;
    }

    /**
     * Fair tasks queued on CPU c (running or not) outside throttled hierarchies, given c's throttled ranges
     * from {@link #throttledRanges}: h_nr_running of the root, which in the cfs_rq model already stops at
     * throttled cfs_rqs (their subtrees are detached), and in the task models counts every queued task, so
     * the top-most throttled cfs_rqs' own counts come off.
     */
    int queuedOutsideThrottled(int c, int[] ranges, int n) {
        int outside = fair.hNrRunning(k.rootQ(c));
        if (taskBased) {
            int end = -1;
            for (int i = 0; i < 2 * n; i += 2) {
                if (ranges[i] < end) continue; // inside a throttled range already counted
                outside -= fair.hNrRunning(k.cfsRq(ranges[i], c));
                end = ranges[i + 1];
            }
        }
        return outside;
    }

    /**
     * Of the fair tasks queued on CPU c outside the throttled ranges {@code own} (c's, counted out by
     * {@link #queuedOutsideThrottled}), those inside the ranges {@code other} (another CPU's throttled subtrees,
     * from {@link #throttledRanges}): the tasks a pull from c to that CPU must pass over. Each top-most range of
     * {@code other} not inside one of {@code own} counts its cfs_rq's h_nr_running on c; in the task models, where
     * c's own throttled cfs_rqs still count their tasks, less those of the {@code own} ranges inside it (already
     * counted out); in the cfs_rq model their subtrees are detached and h_nr_running already stops there.
     */
    int queuedInOtherRanges(int c, int[] own, int nOwn, int[] other, int nOther) {
        int in = 0, end = -1;
        for (int i = 0; i < 2 * nOther; i += 2) {
            int from = other[i], to = other[i + 1];
            if (from < end) continue; // nested in a range already counted
            end = to;
            if (inRanges(from, own, nOwn)) continue; // inside one of c's own throttled subtrees: not counted
            in += fair.hNrRunning(k.cfsRq(from, c));
            if (taskBased) {
                int ownEnd = -1;
                for (int j = 0; j < 2 * nOwn; j += 2) {
                    if (own[j] < ownEnd || own[j] < from || own[j] >= to) continue;
                    in -= fair.hNrRunning(k.cfsRq(own[j], c));
                    ownEnd = own[j + 1];
                }
            }
        }
        return in;
    }

    /** True if group g lies in one of the first n ranges of {@link #throttledRanges}. */
    static boolean inRanges(int g, int[] ranges, int n) {
        for (int i = 0; i < 2 * n; i += 2) if (g >= ranges[i] && g < ranges[i + 1]) return true;
        return false;
    }

    /**
     * True while an unthrottle walk on CPU c has not yet reached group g of its subtree: the walk's root still
     * counts in g's throttle_count.
     */
    boolean inWalk(int g, int c) {
        return walkCpu == c && g >= walkTop && g < walkPos;
    }


    // =====================================================================================================
    // throttled_clock_self
    // =====================================================================================================

    /** throttled_clock_self of cfs_rq x: when it started, or NO_CLOCK. */
    long throttledClockSelfNs(int x) { return records.getLong(records.rq(x) + CLOCK_SELF); }

    /** throttled_clock_self_time of group g summed over its cfs_rqs: their finished throttled intervals, ns (cpu.stat.local). */
    long throttledClockSelfTimeNs(int g) { return clockSelfTimeNsByGroup[g]; }

    /** Starts cfs_rq x's throttled_clock_self now (it is known not to run, or is restarted as the kernel does). */
    private void startSelfClock(int x) {
        records.setLong(records.rq(x) + CLOCK_SELF, k.now);
        int g = k.groupOf(x);
        clockRunning.set(g, k.cpuOf(x));
    }

    /** Starts cfs_rq x's throttled_clock_self now unless it runs. */
    void startSelfClockIfStopped(int x) {
        if (throttledClockSelfNs(x) == NO_CLOCK) startSelfClock(x);
    }

    /** Stops cfs_rq x's throttled_clock_self, adding the finished interval to throttled_clock_self_time. */
    private void stopSelfClock(int x) {
        int at = records.rq(x) + CLOCK_SELF;
        long started = records.getLong(at);
        if (started == NO_CLOCK) return;
        records.setLong(at, NO_CLOCK);
        int g = k.groupOf(x);
        clockSelfTimeNsByGroup[g] += k.now - started;
        clockRunning.clear(g, k.cpuOf(x));
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
            for (int gg = limbo.next(c, g, g + size); gg >= 0; gg = limbo.next(c, gg + 1, g + size)) {
                if (throttleCount(gg, c) == 1) tasks += limboLists[2 * k.cfsRq(gg, c) + 1];
            }
        } else if (fair.nrQueued(q) > 0) {
            tasks = fair.hNrRunning(q);
        }
        return ((long) size << 32) | tasks;
    }

    /** Task models: enqueue every task parked on cfs_rq x's limbo list (wake-up style). */
    private int unparkLimbo(int x, int c) {
        int n = 0;
        int xl = 2 * x;
        for (int t = limboLists[xl]; t != NONE; ) {
            int next = recInts[records.ent(t) + LIMBO_NEXT];
            limboLists[xl] = next;
            if (--limboLists[xl + 1] == 0) limbo.clear(k.groupOf(x), c);
            if (next != NONE) recInts[records.ent(next) + LIMBO_PREV] = NONE;
            tState[t] = T_RUNNABLE;
            fair.enqueueTask(t, c, true);
            n++;
            t = next;
        }
        return n;
    }

    /** cfs_rq model: re-enqueue the group entity chain up to the first throttled ancestor. */
    private int reattachGroupEntity(int q) {
        int delta = fair.hNrRunning(q);
        if (fair.nrQueued(q) == 0) return 0;
        boolean structural = true;
        int se = k.groupEntity(q);
        for (int x = k.parentQ(q); ; x = k.parentQ(x)) {
            if (structural) {
                if (!fair.onRq(se)) {
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
        k.chargeSchedOverhead(t, c, cost.taskParkNs()); // the task work runs on t's clock, before its dequeue
        k.parks++;
        fair.dequeueTask(t, c, true);
        tState[t] = T_PARKED;
        throttleWorkPending[t] = false;
        int q = k.leafQ(t, c);
        limboPush(q, t);
        if (clockStart == ThrottledClockStart.FIRST_PARK) {
            int g = tGroup[t];
            int onPath = throttledOnPath(g, c);
            for (; g != 0; g = tree.parent(g)) {
                int x = k.cfsRq(g, c);
                boolean xThrottled = isThrottled(g, c);
                if (onPath > 0 || inWalk(g, c)) { // throttle_count > 0
                    startSelfClockIfStopped(x);
                    if (xThrottled && throttledClockNs[x] == NO_CLOCK) throttledClockNs[x] = k.now;
                }
                if (xThrottled) onPath--;
            }
        }
        observer.park(k.now, c, t);
    }

    /** Puts task t at the head of cfs_rq q's limbo list. */
    void limboPush(int q, int t) {
        int ql = 2 * q, tb = records.ent(t);
        if (limboLists[ql + 1]++ == 0) limbo.set(k.groupOf(q), k.cpuOf(q));
        int head = limboLists[ql];
        recInts[tb + LIMBO_PREV] = NONE;
        recInts[tb + LIMBO_NEXT] = head;
        if (head != NONE) recInts[records.ent(head) + LIMBO_PREV] = t;
        limboLists[ql] = t;
    }

    /** Takes task t off its cfs_rq's limbo list (it leaves without an unthrottle). */
    void unlinkLimbo(int t) {
        int q = k.leafQ(t, tCpu[t]);
        int ql = 2 * q, tb = records.ent(t);
        if (--limboLists[ql + 1] == 0) limbo.clear(k.groupOf(q), k.cpuOf(q));
        int p = recInts[tb + LIMBO_PREV], n = recInts[tb + LIMBO_NEXT];
        if (p == NONE) limboLists[ql] = n; else recInts[records.ent(p) + LIMBO_NEXT] = n;
        if (n != NONE) recInts[records.ent(n) + LIMBO_PREV] = p;
    }
}
