package io.cfslab.kernel;

/** What the kernel reports as it runs: the tracepoints a bpftrace script would attach to. */
public interface KernelObserver {
    /**
     * One distribute_cfs_runtime() call.
     *
     * @param atNs       start, simulated ns
     * @param cpu        CPU running it
     * @param group      group index
     * @param durationNs modelled duration, ns
     * @param rqs        runqueues unthrottled or signalled
     * @param remoteRqs  runqueues signalled by IPI (async)
     * @param cfsRqs     cfs_rqs walked by this CPU
     * @param tasks      tasks enqueued back by this CPU
     * @param slack      run by the slack timer
     */
    default void distribute(long atNs, int cpu, int group, long durationNs, int rqs, int remoteRqs, int cfsRqs,
                            int tasks, boolean slack) { }

    /** throttle_cfs_rq() throttled group {@code group}'s cfs_rq on {@code cpu}. */
    default void throttle(long atNs, int cpu, int group) { }

    /** A task parked itself (task-based throttle). */
    default void park(long atNs, int cpu, int task) { }

    /** A task exited. */
    default void exit(long atNs, int task) { }

    /** The period timer scaled a group's period up (overrun loop, 2e8e19226398). */
    default void periodScaled(int group, long periodNs, long quotaNs) { }

    /** A line the kernel logged (printk), e.g. the period timer's scaling warning. */
    default void log(long atNs, String message) { }

    KernelObserver NONE = new KernelObserver() { };
}
