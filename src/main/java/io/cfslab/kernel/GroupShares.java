package io.cfslab.kernel;


import static io.cfslab.kernel.Kernel.NICE_0_LOAD;

/**
 * PELT-based group shares (kernel/sched/fair.c, 6.6+ here; {@code calc_group_shares()}, {@code update_cfs_group()}):
 * a group entity's weight on a CPU is the group's shares times that CPU's part of the group's load, where the load
 * of a cfs_rq is {@code max(cfs_rq->load.weight, cfs_rq->avg.load_avg)} and the group's total is the sum of what
 * each CPU last published ({@code tg->load_avg}, {@code update_tg_load_avg()}).
 *
 * <p>{@code cfs_rq->avg.load_avg} is kept as PELT's geometric average of the cfs_rq's load weight
 * ({@code update_cfs_rq_load_avg()}: 1024 µs periods, y<sup>32</sup> = 1/2), updated where the kernel updates it
 * (enqueue, dequeue and the tick at each level walked) and, as there, moved only when a period boundary has
 * passed since the last update. A throttled hierarchy's PELT clock stops
 * ({@code cfs_rq_clock_pelt()}): the time from an update made while throttled to the next update is not decayed.
 * A cfs_rq publishes its average at most once a millisecond and only when it moved by more than 1/64 of what it
 * published, so the other CPUs' parts are stale by up to that much: this is what makes a group entity's weight
 * lag behind where its tasks are.
 *
 * <p>Per cfs_rq {@code q = Kernel.cfsRq(group, cpu)}: four longs, side by side; per group one long. Nothing
 * allocates; a decay is a table look-up.
 */
final class GroupShares {
    /** PELT's period, ns (1024 µs). */
    static final long PELT_PERIOD_NS = 1_024_000L;
    /** y<sup>32</sup> = 1/2: the half-life, in periods. */
    static final double PELT_HALFLIFE_PERIODS = 32;
    /** MIN_SHARES: a group entity's least weight. */
    static final long MIN_SHARES = 2;
    /** update_tg_load_avg()'s rate limit: once per ms per cfs_rq ("sched/fair: Ratelimit update to tg->load_avg", 6.7). */
    static final long TG_UPDATE_INTERVAL_NS = 1_000_000L;

    /** y^p for p PELT periods (y^32 = 1/2), p &lt; 2048; beyond, the old average is gone (y^2048 = 2^-64). */
    private static final double[] DECAY = new double[2048];
    static {
        for (int p = 0; p < DECAY.length; p++) DECAY[p] = Math.pow(0.5, p / PELT_HALFLIFE_PERIODS);
    }

    private final Kernel k;
    /**
     * Per cfs_rq q, packed at {@code 4q} so that an update touches one cache line: {@code cfs_rq->avg.load_avg}
     * (weight units: 1024 = a nice-0 task runnable all the time); the last update's time × 2, plus 1 if the
     * hierarchy was throttled then (its PELT clock is stopped until the next update);
     * {@code cfs_rq->tg_load_avg_contrib} (what q last published into its group's total); when it last published.
     */
    private final long[] rq;
    private static final int LOAD_AVG = 0, LAST_UPDATE = 1, CONTRIB = 2, LAST_TG_UPDATE = 3;
    /** tg->load_avg: the sum of the group's published cfs_rq averages. */
    private final long[] tgLoadAvg;

    GroupShares(Kernel k) {
        this.k = k;
        int nq = k.ngroups * k.ncpu;
        rq = new long[4 * nq];
        for (int q = 0; q < nq; q++) rq[4 * q + LAST_TG_UPDATE] = Long.MIN_VALUE / 2;
        tgLoadAvg = new long[k.ngroups];
    }

    /**
     * update_load_avg() of cfs_rq q with UPDATE_TG: decays its average over the PELT time since the last update
     * towards {@code weight}, its load weight over that time, then publishes it if due (update_tg_load_avg()).
     *
     * @param weight    cfs_rq->load.weight since the last update (before the change the caller is about to make)
     * @param throttled q's hierarchy is throttled now
     */
    void updateLoadAvg(int q, long weight, boolean throttled) {
        long now = k.now;
        int b = 4 * q;
        long last = rq[b + LAST_UPDATE];
        // the average moves only when a PELT period boundary is crossed (accumulate_sum()); a stopped clock skips
        long periods = now / PELT_PERIOD_NS - (last >> 1) / PELT_PERIOD_NS;
        if (periods > 0 && (last & 1) == 0) {
            double y = periods < DECAY.length ? DECAY[(int) periods] : 0;
            rq[b + LOAD_AVG] = Math.round(rq[b + LOAD_AVG] * y + weight * (1 - y));
        }
        rq[b + LAST_UPDATE] = now << 1 | (throttled ? 1 : 0);
        if (now - rq[b + LAST_TG_UPDATE] < TG_UPDATE_INTERVAL_NS) return;
        long loadAvg = rq[b + LOAD_AVG], contrib = rq[b + CONTRIB];
        long delta = loadAvg - contrib;
        if (Math.abs(delta) > contrib / 64) {
            tgLoadAvg[k.groupOf(q)] += delta;
            rq[b + CONTRIB] = loadAvg;
            rq[b + LAST_TG_UPDATE] = now;
        }
    }

    /**
     * A forked task's load joins its leaf cfs_rq at once (init_entity_runnable_average() starts a task at its full
     * weight; attach_entity_cfs_rq() adds it).
     */
    void attachTask(int leafQ) {
        rq[4 * leafQ + LOAD_AVG] += NICE_0_LOAD;
    }

    /**
     * calc_group_shares(): the weight of the group entity of cfs_rq q, the group's shares times q's load over the
     * group's load with q's own part taken as it is now; between MIN_SHARES and the shares.
     *
     * @param loadWeight cfs_rq->load.weight of q now
     */
    long calcGroupShares(int q, long tgShares, long loadWeight) {
        long load = Math.max(loadWeight, rq[4 * q + LOAD_AVG]);
        long tgWeight = tgLoadAvg[k.groupOf(q)] - rq[4 * q + CONTRIB] + load;
        long shares = tgWeight > 0 ? tgShares * load / tgWeight : tgShares;
        return Math.max(MIN_SHARES, Math.min(tgShares, shares));
    }

    /** cfs_rq->avg.load_avg of q as last updated. */
    long loadAvg(int q) { return rq[4 * q + LOAD_AVG]; }

    /** tg->load_avg of group g. */
    long tgLoadAvg(int g) { return tgLoadAvg[g]; }
}
