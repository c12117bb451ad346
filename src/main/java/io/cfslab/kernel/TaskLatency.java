package io.cfslab.kernel;

import io.cfslab.metrics.LatencyHistogram;

import java.util.Arrays;

/**
 * Per-task scheduling latencies (contract v1.1): schedstat's {@code run_delay} (kernel/sched/stats.h,
 * {@code sched_info_enqueue()}/{@code sched_info_arrive()}/{@code sched_info_dequeue()}), wake-up latency (runqlat's
 * enqueue-to-switch-in, ending when the task runs its own work again), the wall time of each run stretch of an
 * iterating workload, and the CPU each task last ran on.
 *
 * <p>The kernel calls the hooks where the task's state changes: {@link #queued} when it becomes runnable but
 * not running (woken, forked, put back by a preemption, parked in a throttled hierarchy's limbo list: parked
 * tasks stay state R, and the kernel's switch-out of a still-running task stamps {@code last_queued}),
 * {@link #arrive} when it is switched in, {@link #dequeued} when it leaves the runqueue without running (sleep,
 * exit, a class change). Arrays per task; the two histograms of a task are created the first time it records
 * one (a hog that never sleeps keeps none), and grow only with a new maximum: nothing allocates per event.
 */
final class TaskLatency {
    private static final long NO_TIME = -1, PENDING = -2;

    private final long[] runnableSinceNs;
    private final long[] runDelayNs;
    private final long[] wokenAtNs;
    private final long[] iterationStartNs;
    private final boolean[] iterates;
    private final int[] lastCpu;
    private final LatencyHistogram[] wakeup;
    private final LatencyHistogram[] iteration;

    TaskLatency(int ntasks) {
        runnableSinceNs = filled(ntasks, NO_TIME);
        runDelayNs = new long[ntasks];
        wokenAtNs = filled(ntasks, NO_TIME);
        iterationStartNs = filled(ntasks, NO_TIME);
        iterates = new boolean[ntasks];
        lastCpu = new int[ntasks];
        Arrays.fill(lastCpu, -1);
        wakeup = new LatencyHistogram[ntasks];
        iteration = new LatencyHistogram[ntasks];
    }

    private static long[] filled(int n, long v) {
        long[] a = new long[n];
        Arrays.fill(a, v);
        return a;
    }

    /** Task t's workload repeats run stretches whose wall time is reported ({@code periodic}). */
    void setIterates(int t, boolean on) { iterates[t] = on; }

    /** sched_info_enqueue(): t is runnable and not running from now (no-op if it already was). */
    void queued(int t, long now) {
        if (runnableSinceNs[t] == NO_TIME) runnableSinceNs[t] = now;
    }

    /** try_to_wake_up() enqueued t: its wake-up latency starts. */
    void woken(int t, long now) {
        wokenAtNs[t] = now;
    }

    /**
     * sched_info_arrive(): t is switched in on CPU c; its wait is added to run_delay, a pending wake-up latency
     * ends, and a pending run stretch starts.
     */
    void arrive(int t, int c, long now) {
        lastCpu[t] = c;
        long since = runnableSinceNs[t];
        if (since != NO_TIME) {
            runDelayNs[t] += now - since;
            runnableSinceNs[t] = NO_TIME;
        }
        if (wokenAtNs[t] != NO_TIME) {
            histogram(wakeup, t).record(now - wokenAtNs[t]);
            wokenAtNs[t] = NO_TIME;
        }
        if (iterationStartNs[t] == PENDING) iterationStartNs[t] = now;
    }

    /** sched_info_dequeue(): t leaves the runqueue without running (sleep, exit, class change). */
    void dequeued(int t, long now) {
        long since = runnableSinceNs[t];
        if (since != NO_TIME) {
            runDelayNs[t] += now - since;
            runnableSinceNs[t] = NO_TIME;
        }
    }

    /** t exits: nothing is pending any more. */
    void exited(int t, long now) {
        dequeued(t, now);
        wokenAtNs[t] = NO_TIME;
        closeIteration(t, now);
    }

    /**
     * t's workload moved from stretch kind {@code prevKind} to {@code kind} ({@code Segment} kinds): a run stretch
     * ends at a sleep, block or exit, or when a new user-mode stretch starts (a loop without sleep); a new user-mode
     * stretch starts now if t is running, else when it is next switched in.
     */
    void segment(int t, int kind, boolean running, long now) {
        if (!iterates[t]) return;
        if (kind == io.cfslab.workload.Segment.RUN_KERNEL) return;
        closeIteration(t, now);
        if (kind == io.cfslab.workload.Segment.RUN_USER) iterationStartNs[t] = running ? now : PENDING;
    }

    private void closeIteration(int t, long now) {
        long start = iterationStartNs[t];
        if (start >= 0) histogram(iteration, t).record(now - start);
        iterationStartNs[t] = NO_TIME;
    }

    private static LatencyHistogram histogram(LatencyHistogram[] a, int t) {
        LatencyHistogram h = a[t];
        if (h == null) a[t] = h = new LatencyHistogram();
        return h;
    }

    /** run_delay so far, ns, including a wait still in progress at {@code now}. */
    long runDelayNs(int t, long now) {
        long since = runnableSinceNs[t];
        return runDelayNs[t] + (since == NO_TIME ? 0 : now - since);
    }

    /** The CPU t last ran on, or -1. */
    int lastCpu(int t) { return lastCpu[t]; }

    LatencyHistogram.LatencySummary wakeupSummary(int t) {
        return wakeup[t] == null ? LatencyHistogram.LatencySummary.EMPTY : wakeup[t].summary();
    }

    /** @return null for a task whose workload does not iterate */
    LatencyHistogram.LatencySummary iterationSummary(int t) {
        if (!iterates[t]) return null;
        return iteration[t] == null ? LatencyHistogram.LatencySummary.EMPTY : iteration[t].summary();
    }
}
