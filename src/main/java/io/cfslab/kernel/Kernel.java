package io.cfslab.kernel;

import io.cfslab.machine.CacheTransferCosts;
import io.cfslab.machine.CostModel;
import io.cfslab.machine.MachineProfile;
import io.cfslab.machine.PowerModel;
import io.cfslab.machine.Topology;
import io.cfslab.scenario.KernelSpec;
import io.cfslab.scenario.KernelSpec.Throttle;
import io.cfslab.scenario.KernelSpec.ThrottledClockStart;
import io.cfslab.scenario.TaskSpec.Policy;
import io.cfslab.event.EventQueue;
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
 * <p>This class is the façade and the core of kernel/sched/core.c: construction, event dispatch,
 * {@code __schedule()}, the tick, the workload's stretches of work, sleeping and waking, the timeline actions
 * and the read-outs. The scheduling classes and mechanisms are package-private collaborators, each with one
 * job: {@link CpuTime} (per-CPU time, stolen time, SMT speed, usage statistics), {@link FairRq} (the fair
 * class's runqueues), {@link RtClass} (the RT class and RT throttling), {@link BandwidthControl} (CFS
 * bandwidth control's runtime, timers and distribution), {@link Throttling} (throttling and unthrottling
 * cfs_rqs, parked tasks) and {@link LoadBalancer} (wake-up CPU selection and load balancing).
 *
 * <p>State is held in primitive arrays ("struct of arrays"): a cfs_rq is the index
 * {@code q = group * cpus + cpu} ({@link #cfsRq}); a scheduling entity is a task index {@code t < tasks} or, for the group entity that
 * represents cfs_rq {@code q} in its parent, {@code tasks + q}. The task and CPU state arrays
 * here are shared with the collaborators, which keep references to them. Nothing on the event path
 * allocates.
 *
 * <p>Fair pick: hierarchical, minimum-vruntime entity at each level (CFS before EEVDF; EEVDF's lag and
 * deadlines are not modelled), group entity weights from {@code cpu.weight} split across CPUs by runnable
 * tasks (as {@code calc_group_shares()}), preemption at the tick after a base slice and at a wake-up
 * ({@code kernel.wakeup_preemption}: EEVDF's pick from 6.6, CFS's granularity before), wake-up placement on
 * idle CPUs of the same LLC, and a periodic plus new-idle load balancer that evens runnable task counts.
 *
 * <p>Time: one clock for charging, throttled-time stamps and timers (kernel-model §10.1). Interrupt work
 * (period/slack timer callbacks, async-unthrottle IPIs) and scheduler overheads are "stolen" from the CPU
 * that does them: the running task makes no progress and is not charged (IRQ time accounting).
 */
public final class Kernel implements WorkloadContext {

    // ---- event types and their priorities at equal times (lower first) ----
    public static final int EV_TIMELINE = 0, EV_PERIOD_TIMER = 1, EV_SLACK_TIMER = 2, EV_IPI = 3, EV_RT_PERIOD = 4,
            EV_TICK = 5, EV_SEGMENT_END = 6, EV_WAKE = 7, EV_RESCHED = 8, EV_BALANCE = 9, EV_SAMPLE = 10,
            EV_SYNC_UNTHROTTLE = 11;
    /**
     * Priority of {@link #EV_RT_PERIOD}: after every other event of the same instant. The kernel arms the RT period
     * timer when an RT task is first enqueued (start_rt_bandwidth()), so its expiries fall just after the work of
     * the instant it was armed in, ticks included; here, where periods and ticks share a grid, the tick of an
     * instant charges the running RT task before the period pays runtime back (RtClass#rtPeriod).
     */
    public static final int EV_RT_PERIOD_PRIORITY = 12;

    static final int NONE = -1;
    /** {@link #tExecStartNs} of a task that never ran on its CPU: older than any migration cost (the kernel's 0). */
    static final long EXEC_START_COLD = Long.MIN_VALUE / 4;
    static final long NO_CLOCK = -1;
    static final long NICE_0_LOAD = 1024;

    static final int T_RUNNABLE = 0, T_RUNNING = 1, T_SLEEPING = 2, T_BLOCKED = 3, T_PARKED = 4, T_EXITED = 5;

    // ---- configuration ----
    final int ncpu;
    final int ntasks;
    final int ngroups;
    /** cfs_rqs: groups × CPUs. */
    final int nq;
    /** Divides cfs_rq indices by the CPU count (group = q / cpus) without a hardware division. */
    private final Divisor byCpus;
    final GroupTree tree;
    final Topology topo;
    final CostModel cost;
    /** Cache-line transfers between LLCs: per message of communicating tasks, and a moved task's refill. */
    final CacheTransferCosts cache;
    final boolean taskBased;
    /** {@code kernel.delay_dequeue}: DELAY_DEQUEUE (6.12), modelled in the task-based models ({@link FairRq}). */
    final boolean delayDequeue;
    final long tickNs;
    /**
     * Where the tick's grid lies within a tick period, ns: ticks fire at {@code tickPhaseNs + n·tickNs}. 0 where the
     * kernel aligns the tick to multiples of TICK_NSEC ({@code kernel.tick_aligned}); else drawn once per run
     * ({@link #bootTickPhase}), the same on every CPU (skew_tick is off by default).
     */
    private long tickPhaseNs;
    final long schedSliceNs;
    final boolean preemptKernel;
    /**
     * {@code kernel.wakeup_preemption}: CFS's wake-up granularity, ns, for a nice-0 wakee (before 6.6);
     * {@link FairRq#EEVDF_PICK} for EEVDF's rule (6.6+); {@link #NO_WAKEUP_PREEMPTION} for none.
     */
    final long wakeupGranNs;
    static final long NO_WAKEUP_PREEMPTION = Long.MIN_VALUE;
    final ThrottledClockStart clockStart;
    /** cgroup v1 or v2 (which cpu.stat keys), and which files this kernel prints (5.16 burst stats, 6.6 cpu.stat.local). */
    private final int cgroupVersion;
    private final boolean burstStats;
    private final boolean cpuStatLocal;

    final EventQueue events;
    final SplittableRandom random;
    final KernelObserver observer;
    long now;

    /** Advances the kernel clock to {@code t} ns (the engine calls this before each event). */
    public void setNow(long t) { now = t; }

    /** Simulated time, ns. */
    public long now() { return now; }

    // ---- tasks ----
    final int[] tGroup, tCpu, tState, tRtPrio;
    final Policy[] tPolicy;
    final BitSet[] tAllowed;
    final Workload[] workload;
    final int[] segKind;
    final long[] segRemainingNs;
    final boolean[] throttleWorkPending;
    final long[] nrSwitches, nrMigrations, exitNs;
    /**
     * Each task's {@code se.exec_start}, ns: when it last ran (set when it is picked and at every
     * {@code update_curr()}, so a task that stopped running keeps the time it stopped). {@link #EXEC_START_COLD}
     * for a task that never ran here: {@code __sched_fork()} starts it at 0 and {@code enqueue_entity()} with
     * {@code ENQUEUE_MIGRATED} (6.3+; {@code migrate_task_rq_fair()} before) zeroes it at a move, "no longer
     * consider this task hot". {@code task_hot()} ({@link LoadBalancer}) reads it.
     */
    final long[] tExecStartNs;
    final long[] wakeGen;
    final int[] pendingWakeups;
    /** The task whose wake-up of each task is pending (wake-affine placement), or NONE (a timer's or none). */
    final int[] waker;
    /** Wake-affine placement, or null. */
    final WakeAffine affine;
    /** PELT load averages for wake_affine_weight() ({@code kernel.wake_affine_load} pelt), else null. */
    final EntityLoad loads;
    /** The task whose workload is deciding its next stretch (the waker of the wake-ups it makes), or NONE. */
    private int stepping = NONE;
    /** SIGKILL received: the task exits the next time it runs in the kernel. */
    final boolean[] killPending;

    // ---- CPUs ----
    final int[] curr;
    final int[] lastRan;
    final boolean[] needResched;
    final boolean[] tickArmed;
    final long[] tickGen;
    final long[] segGen;
    final long[] pickedAtNs;
    final boolean[] reschedPending;

    // ---- machine-wide counters ----
    /**
     * {@code __schedule()} calls: each schedule(), each one a task makes from its throttle task work (one per park),
     * and each empty one of an idle CPU asked to reschedule with nothing to run ({@link #scheduleIdleEmpty}).
     */
    private long schedCalls;
    /** Context switches: a CPU starts running a task other than the one it ran last (or after idle). */
    private long contextSwitches;
    /** Moves of a task to a CPU of another LLC. */
    private long llcMigrations;
    /** Task models: tasks that dequeued themselves from their throttle task work ({@code throttle_cfs_rq_work()}). */
    long parks;
    /** Wake-ups that enqueued a task into a throttled hierarchy (it runs on in kernel mode in the task models). */
    private long throttledWakeups;
    /** Load-balancer pulls of a task into a throttled hierarchy on the pulling CPU ({@code throttled_lb none}). */
    long pullsIntoThrottled;
    /** {@code __schedule()} calls whose pick left the CPU idle (schedstat {@code sched_goidle}). */
    private long schedGoidle;
    /** Tasks pulled by new-idle balances, every domain level (schedstat {@code lb_gained[CPU_NEWLY_IDLE]}, summed). */
    long newidleLbGained;
    /** The machine's power model, or null. */
    private final PowerModel power;
    /** The hot fields of entities and cfs_rqs, packed by record (shared by FairRq, EntityQueue, Throttling). */
    final SchedRecords records;

    // ---- the collaborators, one job each ----
    final CpuTime clock;
    final FairRq fair;
    final RtClass rt;
    final BandwidthControl bwc;
    final Throttling thr;
    final LoadBalancer balancer;
    /** Timer lateness, sleep slack and work variation (exact unless {@link #setTimeJitter} was called). */
    TimeJitter jitter = TimeJitter.EXACT;
    /** schedstat run_delay, wake-up latency, run-stretch wall times, last CPU (contract v1.1). */
    final TaskLatency latency;

    private final Segment seg = new Segment();
    /** The fork placement while {@link #startTasks} runs, else null. */
    private ForkPlacement forks;
    /** The launcher of {@link #startTasks}' fork burst, while it forks; null otherwise. */
    private ForkBurst burst;

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
        this.cache = machine.cache();
        this.power = machine.power();
        this.ncpu = topo.cpus();
        this.ntasks = ntasks;
        this.tree = tree;
        this.ngroups = tree.size();
        this.nq = ngroups * ncpu;
        this.byCpus = new Divisor(ncpu);
        this.events = events;
        this.random = random;
        this.observer = observer;
        this.taskBased = k.throttle() != Throttle.CFS_RQ;
        this.delayDequeue = k.delayDequeue();
        this.tickNs = 1_000_000_000L / k.hz();
        // sysctl_sched_base_slice 0.75 ms scaled by 1 + ilog2(min(cpus, 8)) (sched_update_scaling)
        this.schedSliceNs = 750_000L * (1 + (31 - Integer.numberOfLeadingZeros(Math.min(ncpu, 8))));
        this.preemptKernel = k.preempt() == KernelSpec.Preempt.FULL;
        // sysctl_sched_wakeup_granularity 1 ms scaled like the slice (CFS, before 6.6); EEVDF has no granularity
        this.wakeupGranNs = switch (k.wakeupPreemption()) {
            case CFS -> 1_000_000L * (1 + (31 - Integer.numberOfLeadingZeros(Math.min(ncpu, 8))));
            case EEVDF -> FairRq.EEVDF_PICK;
            case NONE -> NO_WAKEUP_PREEMPTION;
        };
        this.clockStart = k.throttledClockStart();
        this.cgroupVersion = k.cgroupVersion();
        this.burstStats = k.burstStats();
        this.cpuStatLocal = k.cpuStatLocal();

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
        nrSwitches = new long[ntasks];
        nrMigrations = new long[ntasks];
        exitNs = new long[ntasks];
        Arrays.fill(exitNs, -1);
        tExecStartNs = new long[ntasks];
        Arrays.fill(tExecStartNs, EXEC_START_COLD);
        wakeGen = new long[ntasks];
        pendingWakeups = new int[ntasks];
        killPending = new boolean[ntasks];
        waker = new int[ntasks];
        Arrays.fill(waker, NONE);
        loads = k.wakeAffine() && ncpu > 1 && k.wakeAffineLoad() == KernelSpec.WakeAffineLoad.PELT ? new EntityLoad(this) : null;
        affine = k.wakeAffine() && ncpu > 1 ? new WakeAffine(this) : null;

        curr = new int[ncpu];
        Arrays.fill(curr, NONE);
        lastRan = new int[ncpu];
        Arrays.fill(lastRan, NONE);
        needResched = new boolean[ncpu];
        tickArmed = new boolean[ncpu];
        tickGen = new long[ncpu];
        segGen = new long[ncpu];
        pickedAtNs = new long[ncpu];
        reschedPending = new boolean[ncpu];

        records = new SchedRecords(ntasks, nq);
        clock = new CpuTime(this, machine);
        fair = new FairRq(this);
        rt = new RtClass(this, k);
        bwc = new BandwidthControl(this, k);
        thr = new Throttling(this, k);
        balancer = new LoadBalancer(this, k.throttledLb(), k.periodicBalance());
        latency = new TaskLatency(ntasks);
        fair.link(bwc, thr);
        rt.link(fair);
        bwc.link(clock, thr);
        thr.link(clock, fair, bwc);
        balancer.link(fair, thr);
    }

    // =====================================================================================================
    // Index helpers
    // =====================================================================================================

    /**
     * The cfs_rq of group g on CPU c. Group-major: a group's cfs_rqs on all CPUs are adjacent, so the top of
     * the tree, which every CPU's scheduling touches, stays in a few cache lines.
     */
    int cfsRq(int g, int c) { return g * ncpu + c; }
    int leafQ(int t, int c) { return tGroup[t] * ncpu + c; }
    int groupOf(int q) { return byCpus.div(q); }
    int cpuOf(int q) { return q - byCpus.div(q) * ncpu; }
    int parentQ(int q) {
        int g = byCpus.div(q);
        return tree.parent(g) * ncpu + (q - g * ncpu);
    }
    boolean isRootQ(int q) { return q < ncpu; }
    int groupEntity(int q) { return ntasks + q; }
    boolean isFair(int t) { return !tPolicy[t].realtime(); }

    /** Runnable tasks a CPU could run now: rq->nr_running (fair h_nr_running of the root plus RT). */
    int nrRunnable(int c) { return fair.hNrRunning(rootQ(c)) + rt.rtQueued[c]; }

    /** CPU c's root cfs_rq. */
    int rootQ(int c) { return c; }

    boolean cpuIdle(int c) { return curr[c] == NONE && nrRunnable(c) == 0; }

    boolean preemptible(int t) { return segKind[t] == Segment.RUN_USER || preemptKernel; }

    @Override
    public long nowNs() { return now; }

    /**
     * Makes time inexact (docs/cost-model.md, "Inexact time"): timers fire late, sleeps overrun by their slack,
     * stretches of work vary; drawn from a source seeded by {@code seed}, separate from the kernel's own draws.
     */
    public void setTimeJitter(long seed) { jitter = TimeJitter.seeded(seed); }

    /**
     * The tick's offset from the period timers' grid on a kernel that does not align its tick
     * ({@code kernel.tick_aligned} false, 4.19–6.3): tick_setup_device() took {@code tick_next_period} from
     * {@code ktime_get()} at boot, which since 857baa87b642 ("sched/clock: Enable sched clock early", 4.19) carries
     * the boot's sub-jiffy offset, and every CPU's tick_sched_timer is forwarded on that grid; the period timers'
     * expiries stay multiples of their period from CLOCK_MONOTONIC 0 (hrtimer_forward_now() from an expiry of 0).
     * e9523a0d8189 and 13bb06f8dd42 (6.4) round {@code tick_next_period} up to a multiple of TICK_NSEC again. The
     * offset is uniform in [0, tick) and drawn from a source of its own seeded by {@code seed}, so the kernel's other
     * draws are unchanged.
     */
    public void bootTickPhase(long seed) {
        tickPhaseNs = new SplittableRandom(seed * 0xBF58476D1CE4E5B9L + 0x94D049BB133111EBL).nextLong(tickNs);
    }

    /** The first tick of the grid strictly after {@code t}, ns. */
    long nextTickNs(long t) {
        return tickPhaseNs + (Math.floorDiv(t - tickPhaseNs, tickNs) + 1) * tickNs;
    }

    /** Sets {@code kernel.timer_placement}; {@code interleave} re-phases a period timer each time it is armed. */
    public void setTimerPlacement(KernelSpec.TimerPlacement p) { bwc.setTimerPlacement(p); }

    CfsBandwidth bandwidth(int g) { return bwc.bw[g]; }

    // =====================================================================================================
    // Set-up
    // =====================================================================================================

    /** Sets a group's {@code cpu.weight} (1..10000): shares = weight × 1024 / 100 (sched_weight_from_cgroup). */
    public void setWeight(int g, int cpuWeight) {
        fair.shares[g] = Math.max(2, cpuWeight * NICE_0_LOAD / 100);
    }

    /**
     * Sets a group's RT bandwidth (cgroup v1 {@code cpu.rt_runtime_us}, {@code cpu.rt_period_us}; RT group
     * scheduling only).
     * @param runtimeNs -1 for no limit
     */
    public void setRtBandwidth(int g, long runtimeNs, long periodNs) {
        rt.setGroupBandwidth(g, runtimeNs, periodNs);
    }

    /** Sets a group's cgroup v1 {@code cpu.shares} (2..262144; sched_group_set_shares()). */
    public void setShares(int g, long shares) {
        fair.shares[g] = Math.max(2, shares);
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
        CfsBandwidth b = bwc.bw[g];
        long phase = switch (placement) {
            case RANDOM -> random.nextLong(periodNs);
            case ALIGNED, INTERLEAVE -> 0;
            case SPREAD -> count == 0 ? 0 : periodNs * index / count;
        };
        b.timerExpiryNs = phase - BandwidthControl.MAX_CFS_QUOTA_PERIOD_NS;
    }

    /** Adds a task (not yet runnable). */
    public void initTask(int t, int g, Policy policy, int rtPrio, BitSet allowed, Workload w) {
        tGroup[t] = g;
        tPolicy[t] = policy;
        tRtPrio[t] = rtPrio;
        tAllowed[t] = allowed;
        workload[t] = w;
        latency.setIterates(t, w.iterates());
        tState[t] = T_SLEEPING;
        tCpu[t] = allowed.nextSetBit(0);
    }

    /**
     * Forks task t at time now: picks the least-loaded allowed CPU and makes it runnable. A CPU's load counts
     * every task queued there, also those in a throttled (detached) subtree of the cfs_rq model: they are out of
     * rq->nr_running but their load is still in the CPU's blocked PELT load that find_idlest_cpu() compares, so
     * forks do not pile onto CPUs whose tasks are all throttled.
     */
    public void startTask(int t) {
        BitSet a = tAllowed[t];
        int best = NONE;
        if (forks != null && a.nextClearBit(0) >= ncpu) {
            best = forks.idlest();
        } else {
            long bestKey = Long.MAX_VALUE;
            for (int c = a.nextSetBit(0); c >= 0 && c < ncpu; c = a.nextSetBit(c + 1)) {
                long key = forkKey(c);
                if (key < bestKey) { bestKey = key; best = c; }
            }
        }
        if (burst != null && isFair(t)) {
            int local = burst.launcherCpu;
            if (best != local && a.get(local) && burst.staysLocal(fair.cpuTaskCount[local], best, fair.cpuTaskCount[best])) {
                best = local;
            }
        }
        tCpu[t] = best;
        nextSegment(t);
        if (segKind[t] == Segment.EXIT) { exitTask(t); return; }
        if (segKind[t] == Segment.SLEEP || segKind[t] == Segment.BLOCK) { startSleep(t); return; }
        fair.setVruntime(t, fair.minVruntime(leafQ(t, best)));
        if (burst != null && isFair(t)) burst.forked(best, fair.hNrRunning(leafQ(t, best)));
        if (loads != null && isFair(t)) loads.forked(t, best);
        makeRunnable(t, best, false);
        requestResched(best);
    }

    /**
     * Forks tasks {@code 0 .. n-1} at time now, each as {@link #startTask}: the same placement, found in
     * O(log CPUs) per task ({@link ForkPlacement}) instead of a scan of every CPU.
     */
    public void startTasks(int n) {
        beginForkBurst();
        forks = new ForkPlacement(this);
        try {
            for (int t = 0; t < n; t++) startTask(t);
        } finally {
            forks = null;
            endForkBurst();
        }
    }

    /**
     * The tasks forked from now on come from one launcher on CPU 0 ({@link ForkBurst}: find_idlest_group()'s
     * choice between the launcher's CPU and the idlest other one), until {@link #endForkBurst}.
     */
    void beginForkBurst() { burst = new ForkBurst(ncpu, 0); }

    /** The launcher is gone: forks go to the least-loaded CPU again. */
    void endForkBurst() { burst = null; }

    /** startTask()'s key of CPU c: its queued tasks (×4), then its SMT siblings' runnable tasks; the least wins. */
    long forkKey(int c) {
        return (long) (fair.cpuTaskCount[c] + (burst != null && c == burst.launcherCpu ? 1 : 0)) * 4 + balancer.coreLoad(c);
    }

    /** CPU c's queued tasks or runnable count changed (keeps {@link #startTasks}'s placement current). */
    void forkInputsChanged(int c) {
        if (forks != null) forks.changed(c);
    }

    /** Starts the periodic balancer. */
    public void startBalancer() {
        balancer.start();
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
            case EV_PERIOD_TIMER -> bwc.periodTimer(target, arg);
            case EV_SLACK_TIMER -> bwc.slackTimer(target, arg);
            case EV_IPI -> bwc.csdUnthrottle(target);
            case EV_SYNC_UNTHROTTLE -> bwc.syncUnthrottle(target, arg);
            case EV_RT_PERIOD -> { if (target == 0) rt.rtPeriod(); else rt.groupPeriod(target); }
            case EV_BALANCE -> balancer.balance();
            default -> throw new IllegalStateException("unknown event " + type);
        }
    }

    // =====================================================================================================
    // Charging and runqueue membership
    // =====================================================================================================

    /** update_curr() for the running task's whole hierarchy: vruntime, bandwidth, RT time. */
    void updateCurr(int c) {
        int t = curr[c];
        if (t == NONE) return;
        tExecStartNs[t] = now; // update_curr(): curr->exec_start = now
        long d = clock.execDelta(c);
        if (d <= 0) return;
        if (!isFair(t)) {
            rt.rtTimeNs[c] += d;
            rt.chargeGroups(t, c, d);
            return;
        }
        fair.updateCurrFair(t, c, d);
    }

    /** Task t becomes runnable on CPU c (fair or RT). */
    void makeRunnable(int t, int c, boolean wakeup) {
        tCpu[t] = c;
        tState[t] = T_RUNNABLE;
        latency.queued(t, now);
        if (isFair(t)) fair.enqueueTask(t, c, wakeup);
        else rt.rtEnqueue(t, c);
    }

    /** Task t (queued, not running) leaves its runqueue. */
    void makeUnqueued(int t, int c) {
        if (tState[t] == T_PARKED) {
            thr.unlinkLimbo(t);
            tState[t] = T_SLEEPING;
            return;
        }
        if (isFair(t)) fair.dequeueTask(t, c);
        else rt.rtDequeue(t, c);
    }

    /** Keeps the idle-CPU count per LLC and SMT siblings' speed in step with CPU c's busy state. */
    void onAvailabilityChange(int c) {
        balancer.updateIdle(c);
        clock.updateSmtSpeed(c);
        clock.updateCoreActive(c);
    }

    // =====================================================================================================
    // schedule(), ticks
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
            else scheduleIdleEmpty();
            return;
        }
        // an RT task became runnable here, or a fair task on an otherwise idle CPU: preempt if allowed
        boolean rtWaiting = rt.rtQueued[c] > (isFair(t) ? 0 : 1) && !rt.rtThrottled[c] && rt.rtPick(c) != t
                && (isFair(t) || tRtPrio[rt.rtPick(c)] > tRtPrio[t]);
        if (rtWaiting || needResched[c]) {
            needResched[c] = true;
            if (preemptible(t)) schedule(c);
        }
    }

    /**
     * __schedule(): put the previous task back (charging it and running check_cfs_rq_runtime at every level),
     * pick the next one (RT first, unless RT-throttled; then the fair hierarchy), park tasks of throttled
     * hierarchies that are returning to user mode (task models), and start the winner.
     */
    void schedule(int c) {
        schedCalls++;
        needResched[c] = false;
        int prev = curr[c];
        if (prev != NONE) {
            updateCurr(c);
            clock.flushStats(c);
            clock.settle(c);
            segGen[c]++;
            curr[c] = NONE;
            tState[prev] = T_RUNNABLE; // still queued (fair or RT) until picked again or parked
            latency.queued(prev, now);
            if (isFair(prev)) {
                for (int x = leafQ(prev, c); !isRootQ(x); x = parentQ(x)) bwc.checkCfsRqRuntime(x);
            }
        }
        int next = NONE;
        int ranLast = lastRan[c];
        boolean balanced = false, parked = false;
        while (true) {
            if (rt.rtQueued[c] > 0 && !rt.rtThrottled[c]) {
                next = rt.rtPick(c);
                if (next != NONE && killPending[next]) { exitPicked(next, c); continue; }
                if (next != NONE) break;
            }
            next = fair.pickFair(c);
            if (next == NONE) {
                if (balanced || !balancer.newIdleBalance(c)) break;
                balanced = true;
                continue;
            }
            if (killPending[next]) { // runs do_exit() in the kernel: exiting tasks are never parked
                exitPicked(next, c);
                continue;
            }
            if (taskBased && fair.lastPickThrottled) {
                if (segKind[next] == Segment.RUN_USER) {
                    // picked, returns to user mode, runs its throttle task work and dequeues itself, and its task
                    // work's resched_curr() makes it call __schedule() again: one call per park, prev's included
                    // (picked again without a switch, it leaves this __schedule() for exit_to_user_mode_loop(),
                    // whose next pass runs the task work and then schedule(): kernel/entry/common.c). A task that
                    // was queued is switched to first, and so is prev when another task parked before it (the
                    // CPU is on that one now). A task that parked before this call (segmentEnd()) is not queued
                    // and never picked here.
                    if (!parked) { parked = true; thr.touchBeforeParks(c); } // reads only: overlaps the storm's misses
                    thr.parkTask(next, c);
                    if (next != ranLast) contextSwitches++;
                    ranLast = next;
                    schedCalls++;
                    // its task work's __schedule() balances again when nothing is left: only a task pulled into a
                    // throttled hierarchy (throttled_lb none) parks after a balance, so the others never get here
                    // with balanced set
                    balanced = false;
                    continue;
                }
                throttleWorkPending[next] = true;
            }
            break;
        }
        if (next == NONE) {
            schedGoidle++; // set_next_task_idle(): schedstat_inc(rq->sched_goidle)
            lastRan[c] = NONE; // switched to idle: the next task picked here is a context switch again
            onAvailabilityChange(c);
            return;
        }
        if (next != ranLast) contextSwitches++;
        if (next != lastRan[c]) {
            nrSwitches[next]++;
            // stolen, not charged to next: see docs/cost-model.md, "Charged and stolen overhead" (charging it
            // was tried and measured)
            clock.steal(c, cost.contextSwitchNs());
        }
        lastRan[c] = next;
        curr[c] = next;
        tState[next] = T_RUNNING;
        tExecStartNs[next] = now; // set_next_entity(): update_stats_curr_start()
        // __set_next_task_fair() (6.18): "Move the next running task to the front of the list, so our cfs_tasks
        // list becomes MRU one"
        if (balancer.mruTasks && isFair(next) && fair.onRq(next)) fair.cpuTaskToHead(c, next);
        latency.arrive(next, c, now);
        clock.startRun(c);
        pickedAtNs[c] = now;
        armSegmentEnd(c);
        ensureTick(c);
        onAvailabilityChange(c);
    }

    /**
     * schedule_idle() of an idle CPU that was asked to reschedule (resched_curr() of its idle task: a wake-up's
     * wakeup_preempt(), kernel/sched/core.c) but has nothing to run, e.g. the wakee went into a throttled cfs_rq that
     * is off the rq (per-cfs_rq throttling): do_idle() leaves its polling loop on need_resched() and calls
     * __schedule(SM_IDLE), which with {@code rq->nr_running == 0} keeps the idle task without a pick (6.12+, so no
     * new-idle balance) and without a switch. Counted as the __schedule() call it is; no cost is charged.
     */
    private void scheduleIdleEmpty() { schedCalls++; }

    /**
     * Scheduler work of {@code ns} done on CPU c in task t's context: t's throttle task work in the task models
     * ({@code throttle_cfs_rq_work()}, 6.18: it runs as task work on t's way back to user mode, and
     * {@code dequeue_task_fair()} runs {@code update_curr()} at every level it walks). The CPU spends the time (a
     * steal: no stretch makes progress during it, no later {@code update_curr()} charges it again) and, as in the
     * kernel, it is charged to t: its vruntime, every cfs_rq of its hierarchy ({@code account_cfs_rq_runtime()}:
     * a throttled group's debt grows, and the next period's quota pays for its own parks) and its system time.
     * RT tasks are only stolen from.
     */
    void chargeSchedOverhead(int t, int c, long ns) {
        clock.steal(c, ns);
        if (ns <= 0 || !isFair(t)) return;
        fair.updateCurrFair(t, c, ns);
        clock.chargeSystem(t, c, ns);
    }

    /** A picked task with a fatal signal pending exits at once (do_exit() in the kernel, its cost not modelled). */
    private void exitPicked(int t, int c) {
        makeUnqueued(t, c);
        exitTask(t);
    }

    /**
     * put_prev_entity()'s check_cfs_rq_runtime() for a task that left the CPU by sleeping or exiting: at every
     * level of its hierarchy a cfs_rq that ran out of runtime is throttled, though its last task has just been
     * dequeued (before 6.6 its throttled time counts from here, kernel-model §5.1).
     */
    private void putPrevCheck(int t, int c) {
        if (!isFair(t)) return;
        for (int x = leafQ(t, c); !isRootQ(x); x = parentQ(x)) bwc.checkCfsRqRuntime(x);
    }

    /** Scheduler tick: charge, slice expiry, RT throttling; preempt at the interrupt's return if allowed. */
    void tick(int c, long gen) {
        if (gen != tickGen[c]) return;
        int t = curr[c];
        if (t == NONE) { tickArmed[c] = false; return; } // NOHZ idle
        updateCurr(c);
        if (isFair(t)) {
            if (now - pickedAtNs[c] >= schedSliceNs && fair.hNrRunning(rootQ(c)) > 1) needResched[c] = true;
            if (throttleWorkPending[t] && segKind[t] == Segment.RUN_USER) needResched[c] = true;
        } else {
            rt.taskTick(t, c);
        }
        if (needResched[c] && preemptible(t)) schedule(c);
        tickGen[c]++;
        // the next tick is programmed on the grid (hrtimer_forward()); it fires a little late
        events.push(nextTickNs(now) + jitter.timerLatencyNs(), EV_TICK, EV_TICK, c, tickGen[c]);
    }

    void ensureTick(int c) {
        if (tickArmed[c]) return;
        tickArmed[c] = true;
        tickGen[c]++;
        long next = nextTickNs(now); // ticks stay on the jiffies grid
        events.push(next + jitter.timerLatencyNs(), EV_TICK, EV_TICK, c, tickGen[c]);
    }

    // =====================================================================================================
    // Workload segments, sleeping, waking
    // =====================================================================================================

    private void nextSegment(int t) {
        stepping = t;
        workload[t].next(this, seg);
        stepping = NONE;
        segKind[t] = seg.kind;
        segRemainingNs[t] = seg.kind == Segment.RUN_USER || seg.kind == Segment.RUN_KERNEL
                ? jitter.workNs(seg.amountNs) : seg.amountNs;
        latency.segment(t, seg.kind, curr[tCpu[t]] == t, now);
    }

    void armSegmentEnd(int c) {
        int t = curr[c];
        segGen[c]++;
        long rem = segRemainingNs[t];
        if (rem == Long.MAX_VALUE) return;
        long wall = (long) Math.ceil(rem / clock.speed[c]);
        events.push(now + Math.max(wall, 0), EV_SEGMENT_END, EV_SEGMENT_END, c, segGen[c]);
    }

    /** The running task's segment should be over: move it to its next stretch. */
    void segmentEnd(int c, long gen) {
        if (gen != segGen[c]) return;
        int t = curr[c];
        if (t == NONE) return;
        clock.settle(c);
        if (segRemainingNs[t] > 0) { armSegmentEnd(c); return; } // delayed by interrupts or SMT
        clock.flushStats(c);
        if (killPending[t]) { // the kernel stretch is over: the fatal signal is handled before user mode
            exitRunning(t, c);
            return;
        }
        int prevKind = segKind[t];
        nextSegment(t);
        switch (segKind[t]) {
            case Segment.RUN_USER -> {
                if (prevKind == Segment.RUN_KERNEL) {
                    // return to user mode: task work (park) and deferred preemption happen here
                    if (taskBased && throttleWorkPending[t]) {
                        throttleWorkPending[t] = false;
                        if (thr.throttledHierarchy(leafQ(t, c)) && isFair(t)) {
                            updateCurr(c);
                            curr[c] = NONE;
                            segGen[c]++;
                            latency.queued(t, now); // switched out still runnable (state R, parked)
                            thr.parkTask(t, c);
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
                leaveCpu(t, c);
                startSleep(t);
                schedule(c);
            }
            default -> exitRunning(t, c); // EXIT
        }
    }

    /** The running task t exits on CPU c (do_exit()): charged up to now, dequeued, then the CPU reschedules. */
    private void exitRunning(int t, int c) {
        leaveCpu(t, c);
        exitTask(t);
        schedule(c);
    }

    /** The running task t stops running on CPU c and leaves its runqueue (to sleep or exit), charged up to now. */
    private void leaveCpu(int t, int c) {
        updateCurr(c);
        curr[c] = NONE;
        segGen[c]++;
        throttleWorkPending[t] = false;
        if (isFair(t)) fair.dequeueTask(t, c); else rt.rtDequeue(t, c);
        putPrevCheck(t, c);
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
        events.push(now + segRemainingNs[t] + jitter.sleepLatenessNs(), EV_WAKE, EV_WAKE, t, wakeGen[t]);
    }

    private void exitTask(int t) {
        tState[t] = T_EXITED;
        exitNs[t] = now;
        latency.exited(t, now);
        observer.exit(now, t);
    }

    /** A sleeping or blocked task wakes: next stretch, select_task_rq(), enqueue, preempt an idle CPU. */
    void wake(int t, long gen) {
        if (gen != wakeGen[t] || (tState[t] != T_SLEEPING && tState[t] != T_BLOCKED)) return;
        if (killPending[t]) { // woken by SIGKILL: runs only to exit
            segKind[t] = Segment.RUN_KERNEL;
            segRemainingNs[t] = 0;
        } else {
            nextSegment(t);
        }
        while (segKind[t] == Segment.SLEEP && segRemainingNs[t] == 0) nextSegment(t);
        if (segKind[t] == Segment.EXIT) { exitTask(t); return; }
        if (segKind[t] == Segment.SLEEP || segKind[t] == Segment.BLOCK) { startSleep(t); return; }
        int w = waker[t];
        waker[t] = NONE;
        int c = affine != null && w != NONE && isFair(t) ? balancer.selectTaskRqAffine(t, w) : balancer.selectTaskRq(t);
        if (c != tCpu[t]) {
            fair.migrateVruntime(t, tCpu[t], c);
            migrated(t, tCpu[t], c);
        }
        makeRunnable(t, c, true);
        if (isFair(t) && thr.throttledHierarchy(leafQ(t, c))) throttledWakeups++;
        latency.woken(t, now);
        wakeupPreempt(c, t);
    }

    @Override
    public void wake(int t) {
        if (affine != null && tState[t] != T_EXITED) {
            if (stepping != NONE && stepping != t) affine.recordWakee(stepping, t);
            waker[t] = stepping;
        }
        if (tState[t] == T_BLOCKED) {
            wakeGen[t]++;
            events.push(now, EV_WAKE, EV_WAKE, t, wakeGen[t]);
        } else if (tState[t] != T_EXITED) {
            pendingWakeups[t]++;
        }
    }

    /**
     * wakeup_preempt(): an idle CPU always picks; RT preempts fair; a fair wakee preempts a fair task as
     * check_preempt_wakeup_fair() decides ({@link FairRq#checkPreemptWakeup}), after update_curr().
     */
    void wakeupPreempt(int c, int t) {
        int cur = curr[c];
        if (cur == NONE || (!isFair(t) && (isFair(cur) || tRtPrio[t] > tRtPrio[cur]))) {
            if (cur != NONE) needResched[c] = true;
            requestResched(c);
        } else if (wakeupGranNs != NO_WAKEUP_PREEMPTION && isFair(t) && isFair(cur) && !needResched[c]) {
            updateCurr(c); // check_preempt_wakeup_fair()'s update_curr(), which may itself resched
            boolean inSlice = now - pickedAtNs[c] < schedSliceNs;
            if (!needResched[c] && fair.checkPreemptWakeup(t, cur, c, inSlice, wakeupGranNs)) {
                needResched[c] = true;
                requestResched(c);
            }
        }
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
        bwc.setCfsBandwidth(g, periodNs, quotaNs, burstNs, writerCpu);
    }

    /**
     * {@code kill -KILL}: a task running in user mode exits at once (the signal's IPI takes it into the kernel);
     * one running in the kernel exits at the end of that stretch, on its way back to user mode; a queued one when
     * it next runs, so not before its hierarchy is unthrottled (cfs_rq model) or its limbo list is (a parked task:
     * the wake-up finds it still queued, kernel-model §7); a sleeping one is woken to exit.
     */
    public void killTask(int t) {
        if (tState[t] == T_EXITED || killPending[t]) return;
        killPending[t] = true;
        int c = tCpu[t];
        if (tState[t] == T_RUNNING && curr[c] == t) {
            if (segKind[t] != Segment.RUN_KERNEL) {
                clock.settle(c);
                clock.flushStats(c);
                exitRunning(t, c);
            }
        } else if (tState[t] == T_SLEEPING || tState[t] == T_BLOCKED) {
            pendingWakeups[t] = 0;
            wakeGen[t]++;
            events.push(now, EV_WAKE, EV_WAKE, t, wakeGen[t]);
        }
    }

    /** @return whether any live task is in group g (rmdir refuses with EBUSY) */
    public boolean groupHasTasks(int g) {
        for (int t = 0; t < ntasks; t++) if (tGroup[t] == g && tState[t] != T_EXITED) return true;
        return false;
    }

    /** rmdir of an empty group: its bandwidth control is torn down (destroy_cfs_bandwidth()). */
    public void removeGroup(int g) {
        bwc.destroyCfsBandwidth(g);
    }

    /** A group's period as the kernel has it now (the period timer may have scaled it), ns. */
    public long cfsPeriodNs(int g) { return bwc.bw[g].periodNs; }

    /** A group's quota as the kernel has it now, ns; {@link Long#MAX_VALUE} for none. */
    public long cfsQuotaNs(int g) { return bwc.bw[g].quotaNs; }

    /** A group's burst as the kernel has it now, ns. */
    public long cfsBurstNs(int g) { return bwc.bw[g].burstNs; }

    /** Writing a task to another group's cgroup.procs (sched_move_task). */
    public void moveTask(int t, int g) {
        if (tState[t] == T_EXITED || tGroup[t] == g) return;
        int c = tCpu[t];
        boolean running = curr[c] == t;
        if (running) { updateCurr(c); clock.flushStats(c); }
        boolean wasParked = tState[t] == T_PARKED;
        boolean queued = running || tState[t] == T_RUNNABLE || wasParked;
        if (queued && isFair(t)) {
            if (wasParked) thr.unlinkLimbo(t); else fair.dequeueTask(t, c);
        }
        int oldLeaf = leafQ(t, c);
        tGroup[t] = g;
        fair.setVruntime(t, fair.vruntime(t) - fair.minVruntime(oldLeaf) + fair.minVruntime(leafQ(t, c)));
        if (queued && isFair(t)) {
            if (wasParked && thr.throttledHierarchy(leafQ(t, c))) {
                thr.limboPush(leafQ(t, c), t);
            } else {
                if (wasParked) tState[t] = T_RUNNABLE;
                fair.enqueueTask(t, c, false);
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
            int l = balancer.load(x);
            if (l < bestLoad) { bestLoad = l; dst = x; }
        }
        if (tState[t] == T_SLEEPING || tState[t] == T_BLOCKED) {
            fair.migrateVruntime(t, c, dst);
            if (loads != null) loads.migrated(t, c, dst);
            tCpu[t] = dst;
            return;
        }
        boolean running = curr[c] == t;
        if (running) takeOffCpu(c, t);
        makeUnqueued(t, c);
        fair.migrateVruntime(t, c, dst);
        migrated(t, c, dst);
        makeRunnable(t, dst, false);
        if (running) schedule(c);
        requestResched(dst);
    }

    /**
     * {@code active_load_balance_cpu_stop()} (kernel/sched/fair.c, 6.18) on CPU {@code src} for {@code dst}, kicked
     * by a periodic balance's {@code need_active_balance()} [simplified: the stopper runs at once and its own work
     * costs nothing but the switches]: the stopper preempts src's running task (a {@code __schedule()} and a context
     * switch to it), {@code detach_one_task()} takes the first task from the tail of src's list that
     * {@code can_migrate_task()} allows with LBF_ACTIVE_LB (no {@code task_hot()}; the preempted task is no longer
     * running), and the stopper's exit calls {@code __schedule()} on src again. Returns whether a task moved.
     */
    boolean activeLoadBalanceCpuStop(int src, int dst, int level) {
        int t = curr[src];
        if (t == NONE) return false;
        takeOffCpu(src, t);
        schedCalls++; // to the stopper
        contextSwitches++;
        clock.steal(src, cost.contextSwitchNs());
        lastRan[src] = NONE; // the stopper ran last: whatever runs next is switched to
        int moved = balancer.detachTasks(src, dst, level, false, SrcGroupFinder.MIGRATE_TASK, 1, false, true);
        schedule(src);
        return moved > 0;
    }

    /** The running task t stops running on c (charged up to now) but stays queued, for a class or CPU change. */
    private void takeOffCpu(int c, int t) {
        updateCurr(c);
        clock.flushStats(c);
        clock.settle(c);
        segGen[c]++;
        curr[c] = NONE;
        tState[t] = T_RUNNABLE;
        latency.queued(t, now);
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
        if (running) takeOffCpu(c, t);
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

    /** Flushes every running task's statistics up to now (for sampling and the end of the run). */
    public void flushAllStats() {
        for (int c = 0; c < ncpu; c++) clock.flushStats(c);
    }

    /** cpu.stat.local throttled time of a group: sum over CPUs of throttled_clock_self_time, ns. */
    public long throttledSelfTimeNs(int g) {
        return thr.throttledClockSelfTimeNs(g);
    }

    /**
     * {@code __schedule()} calls so far on all CPUs (seed 00's figure): each schedule(), each park's call from its task
     * work, and each idle CPU's empty {@code __schedule(SM_IDLE)} after a resched_curr() that found nothing to run.
     */
    public long schedCalls() { return schedCalls; }

    /** Moves of a task to a CPU of another last-level cache, by wake-up placement or load balancing. */
    public long llcMigrations() { return llcMigrations; }

    /** Task models: parks so far, each a task's throttle task work dequeuing it ({@code throttle_cfs_rq_work()}). */
    public long parks() { return parks; }

    /** Wake-ups so far that enqueued a fair task into a throttled hierarchy (its cfs_rq or an ancestor throttled). */
    public long throttledWakeups() { return throttledWakeups; }

    /** Load-balancer pulls so far that moved a task into a throttled hierarchy of the pulling CPU. */
    public long pullsIntoThrottled() { return pullsIntoThrottled; }

    /**
     * {@code __schedule()} calls so far whose pick found nothing and switched the CPU to its idle task (schedstat's
     * {@code sched_goidle}, counted in {@code set_next_task_idle()}, kernel/sched/idle.c, 6.18); not the empty
     * {@code __schedule(SM_IDLE)} of an idle CPU, which keeps the idle task without a pick.
     */
    public long schedGoidle() { return schedGoidle; }

    /**
     * Tasks pulled so far by new-idle balances ({@code sched_balance_newidle()}), at every domain level: the sum over
     * CPUs and domains of schedstat's {@code lb_gained[CPU_NEWLY_IDLE]} (kernel/sched/fair.c {@code sched_balance_rq()},
     * 6.18); periodic balances are not counted.
     */
    public long newidleLbGained() { return newidleLbGained; }

    /** Last-level caches of the machine. */
    public int llcs() { return topo.llcs(); }

    @Override
    public long messageTransferNs(int from, int to) { return cache.messageNs(topo, tCpu[from], tCpu[to]); }

    /**
     * Task t moves from CPU {@code from} to CPU {@code to} (wake-up placement, load balancing, affinity): counted,
     * and a move to another LLC makes the task fetch its working set again ({@link CacheTransferCosts#refillNs}),
     * which lengthens the stretch of work it is in (the misses are the task's own time, charged to it). A hog's
     * endless stretch stays endless.
     */
    void migrated(int t, int from, int to) {
        nrMigrations[t]++;
        tExecStartNs[t] = EXEC_START_COLD; // ENQUEUE_MIGRATED: "no longer consider this task hot"
        if (loads != null) loads.migrated(t, from, to);
        if (topo.llcOf(from) == topo.llcOf(to)) return;
        llcMigrations++;
        long refill = cache.refillNs(topo, from, to);
        if (refill > 0 && (segKind[t] == Segment.RUN_USER || segKind[t] == Segment.RUN_KERNEL)
                && segRemainingNs[t] != Long.MAX_VALUE) segRemainingNs[t] += refill;
    }

    /**
     * Mean power draw from the start of the run to now, W, by the machine's power model from the mean number of
     * active cores and busy hardware threads (running a task, an interrupt handler or scheduler work); NaN on a
     * machine without a power model ({@code generic}) or before any time has passed.
     */
    public double meanPowerW() {
        if (power == null || now <= 0) return Double.NaN;
        long threadNs = 0;
        for (int c = 0; c < ncpu; c++) threadNs += clock.busyNs[c] - clock.chargedNs[c] + clock.stolenElapsed(c);
        return power.meanPowerW((double) clock.coreActiveNs() / now, (double) threadNs / now);
    }

    /** Context switches so far on all CPUs (to a task other than the one the CPU ran last, or after idle). */
    public long contextSwitches() { return contextSwitches; }

    /** CPU time of a task so far (flushed), ns. */
    public long taskUsageNs(int t) { return clock.usageNs[t]; }

    /** The group task t is in now. */
    public int taskGroup(int t) { return tGroup[t]; }

    /** Whether task t has an RT policy now. */
    public boolean taskRealtime(int t) { return !isFair(t); }

    /** The CPU task t last ran on, or null if it never ran. */
    public Integer lastCpu(int t) { int c = latency.lastCpu(t); return c < 0 ? null : c; }

    /** Exit time of a task, ns, or -1 while it lives. */
    public long exitTimeNs(int t) { return exitNs[t]; }

    /** A task's usage in the result's units (µs). */
    public io.cfslab.metrics.SimulationResult.TaskStats taskStats(int t) {
        return new io.cfslab.metrics.SimulationResult.TaskStats(clock.usageNs[t] / 1000, clock.userNs[t] / 1000,
                clock.systemNs[t] / 1000, nrSwitches[t], nrMigrations[t], exitNs[t] < 0 ? null : exitNs[t] / 1e9,
                latency.runDelayNs(t, now) / 1000, latency.wakeupSummary(t), latency.iterationSummary(t),
                latency.lastCpu(t) < 0 ? null : latency.lastCpu(t));
    }

    /**
     * A group's {@code cpu.stat} and {@code cpu.stat.local} as this kernel prints them (cpu_extra_stat_show(),
     * cpu_local_stat_show(), kernel/sched/core.c): cgroup v2's keys in µs truncated from ns, or v1's with
     * {@code throttled_time} and {@code burst_time} in ns beside {@code cpuacct.usage} (ns); the burst keys from
     * 5.16, {@code cpu.stat.local} from 6.6; throttled time counted only for finished intervals.
     */
    public io.cfslab.metrics.SimulationResult.CgroupStats cgroupStats(int g) {
        CfsBandwidth b = bwc.bw[g];
        Long bursts = burstStats ? b.nrBurst : null;
        if (cgroupVersion == 1) {
            var stat = new io.cfslab.metrics.SimulationResult.CpuStat(null, null, null, b.nrPeriods, b.nrThrottled,
                    null, b.throttledTimeNs, bursts, null, burstStats ? b.burstTimeNs : null);
            var local = cpuStatLocal ? new io.cfslab.metrics.SimulationResult.CpuStatLocal(null, throttledSelfTimeNs(g)) : null;
            return new io.cfslab.metrics.SimulationResult.CgroupStats(stat, local, clock.gUsageNs[g], null, null, null,
                    null, null);
        }
        var stat = new io.cfslab.metrics.SimulationResult.CpuStat(clock.gUsageNs[g] / 1000, clock.gUserNs[g] / 1000,
                clock.gSystemNs[g] / 1000, b.nrPeriods, b.nrThrottled, b.throttledTimeNs / 1000, null, bursts,
                burstStats ? b.burstTimeNs / 1000 : null, null);
        return new io.cfslab.metrics.SimulationResult.CgroupStats(stat,
                cpuStatLocal ? new io.cfslab.metrics.SimulationResult.CpuStatLocal(throttledSelfTimeNs(g) / 1000) : null);
    }

    /**
     * What CPU c is doing: 0 idle, 1 running a task, 2 running a fair task whose hierarchy is throttled (a
     * task-based model lets it finish its kernel work), 3 idle while it has throttled work waiting
     * (parked tasks or a detached throttled subtree).
     */
    public int cpuState(int c) {
        int t = curr[c];
        if (t != NONE) return isFair(t) && thr.throttledHierarchy(leafQ(t, c)) ? 2 : 1;
        return thr.anyThrottledOn(c) ? 3 : 0; // the root cfs_rq is never throttled
    }

    /** Per-CPU busy, interrupt-handler and scheduler-overhead time, µs. */
    public java.util.List<io.cfslab.metrics.SimulationResult.CpuStats> cpuStats() {
        var list = new java.util.ArrayList<io.cfslab.metrics.SimulationResult.CpuStats>(ncpu);
        for (int c = 0; c < ncpu; c++) {
            // interrupt and overhead work still ahead at the end of the run is not part of it
            list.add(new io.cfslab.metrics.SimulationResult.CpuStats(c, clock.busyNs[c] / 1000,
                    clock.irqElapsedNs(c) / 1000, clock.schedElapsedNs(c) / 1000));
        }
        return java.util.List.copyOf(list);
    }
}
