package io.cfslab.kernel;

import static io.cfslab.kernel.Kernel.NONE;
import static io.cfslab.kernel.SchedRecords.CHILD;
import static io.cfslab.kernel.SchedRecords.HEAP_ROOT;
import static io.cfslab.kernel.SchedRecords.HEAP_STALE;
import static io.cfslab.kernel.SchedRecords.NEXT;
import static io.cfslab.kernel.SchedRecords.NR_QUEUED;
import static io.cfslab.kernel.SchedRecords.PREV;
import static io.cfslab.kernel.SchedRecords.PREV_ROOT;
import static io.cfslab.kernel.SchedRecords.VLAG;
import static io.cfslab.kernel.SchedRecords.VRUNTIME;

import java.util.Arrays;

/**
 * The queued scheduling entities of every cfs_rq, each cfs_rq's in a pairing heap ordered by (vruntime,
 * insertion): the simulator's stand-in for the kernel's rbtree with its cached leftmost
 * ({@code __pick_first_entity()}). Entities of equal vruntime come in the order they were inserted, as in the
 * rbtree, where {@code __enqueue_entity()} links an entity to the right of every equal key (a running entity is
 * re-inserted when it is put back, {@link #first}); the order is total, so the first entity is the same as a
 * scan for the minimum would find, however the heap is shaped.
 *
 * <p>Entities are the kernel's indices (tasks, then group entities); the heap links are arrays over them
 * ({@code child}, {@code next} sibling, {@code prev}: the previous sibling, or the parent of a first child),
 * so nothing allocates. Insert is O(1), the first entity O(1), removal O(log n) amortised. It also keeps
 * {@code se->on_rq} and {@code cfs_rq->nr_queued}, all in the entities' {@link SchedRecords}: an entity is
 * queued exactly while its {@code prev} is not {@link Kernel#NONE} (a heap root's is {@link SchedRecords#PREV_ROOT}),
 * so on_rq costs no slot of its own.
 *
 * <p>Invariant the caller keeps: a queued entity's vruntime changes only through {@link #keyIncreased}
 * (update_curr() of the running entities); every other change (place_entity(), migration, a group move)
 * happens while the entity is not queued. An increased key is re-placed lazily, at the next
 * {@link #first} of that cfs_rq (as the kernel re-inserts curr at put_prev_entity()); at most one entity
 * per cfs_rq is pending so, the one on the running task's path.
 */
final class EntityQueue {
    private final SchedRecords r;
    private final int[] in;
    private final int entities;
    /**
     * Each queued entity's insertion number (the order of its last {@link #place}), the tie-break between equal
     * vruntimes, is an int in its record's {@link #INSERTED} slot: {@code se->vlag}'s, which only means something
     * while the entity is not queued (update_entity_lag() writes it as the entity leaves, before
     * {@link #remove}; place_entity() reads it before {@link #add}). An array of longs of its own cost every
     * place a cache line more (7 MB for seed 03's tree; docs/benchmarks.md, "Ninth session").
     */
    static final int INSERTED = VLAG;
    /** The last insertion number given; never above {@link #insertionLimit} ({@link #renumber}). */
    private int insertions;
    private final int insertionLimit;

    /** @param entities tasks and cfs_rqs (one group entity each) */
    EntityQueue(SchedRecords records, int entities) { this(records, entities, Integer.MAX_VALUE); }

    /** @param insertionLimit the largest insertion number before the queued entities are renumbered (tests: small) */
    EntityQueue(SchedRecords records, int entities, int insertionLimit) {
        this.r = records;
        this.in = records.ints;
        this.entities = entities;
        this.insertionLimit = insertionLimit;
    }

    /** cfs_rq->nr_queued: entities queued on cfs_rq q. */
    int count(int q) { return in[r.rq(q) + NR_QUEUED]; }

    /** se->on_rq: entity e is queued (on some cfs_rq). */
    boolean isQueued(int e) { return in[r.ent(e) + PREV] != NONE; }

    /** Queues entity e (not queued anywhere) on cfs_rq q. */
    void add(int q, int e) {
        in[r.rq(q) + NR_QUEUED]++;
        place(q, e);
    }

    /** Takes entity e, queued on cfs_rq q, off it. */
    void remove(int q, int e) {
        int qb = r.rq(q);
        if (in[qb + HEAP_STALE] == e) in[qb + HEAP_STALE] = NONE;
        unlink(qb, e); // leaves its prev NONE: not queued
        in[qb + NR_QUEUED]--;
    }

    /** The queued entity of cfs_rq q with the least vruntime (the first inserted of equals), or NONE. */
    int first(int q) {
        int qb = r.rq(q);
        int s = in[qb + HEAP_STALE];
        if (s != NONE) {
            in[qb + HEAP_STALE] = NONE;
            unlink(qb, s);
            place(q, s);
        }
        return in[qb + HEAP_ROOT];
    }

    /** Entity e, queued on cfs_rq q, has a larger vruntime now. */
    void keyIncreased(int q, int e) {
        int qb = r.rq(q);
        int s = in[qb + HEAP_STALE];
        if (s == e) return;
        if (s != NONE) { // not expected (one running path per CPU), but keep the heap right
            unlink(qb, s);
            place(q, s);
        }
        in[qb + HEAP_STALE] = e;
    }

    /** Puts entity e (unlinked) into cfs_rq q's heap. */
    private void place(int q, int e) {
        if (insertions >= insertionLimit) renumber(); // e is not queued: it is not renumbered, and comes after all
        int b = r.ent(e);
        in[b + INSERTED] = ++insertions;
        in[b + CHILD] = in[b + NEXT] = in[b + PREV] = NONE;
        int qb = r.rq(q);
        int root = in[qb + HEAP_ROOT];
        int top = root == NONE ? e : link(root, e);
        in[r.ent(top) + PREV] = PREV_ROOT;
        in[qb + HEAP_ROOT] = top;
    }

    private boolean before(int a, int b) {
        long ka = r.getLong(r.ent(a) + VRUNTIME), kb = r.getLong(r.ent(b) + VRUNTIME);
        return ka < kb || (ka == kb && in[r.ent(a) + INSERTED] < in[r.ent(b) + INSERTED]);
    }

    /**
     * The insertion numbers ran out (2^31 places: about 40 simulated minutes of seed 03's tree, inside a run's
     * 1-hour limit): every queued entity gets a new one, 1, 2, ... in the order of its old one, so every comparison
     * between queued entities comes out as before. Only the order among queued entities is ever compared (a heap holds queued ones only).
     */
    private void renumber() {
        long[] keys = new long[16];
        int m = 0;
        for (int e = 0; e < entities; e++) {
            int b = r.ent(e);
            if (in[b + PREV] == NONE) continue;
            if (m == keys.length) keys = Arrays.copyOf(keys, 2 * m);
            keys[m++] = ((long) in[b + INSERTED] << 32) | e; // numbers are positive: the longs sort as they do
        }
        Arrays.sort(keys, 0, m);
        for (int i = 0; i < m; i++) in[r.ent((int) keys[i]) + INSERTED] = i + 1;
        insertions = m;
    }

    /** Joins two heap roots; returns the new root (its next/prev are left to the caller). */
    private int link(int a, int b) {
        if (before(b, a)) { int t = a; a = b; b = t; }
        int ab = r.ent(a), bb = r.ent(b);
        int c = in[ab + CHILD];
        in[bb + NEXT] = c;
        if (c != NONE) in[r.ent(c) + PREV] = b;
        in[bb + PREV] = a;
        in[ab + CHILD] = b;
        return a;
    }

    /** Cuts entity e out of the heap whose cfs_rq ints start at qb. */
    private void unlink(int qb, int e) {
        int b = r.ent(e);
        if (in[qb + HEAP_ROOT] == e) {
            in[qb + HEAP_ROOT] = mergePairs(in[b + CHILD]);
        } else {
            int p = in[b + PREV], n = in[b + NEXT];
            int pb = r.ent(p);
            if (in[pb + CHILD] == e) in[pb + CHILD] = n; else in[pb + NEXT] = n;
            if (n != NONE) in[r.ent(n) + PREV] = p;
            int sub = mergePairs(in[b + CHILD]);
            if (sub != NONE) {
                int top = link(in[qb + HEAP_ROOT], sub); // both were marked roots; the loser's prev is the winner
                in[r.ent(top) + PREV] = PREV_ROOT;
                in[qb + HEAP_ROOT] = top;
            }
        }
        in[b + CHILD] = in[b + NEXT] = in[b + PREV] = NONE;
    }

    /** The two-pass pairing of a sibling list: pairs left to right, then melds them right to left. */
    private int mergePairs(int first) {
        if (first == NONE) return NONE;
        int pairs = NONE; // the paired trees, last pair first, linked through NEXT
        for (int a = first; a != NONE; ) {
            int ab = r.ent(a);
            int b = in[ab + NEXT];
            if (b == NONE) {
                in[ab + PREV] = NONE;
                in[ab + NEXT] = pairs;
                pairs = a;
                break;
            }
            int bb = r.ent(b);
            int rest = in[bb + NEXT];
            in[ab + PREV] = in[bb + PREV] = NONE;
            int w = link(a, b);
            in[r.ent(w) + NEXT] = pairs;
            pairs = w;
            a = rest;
        }
        int result = pairs;
        pairs = in[r.ent(result) + NEXT];
        while (pairs != NONE) {
            int n = in[r.ent(pairs) + NEXT];
            in[r.ent(pairs) + NEXT] = NONE;
            in[r.ent(result) + NEXT] = NONE;
            result = link(result, pairs);
            pairs = n;
        }
        in[r.ent(result) + NEXT] = NONE;
        in[r.ent(result) + PREV] = PREV_ROOT;
        return result;
    }
}
