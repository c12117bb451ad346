package io.cfslab.kernel;

/**
 * {@code struct cfs_bandwidth}: one task group's quota, its global runtime pool, its timers, its throttled
 * list and the counters {@code cpu.stat} prints (kernel/sched/fair.c, kernel-model.md §1.2). Times in ns.
 */
final class CfsBandwidth {
    /** RUNTIME_INF: no limit. */
    static final long RUNTIME_INF = Long.MAX_VALUE;

    long periodNs = 100_000_000L;
    long quotaNs = RUNTIME_INF;
    long burstNs;
    /** Global pool: quota not yet handed to any CPU. Never negative. */
    long runtimeNs;
    /** Pool right after the last refill (burst statistics). */
    long runtimeSnapNs;
    /** 1 = nothing was handed out during the last full period (deactivation heuristic). */
    boolean idle;
    boolean periodActive;
    boolean slackStarted;
    /** Absolute expiry of the period hrtimer; refills happen on the grid {@code expiry + n·period}. */
    long timerExpiryNs;
    /** CPU the period timer is pinned to (the CPU that armed it). */
    int timerCpu;
    /** Generation of the armed period timer event; stale events are ignored. */
    long timerGen;
    int slackCpu;
    long slackGen;
    /** Refills so far: slice expiry (pre-5.4) compares a cfs_rq's grant sequence with this. */
    int periodSeq;

    /** throttled_cfs_rq list: cfs_rq indices, linked through the kernel's thrNext/thrPrev arrays. */
    int throttledHead = -1;
    int throttledTail = -1;

    long nrPeriods;
    long nrThrottled;
    long throttledTimeNs;
    long nrBurst;
    long burstTimeNs;

    boolean limited() { return quotaNs != RUNTIME_INF; }
}
