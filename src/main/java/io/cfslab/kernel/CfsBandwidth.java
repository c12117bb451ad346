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
    /** Refills so far: slice expiry (pre-5.4) compares a cfs_rq's grant sequence with this ({@code expires_seq}). */
    int periodSeq;
    /** {@code runtime_expires} (before 5.4): when the pool's runtime expires, set at each refill. */
    long runtimeExpiresNs;
    /** End of the distribution in progress ({@code distribute_running}, 4.19 to 5.7), ns; in the past if none. */
    long distributeRunningUntilNs = Long.MIN_VALUE;

    /** The period timer callback is between rounds of its catch-up loop (it takes simulated time). */
    boolean inCallback;
    /** Rounds of the callback in progress since the last scaling ({@code count} of sched_cfs_period_timer()). */
    int callbackCount;
    /** The last round's {@code do_sched_cfs_period_timer()} asked to deactivate the timer. */
    boolean callbackIdle;
    /** When the callback in progress started, ns (the hard-lockup watchdog of an unlimited loop). */
    long callbackStartNs;
    /** The watchdog has reported this callback. */
    boolean lockupReported;

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
