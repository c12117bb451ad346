package io.cfslab.kernel;

import static io.cfslab.kernel.Kernel.NONE;
import static io.cfslab.kernel.Kernel.NO_CLOCK;

/**
 * The hot fields of every scheduling entity and cfs_rq, packed by record: one run of ints and one run of longs
 * per entity ({@code struct sched_entity}), where a group entity's record also holds the cfs_rq it owns
 * ({@code struct cfs_rq}; the kernel allocates {@code tg->se[cpu]} and {@code tg->cfs_rq[cpu]} together too).
 * Entity {@code e} is a task index or {@code tasks + q} for cfs_rq {@code q}; the root cfs_rq of each CPU has a
 * record without an entity.
 *
 * <p>Why records and not one array per field: the large trees touch a few cfs_rqs per task per period out of
 * hundreds of thousands, and every field in an array of its own costs a cache miss (and often a TLB miss) on
 * first touch; a record costs one or two. Only fields that the enqueue, dequeue, pick, park and unthrottle
 * paths touch together live here; the rest stay arrays of their own in the class that owns them.
 *
 * <p>Each slot belongs to one class: {@link EntityQueue} (heap links, on_rq, heap root, stale entity,
 * nr_queued), {@link FairRq} (vruntime, min_vruntime, h_nr_running, vlag, the vruntime sum) and {@link Throttling} (limbo lists,
 * throttled_clock_self). Nothing else reads them. A task's record has no cfs_rq part; its slots 4 and 5 hold
 * the task's limbo links instead.
 */
final class SchedRecords {
    // ---- int slots ----
    /** Entity: heap links and 1 + the cfs_rq it is queued on (0: not queued). */
    static final int CHILD = 0, NEXT = 1, PREV = 2, ON_RQ = 3;
    /** cfs_rq: heap root, entity whose key grew (or NONE), nr_queued, h_nr_running. */
    static final int HEAP_ROOT = 4, HEAP_STALE = 5, NR_QUEUED = 6, H_NR_RUNNING = 7;
    /** cfs_rq: limbo list of parked tasks (task models). */
    static final int LIMBO_HEAD = 8, LIMBO_COUNT = 9;
    /** Task (a task's record has no cfs_rq part): its links on its cfs_rq's limbo list. */
    static final int LIMBO_NEXT = 4, LIMBO_PREV = 5;
    static final int INTS = 10;
    // ---- long slots ----
    /** Entity: vruntime. cfs_rq: min_vruntime, throttled_clock_self (NO_CLOCK when stopped) and its total. */
    static final int VRUNTIME = 0, MIN_VRUNTIME = 1, CLOCK_SELF = 2, CLOCK_SELF_TIME = 3;
    /** Entity: se->vlag. cfs_rq: the sum of its queued entities' vruntimes less min_vruntime (avg_vruntime()). */
    static final int VLAG = 4, VRUNTIME_SUM = 5;
    static final int LONGS = 6;

    final int tasks;
    final int[] ints;
    final long[] longs;

    SchedRecords(int tasks, int cfsRqs) {
        this.tasks = tasks;
        int n = tasks + cfsRqs;
        ints = new int[n * INTS];
        longs = new long[n * LONGS];
        for (int e = 0; e < n; e++) {
            int i = e * INTS;
            ints[i + CHILD] = ints[i + NEXT] = ints[i + PREV] = NONE;
            ints[i + HEAP_ROOT] = ints[i + HEAP_STALE] = ints[i + LIMBO_HEAD] = NONE; // LIMBO_NEXT/PREV of tasks
            longs[e * LONGS + CLOCK_SELF] = NO_CLOCK;
        }
    }

    /** Start of entity e's ints. */
    static int ent(int e) { return e * INTS; }

    /** Start of cfs_rq q's ints (its group entity's record). */
    int rq(int q) { return (tasks + q) * INTS; }

    /** Start of entity e's longs. */
    static int entL(int e) { return e * LONGS; }

    /** Start of cfs_rq q's longs. */
    int rqL(int q) { return (tasks + q) * LONGS; }
}
