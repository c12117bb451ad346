package io.cfslab.kernel;

import io.cfslab.machine.MachineProfile;
import io.cfslab.machine.Topology;
import io.cfslab.workload.Segment;

import java.util.Arrays;

import static io.cfslab.kernel.Kernel.NONE;

/**
 * Per-CPU time bookkeeping: where the running task's execution, statistics and workload stretch were last
 * measured from, the time stolen from each CPU by interrupt handlers and scheduler overhead, the SMT speed
 * of each CPU, and the CPU time charged to tasks, groups and CPUs.
 *
 * <p>Models IRQ time accounting (kernel/sched/core.c {@code update_rq_clock_task()} subtracting
 * {@code irq_delta}, kernel/sched/cputime.c {@code irqtime_account_irq()}): a steal occupies the interval
 * after it is made, and the running task neither progresses nor is charged during it. User and system time
 * are split exactly by the mode of each stretch ({@code account_user_time()}/{@code account_system_time()}
 * without tick sampling), summed up the group tree as {@code cpu.stat} prints them.
 */
final class CpuTime {
    private final Kernel k;
    private final Topology topo;
    private final GroupTree tree;
    private final MachineProfile machine;
    private final int[] curr, tGroup, segKind;
    private final long[] segRemainingNs;

    // ---- CPUs: anchors of update_curr(), of the statistics and of the current stretch ----
    final long[] execStartNs, execStolenNs;
    final long[] statStartNs, statStolenNs;
    final long[] segStartNs, segStolenNs;
    final long[] stolenNs;
    final long[] stolenUntilNs;
    final long[] busyNs;
    final long[] irqNs;
    /** Stolen time that was charged to a task ({@link #chargeSystem}): busy time, not scheduler overhead. */
    final long[] chargedNs;
    /** The latest steal on each CPU: its length and whether it was interrupt time (to split a pending tail). */
    private final long[] lastStealNs;
    private final boolean[] lastStealIrq;
    final double[] speed;
    /** Each CPU's bit in its core's busy pattern (its rank among the core's threads). */
    private final int[] threadBit;
    /**
     * Per core, the busy pattern (bit {@link #threadBit} set for each thread running a task) that its threads'
     * {@link #speed}s were last brought in line with, or -1 before the first time.
     */
    private final int[] speedPattern;

    // ---- power: busy threads per core, and the time cores had one ----
    private final boolean[] cpuBusy;
    private final int[] coreBusyThreads;
    private final long[] coreActiveSinceNs;
    private long coreActiveNs;

    // ---- usage: tasks, then groups ----
    final long[] usageNs, userNs, systemNs;
    final long[] gUsageNs, gUserNs, gSystemNs;

    CpuTime(Kernel k, MachineProfile machine) {
        this.k = k;
        this.topo = k.topo;
        this.tree = k.tree;
        this.machine = machine;
        this.curr = k.curr;
        this.tGroup = k.tGroup;
        this.segKind = k.segKind;
        this.segRemainingNs = k.segRemainingNs;
        int ncpu = k.ncpu;
        execStartNs = new long[ncpu];
        execStolenNs = new long[ncpu];
        statStartNs = new long[ncpu];
        statStolenNs = new long[ncpu];
        segStartNs = new long[ncpu];
        segStolenNs = new long[ncpu];
        stolenNs = new long[ncpu];
        stolenUntilNs = new long[ncpu];
        busyNs = new long[ncpu];
        irqNs = new long[ncpu];
        chargedNs = new long[ncpu];
        lastStealNs = new long[ncpu];
        lastStealIrq = new boolean[ncpu];
        speed = new double[ncpu];
        Arrays.fill(speed, 1.0);
        threadBit = new int[ncpu];
        for (int c = 0; c < ncpu; c++) {
            int rank = 0;
            for (int i = 0; i < topo.siblingCount(c); i++) if (topo.sibling(c, i) < c) rank++;
            threadBit[c] = 1 << rank;
        }
        speedPattern = new int[topo.cores()];
        Arrays.fill(speedPattern, -1);
        cpuBusy = new boolean[ncpu];
        coreBusyThreads = new int[topo.cores()];
        coreActiveSinceNs = new long[topo.cores()];
        usageNs = new long[k.ntasks];
        userNs = new long[k.ntasks];
        systemNs = new long[k.ntasks];
        gUsageNs = new long[k.ngroups];
        gUserNs = new long[k.ngroups];
        gSystemNs = new long[k.ngroups];
    }

    /** A task starts running on CPU c now: every anchor starts here. */
    void startRun(int c) {
        long now = k.now;
        execStartNs[c] = statStartNs[c] = segStartNs[c] = now;
        execStolenNs[c] = statStolenNs[c] = segStolenNs[c] = stolenElapsed(c);
    }

    /** The running task's execution time since the last update_curr(), minus stolen time; moves the anchor. */
    long execDelta(int c) {
        long stolen = stolenElapsed(c);
        long d = k.now - execStartNs[c] - (stolen - execStolenNs[c]);
        execStartNs[c] = k.now;
        execStolenNs[c] = stolen;
        return d;
    }

    /**
     * Re-evaluates the SMT speed of CPU c and its siblings after c's busy state may have changed. A thread's speed
     * depends only on which threads of its core run a task, and is changed only here, for every thread of the core
     * at once: so when the core's busy pattern is the one its speeds were last brought in line with, every
     * {@link #updateSpeed} would find its speed unchanged and do nothing, and is skipped (a park storm and an
     * unthrottle's re-enqueues call this at each task without changing whether the CPU runs one).
     */
    void updateSmtSpeed(int c) {
        if (topo.smt() > 1) {
            int pattern = curr[c] != NONE ? threadBit[c] : 0;
            for (int i = 0; i < topo.siblingCount(c); i++) {
                int s = topo.sibling(c, i);
                if (curr[s] != NONE) pattern |= threadBit[s];
            }
            int core = topo.coreOf(c);
            if (pattern == speedPattern[core]) return;
            speedPattern[core] = pattern;
            for (int i = 0; i < topo.siblingCount(c); i++) updateSpeed(topo.sibling(c, i));
            updateSpeed(c);
        }
    }

    /**
     * Scheduler overhead on CPU c (context switch, throttle walk, park): the CPU spends the next {@code ns}
     * (after any overhead already pending) on it, and whatever runs makes no progress and is not charged.
     */
    void steal(int c, long ns) {
        if (ns <= 0) return;
        stolenNs[c] += ns;
        stolenUntilNs[c] = Math.max(stolenUntilNs[c], k.now) + ns;
        lastStealNs[c] = ns;
        lastStealIrq[c] = false;
    }

    /** Interrupt handler time on CPU c (period/slack timer, async-unthrottle IPI): stolen and counted as irq. */
    void stealIrq(int c, long ns) {
        if (ns <= 0) return;
        steal(c, ns);
        irqNs[c] += ns;
        lastStealIrq[c] = true;
    }

    /**
     * Interrupt time CPU c has spent by now: {@link #irqNs} less the part of pending work still ahead (a steal
     * occupies the interval after it is made, so at the end of a run the latest steal may not be over). The
     * pending tail is taken from the latest steal first.
     */
    long irqElapsedNs(int c) {
        long ahead = stolenNs[c] - stolenElapsed(c);
        long fromLast = Math.min(ahead, lastStealNs[c]);
        long irqAhead = lastStealIrq[c] ? fromLast : ahead - fromLast;
        long schedAhead = ahead - irqAhead;
        long sched = stolenNs[c] - irqNs[c];
        if (schedAhead > sched) irqAhead += schedAhead - sched; // more sched pending than there was: the rest is irq
        return irqNs[c] - Math.min(irqAhead, irqNs[c]);
    }

    /**
     * Scheduler overhead CPU c has spent by now: stolen time that is neither interrupt time nor charged to a task
     * (pending part excluded).
     */
    long schedElapsedNs(int c) { return Math.max(0, stolenElapsed(c) - irqElapsedNs(c) - chargedNs[c]); }

    /** End of the interrupt or overhead work CPU c is doing (in the past when it is doing none), ns. */
    long busyUntil(int c) { return stolenUntilNs[c]; }

    /**
     * Stolen time that has elapsed on CPU c by now: a steal occupies the interval after it is made, so an
     * accounting point inside that interval only discounts the part already past (never charging a negative
     * delta, never charging interrupt time later).
     */
    long stolenElapsed(int c) {
        return stolenNs[c] - Math.max(0, stolenUntilNs[c] - k.now);
    }

    /** Progress of the running task's segment up to now, at this CPU's speed, minus stolen time. */
    void settle(int c) {
        int t = curr[c];
        if (t == NONE) return;
        if (segRemainingNs[t] != Long.MAX_VALUE) {
            long ran = k.now - segStartNs[c] - (stolenElapsed(c) - segStolenNs[c]);
            if (ran > 0) segRemainingNs[t] = Math.max(0, segRemainingNs[t] - (long) (ran * speed[c]));
        }
        segStartNs[c] = k.now;
        segStolenNs[c] = stolenElapsed(c);
    }

    /**
     * Keeps the per-core busy-thread count (for the power model) in step with CPU c's busy state: a core is
     * active from its first busy thread to its last.
     */
    void updateCoreActive(int c) {
        boolean busy = curr[c] != NONE;
        if (busy == cpuBusy[c]) return;
        cpuBusy[c] = busy;
        int core = topo.coreOf(c);
        if (busy) {
            if (coreBusyThreads[core]++ == 0) coreActiveSinceNs[core] = k.now;
        } else if (--coreBusyThreads[core] == 0) {
            coreActiveNs += k.now - coreActiveSinceNs[core];
        }
    }

    /** Core-time with at least one busy thread up to now, ns (summed over cores). */
    long coreActiveNs() {
        long ns = coreActiveNs;
        for (int core = 0; core < coreBusyThreads.length; core++) {
            if (coreBusyThreads[core] > 0) ns += k.now - coreActiveSinceNs[core];
        }
        return ns;
    }

    private void updateSpeed(int c) {
        int busy = 1;
        for (int i = 0; i < topo.siblingCount(c); i++) if (curr[topo.sibling(c, i)] != NONE) busy++;
        double s = machine.smtSpeed(busy);
        if (s == speed[c]) return;
        if (curr[c] != NONE) settle(c);
        speed[c] = s;
        if (curr[c] != NONE && segRemainingNs[curr[c]] != Long.MAX_VALUE) k.armSegmentEnd(c);
    }

    /**
     * Kernel work done on CPU c in task t's context outside its workload stretch (its switch-in, its throttle task
     * work): {@code ns} of system time for t and its groups, as {@code cpu.stat} counts it, and busy time of the
     * CPU. The caller has made the same time a {@link #steal}, so that the workload makes no progress in it and no
     * later {@code update_curr()} charges it again; {@link #chargedNs} takes it back out of the CPU's scheduler
     * overhead.
     */
    void chargeSystem(int t, int c, long ns) {
        busyNs[c] += ns;
        chargedNs[c] += ns;
        usageNs[t] += ns;
        systemNs[t] += ns;
        for (int g = tGroup[t]; g != NONE; g = tree.parent(g)) {
            gUsageNs[g] += ns;
            gSystemNs[g] += ns;
        }
    }

    /** Attributes the running task's time since the last flush to it and its groups (user or system). */
    void flushStats(int c) {
        int t = curr[c];
        if (t == NONE) return;
        long stolen = stolenElapsed(c);
        long d = k.now - statStartNs[c] - (stolen - statStolenNs[c]);
        statStartNs[c] = k.now;
        statStolenNs[c] = stolen;
        if (d <= 0) return;
        boolean kernelMode = segKind[t] == Segment.RUN_KERNEL;
        usageNs[t] += d;
        busyNs[c] += d;
        if (kernelMode) systemNs[t] += d; else userNs[t] += d;
        for (int g = tGroup[t]; g != NONE; g = tree.parent(g)) {
            gUsageNs[g] += d;
            if (kernelMode) gSystemNs[g] += d; else gUserNs[g] += d;
        }
    }
}
