package io.cfslab.scenario;

/**
 * {@code kernel}: which kernel behaviour to simulate. Every behaviour that changed between kernel
 * versions is an explicit switch here ({@code shared/design/kernel-model.md} §9), so that version
 * presets are just sets of values.
 *
 * @param throttle              throttle model
 * @param unthrottle            unthrottle mode
 * @param hz                    scheduler tick frequency, Hz (100, 250, 300 or 1000)
 * @param bandwidthSliceUs      {@code sched_cfs_bandwidth_slice_us}, microseconds (&ge; 1; default 5000)
 * @param timerPlacement        phase of each group's period timer
 * @param preempt               kernel preemption model: whether kernel-mode execution is preempted at the tick
 * @param throttledListInsert   where {@code throttle_cfs_rq} inserts into {@code cfs_b->throttled_cfs_rq}
 *                              ({@code tail} since v5.7, {@code head} before 4.19)
 * @param sliceExpiry           pre-5.4 expiry of cpu-local runtime at each period (de53fd7aedb1 removed it)
 * @param throttledClockStart   when {@code throttled_usec} starts counting for a throttled cfs_rq
 * @param schedRtRuntimeUs      {@code sched_rt_runtime_us} (default 950000; -1 = no RT throttling)
 * @param schedRtPeriodUs       {@code sched_rt_period_us} (default 1000000)
 */
public record KernelSpec(Throttle throttle, Unthrottle unthrottle, int hz, long bandwidthSliceUs,
                         TimerPlacement timerPlacement, Preempt preempt, ListInsert throttledListInsert,
                         boolean sliceExpiry, ThrottledClockStart throttledClockStart,
                         long schedRtRuntimeUs, long schedRtPeriodUs) {

    /** {@code kernel.throttle}. */
    public enum Throttle {
        /** per-cfs_rq: the group entity is dequeued at throttle (kernels up to 6.17). JSON {@code cfs_rq}. */
        CFS_RQ,
        /** task-based: tasks park on their way back to user mode (6.18). JSON {@code task}. */
        TASK,
        /** task-based, throttled where runtime is accounted (2026 series, seed 04). JSON {@code task-account}. */
        TASK_ACCOUNT
    }

    /** {@code kernel.unthrottle}. */
    public enum Unthrottle {
        /** the timer CPU unthrottles every cfs_rq itself (before 6.2). JSON {@code sync}. */
        SYNC,
        /** remote cfs_rqs are unthrottled by their own CPU after an IPI (6.2+). JSON {@code async}. */
        ASYNC
    }

    /** {@code kernel.timer_placement}. */
    public enum TimerPlacement { RANDOM, ALIGNED, INTERLEAVE, SPREAD }

    /** {@code kernel.preempt}: {@code none}/{@code voluntary} finish kernel sections; {@code full} preempts them. */
    public enum Preempt { NONE, VOLUNTARY, FULL }

    /** {@code kernel.throttled_list_insert}. */
    public enum ListInsert { TAIL, HEAD }

    /** {@code kernel.throttled_clock_start}. */
    public enum ThrottledClockStart {
        /** at throttle (up to 6.5). JSON {@code throttle}. */
        THROTTLE,
        /** at throttle if the cfs_rq has queued entities, else at first enqueue (6.6 to 6.17). JSON {@code nonempty}. */
        NONEMPTY,
        /** when the first task of the hierarchy parks (6.18 task-based). JSON {@code first-park}. */
        FIRST_PARK
    }
}
