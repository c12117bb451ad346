package io.cfslab.event;

import java.util.Arrays;

/**
 * Binary min-heap of events ordered by (time ns, fixed priority, insertion sequence), so that two runs of
 * one scenario pop events in exactly the same order. Events are three primitives — a type, an int target
 * and a long argument — held in parallel arrays: pushing and popping allocate nothing once the arrays have
 * grown to the run's peak size.
 */
public final class EventQueue {
    private long[] time = new long[1024];
    /** priority in the top 8 bits, sequence below: ties on time resolve by priority, then FIFO. */
    private long[] order = new long[1024];
    private int[] type = new int[1024];
    private int[] target = new int[1024];
    private long[] arg = new long[1024];
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
        if (size == time.length) grow();
        int i = size++;
        long ord = ((long) priority << 55) | (seq++ & ((1L << 55) - 1));
        // sift up
        while (i > 0) {
            int p = (i - 1) >>> 1;
            if (less(timeNs, ord, time[p], order[p])) {
                move(p, i);
                i = p;
            } else break;
        }
        set(i, timeNs, ord, eventType, eventTarget, eventArg);
    }

    public boolean isEmpty() { return size == 0; }

    public int size() { return size; }

    /** Time of the earliest event; only valid when not empty. */
    public long peekTime() { return time[0]; }

    /** Removes the earliest event; read it with {@link #time()}, {@link #type()}, {@link #target()}, {@link #arg()}. */
    public void pop() {
        poppedTime = time[0];
        poppedType = type[0];
        poppedTarget = target[0];
        poppedArg = arg[0];
        int last = --size;
        if (last == 0) return;
        long t = time[last], o = order[last];
        int ty = type[last], ta = target[last];
        long a = arg[last];
        int i = 0;
        while (true) {
            int l = 2 * i + 1;
            if (l >= last) break;
            int r = l + 1;
            int m = (r < last && less(time[r], order[r], time[l], order[l])) ? r : l;
            if (less(time[m], order[m], t, o)) {
                move(m, i);
                i = m;
            } else break;
        }
        set(i, t, o, ty, ta, a);
    }

    public long time() { return poppedTime; }
    public int type() { return poppedType; }
    public int target() { return poppedTarget; }
    public long arg() { return poppedArg; }

    private static boolean less(long t1, long o1, long t2, long o2) {
        return t1 < t2 || (t1 == t2 && o1 < o2);
    }

    private void move(int from, int to) {
        time[to] = time[from];
        order[to] = order[from];
        type[to] = type[from];
        target[to] = target[from];
        arg[to] = arg[from];
    }

    private void set(int i, long t, long o, int ty, int ta, long a) {
        time[i] = t;
        order[i] = o;
        type[i] = ty;
        target[i] = ta;
        arg[i] = a;
    }

    private void grow() {
        int n = time.length * 2;
        time = Arrays.copyOf(time, n);
        order = Arrays.copyOf(order, n);
        type = Arrays.copyOf(type, n);
        target = Arrays.copyOf(target, n);
        arg = Arrays.copyOf(arg, n);
    }
}
