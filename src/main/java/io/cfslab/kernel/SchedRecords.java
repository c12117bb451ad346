package io.cfslab.kernel;

import static io.cfslab.kernel.Kernel.NONE;
import static io.cfslab.kernel.Kernel.NO_CLOCK;

/**
 * The hot fields of every scheduling entity and cfs_rq, packed by record in one {@code int[]}: a task's record
 * ({@code struct sched_entity}) uses 8 ints of 16, a group entity's record also holds the cfs_rq it owns
 * ({@code struct cfs_rq}; the kernel allocates {@code tg->se[cpu]} and {@code tg->cfs_rq[cpu]} together too);
 * every record is 16 ints (64 bytes, one cache line). Entity {@code e} is a task index or {@code tasks + q} for
 * cfs_rq {@code q}, and its record starts at {@code PAD + 16 e}: one multiply, no test of which kind it is (the
 * heap, the pick and the lag compute it for every entity they touch; with 32-byte task records the test and
 * the second base cost 6 % of seed 03's CPU time, docs/benchmarks.md "Eighth session", for 640 KB more here).
 * The root cfs_rq of each CPU has a record whose entity part is unused. The 64-bit fields are two ints each
 * (high word first: {@link #getLong}, {@link #setLong}).
 *
 * <p>Why records and not one array per field: the large trees touch a few cfs_rqs per task per period out of
 * hundreds of thousands, and every field in an array of its own costs a cache miss (and often a TLB miss) on
 * first touch. Why one array of ints and aligned records: with ints and longs in two arrays of 40- and 32-byte
 * records, a cfs_rq cost two or three cache lines (one record in two of a 40-byte stride straddles a line) and
 * a task two; here each costs one line. The large trees' arrays are humongous objects, which
 * G1 places at a region's start; {@link #PAD} puts the first record on a 64-byte line after the 16-byte array
 * header (if the header differs, records are merely unaligned: no result depends on it). Only fields that the
 * enqueue, dequeue, pick, park and unthrottle paths touch together live here; the rest stay arrays of their
 * own in the class that owns them ({@code throttled_clock_self}'s total is one, in {@link Throttling}).
 *
 * <p>Each slot belongs to one class: {@link EntityQueue} (heap links, whose {@code PREV} also says on_rq, heap
 * root, stale entity, nr_queued; the insertion number while queued), {@link FairRq} (vruntime, vlag while not
 * queued, min_vruntime, the vruntime sum behind
 * avg_vruntime(), h_nr_running) and {@link Throttling} (a task's limbo links, throttled_clock_self). Nothing else
 * reads them. A task's record has no cfs_rq part; its slots 6 and 7 hold the task's limbo links instead. The
 * limbo lists' heads and counts are an array of their own in {@link Throttling}: of a cfs_rq's fields they are
 * the ones touched only at its leaf, once per park and unpark, while the lag fields are touched at every level.
 */
final class SchedRecords {
    // ---- entity slots (tasks and group entities) ----
    /**
     * Entity: heap links. {@code PREV} is also se->on_rq: {@link Kernel#NONE} exactly while the entity is not
     * queued ({@link EntityQueue} marks a heap root with {@link #PREV_ROOT}).
     */
    static final int CHILD = 0, NEXT = 1, PREV = 2;
    /** {@code PREV} of a queued entity that is its cfs_rq's heap root (not queued: {@link Kernel#NONE}). */
    static final int PREV_ROOT = -2;
    /**
     * Entity: se->vlag (FairRq), ns, while the entity is not queued; an int because update_entity_lag() clamps it
     * to max(2 slices, a tick), at most 10 ms (HZ 100): far inside 32 bits. While it is queued the lag means
     * nothing (it is written as the entity leaves, read before it is placed again), and the slot holds its
     * insertion number instead ({@link EntityQueue#INSERTED}).
     */
    static final int VLAG = 3;
    /** Entity: vruntime (a long: two ints). */
    static final int VRUNTIME = 4;
    // ---- task slots ----
    /** Task (a task's record has no cfs_rq part): its links on its cfs_rq's limbo list. */
    static final int LIMBO_NEXT = 6, LIMBO_PREV = 7;
    // ---- cfs_rq slots ----
    /** cfs_rq: heap root, entity whose key grew (or NONE), nr_queued, h_nr_running. */
    static final int HEAP_ROOT = 6, HEAP_STALE = 7, NR_QUEUED = 8, H_NR_RUNNING = 9;
    /**
     * cfs_rq: the sum of its queued entities' vruntimes less its min_vruntime (avg_vruntime()'s numerator),
     * min_vruntime, throttled_clock_self (NO_CLOCK when stopped); longs: two ints each.
     */
    static final int VRUNTIME_SUM = 10, MIN_VRUNTIME = 12, CLOCK_SELF = 14;

    static final int TASK_INTS = 16, RQ_INTS = 16;
    /** Ints before the first record: 16-byte array header + 48 bytes = one 64-byte line. */
    static final int PAD = 12;

    final int tasks;
    final int[] ints;
    /** Where cfs_rq 0's record starts (a multiple of 16 ints from the aligned start). */
    private final int rqBase;

    SchedRecords(int tasks, int cfsRqs) {
        this.tasks = tasks;
        int taskInts = (tasks * TASK_INTS + RQ_INTS - 1) / RQ_INTS * RQ_INTS;
        rqBase = PAD + taskInts;
        ints = new int[Math.addExact(rqBase, Math.multiplyExact(cfsRqs, RQ_INTS))];
        for (int t = 0; t < tasks; t++) {
            int i = PAD + t * TASK_INTS;
            ints[i + CHILD] = ints[i + NEXT] = ints[i + PREV] = NONE;
            ints[i + LIMBO_NEXT] = ints[i + LIMBO_PREV] = NONE;
        }
        for (int q = 0; q < cfsRqs; q++) {
            int i = rqBase + q * RQ_INTS;
            ints[i + CHILD] = ints[i + NEXT] = ints[i + PREV] = NONE;
            ints[i + HEAP_ROOT] = ints[i + HEAP_STALE] = NONE;
            setLong(i + CLOCK_SELF, NO_CLOCK);
        }
    }

    /** Start of entity e's record (a task's or a group entity's: the same stride). */
    int ent(int e) { return PAD + e * RQ_INTS; }

    /** Start of cfs_rq q's record (its group entity's record). */
    int rq(int q) { return rqBase + q * RQ_INTS; }

    /** The long in slots {@code i, i + 1}. */
    long getLong(int i) { return ((long) ints[i] << 32) | (ints[i + 1] & 0xFFFF_FFFFL); }

    /** Sets the long in slots {@code i, i + 1}. */
    void setLong(int i, long v) {
        ints[i] = (int) (v >>> 32);
        ints[i + 1] = (int) v;
    }

    /** se->vruntime of entity e, ns. */
    long vruntime(int e) { return getLong(ent(e) + VRUNTIME); }
}
