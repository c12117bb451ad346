package io.cfslab.kernel;

import static io.cfslab.kernel.Kernel.NONE;

/**
 * The queued scheduling entities of every cfs_rq, each cfs_rq's in a pairing heap ordered by (vruntime,
 * entity index): the simulator's stand-in for the kernel's vruntime-ordered rbtree with its cached leftmost
 * ({@code __pick_first_entity()}). The order is total, so the first entity is the same as a scan for the
 * minimum would find, however the heap is shaped.
 *
 * <p>Entities are the kernel's indices (tasks, then group entities); the heap links are arrays over them
 * ({@code child}, {@code next} sibling, {@code prev}: the previous sibling, or the parent of a first child),
 * so nothing allocates. Insert is O(1), the first entity O(1), removal O(log n) amortised. It also keeps
 * {@code se->on_rq} and {@code cfs_rq->nr_queued}. The fields one operation touches are packed together (an
 * entity's links and queued mark in 16 bytes, a cfs_rq's root, stale entity and count in 16): the large
 * trees touch tens of thousands of cfs_rqs per period, and each separate array costs a cache miss.
 *
 * <p>Invariant the caller keeps: a queued entity's vruntime changes only through {@link #keyIncreased}
 * (update_curr() of the running entities); every other change (place_entity(), migration, a group move)
 * happens while the entity is not queued. An increased key is re-placed lazily, at the next
 * {@link #first} of that cfs_rq (as the kernel re-inserts curr at put_prev_entity()); at most one entity
 * per cfs_rq is pending so, the one on the running task's path.
 */
final class EntityQueue {
    // per entity, 4 ints (one cache line holds 4 entities): heap links and where it is queued
    private static final int CHILD = 0, NEXT = 1, PREV = 2, ON = 3, E_STRIDE = 4;
    // per cfs_rq, 4 ints: heap root, the entity with a stale key, queued entities
    private static final int ROOT = 0, STALE = 1, COUNT = 2, Q_STRIDE = 4;

    private final long[] key;
    /** Entities' heap links and, in {@code ON}, 1 + the cfs_rq they are queued on (0: not queued). */
    private final int[] ent;
    /** cfs_rqs' heap root (NONE when empty), stale entity (NONE) and count of queued entities. */
    private final int[] rq;

    /**
     * @param key       the entities' vruntimes (shared, read on every comparison)
     * @param entities  number of entities
     * @param cfsRqs    number of cfs_rqs
     */
    EntityQueue(long[] key, int entities, int cfsRqs) {
        this.key = key;
        ent = new int[entities * E_STRIDE];
        rq = new int[cfsRqs * Q_STRIDE];
        for (int q = 0; q < cfsRqs; q++) rq[q * Q_STRIDE + ROOT] = rq[q * Q_STRIDE + STALE] = NONE;
    }

    /** cfs_rq->nr_queued: entities queued on cfs_rq q. */
    int count(int q) { return rq[q * Q_STRIDE + COUNT]; }

    /** se->on_rq: entity e is queued (on some cfs_rq). */
    boolean isQueued(int e) { return ent[e * E_STRIDE + ON] != 0; }

    /** Queues entity e (not queued anywhere) on cfs_rq q. */
    void add(int q, int e) {
        int b = e * E_STRIDE;
        ent[b + ON] = q + 1;
        rq[q * Q_STRIDE + COUNT]++;
        place(q, e);
    }

    /** Takes entity e, queued on cfs_rq q, off it. */
    void remove(int q, int e) {
        int qb = q * Q_STRIDE;
        if (rq[qb + STALE] == e) rq[qb + STALE] = NONE;
        unlink(q, e);
        ent[e * E_STRIDE + ON] = 0;
        rq[qb + COUNT]--;
    }

    /** The queued entity of cfs_rq q with the least (vruntime, index), or NONE. */
    int first(int q) {
        int qb = q * Q_STRIDE;
        int s = rq[qb + STALE];
        if (s != NONE) {
            rq[qb + STALE] = NONE;
            unlink(q, s);
            place(q, s);
        }
        return rq[qb + ROOT];
    }

    /** Entity e, queued on cfs_rq q, has a larger vruntime now. */
    void keyIncreased(int q, int e) {
        int qb = q * Q_STRIDE;
        int s = rq[qb + STALE];
        if (s == e) return;
        if (s != NONE) { // not expected (one running path per CPU), but keep the heap right
            unlink(q, s);
            place(q, s);
        }
        rq[qb + STALE] = e;
    }

    /** Puts entity e (unlinked) into cfs_rq q's heap. */
    private void place(int q, int e) {
        int b = e * E_STRIDE;
        ent[b + CHILD] = ent[b + NEXT] = ent[b + PREV] = NONE;
        int qb = q * Q_STRIDE;
        int r = rq[qb + ROOT];
        rq[qb + ROOT] = r == NONE ? e : link(r, e);
    }

    private boolean before(int a, int b) {
        long ka = key[a], kb = key[b];
        return ka < kb || (ka == kb && a < b);
    }

    /** Joins two heap roots; returns the new root (its next/prev are left to the caller). */
    private int link(int a, int b) {
        if (before(b, a)) { int t = a; a = b; b = t; }
        int ab = a * E_STRIDE, bb = b * E_STRIDE;
        int c = ent[ab + CHILD];
        ent[bb + NEXT] = c;
        if (c != NONE) ent[c * E_STRIDE + PREV] = b;
        ent[bb + PREV] = a;
        ent[ab + CHILD] = b;
        return a;
    }

    private void unlink(int q, int e) {
        int b = e * E_STRIDE;
        int qb = q * Q_STRIDE;
        if (rq[qb + ROOT] == e) {
            rq[qb + ROOT] = mergePairs(ent[b + CHILD]);
        } else {
            int p = ent[b + PREV], n = ent[b + NEXT];
            int pb = p * E_STRIDE;
            if (ent[pb + CHILD] == e) ent[pb + CHILD] = n; else ent[pb + NEXT] = n;
            if (n != NONE) ent[n * E_STRIDE + PREV] = p;
            int sub = mergePairs(ent[b + CHILD]);
            if (sub != NONE) rq[qb + ROOT] = link(rq[qb + ROOT], sub);
        }
        ent[b + CHILD] = ent[b + NEXT] = ent[b + PREV] = NONE;
    }

    /** The two-pass pairing of a sibling list: pairs left to right, then melds them right to left. */
    private int mergePairs(int first) {
        if (first == NONE) return NONE;
        int pairs = NONE; // the paired trees, last pair first, linked through NEXT
        for (int a = first; a != NONE; ) {
            int ab = a * E_STRIDE;
            int b = ent[ab + NEXT];
            if (b == NONE) {
                ent[ab + PREV] = NONE;
                ent[ab + NEXT] = pairs;
                pairs = a;
                break;
            }
            int bb = b * E_STRIDE;
            int rest = ent[bb + NEXT];
            ent[ab + PREV] = ent[bb + PREV] = NONE;
            int r = link(a, b);
            ent[r * E_STRIDE + NEXT] = pairs;
            pairs = r;
            a = rest;
        }
        int result = pairs;
        pairs = ent[result * E_STRIDE + NEXT];
        while (pairs != NONE) {
            int n = ent[pairs * E_STRIDE + NEXT];
            ent[pairs * E_STRIDE + NEXT] = NONE;
            ent[result * E_STRIDE + NEXT] = NONE;
            result = link(result, pairs);
            pairs = n;
        }
        ent[result * E_STRIDE + NEXT] = NONE;
        ent[result * E_STRIDE + PREV] = NONE;
        return result;
    }
}
