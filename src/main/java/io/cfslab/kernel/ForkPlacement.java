package io.cfslab.kernel;

/**
 * The fork placement of {@link Kernel#startTask} for many tasks at once: the CPU with the least key
 * {@code 4 × tasks queued + runnable tasks on its SMT siblings} (the lowest CPU of equals), kept in a tournament
 * tree over the CPUs, so forking 20,000 tasks onto 384 CPUs costs O(log CPUs) each instead of a scan of every CPU
 * and its siblings (78 % of seed 03's set-up before). Gives the CPU the scan would.
 *
 * <p>A CPU's key changes when its queued tasks or a sibling's runnable count change; {@link Kernel} reports both
 * through {@link #changed}, and the tree recomputes the keys so marked at the next {@link #idlest}. Only for tasks
 * allowed on every CPU: the caller scans for the others.
 */
final class ForkPlacement {
    private final Kernel k;
    private final int ncpu;
    /** Leaves: {@code size} (a power of two) from index {@code size}; node i holds the CPU that wins below it. */
    private final int size;
    private final int[] winner;
    private final long[] key;
    /** CPUs whose key must be recomputed. */
    private final long[] dirty;
    private boolean anyDirty;

    ForkPlacement(Kernel k) {
        this.k = k;
        this.ncpu = k.ncpu;
        int s = 1;
        while (s < ncpu) s <<= 1;
        this.size = s;
        winner = new int[2 * s];
        key = new long[ncpu];
        dirty = new long[(ncpu + 63) >>> 6];
        for (int c = 0; c < ncpu; c++) key[c] = k.forkKey(c);
        for (int i = 0; i < s; i++) winner[s + i] = i < ncpu ? i : Kernel.NONE;
        for (int i = s - 1; i >= 1; i--) winner[i] = better(winner[2 * i], winner[2 * i + 1]);
    }

    /** CPU c's queued tasks or runnable count changed: its key and its siblings' keys are stale. */
    void changed(int c) {
        mark(c);
        for (int i = 0; i < k.topo.siblingCount(c); i++) mark(k.topo.sibling(c, i));
    }

    private void mark(int c) {
        dirty[c >>> 6] |= 1L << c;
        anyDirty = true;
    }

    /** The CPU with the least key, the lowest of equals. */
    int idlest() {
        if (anyDirty) refresh();
        return winner[1];
    }

    private void refresh() {
        anyDirty = false;
        for (int w = 0; w < dirty.length; w++) {
            for (long bits = dirty[w]; bits != 0; bits &= bits - 1) {
                int c = (w << 6) + Long.numberOfTrailingZeros(bits);
                key[c] = k.forkKey(c);
                for (int i = (size + c) >>> 1; i >= 1; i >>>= 1) winner[i] = better(winner[2 * i], winner[2 * i + 1]);
            }
            dirty[w] = 0;
        }
    }

    /** The winner of two CPUs (or NONE for a leaf past the last CPU): the smaller key, the lower CPU of equals. */
    private int better(int a, int b) {
        if (b == Kernel.NONE) return a;
        if (a == Kernel.NONE) return b;
        return key[b] < key[a] ? b : a; // a < b always: the left subtree holds the lower CPUs
    }
}
