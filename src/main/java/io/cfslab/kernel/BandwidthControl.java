package io.cfslab.kernel;

import io.cfslab.machine.CostModel;
import io.cfslab.scenario.KernelSpec;
import io.cfslab.scenario.KernelSpec.Throttle;
import io.cfslab.event.EventQueue;

import java.util.Arrays;

import static io.cfslab.kernel.Kernel.EV_IPI;
import static io.cfslab.kernel.Kernel.EV_PERIOD_TIMER;
import static io.cfslab.kernel.Kernel.EV_SLACK_TIMER;
import static io.cfslab.kernel.Kernel.EV_SYNC_UNTHROTTLE;
import static io.cfslab.kernel.Kernel.NONE;

/**
 * CFS bandwidth control's runtime side (kernel/sched/fair.c, kernel-model.md §2, §3, §5): charging each
 * cfs_rq's local runtime and topping it up from its group's pool ({@code account_cfs_rq_runtime()},
 * {@code assign_cfs_rq_runtime()}, {@code check_cfs_rq_runtime()}), returning slack, the period and slack
 * timers with their refill and {@code distribute_cfs_runtime()}, the async unthrottle through per-CPU CSD
 * lists and IPIs, and {@code tg_set_cfs_bandwidth()}. When a cfs_rq runs out or gets runtime back it asks
 * {@link Throttling} to throttle or unthrottle it.
 *
 * <p>Per-cfs_rq state is indexed {@code q = Kernel.cfsRq(group, cpu)}; each CPU's CSD list is linked through the
 * {@code csdNext} index array, a group's throttled list through {@link Throttling}'s.
 */
final class BandwidthControl {
    static final long MIN_CFS_RQ_RUNTIME_NS = 1_000_000L;
    static final long MIN_BANDWIDTH_EXPIRATION_NS = 2_000_000L;
    static final long CFS_BANDWIDTH_SLACK_PERIOD_NS = 5_000_000L;
    static final long MAX_CFS_QUOTA_PERIOD_NS = 1_000_000_000L;
    /** watchdog_thresh: 10 s without the CPU leaving interrupt context is a hard lockup (kernel/watchdog.c). */
    static final long WATCHDOG_THRESH_NS = 10_000_000_000L;

    private final Kernel k;
    private final int ncpu;
    private final CostModel cost;
    private final EventQueue events;
    private final KernelObserver observer;
    private final Throttle throttleModel;
    private final boolean taskBased;
    private final boolean asyncUnthrottle;
    private final long bandwidthSliceNs;
    private final boolean sliceExpiry;
    private final boolean staleExpiry;
    private final KernelSpec.PeriodOverrun periodOverrun;
    /** 5.14+: refill adds the quota up to quota + burst, before the idle check (burst's order). */
    private final boolean burstRefill;
    /** 4.19 to 5.7: {@code distribute_running} marks a distribution in progress. */
    private final boolean distributeRunningFlag;
    private final long tickNs;
    private final Ratelimit scaleUpWarning = new Ratelimit("sched_cfs_period_timer");
    private final Ratelimit cannotScaleWarning = new Ratelimit("sched_cfs_period_timer");
    private final int[] curr;
    private final boolean[] throttleWorkPending, needResched;
    private CpuTime clock;
    private Throttling thr;

    // ---- task groups ----
    final CfsBandwidth[] bw;
    /**
     * {@code bw[g].limited()} per group, kept wherever a quota is written: the enqueue, dequeue, pick and charge
     * paths ask it at every level, and an array of 2,202 flags stays in cache where 2,202 objects do not.
     */
    private final boolean[] limitedGroup;

    // ---- cfs_rq, index q = Kernel.cfsRq(group, cpu) ----
    final long[] runtimeRemainingNs;
    final int[] csdNext;
    /** Given runtime by distribute, unthrottle still to come (on a CSD list, or later in a sync walk). */
    final boolean[] csdPending;
    /** Generation of a sync walk's pending unthrottle, so a cancelled one's event is ignored. */
    private final int[] pendingGen;
    final int[] expiresSeq;
    /** {@code cfs_rq->runtime_expires} (before 5.4): when this cfs_rq's local runtime expires, ns. */
    final long[] runtimeExpiresNs;

    // ---- CPUs: CSD lists, and the distribute walk's per-CPU marks ----
    final int[] csdHead, csdTail;
    private final int[] rqMark;
    private int markEpoch;

    private KernelSpec.TimerPlacement placement = KernelSpec.TimerPlacement.RANDOM;
    /** Modelled duration of the distribute calls of the timer callback in progress, ns. */
    private long elapsedDistribute;

    BandwidthControl(Kernel k, KernelSpec spec) {
        this.k = k;
        this.ncpu = k.ncpu;
        this.cost = k.cost;
        this.events = k.events;
        this.observer = k.observer;
        this.throttleModel = spec.throttle();
        this.taskBased = k.taskBased;
        this.asyncUnthrottle = spec.unthrottle() == KernelSpec.Unthrottle.ASYNC;
        this.bandwidthSliceNs = spec.bandwidthSliceUs() * 1000L;
        this.sliceExpiry = spec.sliceExpiry();
        this.staleExpiry = spec.staleExpiry();
        this.periodOverrun = spec.periodOverrun();
        this.burstRefill = spec.burst();
        this.distributeRunningFlag = spec.throttledListInsert() == KernelSpec.ListInsert.TAIL_UNLESS_DISTRIBUTING;
        this.tickNs = k.tickNs;
        this.curr = k.curr;
        this.throttleWorkPending = k.throttleWorkPending;
        this.needResched = k.needResched;

        bw = new CfsBandwidth[k.ngroups];
        for (int g = 0; g < k.ngroups; g++) bw[g] = new CfsBandwidth();
        limitedGroup = new boolean[k.ngroups];

        int nq = k.nq;
        runtimeRemainingNs = new long[nq];
        csdNext = new int[nq];
        csdPending = new boolean[nq];
        pendingGen = new int[nq];
        expiresSeq = new int[nq];
        runtimeExpiresNs = new long[nq];

        csdHead = new int[ncpu];
        csdTail = new int[ncpu];
        Arrays.fill(csdHead, NONE);
        Arrays.fill(csdTail, NONE);
        rqMark = new int[ncpu];
    }

    void link(CpuTime clock, Throttling thr) {
        this.clock = clock;
        this.thr = thr;
    }

    /**
     * tg_set_cfs_bandwidth() (§5.4, step 7): set period/quota/burst, refill, arm the timer, then on every CPU
     * forgive the debt (runtime_remaining 0, or 1 ns in the task models per the 6.18 fix) and unthrottle.
     * Values are already validated.
     *
     * @param quotaNs   {@link CfsBandwidth#RUNTIME_INF} for {@code max}
     * @param writerCpu the CPU the writing shell runs on (it arms the period timer, which stays pinned
     *                  there), or -1 for one drawn from the run's random source
     */
    void setCfsBandwidth(int g, long periodNs, long quotaNs, long burstNs, int writerCpu) {
        if (writerCpu < 0) writerCpu = k.random.nextInt(ncpu);
        CfsBandwidth b = bw[g];
        b.periodNs = periodNs;
        b.quotaNs = quotaNs;
        limitedGroup[g] = b.limited();
        b.burstNs = burstNs;
        boolean limited = b.limited();
        if (limited) {
            refill(b);
            startCfsBandwidth(b, g, writerCpu);
        }
        for (int c = 0; c < ncpu; c++) {
            int q = k.cfsRq(g, c);
            runtimeRemainingNs[q] = taskBased ? 1 : 0;
            expiresSeq[q] = b.periodSeq;
            if (thr.throttled[q]) {
                if (taskBased && runtimeRemainingNs[q] <= 0) runtimeRemainingNs[q] = 1;
                thr.unthrottleCfsRq(q);
            }
        }
    }

    /**
     * destroy_cfs_bandwidth() at rmdir: the group becomes unlimited (unthrottling what is left on its list; its
     * cfs_rqs are empty) and its period and slack timers are cancelled.
     */
    void destroyCfsBandwidth(int g) {
        CfsBandwidth b = bw[g];
        if (b.limited()) setCfsBandwidth(g, b.periodNs, CfsBandwidth.RUNTIME_INF, 0, b.timerCpu);
        b.periodActive = false;
        b.inCallback = false;
        b.slackStarted = false;
        b.timerGen++;
        b.slackGen++;
    }

    void setTimerPlacement(KernelSpec.TimerPlacement p) { placement = p; }

    private boolean interleave(CfsBandwidth b) { return placement == KernelSpec.TimerPlacement.INTERLEAVE; }

    // =====================================================================================================
    // Charging: account_cfs_rq_runtime() where a quota applies
    // =====================================================================================================

    /**
     * account_cfs_rq_runtime() (kernel-model §2.2); {@code t} is the running task being charged. Before 5.4 the
     * charge is docked first, then the local runtime may expire ({@link #expireCfsRqRuntime}).
     */
    void accountCfsRqRuntime(int q, long deltaNs, int t) { accountCfsRqRuntime(q, k.groupOf(q), deltaNs, t); }

    /** {@link #accountCfsRqRuntime(int, long, int)} of cfs_rq q of group g (callers walking by group know it). */
    void accountCfsRqRuntime(int q, int g, long deltaNs, int t) {
        if (!limitedGroup[g]) return;
        CfsBandwidth b = bw[g];
        runtimeRemainingNs[q] -= deltaNs;
        if (sliceExpiry) expireCfsRqRuntime(b, q);
        if (runtimeRemainingNs[q] > 0 || thr.throttled[q]) return;
        if (assignCfsRqRuntime(q, bandwidthSliceNs)) return;
        int c = k.cpuOf(q);
        if (throttleModel == Throttle.TASK_ACCOUNT) {
            // 2026 series: throttle right here; the current task parks on its next return to user mode
            if (thr.throttleCfsRq(q, bandwidthSliceNs) && t != NONE) throttleWorkPending[t] = true;
        } else {
            needResched[c] = true;
        }
    }

    /**
     * expire_cfs_rq_runtime() (before 5.4, removed by de53fd7aedb1): once the local deadline has passed, positive
     * local runtime granted in an earlier period is thrown away; if the pool has not been refilled since, the
     * deadline is only clock drift and moves on by a tick. 4.18–5.3 tell the two apart by the refill sequence
     * ({@code expires_seq}, 512ac999d275). Before 4.18 by comparing the two deadlines, which are equal but stale
     * after the period timer went idle and was re-armed without a refill: then every tick throws the fresh grant
     * away, and a thread far below its quota is throttled.
     */
    private void expireCfsRqRuntime(CfsBandwidth b, int q) {
        if (k.now < runtimeExpiresNs[q] || runtimeRemainingNs[q] < 0) return;
        boolean drift = staleExpiry ? runtimeExpiresNs[q] != b.runtimeExpiresNs : expiresSeq[q] == b.periodSeq;
        if (drift) runtimeExpiresNs[q] += tickNs; // extend the local deadline: drift is bounded by 2 ticks
        else runtimeRemainingNs[q] = 0;            // the global deadline is ahead: expired
    }

    /** __assign_cfs_rq_runtime(): top the cfs_rq up to {@code targetNs} from the pool (§2.3). */
    boolean assignCfsRqRuntime(int q, long targetNs) {
        CfsBandwidth b = bw[k.groupOf(q)];
        long need = targetNs - runtimeRemainingNs[q];
        long amount;
        if (!b.limited()) {
            amount = need;
        } else {
            startCfsBandwidth(b, k.groupOf(q), k.cpuOf(q));
            amount = 0;
            if (b.runtimeNs > 0) {
                amount = Math.min(b.runtimeNs, need);
                b.runtimeNs -= amount;
                b.idle = false;
            }
        }
        runtimeRemainingNs[q] += amount;
        if (staleExpiry) {
            if (b.runtimeExpiresNs - runtimeExpiresNs[q] > 0) runtimeExpiresNs[q] = b.runtimeExpiresNs;
        } else if (expiresSeq[q] != b.periodSeq) {
            expiresSeq[q] = b.periodSeq;
            runtimeExpiresNs[q] = b.runtimeExpiresNs;
        }
        return runtimeRemainingNs[q] > 0;
    }

    /** check_cfs_rq_runtime(): throttle a cfs_rq that has run out; true if it is (now) throttled. */
    boolean checkCfsRqRuntime(int q) { return checkCfsRqRuntime(q, k.groupOf(q)); }

    /** {@link #checkCfsRqRuntime(int)} of cfs_rq q of group g. */
    boolean checkCfsRqRuntime(int q, int g) {
        if (!limitedGroup[g] || runtimeRemainingNs[q] > 0) return false;
        if (thr.throttled[q]) return true;
        return thr.throttleCfsRq(q, 1);
    }

    /** check_enqueue_throttle(): a cfs_rq that becomes non-empty with a debt is throttled at once (§2.4). */
    void checkEnqueueThrottle(int q) {
        if (!limitedGroup[k.groupOf(q)] || thr.throttled[q] || runsCurr(q)) return;
        accountCfsRqRuntime(q, 0, NONE);
        if (runtimeRemainingNs[q] <= 0) thr.throttleCfsRq(q, 1);
    }

    /**
     * True if the CPU's running fair task is inside cfs_rq q's hierarchy (cfs_rq->curr != NULL): its group is
     * in q's group's subtree, a pre-order index range (no walk up the tree).
     */
    boolean runsCurr(int q) {
        int t = curr[k.cpuOf(q)];
        return t != NONE && k.isFair(t) && k.tree.inSubtree(k.groupOf(q), k.tGroup[t]);
    }

    // =====================================================================================================
    // Period and slack timers
    // =====================================================================================================

    /** start_cfs_bandwidth(): arm the period timer on the phase grid if it is not active (§3.1). */
    void startCfsBandwidth(CfsBandwidth b, int g, int cpu) {
        if (b.periodActive) return;
        b.periodActive = true;
        if (interleave(b)) {
            long incr = b.periodNs / 10;
            long delta = k.now - b.timerExpiryNs;
            if (delta >= b.periodNs && incr > 0) b.timerExpiryNs += incr * (delta / incr);
        }
        long overrun = forwardTimer(b, k.now);
        if (sliceExpiry && !staleExpiry) {
            // 4.18–5.3 (512ac999d275): a re-armed timer moves the deadline on and starts a new sequence, so
            // runtime granted from now on is not taken for stale
            b.runtimeExpiresNs += (overrun + 1) * b.periodNs;
            b.periodSeq++;
        }
        b.timerCpu = cpu;
        b.timerGen++;
        events.push(b.timerExpiryNs + k.jitter.timerLatencyNs(), EV_PERIOD_TIMER, EV_PERIOD_TIMER, g, b.timerGen);
    }

    /** hrtimer_forward(): move the expiry past {@code t} by whole periods; returns the overrun count. */
    static long forwardTimer(CfsBandwidth b, long t) {
        if (b.timerExpiryNs > t) return 0;
        long k = (t - b.timerExpiryNs) / b.periodNs + 1;
        b.timerExpiryNs += k * b.periodNs;
        return k;
    }

    /**
     * sched_cfs_period_timer() (§3.2): the catch-up loop of refill, count and distribute, in rounds while the
     * timer has overrun again; stops itself after an idle period. The callback takes simulated time: a round
     * that ends after the next expiry (a sync distribution of many cfs_rqs can outlast a short period) is
     * continued by an event when its work is done, so the other CPUs run meanwhile and re-throttle. After more
     * than 3 rounds the period is scaled per {@code kernel.period_overrun}; an unlimited loop (before 5.1) is
     * reported by the hard-lockup watchdog after 10 s.
     */
    void periodTimer(int g, long gen) {
        CfsBandwidth b = bw[g];
        if (gen != b.timerGen || !b.periodActive) return;
        int c = b.timerCpu;
        if (clock.busyUntil(c) > k.now) { // interrupts on one CPU run one after another: fire late
            events.push(clock.busyUntil(c), EV_PERIOD_TIMER, EV_PERIOD_TIMER, g, gen);
            return;
        }
        long elapsed = 0;
        if (!b.inCallback) {
            b.inCallback = true;
            b.callbackCount = 0;
            b.callbackIdle = false;
            b.callbackStartNs = k.now;
            b.lockupReported = false;
            elapsed = cost.periodTimerFixedNs();
        }
        while (true) {
            long overrun = forwardTimer(b, k.now + elapsed);
            if (overrun == 0) break;
            boolean refillFirst = periodOverrun == KernelSpec.PeriodOverrun.SCALE_2_REFILL_FIRST;
            if (!refillFirst && periodOverrun != KernelSpec.PeriodOverrun.UNLIMITED && ++b.callbackCount > 3) {
                scalePeriod(b, g, c); // before 5.8 the scaled quota is what this round refills
            }
            long before = elapsedDistribute;
            elapsedDistribute = 0;
            b.callbackIdle = doSchedCfsPeriodTimer(b, g, (int) overrun, c);
            elapsed += elapsedDistribute;
            elapsedDistribute = before;
            if (refillFirst && ++b.callbackCount > 3) scalePeriod(b, g, c); // 5a6d6a6ccb5f
            if (b.timerExpiryNs <= k.now + elapsed) {
                // overran again while this round worked: the next round runs when it is done
                clock.stealIrq(c, elapsed);
                if (k.now + elapsed - b.callbackStartNs >= WATCHDOG_THRESH_NS && !b.lockupReported) {
                    b.lockupReported = true;
                    observer.log(k.now + elapsed, "watchdog: Watchdog detected hard LOCKUP on cpu " + c);
                }
                events.push(k.now + elapsed, EV_PERIOD_TIMER, EV_PERIOD_TIMER, g, gen);
                return;
            }
        }
        clock.stealIrq(c, elapsed);
        b.inCallback = false;
        if (b.callbackIdle) {
            b.periodActive = false;
        } else {
            b.timerGen++;
            events.push(b.timerExpiryNs + k.jitter.timerLatencyNs(), EV_PERIOD_TIMER, EV_PERIOD_TIMER, g, b.timerGen);
        }
    }

    /**
     * The period timer's scaling after more than 3 rounds, with its pr_warn_ratelimited() line:
     * 2e8e19226398 (5.1) grows period and quota by 147/128, period capped at 1 s; 4929a4e6faa0 (5.4) doubles
     * period, quota and (5.14+) burst while the period stays below 1 s, so the quota/period ratio that
     * cgroup v1's hierarchy check compares is kept exactly.
     */
    void scalePeriod(CfsBandwidth b, int g, int cpu) {
        b.callbackCount = 0; // reset count so we don't come right back in here
        long old = b.periodNs;
        if (periodOverrun == KernelSpec.PeriodOverrun.SCALE_147_128) {
            long scaled = Math.min(old * 147 / 128, MAX_CFS_QUOTA_PERIOD_NS);
            b.periodNs = scaled;
            if (b.limited()) {
                // quota * new / old: 1e9 × 1.8e16 does not fit in 64 bits, so the product is taken exactly
                b.quotaNs = java.math.BigInteger.valueOf(b.quotaNs).multiply(java.math.BigInteger.valueOf(scaled))
                        .divide(java.math.BigInteger.valueOf(old)).longValueExact();
                limitedGroup[g] = b.limited();
            }
            if (scaleUpWarning.allow(k.now, observer)) {
                observer.log(k.now, "cfs_period_timer[cpu" + cpu + "]: period too short, scaling up (new cfs_period_us "
                        + scaled / 1000 + ", cfs_quota_us = " + b.quotaNs / 1000 + ")");
            }
        } else if (2 * old < MAX_CFS_QUOTA_PERIOD_NS) {
            b.periodNs = 2 * old;
            if (b.limited()) {
                b.quotaNs *= 2;
                limitedGroup[g] = b.limited();
            }
            if (burstRefill) b.burstNs *= 2;
            if (scaleUpWarning.allow(k.now, observer)) {
                observer.log(k.now, "cfs_period_timer[cpu" + cpu + "]: period too short, scaling up (new cfs_period_us = "
                        + b.periodNs / 1000 + ", cfs_quota_us = " + b.quotaNs / 1000 + ")");
            }
        } else {
            if (cannotScaleWarning.allow(k.now, observer)) {
                observer.log(k.now, "cfs_period_timer[cpu" + cpu + "]: period too short, but cannot scale up without "
                        + "losing precision (cfs_period_us = " + old / 1000 + ", cfs_quota_us = " + b.quotaNs / 1000 + ")");
            }
            return;
        }
        observer.periodScaled(g, b.periodNs, b.quotaNs);
    }

    /**
     * do_sched_cfs_period_timer() (§3.3); returns true to deactivate the timer. Before 5.14 an idle group is
     * deactivated before the refill, since 5.14 (burst) after it.
     */
    boolean doSchedCfsPeriodTimer(CfsBandwidth b, int g, int overrun, int cpu) {
        if (!b.limited()) return true;
        boolean throttledAny = b.throttledHead != NONE;
        b.nrPeriods += overrun;
        if (burstRefill) refill(b);
        if (b.idle && !throttledAny) return true;
        if (!burstRefill) refill(b);
        if (!throttledAny) {
            b.idle = true;
            return false;
        }
        b.nrThrottled += overrun;
        while (throttledAny && b.runtimeNs > 0) throttledAny = distributeCfsRuntime(b, g, cpu, false);
        b.idle = false;
        return false;
    }

    /**
     * __refill_cfs_bandwidth_runtime() (§3.5): since 5.14 the quota is added up to quota + burst and the burst
     * statistics are kept (printed from 5.16); before, the pool is set to the quota, and before 5.4 its runtime
     * also gets a deadline one period ahead and a new sequence number (expiry).
     */
    void refill(CfsBandwidth b) {
        if (!b.limited()) return;
        if (burstRefill) {
            b.runtimeNs += b.quotaNs;
            long beyond = b.runtimeSnapNs - b.runtimeNs;
            if (beyond > 0) {
                b.burstTimeNs += beyond;
                b.nrBurst++;
            }
            b.runtimeNs = Math.min(b.runtimeNs, b.quotaNs + b.burstNs);
            b.runtimeSnapNs = b.runtimeNs;
        } else {
            b.runtimeNs = b.quotaNs;
        }
        b.runtimeExpiresNs = k.now + b.periodNs;
        b.periodSeq++;
    }

    /** return_cfs_rq_runtime(): an emptied cfs_rq keeps 1 ms and returns the rest (§2.6). */
    void returnCfsRqRuntime(int q) {
        int g = k.groupOf(q);
        if (!limitedGroup[g]) return;
        CfsBandwidth b = bw[g];
        long slack = runtimeRemainingNs[q] - MIN_CFS_RQ_RUNTIME_NS;
        if (slack <= 0) return;
        // before 5.4 only runtime of the current period goes back to the pool; the rest is dropped all the same
        if (!sliceExpiry || runtimeExpiresNs[q] == b.runtimeExpiresNs) {
            b.runtimeNs += slack;
            if (b.runtimeNs > bandwidthSliceNs && b.throttledHead != NONE) {
                startCfsSlackBandwidth(b, k.groupOf(q), k.cpuOf(q));
            }
        }
        runtimeRemainingNs[q] -= slack;
    }

    void startCfsSlackBandwidth(CfsBandwidth b, int g, int cpu) {
        long remaining = b.periodActive ? b.timerExpiryNs - k.now : -1;
        if (remaining < CFS_BANDWIDTH_SLACK_PERIOD_NS + MIN_BANDWIDTH_EXPIRATION_NS) return;
        if (b.slackStarted) return;
        b.slackStarted = true;
        b.slackCpu = cpu;
        b.slackGen++;
        events.push(k.now + CFS_BANDWIDTH_SLACK_PERIOD_NS + k.jitter.timerLatencyNs(), EV_SLACK_TIMER, EV_SLACK_TIMER,
                g, b.slackGen);
    }

    /** sched_cfs_slack_timer(): hand returned runtime to throttled cfs_rqs mid-period. */
    void slackTimer(int g, long gen) {
        CfsBandwidth b = bw[g];
        if (gen != b.slackGen || !b.slackStarted) return;
        if (clock.busyUntil(b.slackCpu) > k.now) {
            events.push(clock.busyUntil(b.slackCpu), EV_SLACK_TIMER, EV_SLACK_TIMER, g, gen);
            return;
        }
        b.slackStarted = false;
        if (b.distributeRunningUntilNs > k.now) return; // 4.19–5.7: a distribution is running
        if (b.periodActive && b.timerExpiryNs - k.now < MIN_BANDWIDTH_EXPIRATION_NS) return;
        if (b.limited() && b.runtimeNs > bandwidthSliceNs) {
            elapsedDistribute = 0;
            distributeCfsRuntime(b, g, b.slackCpu, true);
            clock.stealIrq(b.slackCpu, elapsedDistribute);
            elapsedDistribute = 0;
        }
    }

    // =====================================================================================================
    // distribute_cfs_runtime() and the async unthrottle (CSD lists, IPIs)
    // =====================================================================================================

    /**
     * distribute_cfs_runtime() (§3.4): walk the throttled list from the head, give each cfs_rq exactly its
     * debt + 1 ns, unthrottle it inline (sync) or through its CPU's CSD list and one IPI (async, the local
     * one last). Records the call's modelled duration and counters. In the async walk every entry reached
     * costs the transfer of its rq's lock line ({@code rq_lock_irqsave()} before the checks, 6.2+ through
     * 6.18), from the profile's cross-LLC and cross-socket line latencies: a call that stops early (the pool is
     * spent on debts before the timer CPU's own cfs_rq, seed 03) costs in proportion to the entries it reached.
     *
     * @return true if some cfs_rq stays throttled (the caller loops while the pool lasts)
     */
    boolean distributeCfsRuntime(CfsBandwidth b, int g, int thisCpu, boolean slack) {
        long costNs = cost.distributeFixedNs();
        int rqs = 0, remote = 0, cfsRqs = 0, tasks = 0;
        boolean throttledRemain = false;
        int epoch = ++markEpoch;
        if (asyncUnthrottle) {
            int local = NONE;
            for (int q = b.throttledHead; q != NONE; ) {
                int next = thr.thrNext[q];
                if (b.runtimeNs == 0) { throttledRemain = true; break; }
                // rq_lock_irqsave(rq_of(cfs_rq)) comes before any check: every entry the walk reaches costs its
                // rq's lock, a line the remote CPU last wrote (its own scheduling)
                costNs += k.cache.lineNs(k.topo, k.cpuOf(q), thisCpu);
                if (thr.throttled[q] && !csdPending[q]) {
                    if (grantDebtPlusOne(b, q)) {
                        int c = k.cpuOf(q);
                        if (c != thisCpu) {
                            queueCsd(q, c, costNs);
                            costNs += cost.ipiSendNs();
                            if (rqMark[c] != epoch) { rqMark[c] = epoch; remote++; }
                        } else {
                            local = q;
                        }
                    } else {
                        throttledRemain = true;
                    }
                }
                q = next;
            }
            rqs = remote;
            if (local != NONE && thr.throttled[local]) {
                long walked = thr.unthrottleCfsRq(local);
                cfsRqs = (int) (walked >>> 32);
                tasks = (int) walked;
                costNs += (long) ((cfsRqs * cost.unthrottleLocalCfsRqNs() + tasks * cost.enqueueTaskNs()) * jitter());
                rqs++;
            }
        } else {
            // the timer CPU unthrottles each cfs_rq itself, one after another: each takes effect when the
            // walk reaches it, so the last ones stay throttled (and keep counting) for most of the call
            double jitter = jitter();
            for (int q = b.throttledHead; q != NONE; ) {
                int next = thr.thrNext[q];
                if (b.runtimeNs == 0) { throttledRemain = true; break; }
                if (thr.throttled[q] && !csdPending[q]) {
                    if (grantDebtPlusOne(b, q)) {
                        int c = k.cpuOf(q);
                        if (rqMark[c] != epoch) { rqMark[c] = epoch; rqs++; costNs += cost.rqLockNs(); }
                        long work = thr.unthrottleWork(q);
                        int walked = (int) (work >>> 32), enq = (int) work;
                        cfsRqs += walked;
                        tasks += enq;
                        costNs += (long) ((walked * cost.unthrottleSyncCfsRqNs() + enq * cost.enqueueTaskNs()) * jitter);
                        csdPending[q] = true;
                        events.push(k.now + costNs, EV_SYNC_UNTHROTTLE, EV_SYNC_UNTHROTTLE, q, ++pendingGen[q]);
                    } else {
                        throttledRemain = true;
                    }
                }
                q = next;
            }
        }
        elapsedDistribute += costNs;
        if (distributeRunningFlag && !asyncUnthrottle) b.distributeRunningUntilNs = k.now + costNs;
        observer.distribute(k.now, thisCpu, g, costNs, rqs, remote, cfsRqs, tasks, slack);
        return throttledRemain;
    }

    /**
     * distribute_cfs_runtime()'s grant: exactly the cfs_rq's debt + 1 ns, or what the pool has left.
     * @return true if the cfs_rq's runtime is positive now (it can be unthrottled)
     */
    private boolean grantDebtPlusOne(CfsBandwidth b, int q) {
        long give = Math.min(-runtimeRemainingNs[q] + 1, b.runtimeNs);
        b.runtimeNs -= give;
        runtimeRemainingNs[q] += give;
        if (sliceExpiry) runtimeExpiresNs[q] = b.runtimeExpiresNs; // before 5.4: of this period
        return runtimeRemainingNs[q] > 0;
    }

    /** unthrottle_cfs_rq_async(): queue on the target CPU's CSD list; one IPI when the list was empty. */
    void queueCsd(int q, int c, long delayNs) {
        csdPending[q] = true;
        csdNext[q] = NONE;
        if (csdHead[c] == NONE) {
            csdHead[c] = q;
            csdTail[c] = q;
            events.push(k.now + delayNs + cost.ipiLatencyNs(), EV_IPI, EV_IPI, c, 0);
        } else {
            csdNext[csdTail[c]] = q;
            csdTail[c] = q;
        }
    }

    /**
     * The sync walk reaches cfs_rq q (queued by {@link #distributeCfsRuntime} at the time its turn comes):
     * unthrottle it; the timer CPU has already paid for it.
     */
    void syncUnthrottle(int q, long gen) {
        if (gen != pendingGen[q] || !csdPending[q]) return;
        csdPending[q] = false;
        if (thr.throttled[q]) thr.unthrottleCfsRq(q);
    }

    /**
     * One draw of the cost model's run-to-run variation (cache and lock state): a factor uniform in
     * [1 - jitter, 1 + jitter] from the run's random source.
     */
    private double jitter() {
        double j = cost.jitter();
        return j == 0 ? 1.0 : 1.0 + j * (2 * k.random.nextDouble() - 1);
    }

    /** __cfsb_csd_unthrottle(): the IPI handler unthrottles this CPU's queued cfs_rqs, paying for it. */
    void csdUnthrottle(int c) {
        if (clock.busyUntil(c) > k.now) {
            events.push(clock.busyUntil(c), EV_IPI, EV_IPI, c, 0);
            return;
        }
        long costNs = cost.ipiHandlerFixedNs();
        int q = csdHead[c];
        csdHead[c] = NONE;
        csdTail[c] = NONE;
        while (q != NONE) {
            int next = csdNext[q];
            csdPending[q] = false;
            if (thr.throttled[q]) {
                long walked = thr.unthrottleCfsRq(q);
                costNs += (long) (((walked >>> 32) * cost.unthrottleLocalCfsRqNs()
                        + (int) walked * cost.enqueueTaskNs()) * jitter());
            }
            q = next;
        }
        clock.stealIrq(c, costNs);
    }

    /** Takes cfs_rq q off CPU c's CSD list (it is being unthrottled otherwise). */
    void removeCsd(int q, int c) {
        int prev = NONE;
        for (int x = csdHead[c]; x != NONE; prev = x, x = csdNext[x]) {
            if (x == q) {
                if (prev == NONE) csdHead[c] = csdNext[x]; else csdNext[prev] = csdNext[x];
                if (csdTail[c] == x) csdTail[c] = prev;
                break;
            }
        }
        csdPending[q] = false;
    }

}
