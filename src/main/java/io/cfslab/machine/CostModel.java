package io.cfslab.machine;

/**
 * What the kernel's own bandwidth and scheduling work costs, in ns of CPU time on the CPU that does it.
 * Every constant's source is in {@code docs/cost-model.md}. The period and slack timer handlers and the
 * async-unthrottle IPI handler run in interrupt context: their cost delays whatever that CPU was running
 * (and is not charged to any cgroup, as with {@code CONFIG_IRQ_TIME_ACCOUNTING}).
 *
 * @param distributeFixedNs      fixed cost of one {@code distribute_cfs_runtime()} call (lock, list walk set-up)
 * @param unthrottleSyncCfsRqNs  per cfs_rq visited by {@code tg_unthrottle_up} when the timer CPU unthrottles
 *                               every rq itself (sync, before 6.2)
 * @param unthrottleLocalCfsRqNs per cfs_rq visited by {@code tg_unthrottle_up} when a CPU unthrottles its own
 *                               cfs_rqs (async local and IPI handler, 6.2+)
 * @param enqueueTaskNs          per task enqueued back at unthrottle
 * @param rqLockNs               per runqueue locked by the sync distribute loop
 * @param ipiSendNs              per remote runqueue queued on a CSD list by async distribute
 * @param ipiLatencyNs           IPI send to handler start on the target CPU
 * @param ipiHandlerFixedNs      fixed cost of {@code __cfsb_csd_unthrottle} on the target CPU
 * @param throttleCfsRqNs        per cfs_rq visited by {@code tg_throttle_down}
 * @param contextSwitchNs        direct cost of one context switch
 * @param taskParkNs             task-based throttle: task work + dequeue of one task on its way to user mode
 *                               (on top of the context switch it causes)
 * @param periodTimerFixedNs     fixed cost of the period timer callback
 * @param jitter                 run-to-run variation of the unthrottle work: each distribute call's and IPI
 *                               handler's walk cost is scaled by a factor uniform in [1 - jitter, 1 + jitter]
 */
public record CostModel(long distributeFixedNs, long unthrottleSyncCfsRqNs, long unthrottleLocalCfsRqNs,
                        long enqueueTaskNs, long rqLockNs, long ipiSendNs, long ipiLatencyNs,
                        long ipiHandlerFixedNs, long throttleCfsRqNs, long contextSwitchNs, long taskParkNs,
                        long periodTimerFixedNs, double jitter) {

    /** The generic profile's costs; calibration in docs/cost-model.md. */
    public static CostModel generic() {
        return new CostModel(
                2_000,   // distributeFixedNs
                150,     // unthrottleSyncCfsRqNs: S10 trace, 67.3 ms / 422,784 cfs_rqs (10,000 task enqueues inside)
                1_400,   // unthrottleLocalCfsRqNs: seed 01 async, ~1.6 ms for 1,101 cfs_rqs + 69 tasks
                500,     // enqueueTaskNs
                200,     // rqLockNs
                25,      // ipiSendNs: seed 03 async histogram's 8-16 us mode (383 remote rqs, no local work)
                2_000,   // ipiLatencyNs: kernel-model §8, bare metal 1-5 us
                1_000,   // ipiHandlerFixedNs
                100,     // throttleCfsRqNs
                2_000,   // contextSwitchNs: kernel-model §8, 1-3 us
                2_000,   // taskParkNs: one extra switch per parked task (kernel-model §8)
                1_000,   // periodTimerFixedNs
                0.25);   // jitter: seed 01's sync calls spread over [32M, 128M) around a 67 ms trace
    }
}
