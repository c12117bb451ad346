package io.cfslab.workload;

/** What a workload may see and do: the simulated time and waking a blocked task. */
public interface WorkloadContext {
    /** Simulated time, ns. */
    long nowNs();

    /** Wakes task {@code task} if it is blocked in {@link Segment#BLOCK}; otherwise remembers one pending wake-up. */
    void wake(int task);

    /**
     * Extra CPU time, ns, that one message between tasks {@code from} and {@code to} costs each side because their
     * CPUs (where they run, or last ran) are in different last-level caches: the cache lines of the message that
     * the other side last wrote cross the fabric ({@link io.cfslab.machine.CacheTransferCosts}). 0 within one LLC.
     */
    default long messageTransferNs(int from, int to) { return 0; }
}
