package io.cfslab.kernel;

import io.cfslab.scenario.KernelSpec;
import io.cfslab.scenario.TaskSpec.Policy;
import io.cfslab.event.EventQueue;

import java.util.Arrays;

import static io.cfslab.kernel.Kernel.EV_RT_PERIOD;
import static io.cfslab.kernel.Kernel.NONE;

/**
 * The RT class (kernel/sched/rt.c): a FIFO list of queued RT tasks per CPU, highest {@code sched_priority}
 * first, SCHED_RR's time slice, and RT throttling ({@code sched_rt_runtime_us} per
 * {@code sched_rt_period_us}, {@code sched_rt_runtime_exceeded()} and {@code sched_rt_period_timer()}).
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
     * task_tick_rt() for running RT task t: RT throttling once the CPU's RT time reaches the runtime
     * (sched_rt_runtime_exceeded()), and SCHED_RR's round robin after its time slice.
     */
    void taskTick(int t, int c) {
        if (rtRuntimeNs >= 0 && rtTimeNs[c] >= rtRuntimeNs && !rtThrottled[c]) {
            rtThrottled[c] = true;
            needResched[c] = true;
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

    /** pick_next_rt_entity(): the highest-priority queued RT task, the first of equals; NONE if none. */
    int rtPick(int c) {
        int best = NONE;
        for (int t = rtHead[c]; t != NONE; t = rtNext[t]) if (best == NONE || tRtPrio[t] > tRtPrio[best]) best = t;
        return best;
    }

    /** Global RT period boundary: reset RT time and lift RT throttling (sched_rt_period_timer). */
    void rtPeriod() {
        for (int c = 0; c < ncpu; c++) {
            rtTimeNs[c] = 0;
            if (rtThrottled[c]) {
                rtThrottled[c] = false;
                if (rtQueued[c] > 0) { needResched[c] = true; k.requestResched(c); }
            }
        }
        events.push(k.now + rtPeriodNs, EV_RT_PERIOD, EV_RT_PERIOD, 0, 0);
    }
}
