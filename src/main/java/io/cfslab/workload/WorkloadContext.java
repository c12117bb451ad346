package io.cfslab.workload;

/** What a workload may see and do: the simulated time and waking a blocked task. */
public interface WorkloadContext {
    /** Simulated time, ns. */
    long nowNs();

    /** Wakes task {@code task} if it is blocked in {@link Segment#BLOCK}; otherwise remembers one pending wake-up. */
    void wake(int task);
}
