package io.cfslab.kernel;

/**
 * One bit per cfs_rq, laid out as one row of words per CPU indexed by task group: a subtree on one CPU (the
 * pre-order index range {@code [g, g + subtreeSize(g))}, see {@link GroupTree}) is a run of consecutive
 * words, so the cfs_rqs of a subtree that have something to do (tasks parked on a limbo list, a throttled
 * clock running, runnable tasks) are found by scanning {@code subtreeSize / 64} words instead of visiting
 * every cfs_rq. Sized once at build; nothing allocates afterwards.
 */
final class GroupBitmap {
    private final long[] words;
    private final int wordsPerCpu;

    /** @param ngroups task groups including the root; @param ncpu CPUs */
    GroupBitmap(int ngroups, int ncpu) {
        this.wordsPerCpu = (ngroups + 63) >>> 6;
        this.words = new long[wordsPerCpu * ncpu];
    }

    void set(int g, int c) { words[c * wordsPerCpu + (g >>> 6)] |= 1L << g; }

    void clear(int g, int c) { words[c * wordsPerCpu + (g >>> 6)] &= ~(1L << g); }

    boolean get(int g, int c) { return (words[c * wordsPerCpu + (g >>> 6)] & (1L << g)) != 0; }

    /** The lowest group {@code >= from} and {@code < to} whose bit is set on CPU c, or -1. */
    int next(int c, int from, int to) {
        if (from >= to) return -1;
        int base = c * wordsPerCpu;
        int w = from >>> 6;
        int last = (to - 1) >>> 6;
        long word = words[base + w] & (-1L << from);
        while (true) {
            if (word != 0) {
                int g = (w << 6) + Long.numberOfTrailingZeros(word);
                return g < to ? g : -1;
            }
            if (++w > last) return -1;
            word = words[base + w];
        }
    }

    /**
     * The highest group {@code <= from} and {@code >= lo} whose bit is set on CPU c in this bitmap or in
     * {@code other} (may be null), or -1: a backward (post-order) scan of a subtree over two bitmaps at once.
     */
    int prevInEither(GroupBitmap other, int c, int from, int lo) {
        if (from < lo) return -1;
        int base = c * wordsPerCpu;
        int w = from >>> 6;
        int first = lo >>> 6;
        long mask = -1L >>> (63 - (from & 63));
        long word = (words[base + w] | (other == null ? 0 : other.words[base + w])) & mask;
        while (true) {
            if (word != 0) {
                int g = (w << 6) + 63 - Long.numberOfLeadingZeros(word);
                return g >= lo ? g : -1;
            }
            if (--w < first) return -1;
            word = words[base + w] | (other == null ? 0 : other.words[base + w]);
        }
    }
}
