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
}
