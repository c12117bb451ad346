package io.cfslab.kernel;

import io.cfslab.machine.CostModel;
import io.cfslab.machine.MachineProfile;
import io.cfslab.machine.Topology;
import io.cfslab.scenario.KernelSpec;
import io.cfslab.scenario.KernelSpec.Throttle;
import io.cfslab.scenario.KernelSpec.ThrottledClockStart;
import io.cfslab.scenario.TaskSpec.Policy;
import io.cfslab.sim.EventQueue;
import io.cfslab.workload.Segment;
import io.cfslab.workload.Workload;
import io.cfslab.workload.WorkloadContext;

import java.util.Arrays;
import java.util.BitSet;
import java.util.SplittableRandom;

/**
 * The simulated kernel: per-CPU runqueues with a {@code cfs_rq} per task group per CPU, group scheduling
 * entities, the RT class above the fair class, and CFS bandwidth control after
 * {@code shared/design/kernel-model.md} (kernel/sched/fair.c of v6.1, v6.8 and v6.18, and the 2026 series).
 *
 * <p>State is held in primitive arrays ("struct of arrays"): a cfs_rq is the index
 * {@code q = group * cpus + cpu}; a scheduling entity is a task index {@code t < tasks} or, for the group
 * entity that represents cfs_rq {@code q} in its parent, {@code tasks + q}. Nothing on the event path
 * allocates.
 *
 * <p>Fair pick: hierarchical, minimum-vruntime entity at each level (CFS before EEVDF; EEVDF's lag and
 * deadlines are not modelled), group entity weights from {@code cpu.weight} split across CPUs by runnable
 * tasks (as {@code calc_group_shares()}), preemption at the tick after a base slice, wake-up placement on
 * idle CPUs of the same LLC, and a periodic plus new-idle load balancer that evens runnable task counts.
 *
 * <p>Time: one clock for charging, throttled-time stamps and timers (kernel-model §10.1). Interrupt work
 * (period/slack timer callbacks, async-unthrottle IPIs) and scheduler overheads are "stolen" from the CPU
 * that does them: the running task makes no progress and is not charged (IRQ time accounting).
 */
public final class Kernel implements WorkloadContext {

    // ---- event types and their priorities at equal times (lower first) ----
    public static final int EV_TIMELINE = 0, EV_PERIOD_TIMER = 1, EV_SLACK_TIMER = 2, EV_IPI = 3, EV_RT_PERIOD = 4,
            EV_TICK = 5, EV_SEGMENT_END = 6, EV_WAKE = 7, EV_RESCHED = 8, EV_BALANCE = 9, EV_SAMPLE = 10;

    static final int NONE = -1;
    static final long NO_CLOCK = -1;
    static final long MIN_CFS_RQ_RUNTIME_NS = 1_000_000L;
    static final long MIN_BANDWIDTH_EXPIRATION_NS = 2_000_000L;
    static final long CFS_BANDWIDTH_SLACK_PERIOD_NS = 5_000_000L;
    static final long MAX_CFS_QUOTA_PERIOD_NS = 1_000_000_000L;
    static final long NICE_0_LOAD = 1024;
    static final long RR_TIMESLICE_NS = 100_000_000L;
    static final long BALANCE_INTERVAL_NS = 4_000_000L;

    static final int T_RUNNABLE = 0, T_RUNNING = 1, T_SLEEPING = 2, T_BLOCKED = 3, T_PARKED = 4, T_EXITED = 5;

    // ---- configuration ----
    final int ncpu;
    final int ntasks;
    final int ngroups;
    final GroupTree tree;
    final Topology topo;
    final CostModel cost;
    final double smtBusySpeed;
    final Throttle throttleModel;
    final boolean taskBased;
    final boolean asyncUnthrottle;
    final long tickNs;
    final long bandwidthSliceNs;
    final long schedSliceNs;
    final boolean preemptKernel;
    final boolean insertHead;
    final boolean sliceExpiry;
    final ThrottledClockStart clockStart;
    final long rtRuntimeNs;
    final long rtPeriodNs;

    final EventQueue events;
    final SplittableRandom random;
    final KernelObserver observer;
    long now;

    /** Advances the kernel clock to {@code t} ns (the engine calls this before each event). */
    public void setNow(long t) { now = t; }

    /** Simulated time, ns. */
    public long now() { return now; }

    // ---- task groups ----
    final CfsBandwidth[] bw;
    final long[] shares;
    final int[] groupRunnable;
    final long[] gUsageNs, gUserNs, gSystemNs;

    // ---- cfs_rq, index q = g * ncpu + cpu ----
    final long[] runtimeRemainingNs;
    final boolean[] throttled;
    final int[] throttleCount;
    final long[] throttledClockNs;
    final long[] throttledClockSelfNs;
    final long[] throttledClockSelfTimeNs;
    final int[] nrQueued;
    final int[] hNrRunning;
    final long[] minVruntime;
    final int[] entHead;
    final int[] limboHead;
    final int[] thrNext, thrPrev;
    final int[] csdNext;
    final boolean[] csdPending;
    final int[] expiresSeq;

    // ---- scheduling entities: tasks, then one group entity per cfs_rq ----
    final int[] entNext, entPrev;
    final long[] vruntime;
    final boolean[] onRq;

    // ---- tasks ----
    final int[] tGroup, tCpu, tState, tRtPrio;
    final Policy[] tPolicy;
    final BitSet[] tAllowed;
    final Workload[] workload;
    final int[] segKind;
    final long[] segRemainingNs;
    final boolean[] throttleWorkPending;
    final long[] usageNs, userNs, systemNs, nrSwitches, nrMigrations, exitNs;
    final long[] wakeGen;
    final int[] pendingWakeups;
    final int[] cpuTaskNext, cpuTaskPrev;
    final int[] limboNext, limboPrev;
    final int[] rtNext, rtPrev;

    // ---- CPUs ----
    final int[] curr;
    final int[] lastRan;
    final long[] execStartNs, execStolenNs;
    final long[] statStartNs, statStolenNs;
    final long[] segStartNs, segStolenNs;
    final long[] stolenNs;
    final long[] stolenUntilNs;
    final long[] busyNs;
    final long[] irqNs;
    final double[] speed;
    final boolean[] needResched;
    final boolean[] tickArmed;
    final long[] tickGen;
    final long[] segGen;
    final long[] pickedAtNs;
    final int[] cpuTaskHead;
    final int[] rtHead;
    final int[] rtQueued;
    final long[] rtTimeNs;
    final boolean[] rtThrottled;
    final int[] csdHead, csdTail;
    final boolean[] reschedPending;
    final int[] rqMark;
    int markEpoch;
    final int[] llcIdle;

    private final Segment seg = new Segment();
    private boolean lastPickThrottled;

    /**
     * @param machine     topology and costs
     * @param k           kernel options
     * @param tree        task groups
     * @param ntasks      task instances
     * @param events      the run's event queue
     * @param random      the run's single random source
     * @param observer    receives distribute calls and throttle events
     */
    public Kernel(MachineProfile machine, KernelSpec k, GroupTree tree, int ntasks, EventQueue events,
                  SplittableRandom random, KernelObserver observer) {
        this.topo = machine.topology();
        this.cost = machine.costs();
        this.smtBusySpeed = topo.smt() > 1 ? machine.smtBusySpeed() : 1.0;
        this.ncpu = topo.cpus();
        this.ntasks = ntasks;
        this.tree = tree;
        this.ngroups = tree.size();
        this.events = events;
        this.random = random;
        this.observer = observer;
        this.throttleModel = k.throttle();
        this.taskBased = k.throttle() != Throttle.CFS_RQ;
        this.asyncUnthrottle = k.unthrottle() == KernelSpec.Unthrottle.ASYNC;
        this.tickNs = 1_000_000_000L / k.hz();
        this.bandwidthSliceNs = k.bandwidthSliceUs() * 1000L;
        // sysctl_sched_base_slice 0.75 ms scaled by 1 + ilog2(min(cpus, 8)) (sched_update_scaling)
        this.schedSliceNs = 750_000L * (1 + (31 - Integer.numberOfLeadingZeros(Math.min(ncpu, 8))));
        this.preemptKernel = k.preempt() == KernelSpec.Preempt.FULL;
        this.insertHead = k.throttledListInsert() == KernelSpec.ListInsert.HEAD;
        this.sliceExpiry = k.sliceExpiry();
        this.clockStart = k.throttledClockStart();
        this.rtRuntimeNs = k.schedRtRuntimeUs() < 0 ? -1 : k.schedRtRuntimeUs() * 1000L;
        this.rtPeriodNs = k.schedRtPeriodUs() * 1000L;

        bw = new CfsBandwidth[ngroups];
        for (int g = 0; g < ngroups; g++) bw[g] = new CfsBandwidth();
        shares = new long[ngroups];
        Arrays.fill(shares, NICE_0_LOAD);
        groupRunnable = new int[ngroups];
        gUsageNs = new long[ngroups];
        gUserNs = new long[ngroups];
        gSystemNs = new long[ngroups];

        int nq = ngroups * ncpu;
        runtimeRemainingNs = new long[nq];
        throttled = new boolean[nq];
        throttleCount = new int[nq];
        throttledClockNs = new long[nq];
        throttledClockSelfNs = new long[nq];
        Arrays.fill(throttledClockNs, NO_CLOCK);
        Arrays.fill(throttledClockSelfNs, NO_CLOCK);
        throttledClockSelfTimeNs = new long[nq];
        nrQueued = new int[nq];
        hNrRunning = new int[nq];
        minVruntime = new long[nq];
        entHead = new int[nq];
        limboHead = new int[nq];
        thrNext = new int[nq];
        thrPrev = new int[nq];
        csdNext = new int[nq];
        csdPending = new boolean[nq];
        expiresSeq = new int[nq];
        Arrays.fill(entHead, NONE);
        Arrays.fill(limboHead, NONE);

        int ne = ntasks + nq;
        entNext = new int[ne];
        entPrev = new int[ne];
        vruntime = new long[ne];
        onRq = new boolean[ne];

        tGroup = new int[ntasks];
        tCpu = new int[ntasks];
        tState = new int[ntasks];
        tRtPrio = new int[ntasks];
        tPolicy = new Policy[ntasks];
        tAllowed = new BitSet[ntasks];
        workload = new Workload[ntasks];
        segKind = new int[ntasks];
        segRemainingNs = new long[ntasks];
        throttleWorkPending = new boolean[ntasks];
        usageNs = new long[ntasks];
        userNs = new long[ntasks];
        systemNs = new long[ntasks];
        nrSwitches = new long[ntasks];
        nrMigrations = new long[ntasks];
        exitNs = new long[ntasks];
        Arrays.fill(exitNs, -1);
        wakeGen = new long[ntasks];
        pendingWakeups = new int[ntasks];
        cpuTaskNext = new int[ntasks];
        cpuTaskPrev = new int[ntasks];
        limboNext = new int[ntasks];
        limboPrev = new int[ntasks];
        rtNext = new int[ntasks];
        rtPrev = new int[ntasks];

        curr = new int[ncpu];
        Arrays.fill(curr, NONE);
        lastRan = new int[ncpu];
        Arrays.fill(lastRan, NONE);
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
        speed = new double[ncpu];
        Arrays.fill(speed, 1.0);
        needResched = new boolean[ncpu];
        tickArmed = new boolean[ncpu];
        tickGen = new long[ncpu];
        segGen = new long[ncpu];
        pickedAtNs = new long[ncpu];
        cpuTaskHead = new int[ncpu];
        Arrays.fill(cpuTaskHead, NONE);
        rtHead = new int[ncpu];
        Arrays.fill(rtHead, NONE);
        rtQueued = new int[ncpu];
        rtTimeNs = new long[ncpu];
        rtThrottled = new boolean[ncpu];
        csdHead = new int[ncpu];
        csdTail = new int[ncpu];
        Arrays.fill(csdHead, NONE);
        Arrays.fill(csdTail, NONE);
        reschedPending = new boolean[ncpu];
        rqMark = new int[ncpu];
        llcIdle = new int[topo.llcs()];
        for (int c = 0; c < ncpu; c++) llcIdle[topo.llcOf(c)]++;
    }

    // =====================================================================================================
    // Set-up
    // =====================================================================================================

    /** Sets a group's {@code cpu.weight} (1..10000): shares = weight × 1024 / 100 (sched_weight_from_cgroup). */
    public void setWeight(int g, int cpuWeight) {
        shares[g] = Math.max(2, cpuWeight * NICE_0_LOAD / 100);
    }

    /**
     * Initial period timer expiry per {@code kernel.timer_placement}: a random phase in [0, period) (v6.4+,
     * 41abdba93747, drawn with the group's period), 0 (aligned: before 6.4, and interleave's base), or even
     * spacing ({@code spread}). The kernel's expiry is an absolute CLOCK_MONOTONIC time near boot, long past
     * when a scenario starts, so the expiry is placed one second before time 0: arming the timer forwards it
     * onto the grid {@code phase + n·period} (hrtimer_forward_now), and the first period lasts less than one
     * period, as on a machine that booted long ago.
     *
     * @param periodNs the period the group will have when first armed
     */
    public void initTimerPhase(int g, KernelSpec.TimerPlacement placement, int index, int count, long periodNs) {
        CfsBandwidth b = bw[g];
        long phase = switch (placement) {
            case RANDOM -> random.nextLong(periodNs);
            case ALIGNED, INTERLEAVE -> 0;
            case SPREAD -> count == 0 ? 0 : periodNs * index / count;
        };
        b.timerExpiryNs = phase - MAX_CFS_QUOTA_PERIOD_NS;
    }

    /** Adds a task (not yet runnable). */
    public void initTask(int t, int g, Policy policy, int rtPrio, BitSet allowed, Workload w) {
        tGroup[t] = g;
        tPolicy[t] = policy;
        tRtPrio[t] = rtPrio;
        tAllowed[t] = allowed;
        workload[t] = w;
        tState[t] = T_SLEEPING;
        tCpu[t] = allowed.nextSetBit(0);
    }

    /** Forks task t at time now: picks the least-loaded allowed CPU and makes it runnable. */
    public void startTask(int t) {
        int best = NONE;
        long bestKey = Long.MAX_VALUE;
        BitSet a = tAllowed[t];
        for (int c = a.nextSetBit(0); c >= 0 && c < ncpu; c = a.nextSetBit(c + 1)) {
            long key = (long) nrRunnable(c) * 4 + coreLoad(c);
            if (key < bestKey) { bestKey = key; best = c; }
        }
        tCpu[t] = best;
        nextSegment(t);
        if (segKind[t] == Segment.EXIT) { exitTask(t); return; }
        if (segKind[t] == Segment.SLEEP || segKind[t] == Segment.BLOCK) { startSleep(t); return; }
        vruntime[t] = minVruntime[leafQ(t, best)];
        makeRunnable(t, best, false);
        requestResched(best);
    }

    private int coreLoad(int c) {
        int n = 0;
        for (int i = 0; i < topo.siblingCount(c); i++) n += nrRunnable(topo.sibling(c, i));
        return n;
    }

    // =====================================================================================================
    // Event dispatch
    // =====================================================================================================

    /** Handles one kernel event popped from the queue at time {@code now}. */
    public void handle(int type, int target, long arg) {
        switch (type) {
            case EV_TICK -> tick(target, arg);
            case EV_SEGMENT_END -> segmentEnd(target, arg);
            case EV_WAKE -> wake(target, arg);
            case EV_RESCHED -> reschedEvent(target);
            case EV_PERIOD_TIMER -> periodTimer(target, arg);
            case EV_SLACK_TIMER -> slackTimer(target, arg);
            case EV_IPI -> csdUnthrottle(target);
            case EV_RT_PERIOD -> rtPeriod();
            case EV_BALANCE -> balance();
            default -> throw new IllegalStateException("unknown event " + type);
        }
    }

    // =====================================================================================================
    // Index helpers
    // =====================================================================================================

    int leafQ(int t, int c) { return tGroup[t] * ncpu + c; }
    int groupOf(int q) { return q / ncpu; }
    int cpuOf(int q) { return q % ncpu; }
    int parentQ(int q) { return tree.parent(q / ncpu) * ncpu + q % ncpu; }
    boolean isRootQ(int q) { return q < ncpu; }
    int groupEntity(int q) { return ntasks + q; }
    boolean isFair(int t) { return !tPolicy[t].realtime(); }

    /** Runnable tasks a CPU could run now: rq->nr_running (fair h_nr_running of the root plus RT). */
    int nrRunnable(int c) { return hNrRunning[c] + rtQueued[c]; }

    boolean cpuIdle(int c) { return curr[c] == NONE && nrRunnable(c) == 0; }

    // =====================================================================================================
    // Charging: update_curr() at every level, account_cfs_rq_runtime() where a quota applies
    // =====================================================================================================

    /** update_curr() for the running task's whole hierarchy: vruntime, bandwidth, RT time. */
    void updateCurr(int c) {
        int t = curr[c];
        if (t == NONE) return;
        long stolen = stolenElapsed(c);
        long d = now - execStartNs[c] - (stolen - execStolenNs[c]);
        execStartNs[c] = now;
        execStolenNs[c] = stolen;
        if (d <= 0) return;
        if (!isFair(t)) {
            rtTimeNs[c] += d;
            return;
        }
        vruntime[t] += d;
        for (int q = leafQ(t, c); !isRootQ(q); q = parentQ(q)) {
            accountCfsRqRuntime(q, d, t);
            vruntime[groupEntity(q)] += d * NICE_0_LOAD / groupEntityWeight(q);
        }
    }

    /** calc_group_shares(): the group's shares split by this CPU's share of its runnable tasks. */
    long groupEntityWeight(int q) {
        int g = groupOf(q);
        int total = groupRunnable[g];
        long w = total > 0 ? shares[g] * Math.max(1, hNrRunning[q]) / total : shares[g];
        return Math.max(2, w);
    }

    /** account_cfs_rq_runtime() (kernel-model §2.2); {@code t} is the running task being charged. */
    void accountCfsRqRuntime(int q, long deltaNs, int t) {
        CfsBandwidth b = bw[groupOf(q)];
        if (!b.limited()) return;
        if (sliceExpiry && expiresSeq[q] != b.periodSeq && runtimeRemainingNs[q] > 0) {
            runtimeRemainingNs[q] = 0; // pre-5.4: local runtime of an old period expires
        }
        runtimeRemainingNs[q] -= deltaNs;
        if (runtimeRemainingNs[q] > 0 || throttled[q]) return;
        if (assignCfsRqRuntime(q, bandwidthSliceNs)) return;
        int c = cpuOf(q);
        if (throttleModel == Throttle.TASK_ACCOUNT) {
            // 2026 series: throttle right here; the current task parks on its next return to user mode
            if (throttleCfsRq(q, bandwidthSliceNs) && t != NONE) throttleWorkPending[t] = true;
        } else {
            needResched[c] = true;
        }
    }

    /** __assign_cfs_rq_runtime(): top the cfs_rq up to {@code targetNs} from the pool (§2.3). */
    boolean assignCfsRqRuntime(int q, long targetNs) {
        CfsBandwidth b = bw[groupOf(q)];
        long need = targetNs - runtimeRemainingNs[q];
        long amount;
        if (!b.limited()) {
            amount = need;
        } else {
            startCfsBandwidth(b, groupOf(q), cpuOf(q));
            amount = 0;
            if (b.runtimeNs > 0) {
                amount = Math.min(b.runtimeNs, need);
                b.runtimeNs -= amount;
                b.idle = false;
            }
        }
        runtimeRemainingNs[q] += amount;
        expiresSeq[q] = b.periodSeq;
        return runtimeRemainingNs[q] > 0;
    }

    /** check_cfs_rq_runtime(): throttle a cfs_rq that has run out; true if it is (now) throttled. */
    boolean checkCfsRqRuntime(int q) {
        if (!bw[groupOf(q)].limited() || runtimeRemainingNs[q] > 0) return false;
        if (throttled[q]) return true;
        return throttleCfsRq(q, 1);
    }

    /** check_enqueue_throttle(): a cfs_rq that becomes non-empty with a debt is throttled at once (§2.4). */
    void checkEnqueueThrottle(int q) {
        if (!bw[groupOf(q)].limited() || throttled[q] || runsCurr(q)) return;
        accountCfsRqRuntime(q, 0, NONE);
        if (runtimeRemainingNs[q] <= 0) throttleCfsRq(q, 1);
    }

    /** True if the CPU's running fair task is inside cfs_rq q's hierarchy (cfs_rq->curr != NULL). */
    boolean runsCurr(int q) {
        int c = cpuOf(q);
        int t = curr[c];
        if (t == NONE || !isFair(t)) return false;
        for (int x = leafQ(t, c); ; x = parentQ(x)) {
            if (x == q) return true;
            if (isRootQ(x)) return false;
        }
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
            long delta = now - b.timerExpiryNs;
            if (delta >= b.periodNs && incr > 0) b.timerExpiryNs += incr * (delta / incr);
        }
        forwardTimer(b, now);
        b.timerCpu = cpu;
        b.timerGen++;
        events.push(b.timerExpiryNs, EV_PERIOD_TIMER, EV_PERIOD_TIMER, g, b.timerGen);
    }

    private KernelSpec.TimerPlacement placement = KernelSpec.TimerPlacement.RANDOM;

    public void setTimerPlacement(KernelSpec.TimerPlacement p) { placement = p; }

    private boolean interleave(CfsBandwidth b) { return placement == KernelSpec.TimerPlacement.INTERLEAVE; }

    /** hrtimer_forward(): move the expiry past {@code t} by whole periods; returns the overrun count. */
    static long forwardTimer(CfsBandwidth b, long t) {
        if (b.timerExpiryNs > t) return 0;
        long k = (t - b.timerExpiryNs) / b.periodNs + 1;
        b.timerExpiryNs += k * b.periodNs;
        return k;
    }

    /** sched_cfs_period_timer() (§3.2): refill, count, distribute; stops itself after an idle period. */
    void periodTimer(int g, long gen) {
        CfsBandwidth b = bw[g];
        if (gen != b.timerGen || !b.periodActive) return;
        int c = b.timerCpu;
        long elapsed = cost.periodTimerFixedNs();
        boolean deactivate = false;
        int count = 0;
        while (true) {
            long overrun = forwardTimer(b, now + elapsed);
            if (overrun == 0) break;
            long before = elapsedDistribute;
            elapsedDistribute = 0;
            deactivate = doSchedCfsPeriodTimer(b, g, (int) overrun, c);
            elapsed += elapsedDistribute;
            elapsedDistribute = before;
            if (++count > 3) {
                long newPeriod = 2 * b.periodNs;
                if (newPeriod < MAX_CFS_QUOTA_PERIOD_NS) { // 2e8e19226398: scale up rather than lock up
                    b.periodNs = newPeriod;
                    if (b.limited()) b.quotaNs *= 2;
                    b.burstNs *= 2;
                    observer.periodScaled(g, b.periodNs, b.quotaNs);
                }
                count = 0;
            }
        }
        stealIrq(c, elapsed);
        if (deactivate) {
            b.periodActive = false;
        } else {
            b.timerGen++;
            events.push(b.timerExpiryNs, EV_PERIOD_TIMER, EV_PERIOD_TIMER, g, b.timerGen);
        }
    }

    private long elapsedDistribute;

    /** do_sched_cfs_period_timer() (§3.3, v5.14+ order); returns true to deactivate the timer. */
    boolean doSchedCfsPeriodTimer(CfsBandwidth b, int g, int overrun, int cpu) {
        if (!b.limited()) return true;
        boolean throttledAny = b.throttledHead != NONE;
        b.nrPeriods += overrun;
        refill(b);
        if (b.idle && !throttledAny) return true;
        if (!throttledAny) {
            b.idle = true;
            return false;
        }
        b.nrThrottled += overrun;
        while (throttledAny && b.runtimeNs > 0) throttledAny = distributeCfsRuntime(b, g, cpu, false);
        b.idle = false;
        return false;
    }

    /** __refill_cfs_bandwidth_runtime() with burst and its statistics (§3.5, v5.16+). */
    void refill(CfsBandwidth b) {
        if (!b.limited()) return;
        b.runtimeNs += b.quotaNs;
        long beyond = b.runtimeSnapNs - b.runtimeNs;
        if (beyond > 0) {
            b.burstTimeNs += beyond;
            b.nrBurst++;
        }
        b.runtimeNs = Math.min(b.runtimeNs, b.quotaNs + b.burstNs);
        b.runtimeSnapNs = b.runtimeNs;
        b.periodSeq++;
    }

    /** return_cfs_rq_runtime(): an emptied cfs_rq keeps 1 ms and returns the rest (§2.6). */
    void returnCfsRqRuntime(int q) {
        CfsBandwidth b = bw[groupOf(q)];
        if (!b.limited()) return;
        long slack = runtimeRemainingNs[q] - MIN_CFS_RQ_RUNTIME_NS;
        if (slack <= 0) return;
        b.runtimeNs += slack;
        if (b.runtimeNs > bandwidthSliceNs && b.throttledHead != NONE) startCfsSlackBandwidth(b, groupOf(q), cpuOf(q));
        runtimeRemainingNs[q] -= slack;
    }

    void startCfsSlackBandwidth(CfsBandwidth b, int g, int cpu) {
        long remaining = b.periodActive ? b.timerExpiryNs - now : -1;
        if (remaining < CFS_BANDWIDTH_SLACK_PERIOD_NS + MIN_BANDWIDTH_EXPIRATION_NS) return;
        if (b.slackStarted) return;
        b.slackStarted = true;
        b.slackCpu = cpu;
        b.slackGen++;
        events.push(now + CFS_BANDWIDTH_SLACK_PERIOD_NS, EV_SLACK_TIMER, EV_SLACK_TIMER, g, b.slackGen);
    }

    /** sched_cfs_slack_timer(): hand returned runtime to throttled cfs_rqs mid-period. */
    void slackTimer(int g, long gen) {
        CfsBandwidth b = bw[g];
        if (gen != b.slackGen || !b.slackStarted) return;
        b.slackStarted = false;
        if (b.periodActive && b.timerExpiryNs - now < MIN_BANDWIDTH_EXPIRATION_NS) return;
        if (b.limited() && b.runtimeNs > bandwidthSliceNs) {
            elapsedDistribute = 0;
            distributeCfsRuntime(b, g, b.slackCpu, true);
            stealIrq(b.slackCpu, elapsedDistribute);
            elapsedDistribute = 0;
        }
    }

    // =====================================================================================================
    // distribute_cfs_runtime() and unthrottling
    // =====================================================================================================

    /**
     * distribute_cfs_runtime() (§3.4): walk the throttled list from the head, give each cfs_rq exactly its
     * debt + 1 ns, unthrottle it inline (sync) or through its CPU's CSD list and one IPI (async, the local
     * one last). Records the call's modelled duration and counters.
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
                int next = thrNext[q];
                if (b.runtimeNs == 0) { throttledRemain = true; break; }
                if (throttled[q] && !csdPending[q]) {
                    long give = Math.min(-runtimeRemainingNs[q] + 1, b.runtimeNs);
                    b.runtimeNs -= give;
                    runtimeRemainingNs[q] += give;
                    if (runtimeRemainingNs[q] > 0) {
                        int c = cpuOf(q);
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
            if (local != NONE && throttled[local]) {
                long walked = unthrottleCfsRq(local);
                cfsRqs = (int) (walked >>> 32);
                tasks = (int) walked;
                costNs += cfsRqs * cost.unthrottleLocalCfsRqNs() + tasks * cost.enqueueTaskNs();
                rqs++;
            }
        } else {
            for (int q = b.throttledHead; q != NONE; ) {
                int next = thrNext[q];
                if (throttled[q]) {
                    long give = Math.min(-runtimeRemainingNs[q] + 1, b.runtimeNs);
                    b.runtimeNs -= give;
                    runtimeRemainingNs[q] += give;
                    if (runtimeRemainingNs[q] > 0) {
                        int c = cpuOf(q);
                        if (rqMark[c] != epoch) { rqMark[c] = epoch; rqs++; costNs += cost.rqLockNs(); }
                        long walked = unthrottleCfsRq(q);
                        cfsRqs += (int) (walked >>> 32);
                        tasks += (int) walked;
                    }
                    if (b.runtimeNs == 0) break;
                }
                q = next;
            }
            costNs += (long) cfsRqs * cost.unthrottleSyncCfsRqNs() + (long) tasks * cost.enqueueTaskNs();
            throttledRemain = b.throttledHead != NONE;
        }
        elapsedDistribute += costNs;
        observer.distribute(now, thisCpu, g, costNs, rqs, remote, cfsRqs, tasks, slack);
        return throttledRemain;
    }

    /** unthrottle_cfs_rq_async(): queue on the target CPU's CSD list; one IPI when the list was empty. */
    void queueCsd(int q, int c, long delayNs) {
        csdPending[q] = true;
        csdNext[q] = NONE;
        if (csdHead[c] == NONE) {
            csdHead[c] = q;
            csdTail[c] = q;
            events.push(now + delayNs + cost.ipiLatencyNs(), EV_IPI, EV_IPI, c, 0);
        } else {
            csdNext[csdTail[c]] = q;
            csdTail[c] = q;
        }
    }

    /** __cfsb_csd_unthrottle(): the IPI handler unthrottles this CPU's queued cfs_rqs, paying for it. */
    void csdUnthrottle(int c) {
        long costNs = cost.ipiHandlerFixedNs();
        int q = csdHead[c];
        csdHead[c] = NONE;
        csdTail[c] = NONE;
        while (q != NONE) {
            int next = csdNext[q];
            csdPending[q] = false;
            if (throttled[q]) {
                long walked = unthrottleCfsRq(q);
                costNs += (walked >>> 32) * cost.unthrottleLocalCfsRqNs() + (int) walked * cost.enqueueTaskNs();
            }
            q = next;
        }
        stealIrq(c, costNs);
    }

    /**
     * unthrottle_cfs_rq() (§3.7): stop the throttled clock, leave the throttled list, walk the subtree on this
     * CPU post-order ({@code tg_unthrottle_up}) and bring tasks back (limbo lists in the task models, the
     * group entity chain in the cfs_rq model).
     *
     * @return cfs_rqs walked in the upper 32 bits, tasks enqueued in the lower 32
     */
    long unthrottleCfsRq(int q) {
        if (taskBased && runtimeRemainingNs[q] <= 0) return 0; // 6.18: never unthrottle without runtime
        int g = groupOf(q), c = cpuOf(q);
        CfsBandwidth b = bw[g];
        throttled[q] = false;
        if (throttledClockNs[q] != NO_CLOCK) {
            b.throttledTimeNs += now - throttledClockNs[q];
            throttledClockNs[q] = NO_CLOCK;
        }
        listRemoveThrottled(b, q);
        if (csdPending[q]) removeCsd(q, c);
        int tasks = 0;
        int size = tree.subtreeSize(g);
        for (int gg = g + size - 1; gg >= g; gg--) { // post-order: descendants before ancestors
            int x = gg * ncpu + c;
            if (--throttleCount[x] == 0) {
                if (throttledClockSelfNs[x] != NO_CLOCK) {
                    throttledClockSelfTimeNs[x] += now - throttledClockSelfNs[x];
                    throttledClockSelfNs[x] = NO_CLOCK;
                }
                if (taskBased) tasks += unparkLimbo(x, c);
            }
        }
        if (!taskBased) tasks = reattachGroupEntity(q);
        if (curr[c] == NONE && nrRunnable(c) > 0) requestResched(c);
        return ((long) size << 32) | tasks;
    }

    private void removeCsd(int q, int c) {
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

    /** Task models: enqueue every task parked on cfs_rq x's limbo list (wake-up style). */
    private int unparkLimbo(int x, int c) {
        int n = 0;
        for (int t = limboHead[x]; t != NONE; ) {
            int next = limboNext[t];
            limboHead[x] = next;
            if (next != NONE) limboPrev[next] = NONE;
            tState[t] = T_RUNNABLE;
            enqueueTask(t, c, true);
            n++;
            t = next;
        }
        return n;
    }

    /** cfs_rq model: re-enqueue the group entity chain up to the first throttled ancestor. */
    private int reattachGroupEntity(int q) {
        int delta = hNrRunning[q];
        if (nrQueued[q] == 0) return 0;
        boolean structural = true;
        int se = groupEntity(q);
        for (int x = parentQ(q); ; x = parentQ(x)) {
            if (structural) {
                if (!onRq[se]) {
                    placeEntity(x, se);
                    entAdd(x, se);
                } else {
                    structural = false;
                }
            }
            addRunnable(x, delta);
            if (throttled[x] || isRootQ(x)) break;
            se = groupEntity(x);
        }
        return delta;
    }

    // =====================================================================================================
    // throttle_cfs_rq()
    // =====================================================================================================

    /**
     * throttle_cfs_rq() (§4.0–4.3): last-chance grant of {@code targetNs}, append to the throttled list, mark
     * the subtree on this CPU ({@code tg_throttle_down}), start the clocks per {@code throttled_clock_start},
     * and in the cfs_rq model dequeue the group entity chain.
     *
     * @return true if the cfs_rq is throttled afterwards
     */
    boolean throttleCfsRq(int q, long targetNs) {
        if (throttled[q]) return true;
        if (assignCfsRqRuntime(q, targetNs)) return false;
        int g = groupOf(q), c = cpuOf(q);
        CfsBandwidth b = bw[g];
        listAddThrottled(b, q);
        int size = tree.subtreeSize(g);
        for (int gg = g; gg < g + size; gg++) { // pre-order
            int x = gg * ncpu + c;
            if (throttleCount[x]++ == 0) {
                if (clockStart == ThrottledClockStart.THROTTLE
                        || (clockStart == ThrottledClockStart.NONEMPTY && hNrRunning[x] > 0)) {
                    throttledClockSelfNs[x] = now;
                }
            }
        }
        throttled[q] = true;
        if (clockStart == ThrottledClockStart.THROTTLE
                || (clockStart == ThrottledClockStart.NONEMPTY && hNrRunning[q] > 0)) {
            throttledClockNs[q] = now;
        }
        if (!taskBased) detachGroupEntity(q);
        steal(c, size * cost.throttleCfsRqNs());
        observer.throttle(now, c, g);
        return true;
    }

    /** cfs_rq model: dequeue the group entity and every ancestor entity that becomes empty. */
    private void detachGroupEntity(int q) {
        int se = groupEntity(q);
        if (!onRq[se]) return;
        int delta = hNrRunning[q];
        boolean structural = true;
        for (int x = parentQ(q); ; x = parentQ(x)) {
            if (structural) {
                entRemove(x, se);
                if (nrQueued[x] > 0) structural = false;
            }
            addRunnable(x, -delta);
            if (throttled[x] || isRootQ(x)) break;
            se = groupEntity(x);
            if (!onRq[se]) structural = false;
        }
    }

    private void listAddThrottled(CfsBandwidth b, int q) {
        if (b.throttledHead == NONE) {
            thrPrev[q] = NONE;
            thrNext[q] = NONE;
            b.throttledHead = b.throttledTail = q;
        } else if (insertHead) {
            thrPrev[q] = NONE;
            thrNext[q] = b.throttledHead;
            thrPrev[b.throttledHead] = q;
            b.throttledHead = q;
        } else {
            thrNext[q] = NONE;
            thrPrev[q] = b.throttledTail;
            thrNext[b.throttledTail] = q;
            b.throttledTail = q;
        }
    }

    private void listRemoveThrottled(CfsBandwidth b, int q) {
        int p = thrPrev[q], n = thrNext[q];
        if (p == NONE) b.throttledHead = n; else thrNext[p] = n;
        if (n == NONE) b.throttledTail = p; else thrPrev[n] = p;
        thrPrev[q] = thrNext[q] = NONE;
    }

    /**
     * Task models: task t dequeues itself on its way back to user mode and parks on its own cfs_rq's limbo
     * list; the first park of a throttled hierarchy starts its throttled clocks (eb962f251fbb).
     */
    void parkTask(int t, int c) {
        dequeueTask(t, c);
        tState[t] = T_PARKED;
        throttleWorkPending[t] = false;
        int q = leafQ(t, c);
        limboPrev[t] = NONE;
        limboNext[t] = limboHead[q];
        if (limboHead[q] != NONE) limboPrev[limboHead[q]] = t;
        limboHead[q] = t;
        if (clockStart == ThrottledClockStart.FIRST_PARK) {
            for (int x = q; !isRootQ(x); x = parentQ(x)) {
                if (throttleCount[x] == 0) continue;
                if (throttledClockSelfNs[x] == NO_CLOCK) throttledClockSelfNs[x] = now;
                if (throttled[x] && throttledClockNs[x] == NO_CLOCK) throttledClockNs[x] = now;
            }
        }
        steal(c, cost.taskParkNs());
        observer.park(now, c, t);
    }

    private void unlinkLimbo(int t) {
        int q = leafQ(t, tCpu[t]);
        int p = limboPrev[t], n = limboNext[t];
        if (p == NONE) limboHead[q] = n; else limboNext[p] = n;
        if (n != NONE) limboPrev[n] = p;
    }

    // =====================================================================================================
    // Enqueue / dequeue of tasks and entities
    // =====================================================================================================

    void entAdd(int q, int se) {
        int h = entHead[q];
        entPrev[se] = NONE;
        entNext[se] = h;
        if (h != NONE) entPrev[h] = se;
        entHead[q] = se;
        onRq[se] = true;
        nrQueued[q]++;
    }

    void entRemove(int q, int se) {
        int p = entPrev[se], n = entNext[se];
        if (p == NONE) entHead[q] = n; else entNext[p] = n;
        if (n != NONE) entPrev[n] = p;
        onRq[se] = false;
        nrQueued[q]--;
    }

    /** place_entity(): a waking entity gets no more than half a slice of credit below min_vruntime. */
    void placeEntity(int q, int se) {
        long floor = minVruntime[q] - schedSliceNs / 2;
        if (vruntime[se] < floor) vruntime[se] = floor;
    }

    private void addRunnable(int x, int delta) {
        hNrRunning[x] += delta;
        groupRunnable[groupOf(x)] += delta;
    }

    /**
     * enqueue_task_fair(): enqueue entities upwards while they are off the runqueue; the runnable counts stop
     * at a throttled cfs_rq in the cfs_rq model (its subtree is detached).
     */
    void enqueueTask(int t, int c, boolean wakeup) {
        int q = leafQ(t, c);
        if (wakeup) placeEntity(q, t);
        cpuTaskAdd(c, t);
        boolean structural = true;
        int se = t;
        for (int x = q; ; x = parentQ(x)) {
            if (structural) {
                if (!onRq[se]) {
                    if (se != t) placeEntity(x, se);
                    entAdd(x, se);
                    if (nrQueued[x] == 1 && !isRootQ(x)) checkEnqueueThrottle(x);
                } else {
                    structural = false;
                }
            }
            addRunnable(x, 1);
            if (clockStart == ThrottledClockStart.NONEMPTY && throttleCount[x] > 0) {
                if (throttledClockSelfNs[x] == NO_CLOCK) throttledClockSelfNs[x] = now;
                if (throttled[x] && throttledClockNs[x] == NO_CLOCK) throttledClockNs[x] = now;
            }
            if ((!taskBased && throttled[x]) || isRootQ(x)) break;
            se = groupEntity(x);
        }
        onAvailabilityChange(c);
    }

    /** dequeue_task_fair(): dequeue entities upwards while their cfs_rq empties; return slack on empty ones. */
    void dequeueTask(int t, int c) {
        int q = leafQ(t, c);
        cpuTaskRemove(c, t);
        boolean structural = true;
        int se = t;
        for (int x = q; ; x = parentQ(x)) {
            if (structural && onRq[se]) {
                entRemove(x, se);
                if (nrQueued[x] == 0) {
                    if (!isRootQ(x)) returnCfsRqRuntime(x);
                } else {
                    structural = false;
                }
            } else {
                structural = false;
            }
            addRunnable(x, -1);
            if ((!taskBased && throttled[x]) || isRootQ(x)) break;
            se = groupEntity(x);
        }
        onAvailabilityChange(c);
    }

    private void cpuTaskAdd(int c, int t) {
        int h = cpuTaskHead[c];
        cpuTaskPrev[t] = NONE;
        cpuTaskNext[t] = h;
        if (h != NONE) cpuTaskPrev[h] = t;
        cpuTaskHead[c] = t;
    }

    private void cpuTaskRemove(int c, int t) {
        int p = cpuTaskPrev[t], n = cpuTaskNext[t];
        if (p == NONE) cpuTaskHead[c] = n; else cpuTaskNext[p] = n;
        if (n != NONE) cpuTaskPrev[n] = p;
    }

    /** Task t becomes runnable on CPU c (fair or RT). */
    void makeRunnable(int t, int c, boolean wakeup) {
        tCpu[t] = c;
        tState[t] = T_RUNNABLE;
        if (isFair(t)) enqueueTask(t, c, wakeup);
        else rtEnqueue(t, c);
    }

    /** Task t (queued, not running) leaves its runqueue. */
    void makeUnqueued(int t, int c) {
        if (tState[t] == T_PARKED) {
            unlinkLimbo(t);
            tState[t] = T_SLEEPING;
            return;
        }
        if (isFair(t)) dequeueTask(t, c);
        else rtDequeue(t, c);
    }

    // ---- RT class: a FIFO list per CPU, highest sched_priority first ----

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
        cpuTaskAdd(c, t);
        onAvailabilityChange(c);
    }

    void rtDequeue(int t, int c) {
        int p = rtPrev[t], n = rtNext[t];
        if (p == NONE) rtHead[c] = n; else rtNext[p] = n;
        if (n != NONE) rtPrev[n] = p;
        rtQueued[c]--;
        cpuTaskRemove(c, t);
        onAvailabilityChange(c);
    }

    int rtPick(int c) {
        int best = NONE;
        for (int t = rtHead[c]; t != NONE; t = rtNext[t]) if (best == NONE || tRtPrio[t] > tRtPrio[best]) best = t;
        return best;
    }

    // =====================================================================================================
    // schedule(), pick, ticks
    // =====================================================================================================

    /** Asks CPU c to reschedule soon (resched_curr() of a remote or idle CPU): an event right after this one. */
    void requestResched(int c) {
        if (reschedPending[c]) return;
        reschedPending[c] = true;
        events.push(now, EV_RESCHED, EV_RESCHED, c, 0);
    }

    private void reschedEvent(int c) {
        reschedPending[c] = false;
        int t = curr[c];
        if (t == NONE) {
            if (nrRunnable(c) > 0) schedule(c);
            return;
        }
        // an RT task became runnable here, or a fair task on an otherwise idle CPU: preempt if allowed
        boolean rtWaiting = rtQueued[c] > (isFair(t) ? 0 : 1) && !rtThrottled[c] && rtPick(c) != t
                && (isFair(t) || tRtPrio[rtPick(c)] > tRtPrio[t]);
        if (rtWaiting || needResched[c]) {
            needResched[c] = true;
            if (preemptible(t)) schedule(c);
        }
    }

    boolean preemptible(int t) { return segKind[t] == Segment.RUN_USER || preemptKernel; }

    /**
     * __schedule(): put the previous task back (charging it and running check_cfs_rq_runtime at every level),
     * pick the next one (RT first, unless RT-throttled; then the fair hierarchy), park tasks of throttled
     * hierarchies that are returning to user mode (task models), and start the winner.
     */
    void schedule(int c) {
        needResched[c] = false;
        int prev = curr[c];
        if (prev != NONE) {
            updateCurr(c);
            flushStats(c);
            settle(c);
            segGen[c]++;
            curr[c] = NONE;
            tState[prev] = T_RUNNABLE; // still queued (fair or RT) until picked again or parked
            if (isFair(prev)) {
                for (int x = leafQ(prev, c); !isRootQ(x); x = parentQ(x)) checkCfsRqRuntime(x);
            }
        }
        int next = NONE;
        boolean balanced = false;
        while (true) {
            if (rtQueued[c] > 0 && !rtThrottled[c]) {
                next = rtPick(c);
                break;
            }
            next = pickFair(c);
            if (next == NONE) {
                if (balanced || !newIdleBalance(c)) break;
                balanced = true;
                continue;
            }
            if (taskBased && lastPickThrottled) {
                if (segKind[next] == Segment.RUN_USER) {
                    // picked, returns to user mode, runs its throttle task work and dequeues itself
                    parkTask(next, c);
                    continue;
                }
                throttleWorkPending[next] = true;
            }
            break;
        }
        if (next == NONE) {
            onAvailabilityChange(c);
            return;
        }
        if (next != lastRan[c]) {
            nrSwitches[next]++;
            steal(c, cost.contextSwitchNs());
        }
        lastRan[c] = next;
        curr[c] = next;
        tState[next] = T_RUNNING;
        execStartNs[c] = statStartNs[c] = segStartNs[c] = now;
        execStolenNs[c] = statStolenNs[c] = segStolenNs[c] = stolenElapsed(c);
        pickedAtNs[c] = now;
        armSegmentEnd(c);
        ensureTick(c);
        onAvailabilityChange(c);
    }

    /**
     * pick_next_entity() from the root down; runs check_cfs_rq_runtime() at each level. cfs_rq model: a level
     * throttled during the pick is dequeued and the pick restarts. Task models: the pick continues and
     * {@link #lastPickThrottled} records that a throttled level was crossed.
     */
    int pickFair(int c) {
        restart:
        while (true) {
            lastPickThrottled = false;
            int x = c;
            while (true) {
                if (nrQueued[x] == 0) return NONE;
                if (!isRootQ(x)) {
                    if (checkCfsRqRuntime(x)) {
                        if (!taskBased) continue restart;
                        lastPickThrottled = true;
                    }
                    if (throttleCount[x] > 0) lastPickThrottled = true;
                }
                int best = entHead[x];
                long bv = vruntime[best];
                for (int e = entNext[best]; e != NONE; e = entNext[e]) {
                    long v = vruntime[e];
                    if (v < bv || (v == bv && e < best)) { best = e; bv = v; }
                }
                if (bv > minVruntime[x]) minVruntime[x] = bv;
                if (best < ntasks) return best;
                x = best - ntasks;
            }
        }
    }

    /** Scheduler tick: charge, slice expiry, RT throttling; preempt at the interrupt's return if allowed. */
    void tick(int c, long gen) {
        if (gen != tickGen[c]) return;
        int t = curr[c];
        if (t == NONE) { tickArmed[c] = false; return; } // NOHZ idle
        updateCurr(c);
        if (isFair(t)) {
            if (now - pickedAtNs[c] >= schedSliceNs && hNrRunning[c] > 1) needResched[c] = true;
            if (throttleWorkPending[t] && segKind[t] == Segment.RUN_USER) needResched[c] = true;
        } else {
            if (rtRuntimeNs >= 0 && rtTimeNs[c] >= rtRuntimeNs && !rtThrottled[c]) {
                rtThrottled[c] = true;
                needResched[c] = true;
            }
            if (tPolicy[t] == Policy.RR && now - pickedAtNs[c] >= RR_TIMESLICE_NS) {
                rtDequeue(t, c);
                rtEnqueue(t, c); // to the tail of its list
                pickedAtNs[c] = now;
                if (rtQueued[c] > 1) needResched[c] = true;
            }
        }
        if (needResched[c] && preemptible(t)) schedule(c);
        tickGen[c]++;
        events.push(now + tickNs, EV_TICK, EV_TICK, c, tickGen[c]);
    }

    void ensureTick(int c) {
        if (tickArmed[c]) return;
        tickArmed[c] = true;
        tickGen[c]++;
        long next = (now / tickNs + 1) * tickNs; // ticks stay on the jiffies grid
        events.push(next, EV_TICK, EV_TICK, c, tickGen[c]);
    }

    /** Global RT period boundary: reset RT time and lift RT throttling (sched_rt_period_timer). */
    void rtPeriod() {
        for (int c = 0; c < ncpu; c++) {
            rtTimeNs[c] = 0;
            if (rtThrottled[c]) {
                rtThrottled[c] = false;
                if (rtQueued[c] > 0) { needResched[c] = true; requestResched(c); }
            }
        }
        events.push(now + rtPeriodNs, EV_RT_PERIOD, EV_RT_PERIOD, 0, 0);
    }

    // =====================================================================================================
    // Workload segments, sleeping, waking
    // =====================================================================================================

    private void nextSegment(int t) {
        workload[t].next(this, seg);
        segKind[t] = seg.kind;
        segRemainingNs[t] = seg.amountNs;
    }

    /** Progress of the running task's segment up to now, at this CPU's speed, minus stolen time. */
    void settle(int c) {
        int t = curr[c];
        if (t == NONE) return;
        if (segRemainingNs[t] != Long.MAX_VALUE) {
            long ran = now - segStartNs[c] - (stolenElapsed(c) - segStolenNs[c]);
            if (ran > 0) segRemainingNs[t] = Math.max(0, segRemainingNs[t] - (long) (ran * speed[c]));
        }
        segStartNs[c] = now;
        segStolenNs[c] = stolenElapsed(c);
    }

    void armSegmentEnd(int c) {
        int t = curr[c];
        segGen[c]++;
        long rem = segRemainingNs[t];
        if (rem == Long.MAX_VALUE) return;
        long wall = (long) Math.ceil(rem / speed[c]);
        events.push(now + Math.max(wall, 0), EV_SEGMENT_END, EV_SEGMENT_END, c, segGen[c]);
    }

    /** The running task's segment should be over: move it to its next stretch. */
    void segmentEnd(int c, long gen) {
        if (gen != segGen[c]) return;
        int t = curr[c];
        if (t == NONE) return;
        settle(c);
        if (segRemainingNs[t] > 0) { armSegmentEnd(c); return; } // delayed by interrupts or SMT
        flushStats(c);
        int prevKind = segKind[t];
        nextSegment(t);
        switch (segKind[t]) {
            case Segment.RUN_USER -> {
                if (prevKind == Segment.RUN_KERNEL) {
                    // return to user mode: task work (park) and deferred preemption happen here
                    if (taskBased && throttleWorkPending[t]) {
                        throttleWorkPending[t] = false;
                        if (throttleCount[leafQ(t, c)] > 0 && isFair(t)) {
                            updateCurr(c);
                            curr[c] = NONE;
                            segGen[c]++;
                            parkTask(t, c);
                            schedule(c);
                            return;
                        }
                    }
                    if (needResched[c]) { schedule(c); return; }
                }
                armSegmentEnd(c);
            }
            case Segment.RUN_KERNEL -> armSegmentEnd(c);
            case Segment.SLEEP, Segment.BLOCK -> {
                updateCurr(c);
                curr[c] = NONE;
                segGen[c]++;
                throttleWorkPending[t] = false;
                if (isFair(t)) dequeueTask(t, c); else rtDequeue(t, c);
                startSleep(t);
                schedule(c);
            }
            default -> { // EXIT
                updateCurr(c);
                curr[c] = NONE;
                segGen[c]++;
                if (isFair(t)) dequeueTask(t, c); else rtDequeue(t, c);
                exitTask(t);
                schedule(c);
            }
        }
    }

    private void startSleep(int t) {
        if (segKind[t] == Segment.BLOCK) {
            if (pendingWakeups[t] > 0) {
                pendingWakeups[t]--;
                tState[t] = T_BLOCKED;
                wakeGen[t]++;
                events.push(now, EV_WAKE, EV_WAKE, t, wakeGen[t]);
                return;
            }
            tState[t] = T_BLOCKED;
            return;
        }
        tState[t] = T_SLEEPING;
        wakeGen[t]++;
        events.push(now + segRemainingNs[t], EV_WAKE, EV_WAKE, t, wakeGen[t]);
    }

    private void exitTask(int t) {
        tState[t] = T_EXITED;
        exitNs[t] = now;
        observer.exit(now, t);
    }

    /** A sleeping or blocked task wakes: next stretch, select_task_rq(), enqueue, preempt an idle CPU. */
    void wake(int t, long gen) {
        if (gen != wakeGen[t] || (tState[t] != T_SLEEPING && tState[t] != T_BLOCKED)) return;
        nextSegment(t);
        while (segKind[t] == Segment.SLEEP && segRemainingNs[t] == 0) nextSegment(t);
        if (segKind[t] == Segment.EXIT) { exitTask(t); return; }
        if (segKind[t] == Segment.SLEEP || segKind[t] == Segment.BLOCK) { startSleep(t); return; }
        int c = selectTaskRq(t);
        if (c != tCpu[t]) {
            migrateVruntime(t, tCpu[t], c);
            nrMigrations[t]++;
        }
        makeRunnable(t, c, true);
        wakeupPreempt(c, t);
    }

    @Override
    public long nowNs() { return now; }

    @Override
    public void wake(int t) {
        if (tState[t] == T_BLOCKED) {
            wakeGen[t]++;
            events.push(now, EV_WAKE, EV_WAKE, t, wakeGen[t]);
        } else if (tState[t] != T_EXITED) {
            pendingWakeups[t]++;
        }
    }

    /** check_preempt: an idle CPU always picks; RT preempts fair; fair waits for the tick (no wake-up preemption). */
    void wakeupPreempt(int c, int t) {
        int cur = curr[c];
        if (cur == NONE || (!isFair(t) && (isFair(cur) || tRtPrio[t] > tRtPrio[cur]))) {
            if (cur != NONE) needResched[c] = true;
            requestResched(c);
        }
    }

    /** select_task_rq(): previous CPU if idle, else an idle CPU of its LLC (idle core first), else previous. */
    int selectTaskRq(int t) {
        int prev = tCpu[t];
        BitSet a = tAllowed[t];
        boolean prevOk = a.get(prev);
        if (prevOk && cpuIdle(prev) && !rtBusy(prev, t)) return prev;
        int llc = topo.llcOf(prevOk ? prev : a.nextSetBit(0));
        if (llcIdle[llc] > 0) {
            int idleCpu = NONE;
            for (int c = a.nextSetBit(0); c >= 0 && c < ncpu; c = a.nextSetBit(c + 1)) {
                if (topo.llcOf(c) != llc || !cpuIdle(c)) continue;
                if (coreLoad(c) == 0 && siblingsIdle(c)) return c;
                if (idleCpu == NONE) idleCpu = c;
            }
            if (idleCpu != NONE) return idleCpu;
        }
        if (prevOk && !(isFair(t) ? false : rtBusy(prev, t))) return prev;
        int best = NONE, bestLoad = Integer.MAX_VALUE;
        for (int c = a.nextSetBit(0); c >= 0 && c < ncpu; c = a.nextSetBit(c + 1)) {
            int l = nrRunnable(c) + (curr[c] == NONE ? 0 : 1);
            if (l < bestLoad) { bestLoad = l; best = c; }
        }
        return best;
    }

    private boolean rtBusy(int c, int t) {
        return !isFair(t) && curr[c] != NONE && !isFair(curr[c]);
    }

    private boolean siblingsIdle(int c) {
        for (int i = 0; i < topo.siblingCount(c); i++) if (curr[topo.sibling(c, i)] != NONE) return false;
        return true;
    }

    void migrateVruntime(int t, int from, int to) {
        vruntime[t] = vruntime[t] - minVruntime[leafQ(t, from)] + minVruntime[leafQ(t, to)];
    }

    // =====================================================================================================
    // Load balancing
    // =====================================================================================================

    /** Starts the periodic balancer. */
    public void startBalancer() {
        events.push(now + BALANCE_INTERVAL_NS, EV_BALANCE, EV_BALANCE, 0, 0);
    }

    /**
     * Periodic load balance: CPUs with more than the average (rounded up) runnable tasks give queued,
     * migratable fair tasks to CPUs below the average (rounded down), so N hogs on M CPUs end up evenly
     * spread. Throttled hierarchies are left alone (throttled_lb_pair / can_migrate_task).
     */
    void balance() {
        events.push(now + BALANCE_INTERVAL_NS, EV_BALANCE, EV_BALANCE, 0, 0);
        long total = 0;
        for (int c = 0; c < ncpu; c++) total += load(c);
        int floor = (int) (total / ncpu);
        int ceil = (int) ((total + ncpu - 1) / ncpu);
        int recv = 0;
        for (int donor = 0; donor < ncpu; donor++) {
            while (load(donor) > Math.max(ceil, 1)) {
                while (recv < ncpu && load(recv) >= Math.max(floor, 1) && !(load(recv) < ceil && load(donor) > ceil + 0)) recv++;
                if (recv >= ncpu) return;
                if (load(recv) >= load(donor) - 1) { recv++; continue; }
                if (!pullOne(donor, recv)) break;
            }
        }
    }

    /** Runnable plus running tasks on a CPU. */
    int load(int c) {
        int running = curr[c] != NONE && tState[curr[c]] == T_RUNNING ? 1 : 0;
        return nrRunnable(c) - (running == 1 && isQueuedTask(curr[c]) ? 1 : 0) + running;
    }

    private boolean isQueuedTask(int t) { return isFair(t) ? onRq[t] : true; }

    /** New-idle balance: an idle CPU pulls one task from the busiest CPU. */
    boolean newIdleBalance(int c) {
        int busiest = NONE, most = 1;
        for (int s = 0; s < ncpu; s++) {
            if (s == c) continue;
            int l = load(s);
            if (l > most) { most = l; busiest = s; }
        }
        return busiest != NONE && pullOne(busiest, c);
    }

    /** Moves one queued, not running, migratable fair task from src to dst. */
    boolean pullOne(int src, int dst) {
        for (int t = cpuTaskHead[src]; t != NONE; t = cpuTaskNext[t]) {
            if (t == curr[src] || !isFair(t) || tState[t] != T_RUNNABLE || !tAllowed[t].get(dst)) continue;
            if (throttleCount[leafQ(t, src)] > 0 || throttleCount[leafQ(t, dst)] > 0) continue;
            dequeueTask(t, src);
            migrateVruntime(t, src, dst);
            tCpu[t] = dst;
            nrMigrations[t]++;
            enqueueTask(t, dst, false);
            if (curr[dst] == NONE) requestResched(dst);
            return true;
        }
        return false;
    }

    // =====================================================================================================
    // Interrupt time, SMT speed, statistics
    // =====================================================================================================

    /**
     * Scheduler overhead on CPU c (context switch, throttle walk, park): the CPU spends the next {@code ns}
     * (after any overhead already pending) on it, and whatever runs makes no progress and is not charged.
     */
    void steal(int c, long ns) {
        if (ns <= 0) return;
        stolenNs[c] += ns;
        stolenUntilNs[c] = Math.max(stolenUntilNs[c], now) + ns;
    }

    /** Interrupt handler time on CPU c (period/slack timer, async-unthrottle IPI): stolen and counted as irq. */
    void stealIrq(int c, long ns) {
        if (ns <= 0) return;
        steal(c, ns);
        irqNs[c] += ns;
    }

    /**
     * Stolen time that has elapsed on CPU c by now: a steal occupies the interval after it is made, so an
     * accounting point inside that interval only discounts the part already past (never charging a negative
     * delta, never charging interrupt time later).
     */
    long stolenElapsed(int c) {
        return stolenNs[c] - Math.max(0, stolenUntilNs[c] - now);
    }

    /** Keeps the idle-CPU count per LLC and SMT siblings' speed in step with CPU c's busy state. */
    void onAvailabilityChange(int c) {
        boolean idleNow = curr[c] == NONE && nrRunnable(c) == 0;
        if (idleNow != wasIdle(c)) {
            setWasIdle(c, idleNow);
            llcIdle[topo.llcOf(c)] += idleNow ? 1 : -1;
        }
        if (topo.smt() > 1) {
            for (int i = 0; i < topo.siblingCount(c); i++) updateSpeed(topo.sibling(c, i));
            updateSpeed(c);
        }
    }

    private BitSet idleCpus;

    private boolean wasIdle(int c) {
        if (idleCpus == null) { idleCpus = new BitSet(ncpu); idleCpus.set(0, ncpu); }
        return idleCpus.get(c);
    }

    private void setWasIdle(int c, boolean v) { idleCpus.set(c, v); }

    private void updateSpeed(int c) {
        boolean siblingBusy = false;
        for (int i = 0; i < topo.siblingCount(c); i++) if (curr[topo.sibling(c, i)] != NONE) siblingBusy = true;
        double s = siblingBusy ? smtBusySpeed : 1.0;
        if (s == speed[c]) return;
        if (curr[c] != NONE) settle(c);
        speed[c] = s;
        if (curr[c] != NONE && segRemainingNs[curr[c]] != Long.MAX_VALUE) armSegmentEnd(c);
    }

    /** Attributes the running task's time since the last flush to it and its groups (user or system). */
    void flushStats(int c) {
        int t = curr[c];
        if (t == NONE) return;
        long stolen = stolenElapsed(c);
        long d = now - statStartNs[c] - (stolen - statStolenNs[c]);
        statStartNs[c] = now;
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

    /** Flushes every running task's statistics up to now (for sampling and the end of the run). */
    public void flushAllStats() {
        for (int c = 0; c < ncpu; c++) flushStats(c);
    }

    // =====================================================================================================
    // Timeline actions
    // =====================================================================================================

    /**
     * tg_set_cfs_bandwidth() (§5.4, step 7): set period/quota/burst, refill, arm the timer, then on every CPU
     * forgive the debt (runtime_remaining 0, or 1 ns in the task models per the 6.18 fix) and unthrottle.
     * Values are already validated.
     *
     * @param quotaNs {@link CfsBandwidth#RUNTIME_INF} for {@code max}
     */
    public void setCfsBandwidth(int g, long periodNs, long quotaNs, long burstNs, int writerCpu) {
        CfsBandwidth b = bw[g];
        b.periodNs = periodNs;
        b.quotaNs = quotaNs;
        b.burstNs = burstNs;
        boolean limited = b.limited();
        if (limited) {
            refill(b);
            startCfsBandwidth(b, g, writerCpu);
        }
        for (int c = 0; c < ncpu; c++) {
            int q = g * ncpu + c;
            runtimeRemainingNs[q] = taskBased ? 1 : 0;
            expiresSeq[q] = b.periodSeq;
            if (throttled[q]) {
                if (taskBased && runtimeRemainingNs[q] <= 0) runtimeRemainingNs[q] = 1;
                unthrottleCfsRq(q);
            }
        }
    }

    /** Writing a task to another group's cgroup.procs (sched_move_task). */
    public void moveTask(int t, int g) {
        if (tState[t] == T_EXITED || tGroup[t] == g) return;
        int c = tCpu[t];
        boolean running = curr[c] == t;
        if (running) { updateCurr(c); flushStats(c); }
        boolean wasParked = tState[t] == T_PARKED;
        boolean queued = running || tState[t] == T_RUNNABLE || wasParked;
        if (queued && isFair(t)) {
            if (wasParked) unlinkLimbo(t); else dequeueTask(t, c);
        }
        int oldLeaf = leafQ(t, c);
        tGroup[t] = g;
        vruntime[t] = vruntime[t] - minVruntime[oldLeaf] + minVruntime[leafQ(t, c)];
        if (queued && isFair(t)) {
            if (wasParked && throttleCount[leafQ(t, c)] > 0) {
                int q = leafQ(t, c);
                limboPrev[t] = NONE;
                limboNext[t] = limboHead[q];
                if (limboHead[q] != NONE) limboPrev[limboHead[q]] = t;
                limboHead[q] = t;
            } else {
                if (wasParked) tState[t] = T_RUNNABLE;
                enqueueTask(t, c, false);
                if (running) tState[t] = T_RUNNING;
            }
        }
        if (running) { needResched[c] = true; schedule(c); }
        else if (curr[c] == NONE) requestResched(c);
    }

    /** sched_setaffinity() ({@code taskset -p}): migrate away if the current CPU is no longer allowed. */
    public void setAffinity(int t, BitSet allowed) {
        tAllowed[t] = allowed;
        if (tState[t] == T_EXITED || allowed.get(tCpu[t])) return;
        int c = tCpu[t];
        int dst = NONE, bestLoad = Integer.MAX_VALUE;
        for (int x = allowed.nextSetBit(0); x >= 0 && x < ncpu; x = allowed.nextSetBit(x + 1)) {
            int l = load(x);
            if (l < bestLoad) { bestLoad = l; dst = x; }
        }
        if (tState[t] == T_SLEEPING || tState[t] == T_BLOCKED) { migrateVruntime(t, c, dst); tCpu[t] = dst; return; }
        boolean running = curr[c] == t;
        if (running) {
            updateCurr(c);
            flushStats(c);
            settle(c);
            segGen[c]++;
            curr[c] = NONE;
            tState[t] = T_RUNNABLE;
        }
        makeUnqueued(t, c);
        migrateVruntime(t, c, dst);
        nrMigrations[t]++;
        makeRunnable(t, dst, false);
        if (running) schedule(c);
        requestResched(dst);
    }

    /** sched_setscheduler() ({@code chrt -p}): change class; an RT task leaves fair bandwidth control. */
    public void setPolicy(int t, Policy policy, int rtPrio) {
        if (tState[t] == T_EXITED) return;
        boolean wasRt = !isFair(t);
        boolean toRt = policy.realtime();
        int c = tCpu[t];
        if (wasRt == toRt) { tPolicy[t] = policy; tRtPrio[t] = rtPrio; return; }
        boolean running = curr[c] == t;
        boolean queued = running || tState[t] == T_RUNNABLE || tState[t] == T_PARKED;
        if (running) {
            updateCurr(c);
            flushStats(c);
            settle(c);
            segGen[c]++;
            curr[c] = NONE;
            tState[t] = T_RUNNABLE;
        }
        if (queued) makeUnqueued(t, c);
        tPolicy[t] = policy;
        tRtPrio[t] = rtPrio;
        throttleWorkPending[t] = false;
        if (queued) makeRunnable(t, c, true);
        if (running) schedule(c); else requestResched(c);
    }

    // =====================================================================================================
    // Read-out
    // =====================================================================================================

    /** cpu.stat.local throttled time of a group: sum over CPUs of throttled_clock_self_time, ns. */
    public long throttledSelfTimeNs(int g) {
        long s = 0;
        for (int c = 0; c < ncpu; c++) s += throttledClockSelfTimeNs[g * ncpu + c];
        return s;
    }

    /** CPU time of a task so far (flushed), ns. */
    public long taskUsageNs(int t) { return usageNs[t]; }

    /** Exit time of a task, ns, or -1 while it lives. */
    public long exitTimeNs(int t) { return exitNs[t]; }

    /** A task's usage in the result's units (µs). */
    public io.cfslab.metrics.SimulationResult.TaskStats taskStats(int t) {
        return new io.cfslab.metrics.SimulationResult.TaskStats(usageNs[t] / 1000, userNs[t] / 1000,
                systemNs[t] / 1000, nrSwitches[t], nrMigrations[t]);
    }

    /**
     * A group's {@code cpu.stat} and {@code cpu.stat.local} as the kernel prints them (cpu_extra_stat_show(),
     * cpu_local_stat_show()): times truncated to µs, throttled time counted only for finished intervals.
     */
    public io.cfslab.metrics.SimulationResult.CgroupStats cgroupStats(int g) {
        CfsBandwidth b = bw[g];
        var stat = new io.cfslab.metrics.SimulationResult.CpuStat(gUsageNs[g] / 1000, gUserNs[g] / 1000,
                gSystemNs[g] / 1000, b.nrPeriods, b.nrThrottled, b.throttledTimeNs / 1000, b.nrBurst,
                b.burstTimeNs / 1000);
        return new io.cfslab.metrics.SimulationResult.CgroupStats(stat,
                new io.cfslab.metrics.SimulationResult.CpuStatLocal(throttledSelfTimeNs(g) / 1000));
    }

    /**
     * What CPU c is doing: 0 idle, 1 running a task, 2 running a fair task whose hierarchy is throttled (a
     * task-based model lets it finish its kernel work), 3 idle while it has throttled work waiting
     * (parked tasks or a detached throttled subtree).
     */
    public int cpuState(int c) {
        int t = curr[c];
        if (t != NONE) return isFair(t) && throttleCount[leafQ(t, c)] > 0 ? 2 : 1;
        for (int g = 1; g < ngroups; g++) if (throttled[g * ncpu + c]) return 3;
        return 0;
    }

    /** Per-CPU busy, interrupt-handler and scheduler-overhead time, µs. */
    public java.util.List<io.cfslab.metrics.SimulationResult.CpuStats> cpuStats() {
        var list = new java.util.ArrayList<io.cfslab.metrics.SimulationResult.CpuStats>(ncpu);
        for (int c = 0; c < ncpu; c++) {
            list.add(new io.cfslab.metrics.SimulationResult.CpuStats(c, busyNs[c] / 1000, irqNs[c] / 1000,
                    (stolenNs[c] - irqNs[c]) / 1000));
        }
        return java.util.List.copyOf(list);
    }

    CfsBandwidth bandwidth(int g) { return bw[g]; }
}
