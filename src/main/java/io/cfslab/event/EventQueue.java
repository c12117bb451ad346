package io.cfslab.event;

import java.util.Arrays;

/**
 * Binary min-heap of events ordered by (time ns, fixed priority, insertion sequence), so that two runs of
 * one scenario pop events in exactly the same order. Events are primitives — a type, an int target and a
 * long argument — held in one array of 32-byte nodes ({@code time}, {@code order}, {@code arg},
 * {@code type << 32 | target}): a node's two children are adjacent, so each step down the heap reads one
 * cache line instead of one per field. Pushing and popping allocate nothing once the array has grown to the
 * run's peak size.
 */
public final class EventQueue {
    private static final int TIME = 0, ORDER = 1, ARG = 2, WHAT = 3, NODE = 4;
    private static final long SEQ_MASK = (1L << 55) - 1;

    /** Nodes; {@code order} has the priority in its top 8 bits and the sequence below: ties on time resolve by
     * priority, then FIFO. */
    private long[] heap = new long[1024 * NODE];
    private int size;
    private long seq;

    // the popped event
    private long poppedTime;
    private int poppedType;
    private int poppedTarget;
    private long poppedArg;

    /**
     * @param timeNs   when, ns of simulated time
     * @param priority 0..255, lower runs first among events at the same time
     * @param eventType handler-defined type
     * @param eventTarget handler-defined target (a CPU, a group, a task)
     * @param eventArg handler-defined argument (often a generation number that invalidates stale events)
     */
    public void push(long timeNs, int priority, int eventType, int eventTarget, long eventArg) {
        if ((size + 1) * NODE > heap.length) heap = Arrays.copyOf(heap, heap.length * 2);
        long[] h = heap;
        int i = size++;
        long ord = ((long) priority << 55) | (seq++ & SEQ_MASK);
        // sift up
        while (i > 0) {
            int p = (i - 1) >>> 1;
            int pb = p * NODE;
            long pt = h[pb + TIME];
            if (timeNs < pt || (timeNs == pt && ord < h[pb + ORDER])) {
                copy(h, pb, i * NODE);
                i = p;
            } else break;
        }
        int b = i * NODE;
        h[b + TIME] = timeNs;
        h[b + ORDER] = ord;
        h[b + ARG] = eventArg;
        h[b + WHAT] = ((long) eventType << 32) | (eventTarget & 0xffffffffL);
    }

    public boolean isEmpty() { return size == 0; }

    public int size() { return size; }

    /** Time of the earliest event; only valid when not empty. */
    public long peekTime() { return heap[TIME]; }

    /** Removes the earliest event; read it with {@link #time()}, {@link #type()}, {@link #target()}, {@link #arg()}. */
    public void pop() {
        long[] h = heap;
        poppedTime = h[TIME];
        poppedArg = h[ARG];
        long what = h[WHAT];
        poppedType = (int) (what >>> 32);
        poppedTarget = (int) what;
        int last = --size;
        if (last == 0) return;
        int lb = last * NODE;
        long t = h[lb + TIME], o = h[lb + ORDER], a = h[lb + ARG], w = h[lb + WHAT];
        int i = 0;
        while (true) {
            int l = 2 * i + 1;
            if (l >= last) break;
            int m = l;
            int mb = l * NODE;
            if (l + 1 < last) {
                int rb = mb + NODE;
                long rt = h[rb + TIME], lt = h[mb + TIME];
                if (rt < lt || (rt == lt && h[rb + ORDER] < h[mb + ORDER])) { m = l + 1; mb = rb; }
            }
            long mt = h[mb + TIME];
            if (mt < t || (mt == t && h[mb + ORDER] < o)) {
                copy(h, mb, i * NODE);
                i = m;
            } else break;
        }
        int b = i * NODE;
        h[b + TIME] = t;
        h[b + ORDER] = o;
        h[b + ARG] = a;
        h[b + WHAT] = w;
    }

    private static void copy(long[] h, int from, int to) {
        h[to + TIME] = h[from + TIME];
        h[to + ORDER] = h[from + ORDER];
        h[to + ARG] = h[from + ARG];
        h[to + WHAT] = h[from + WHAT];
    }

    public long time() { return poppedTime; }
    public int type() { return poppedType; }
    public int target() { return poppedTarget; }
    public long arg() { return poppedArg; }
}
