package io.cfslab.kernel;

import java.util.Arrays;

import static io.cfslab.kernel.Kernel.NONE;

/**
 * The queued scheduling entities of every cfs_rq, each cfs_rq's in a pairing heap ordered by (vruntime,
 * entity index): the simulator's stand-in for the kernel's vruntime-ordered rbtree with its cached leftmost
 * ({@code __pick_first_entity()}). The order is total, so the first entity is the same as a scan for the
 * minimum would find, however the heap is shaped.
 *
 * <p>Entities are the kernel's indices (tasks, then group entities); the heap links are arrays over them
 * ({@code child}, {@code next} sibling, {@code prev}: the previous sibling, or the parent of a first child),
 * so nothing allocates. Insert is O(1), the first entity O(1), removal O(log n) amortised.
 *
 * <p>Invariant the caller keeps: a queued entity's vruntime changes only through {@link #keyIncreased}
 * (update_curr() of the running entities); every other change (place_entity(), migration, a group move)
 * happens while the entity is not queued. An increased key is re-placed lazily, at the next
 * {@link #first} of that cfs_rq (as the kernel re-inserts curr at put_prev_entity()); at most one entity
 * per cfs_rq is pending so, the one on the running task's path.
 */
final class EntityQueue {
    private final long[] key;
    private final int[] child, next, prev;
    /** Heap root per cfs_rq, NONE when empty. */
    private final int[] root;
    /** Per cfs_rq: an entity whose key grew since it was placed, or NONE. */
    private final int[] stale;

    /**
     * @param key       the entities' vruntimes (shared, read on every comparison)
     * @param entities  number of entities
     * @param cfsRqs    number of cfs_rqs
     */
    EntityQueue(long[] key, int entities, int cfsRqs) {
        this.key = key;
        child = new int[entities];
        next = new int[entities];
        prev = new int[entities];
        root = new int[cfsRqs];
        stale = new int[cfsRqs];
        Arrays.fill(root, NONE);
        Arrays.fill(stale, NONE);
    }

    /** Queues entity e (not queued anywhere) on cfs_rq q. */
    void add(int q, int e) {
        child[e] = next[e] = prev[e] = NONE;
        int r = root[q];
        root[q] = r == NONE ? e : link(r, e);
    }

    /** Takes entity e, queued on cfs_rq q, off it. */
    void remove(int q, int e) {
        if (stale[q] == e) stale[q] = NONE;
        unlink(q, e);
    }

    /** The queued entity of cfs_rq q with the least (vruntime, index), or NONE. */
    int first(int q) {
        int s = stale[q];
        if (s != NONE) {
            stale[q] = NONE;
            unlink(q, s);
            add(q, s);
        }
        return root[q];
    }

    /** Entity e, queued on cfs_rq q, has a larger vruntime now. */
    void keyIncreased(int q, int e) {
        int s = stale[q];
        if (s == e) return;
        if (s != NONE) { // not expected (one running path per CPU), but keep the heap right
            stale[q] = NONE;
            unlink(q, s);
            add(q, s);
        }
        stale[q] = e;
    }

    private boolean before(int a, int b) {
        long ka = key[a], kb = key[b];
        return ka < kb || (ka == kb && a < b);
    }

    /** Joins two heap roots; returns the new root (its next/prev are left to the caller). */
    private int link(int a, int b) {
        if (before(b, a)) { int t = a; a = b; b = t; }
        int c = child[a];
        next[b] = c;
        if (c != NONE) prev[c] = b;
        prev[b] = a;
        child[a] = b;
        return a;
    }

    private void unlink(int q, int e) {
        if (root[q] == e) {
            root[q] = mergePairs(child[e]);
        } else {
            int p = prev[e], n = next[e];
            if (child[p] == e) child[p] = n; else next[p] = n;
            if (n != NONE) prev[n] = p;
            int sub = mergePairs(child[e]);
            if (sub != NONE) root[q] = link(root[q], sub);
        }
        child[e] = next[e] = prev[e] = NONE;
    }

    /** The two-pass pairing of a sibling list: pairs left to right, then melds them right to left. */
    private int mergePairs(int first) {
        if (first == NONE) return NONE;
        int pairs = NONE; // the paired trees, last pair first, linked through next
        for (int a = first; a != NONE; ) {
            int b = next[a];
            if (b == NONE) {
                prev[a] = NONE;
                next[a] = pairs;
                pairs = a;
                break;
            }
            int rest = next[b];
            prev[a] = prev[b] = NONE;
            int r = link(a, b);
            next[r] = pairs;
            pairs = r;
            a = rest;
        }
        int result = pairs;
        pairs = next[result];
        while (pairs != NONE) {
            int n = next[pairs];
            next[pairs] = NONE;
            next[result] = NONE;
            result = link(result, pairs);
            pairs = n;
        }
        next[result] = NONE;
        prev[result] = NONE;
        return result;
    }
}
