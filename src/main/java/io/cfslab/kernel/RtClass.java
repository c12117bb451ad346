package io.cfslab.kernel;

import io.cfslab.scenario.KernelSpec;
import io.cfslab.scenario.TaskSpec.Policy;
import io.cfslab.event.EventQueue;

import java.util.Arrays;

import static io.cfslab.kernel.Kernel.EV_RT_PERIOD;
import static io.cfslab.kernel.Kernel.EV_RT_PERIOD_PRIORITY;
import static io.cfslab.kernel.Kernel.NONE;

/**
 * The RT class (kernel/sched/rt.c): a FIFO list of queued RT tasks per CPU, highest {@code sched_priority}
 * first, SCHED_RR's time slice, and RT throttling ({@code sched_rt_runtime_us} per
 * {@code sched_rt_period_us}, {@code sched_rt_runtime_exceeded()} and {@code sched_rt_period_timer()}). With RT
 * group scheduling ({@code CONFIG_RT_GROUP_SCHED}) every group with {@code cpu.rt_runtime_us} also has an rt_rq
 * per CPU that is charged and throttled against its own runtime per its own period (update_curr_rt() charges
 * every level); borrowing runtime from other CPUs (RT_RUNTIME_SHARE, off by default since 5.10) is not modelled.
 */
final class RtClass {
    static final long RR_TIMESLICE_NS = 100_000_000L;

    private final Kernel k;
    private final int ncpu;
    private final EventQueue events;
    private final int[] tRtPrio;
    private final Policy[] tPolicy;
    private final boolean[] needResched;
    private final long[] pickedAtNs;
    private FairRq fair;

    final long rtRuntimeNs;
    final long rtPeriodNs;
    private final boolean rtGroupSched;
    private final int[] tGroup;

    // ---- task groups (RT group scheduling): bandwidth, and per rt_rq (q = g * cpus + cpu) time and throttling ----
    private final long[] groupRuntimeNs, groupPeriodNs;
    private final long[] groupTimeNs;
    private final boolean[] groupThrottled;

    // ---- tasks ----
    final int[] rtNext, rtPrev;

    // ---- CPUs ----
    final int[] rtHead;
    final int[] rtQueued;
    final long[] rtTimeNs;
    final boolean[] rtThrottled;

    RtClass(Kernel k, KernelSpec spec) {
        this.k = k;
        this.ncpu = k.ncpu;
        this.events = k.events;
        this.tRtPrio = k.tRtPrio;
        this.tPolicy = k.tPolicy;
        this.needResched = k.needResched;
        this.pickedAtNs = k.pickedAtNs;
        this.rtRuntimeNs = spec.schedRtRuntimeUs() < 0 ? -1 : spec.schedRtRuntimeUs() * 1000L;
        this.rtPeriodNs = spec.schedRtPeriodUs() * 1000L;
        this.rtGroupSched = spec.rtGroupSched();
        this.tGroup = k.tGroup;
        int groups = rtGroupSched ? k.ngroups : 0;
        groupRuntimeNs = new long[groups];
        groupPeriodNs = new long[groups];
        groupTimeNs = new long[groups * ncpu];
        groupThrottled = new boolean[groups * ncpu];
        rtNext = new int[k.ntasks];
        rtPrev = new int[k.ntasks];
        rtHead = new int[ncpu];
        Arrays.fill(rtHead, NONE);
        rtQueued = new int[ncpu];
        rtTimeNs = new long[ncpu];
        rtThrottled = new boolean[ncpu];
    }

    void link(FairRq fair) { this.fair = fair; }

    /**
     * task_tick_rt() for running RT task t: RT throttling of every rt_rq above it whose time exceeds its runtime
     * ({@link #runtimeExceeded}, for the CPU's root rt_rq against the global sysctls and, with RT group
     * scheduling, each group's against its own files), and SCHED_RR's round robin after its time slice.
     */
    void taskTick(int t, int c) {
        if (!rtThrottled[c] && rtRuntimeNs >= 0) {
            if (runtimeExceeded(rtTimeNs[c], rtRuntimeNs, rtPeriodNs)) {
                rtThrottled[c] = true;
                needResched[c] = true;
            } else if (rtRuntimeNs == 0) {
                rtTimeNs[c] = 0;
            }
        }
        if (rtGroupSched) {
            for (int g = tGroup[t]; g > 0; g = k.tree.parent(g)) {
                int q = g * ncpu + c;
                if (groupThrottled[q] || groupRuntimeNs[g] < 0) continue;
                if (runtimeExceeded(groupTimeNs[q], groupRuntimeNs[g], groupPeriodNs[g])) {
                    groupThrottled[q] = true;
                    needResched[c] = true;
                } else if (groupRuntimeNs[g] == 0) {
                    groupTimeNs[q] = 0;
                }
            }
        }
        if (tPolicy[t] == Policy.RR && k.now - pickedAtNs[c] >= RR_TIMESLICE_NS) {
            rtDequeue(t, c);
            rtEnqueue(t, c); // to the tail of its list
            pickedAtNs[c] = k.now;
            if (rtQueued[c] > 1) needResched[c] = true;
        }
    }

    /** enqueue_task_rt(): task t joins the tail of CPU c's RT list. */
    void rtEnqueue(int t, int c) {
        rtNext[t] = NONE;
        rtPrev[t] = NONE;
        if (rtHead[c] == NONE) {
            rtHead[c] = t;
        } else {
            int x = rtHead[c];
            while (rtNext[x] != NONE) x = rtNext[x];
            rtNext[x] = t;
            rtPrev[t] = x;
        }
        rtQueued[c]++;
        k.balancer.nrRunningChanged(c);
        fair.cpuTaskAdd(c, t);
        k.onAvailabilityChange(c);
    }

    /** dequeue_task_rt(): task t leaves CPU c's RT list. */
    void rtDequeue(int t, int c) {
        int p = rtPrev[t], n = rtNext[t];
        if (p == NONE) rtHead[c] = n; else rtNext[p] = n;
        if (n != NONE) rtPrev[n] = p;
        rtQueued[c]--;
        k.balancer.nrRunningChanged(c);
        fair.cpuTaskRemove(c, t);
        k.onAvailabilityChange(c);
    }

    /**
     * pick_next_rt_entity(): the highest-priority queued RT task, the first of equals, whose group's rt_rqs on
     * this CPU are not throttled; NONE if none.
     */
    int rtPick(int c) {
        int best = NONE;
        for (int t = rtHead[c]; t != NONE; t = rtNext[t]) {
            if ((best == NONE || tRtPrio[t] > tRtPrio[best]) && !groupThrottled(t, c)) best = t;
        }
        return best;
    }

    private boolean groupThrottled(int t, int c) {
        if (!rtGroupSched) return false;
        for (int g = tGroup[t]; g > 0; g = k.tree.parent(g)) if (groupThrottled[g * ncpu + c]) return true;
        return false;
    }

    /** update_curr_rt() with RT group scheduling: the running RT task's time is charged at every level. */
    void chargeGroups(int t, int c, long d) {
        if (!rtGroupSched) return;
        for (int g = tGroup[t]; g > 0; g = k.tree.parent(g)) if (groupRuntimeNs[g] >= 0) groupTimeNs[g * ncpu + c] += d;
    }

    /**
     * A group's {@code cpu.rt_runtime_us}/{@code cpu.rt_period_us} (tg_set_rt_bandwidth()): starts its period
     * timer at the first write with a runtime.
     * @param runtimeNs -1 for no limit
     */
    void setGroupBandwidth(int g, long runtimeNs, long periodNs) {
        boolean started = groupPeriodNs[g] > 0;
        groupRuntimeNs[g] = runtimeNs;
        groupPeriodNs[g] = periodNs;
        if (!started) events.push(k.now + periodNs, EV_RT_PERIOD_PRIORITY, EV_RT_PERIOD, g, 0);
    }

    /**
     * do_sched_rt_period_timer() of group g: every rt_rq of the group pays back one period's runtime
     * ({@link #paidBack}) and is unthrottled once below it.
     */
    void groupPeriod(int g) {
        for (int c = 0; c < ncpu; c++) {
            int q = g * ncpu + c;
            groupTimeNs[q] = paidBack(groupTimeNs[q], groupRuntimeNs[g]);
            if (groupThrottled[q] && (groupRuntimeNs[g] < 0 || groupTimeNs[q] < groupRuntimeNs[g])) {
                groupThrottled[q] = false;
                if (rtQueued[c] > 0) { needResched[c] = true; k.requestResched(c); }
            }
        }
        events.push(k.now + groupPeriodNs[g], EV_RT_PERIOD_PRIORITY, EV_RT_PERIOD, g, 0);
    }

    /**
     * The global period timer (def_rt_bandwidth's do_sched_rt_period_timer()): each CPU's rt_rq pays back one
     * period's runtime ({@link #paidBack}) and is unthrottled once below it. Time run beyond the runtime before the
     * tick noticed it is a debt carried into the next periods, as in the kernel: it is not forgiven at the boundary.
     */
    void rtPeriod() {
        for (int c = 0; c < ncpu; c++) {
            rtTimeNs[c] = paidBack(rtTimeNs[c], rtRuntimeNs);
            if (rtThrottled[c] && rtTimeNs[c] < rtRuntimeNs) {
                rtThrottled[c] = false;
                if (rtQueued[c] > 0) { needResched[c] = true; k.requestResched(c); }
            }
        }
        events.push(k.now + rtPeriodNs, EV_RT_PERIOD_PRIORITY, EV_RT_PERIOD, 0, 0);
    }

    /**
     * sched_rt_runtime_exceeded() (kernel/sched/rt.c, unchanged since 2.6.25 in what is modelled): an rt_rq is
     * throttled once its {@code rt_time} exceeds its runtime (strictly), unless the runtime is unlimited or covers
     * the whole period ({@code runtime >= period} never throttles). A runtime of 0 never throttles either: the
     * kernel forgives such an rt_rq's time instead (it can only have accrued some by priority inheritance,
     * 7abc63b1bd); the caller zeroes it. Borrowing from other CPUs (balance_runtime(), RT_RUNTIME_SHARE, off by
     * default since 5.10) is not modelled.
     *
     * @param timeNs    the rt_rq's rt_time, ns
     * @param runtimeNs its runtime per period, ns; -1 for RUNTIME_INF
     * @param periodNs  its period, ns
     * @return whether the rt_rq is throttled now
     */
    static boolean runtimeExceeded(long timeNs, long runtimeNs, long periodNs) {
        return runtimeNs > 0 && runtimeNs < periodNs && timeNs > runtimeNs;
    }

    /**
     * One period of do_sched_rt_period_timer() for one rt_rq: {@code rt_time -= min(rt_time, overrun * runtime)}
     * with overrun 1 (the timer here fires at every period while RT time is pending; the kernel's overrun exceeds
     * 1 only after it went idle, when every rt_time was already 0). What was run beyond the runtime stays as
     * debt: an rt_rq that ran a whole tick past a tiny runtime waits as many periods as it takes to pay it back.
     *
     * @param timeNs    rt_time, ns
     * @param runtimeNs runtime per period, ns; -1 for RUNTIME_INF (everything is paid back)
     * @return rt_time after the period
     */
    static long paidBack(long timeNs, long runtimeNs) {
        return runtimeNs < 0 ? 0 : timeNs - Math.min(timeNs, runtimeNs);
    }
}
