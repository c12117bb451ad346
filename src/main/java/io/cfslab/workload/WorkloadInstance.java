package io.cfslab.workload;

/**
 * One instance of a scenario's workload: the tasks it runs and their shared state. A {@code hog},
 * {@code periodic} or {@code fixed-work} instance is one task; a {@code hackbench} instance is one hackbench
 * process tree ({@code groups × fds} senders and as many receivers); a {@code netperf-udp-rr} instance is a
 * netperf client and its netserver.
 */
public interface WorkloadInstance {
    /** Tasks of the instance. */
    int tasks();

    /** What task {@code i} (0-based, in the instance's own order) does. */
    Workload task(int i);

    /**
     * Whether the instance's tasks are the threads of one process (one thread group), so that a fatal signal to any
     * of them ends them all, as SIGKILL does (kernel/signal.c: complete_signal() kills the whole group). False for
     * one-task workloads and for hackbench and netperf, whose tasks are processes of their own.
     */
    default boolean oneProcess() { return false; }
}
