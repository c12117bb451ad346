package io.cfslab.kernel;

/**
 * PELT load averages for {@code wake_affine_weight()} (kernel/sched/pelt.c, fair.c, 6.18): each fair task's
 * {@code se->avg.load_avg} and each CPU's root {@code cfs_rq->avg.load_avg} ({@code cpu_load()}), as a nice-0
 * task's weight (1024) times its runnable fraction, geometrically decayed with {@code y^32 = 1/2} per 1024-µs
 * period ({@code __update_load_avg_se()}, {@code accumulate_sum()}).
 *
 * <p><b>Lazy.</b> A value is brought up to date only when its input changes or it is read: over Δ of constant
 * input r (1 runnable, 0 not) {@code L ← L·y^Δ + r·1024·(1 − y^Δ)}, the continuous form of the kernel's series
 * [INFERRED: the kernel sums whole 1024-µs periods with {@code period_contrib} carrying the partial one; the
 * continuous form has the same half-life and limit, without the per-period steps]. Time is counted in the kernel's
 * 1024-ns units ({@code delta >>= 10}); the nanoseconds under one unit are carried to the next update.
 *
 * <p><b>The CPU's load is the sum of its tasks' loads.</b> A task counts as runnable while it is in its CPU's
 * {@code rq->cfs.h_nr_running} (so under the task-based throttle a throttled task still queued counts until it
 * parks, and under the per-cfs_rq throttle a throttled hierarchy stops counting at once, its group entity
 * dequeued); sleeping tasks keep their decaying (blocked) load on the CPU they last ran on, and a migration moves
 * it ({@code migrate_task_rq_fair()}'s {@code remove_entity_load_avg()}, then {@code attach_entity_load_avg()}). As
 * all entities decay alike, a CPU's sum is kept as the same average of its runnable count, plus the moves.
 * The hierarchy's share scaling ({@code task_h_load()}'s {@code cfs_rq->h_load / cfs_rq_load_avg}) is not
 * applied [INFERRED: every task weighs 1024 at the root; seed 00's leaves are alike, so it scales both sides of the
 * comparison alike].
 *
 * <p>Values are doubles in load units (0 to 1024 per runnable task); nothing is allocated after construction.
 */
final class EntityLoad {
    /** A nice-0 entity's load weight, {@code scale_load_down(NICE_0_LOAD)}. */
    static final double NICE_0_LOAD = 1024;
    /** PELT's period, in 1024-ns units: 1024 (≈ 1 ms). */
    private static final int PERIOD_UNITS = 1024;
    /** y^k for k < 32 periods ({@code runnable_avg_yN_inv}). */
    private static final double[] Y_PERIODS = new double[32];
    /** y^(u / 1024) for u < 1024 units: the decay inside one period. */
    private static final double[] Y_UNITS = new double[PERIOD_UNITS];

    static {
        for (int k = 0; k < 32; k++) Y_PERIODS[k] = Math.pow(0.5, k / 32.0);
        for (int u = 0; u < PERIOD_UNITS; u++) Y_UNITS[u] = Math.pow(0.5, u / (32.0 * PERIOD_UNITS));
    }

    private final Kernel k;
    private final double[] taskLoad;
    private final long[] taskUpdatedNs;
    private final double[] cpuLoad;
    private final long[] cpuUpdatedNs;
    /** Per CPU: the runnable count in effect since {@link #cpuUpdatedNs}. */
    private final int[] cpuRunnable;

    EntityLoad(Kernel k) {
        this.k = k;
        taskLoad = new double[k.ntasks];
        taskUpdatedNs = new long[k.ntasks];
        cpuLoad = new double[k.ncpu];
        cpuUpdatedNs = new long[k.ncpu];
        cpuRunnable = new int[k.ncpu];
    }

    /** y^(units / 1024): the decay over {@code units} 1024-ns units; 0 past 64 half-lives (the kernel's LOAD_AVG_MAX_N reach). */
    static double decay(long units) {
        long periods = units / PERIOD_UNITS;
        if (periods >= 32 * 64) return 0;
        return Math.scalb(Y_PERIODS[(int) (periods & 31)] * Y_UNITS[(int) (units % PERIOD_UNITS)], (int) -(periods >>> 5));
    }

    /** Task t's load_avg now; its input (runnable or not) is unchanged. */
    double taskLoad(int t) {
        accrueTask(t, k.fair.onRq(t));
        return taskLoad[t];
    }

    /** cpu_load(): CPU c's root load_avg now. */
    double cpuLoad(int c) {
        accrueCpu(c);
        return cpuLoad[c];
    }

    /** Task t is about to be enqueued (it was not runnable until now). */
    void taskEnqueued(int t) { accrueTask(t, false); }

    /** Task t is about to be dequeued (it was runnable until now). */
    void taskDequeued(int t) { accrueTask(t, true); }

    /** CPU c's root runnable count is now {@code runnable}; the old count held until now. */
    void cpuRunnableChanged(int c, int runnable) {
        accrueCpu(c);
        cpuRunnable[c] = runnable;
    }

    /** init_entity_runnable_average() and attach at wake_up_new_task(): a new task starts at full weight on c. */
    void forked(int t, int c) {
        taskLoad[t] = NICE_0_LOAD;
        taskUpdatedNs[t] = k.now;
        accrueCpu(c);
        cpuLoad[c] += NICE_0_LOAD;
    }

    /** Task t's load leaves CPU {@code from} for {@code to} (it is not runnable: woken, or dequeued to move). */
    void migrated(int t, int from, int to) {
        double l = taskLoad(t);
        accrueCpu(from);
        accrueCpu(to);
        cpuLoad[from] = Math.max(0, cpuLoad[from] - l); // sub_positive()
        cpuLoad[to] += l;
    }

    private void accrueTask(int t, boolean runnable) {
        long units = (k.now - taskUpdatedNs[t]) >> 10;
        if (units <= 0) return;
        taskUpdatedNs[t] += units << 10;
        double y = decay(units);
        taskLoad[t] = taskLoad[t] * y + (runnable ? NICE_0_LOAD * (1 - y) : 0);
    }

    private void accrueCpu(int c) {
        long units = (k.now - cpuUpdatedNs[c]) >> 10;
        if (units <= 0) return;
        cpuUpdatedNs[c] += units << 10;
        double y = decay(units);
        cpuLoad[c] = cpuLoad[c] * y + cpuRunnable[c] * NICE_0_LOAD * (1 - y);
    }
}
