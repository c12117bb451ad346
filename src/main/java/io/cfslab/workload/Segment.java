package io.cfslab.workload;

/**
 * A reusable holder for a workload's next stretch of activity. One instance is reused for every call, so
 * asking a workload for its next step allocates nothing.
 */
public final class Segment {
    /** Execute {@link #amountNs} of CPU work in user mode ({@code Long.MAX_VALUE} = forever). */
    public static final int RUN_USER = 0;
    /** Execute {@link #amountNs} of CPU work in kernel mode (a syscall): not a return-to-user point. */
    public static final int RUN_KERNEL = 1;
    /** Sleep {@link #amountNs} ns (a timed block); the task wakes on its own. */
    public static final int SLEEP = 2;
    /** Block until another task wakes this one (pipes, request/response). */
    public static final int BLOCK = 3;
    /** Exit. */
    public static final int EXIT = 4;

    /** One of the constants above. */
    public int kind;
    /** Work (ns of CPU time at full speed) or sleep length (ns), per {@link #kind}. */
    public long amountNs;

    public Segment set(int k, long amount) {
        kind = k;
        amountNs = amount;
        return this;
    }
}
