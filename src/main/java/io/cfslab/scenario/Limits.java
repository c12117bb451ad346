package io.cfslab.scenario;

/** Size limits on a scenario, so that a run can never exhaust memory. Exceeding one is a {@link Problem}. */
public final class Limits {
    private Limits() {}
    /** CPUs per machine. */
    public static final int MAX_CPUS = 1024;
    /** cgroups, root excluded, after {@code generate}. */
    public static final int MAX_CGROUPS = 20_000;
    /** Tree depth below the root. */
    public static final int MAX_DEPTH = 16;
    /** Task instances in total. */
    public static final int MAX_TASKS = 200_000;
    /** Per-CPU runqueues of groups: cgroups (incl. root) × CPUs; each costs about 150 bytes. */
    public static final long MAX_CFS_RQS = 5_000_000L;
    /** Simulated duration: 1 hour. */
    public static final long MAX_DURATION_NS = 3_600_000_000_000L;
    /** Timeline entries. */
    public static final int MAX_TIMELINE = 10_000;
}
