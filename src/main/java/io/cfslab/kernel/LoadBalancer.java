package io.cfslab.kernel;

import io.cfslab.machine.Topology;
import io.cfslab.event.EventQueue;
import io.cfslab.scenario.KernelSpec.PeriodicBalance;
import io.cfslab.scenario.KernelSpec.ThrottledLb;

import java.util.BitSet;

import static io.cfslab.kernel.Kernel.EV_BALANCE;
import static io.cfslab.kernel.Kernel.NONE;
import static io.cfslab.kernel.Kernel.T_RUNNABLE;
import static io.cfslab.kernel.Kernel.T_RUNNING;

/**
 * Where tasks run (kernel/sched/fair.c): wake-up CPU selection ({@code select_task_rq_fair()} with
 * {@code wake_affine()}'s target, {@link WakeAffine}, and {@code select_idle_sibling()}'s idle-core-first scan of
 * the target's LLC), the idle-CPU count per LLC that lets it
 * skip busy LLCs, the periodic load balance and {@code sched_balance_newidle()}, which even out runnable task
 * counts by moving queued fair tasks ({@code can_migrate_task()} with the kernel's throttle check: {@code
 * throttled_lb_pair()}, {@code lb_throttled_hierarchy()} or none, {@code kernel.throttled_lb}); at new-idle also
 * {@code task_hot()}, {@code detach_tasks()}'s walk and, across LLCs, {@code sched_balance_find_src_group()}
 * ({@link SrcGroupFinder}). With {@code kernel.periodic_balance} {@code kernel} the periodic balance is 6.18's
 * ({@link SchedBalanceDomains}) and each CPU's task list is kept MRU as {@code rq->cfs_tasks} is.
 */
final class LoadBalancer {
    static final long BALANCE_INTERVAL_NS = 4_000_000L;

    private final Kernel k;
    private final int ncpu;
    private final Topology topo;
    private final EventQueue events;
    private final int[] curr, tCpu, tState, tGroup;
    private final BitSet[] tAllowed;
    private FairRq fair;
    private Throttling thr;
    /** can_migrate_task() refuses a task throttled on the source CPU (throttled_lb_pair()). */
    private final boolean checkSrc;
    /** can_migrate_task() refuses a task throttled on the destination CPU (throttled_lb_pair(), lb_throttled_hierarchy()). */
    private final boolean checkDst;

    /** Idle CPUs per LLC. */
    final int[] llcIdle;
    /** CPUs counted idle in {@link #llcIdle} (a plain array: BitSet.clear() rescans its words on every call). */
    private final boolean[] countedIdle;
    /**
     * CPUs with a runnable task (rq->nr_running &gt; 0), one bit each: only these can have a {@link #load} above
     * 1, so new-idle balance looks at them alone (the kernel checks rd->overload for the same reason).
     */
    private final long[] hasRunnable;
    /**
     * PELT per CPU (kernel/sched/pelt.c), sampled at each periodic balance: {@code util_avg} (the share of time the
     * CPU was busy) and {@code runnable_avg} (the time-averaged runnable count), both scaled by 1024 and decayed
     * with PELT's 32 ms half-life. find_busiest_group() reads them through group_is_overloaded().
     */
    final long[] utilAvg, runnableAvg;
    /** Integrals since the last sample, ns and task·ns, and where they were last brought up to date. */
    private final long[] idleNs, runnableNs, idleSinceNs, runnableSinceNs;
    private final int[] runnableCount;
    private long lastPeltNs;

    /** Every CPU, and the CPUs of each LLC, ascending: the spans of the periodic balance. */
    private final int[] allCpus;
    private final int[][] llcCpus;
    /** The CPUs of each core (SMT siblings), ascending: new-idle's SMT span. */
    private final int[][] coreCpus;
    /**
     * How often the periodic balance crosses LLCs, ns: the balance interval of the machine's top domain, whose
     * {@code sd_init()} sets {@code balance_interval} to its weight in ms (384 ms for 384 CPUs), which an idle CPU
     * uses as it is and a busy one multiplies by {@code busy_factor} 16 (get_sd_balance_interval()) [simplified: the
     * idle CPU's interval, one domain above the LLC, so Genoa's PKG level, 192 ms within a socket, balances at the
     * machine's 384 ms]. Within an LLC the model keeps its 4 ms.
     */
    private final long crossLlcIntervalNs;
    private long lastCrossLlcNs;
    /**
     * sched_balance_find_src_group() over the LLCs: whether and from where new-idle pulls across them (at the PKG
     * level, the LLCs of the idle CPU's socket, when a socket has several; else the machine's).
     */
    final SrcGroupFinder groups;
    /**
     * Whether the machine has several sockets of several LLCs each (AMD Genoa: 12 CCXs a socket): then the kernel's
     * domains above the LLC are PKG (the socket, whose groups are its LLCs) and NUMA (the machine, whose groups are
     * the sockets), each balanced in turn; otherwise the model's top level is the one domain above the LLC.
     */
    private final boolean llcsInSockets;
    /** Idle CPUs per socket, and the CPUs of each socket: the NUMA level's groups when {@link #llcsInSockets}. */
    private final int[] socketIdle;
    private final int[][] socketCpus;
    /** sched_balance_find_src_group() over the sockets (the NUMA level) when {@link #llcsInSockets}, else null. */
    final SrcGroupFinder numaGroups;

    /** Scratch for {@link #pullOne}: the throttled subtrees of the source and destination CPUs. */
    private final int[] srcThrottled = new int[16], dstThrottled = new int[16];

    /**
     * 6.18's periodic balance ({@code kernel.periodic_balance} kernel), else null: the model's spreading by counts
     * ({@link #balance}).
     */
    final SchedBalanceDomains periodic;
    /**
     * {@code rq->cfs_tasks} kept as the kernel keeps it (with {@link #periodic}): the picked task moves to the list's
     * head ({@code __set_next_task_fair()}'s {@code list_move()}, 6.18), and {@code detach_tasks()} moves each task it
     * looks at and leaves to the head (its {@code next:} label), so the next walk starts further on.
     */
    final boolean mruTasks;

    LoadBalancer(Kernel k, ThrottledLb rule) { this(k, rule, PeriodicBalance.DEFAULT); }

    LoadBalancer(Kernel k, ThrottledLb rule, PeriodicBalance periodicRule) {
        this.k = k;
        this.checkSrc = rule == ThrottledLb.PAIR;
        this.checkDst = rule != ThrottledLb.NONE;
        this.ncpu = k.ncpu;
        this.topo = k.topo;
        this.events = k.events;
        this.curr = k.curr;
        this.tCpu = k.tCpu;
        this.tState = k.tState;
        this.tGroup = k.tGroup;
        this.tAllowed = k.tAllowed;
        llcIdle = new int[topo.llcs()];
        for (int c = 0; c < ncpu; c++) llcIdle[topo.llcOf(c)]++;
        countedIdle = new boolean[ncpu];
        java.util.Arrays.fill(countedIdle, true);
        hasRunnable = new long[(ncpu + 63) >>> 6];
        utilAvg = new long[ncpu];
        runnableAvg = new long[ncpu];
        idleNs = new long[ncpu];
        runnableNs = new long[ncpu];
        idleSinceNs = new long[ncpu];
        runnableSinceNs = new long[ncpu];
        runnableCount = new int[ncpu];
        allCpus = new int[ncpu];
        int[] perLlc = new int[topo.llcs()];
        for (int c = 0; c < ncpu; c++) { allCpus[c] = c; perLlc[topo.llcOf(c)]++; }
        llcCpus = new int[topo.llcs()][];
        for (int l = 0; l < llcCpus.length; l++) llcCpus[l] = new int[perLlc[l]];
        java.util.Arrays.fill(perLlc, 0);
        for (int c = 0; c < ncpu; c++) { int l = topo.llcOf(c); llcCpus[l][perLlc[l]++] = c; }
        coreCpus = new int[topo.cores()][topo.smt()];
        int[] perCore = new int[topo.cores()];
        for (int c = 0; c < ncpu; c++) coreCpus[topo.coreOf(c)][perCore[topo.coreOf(c)]++] = c;
        crossLlcIntervalNs = Math.max(BALANCE_INTERVAL_NS, ncpu * 1_000_000L);
        llcsInSockets = topo.sockets() > 1 && topo.llcs() > topo.sockets();
        cacheNiceTries = new int[] {0, 1, topo.llcs() > 1 && topo.sockets() > 1 ? 2 : 1, 1};
        socketIdle = new int[topo.sockets()];
        socketCpus = new int[topo.sockets()][ncpu / topo.sockets()];
        int[] perSocket = new int[topo.sockets()];
        for (int c = 0; c < ncpu; c++) {
            int s = topo.socketOf(c);
            socketIdle[s]++;
            socketCpus[s][perSocket[s]++] = c;
        }
        // imb_numa_nr (build_sched_domains()): the LLCs under the first domain above the LLC: a socket's LLCs when
        // PKG is that domain, the machine's when NUMA is (one LLC a socket); 0 where the domain is not NUMA
        groups = new SrcGroupFinder(llcCpus, runnableCount, llcIdle, utilAvg, runnableAvg,
                topo.sockets() > 1 && !llcsInSockets ? topo.llcs() : 0);
        numaGroups = llcsInSockets ? new SrcGroupFinder(socketCpus, runnableCount, socketIdle, utilAvg, runnableAvg,
                topo.llcs() / topo.sockets()) : null;
        nrBalanceFailed = new int[4][ncpu];
        mruTasks = periodicRule == PeriodicBalance.KERNEL;
        periodic = mruTasks ? new SchedBalanceDomains(k, this, topo, runnableCount, utilAvg, runnableAvg,
                llcsInSockets) : null;
    }

    /** The groups' CPUs of {@link #numaGroups} ({@code sockets}) or of {@link #groups} (the LLCs). */
    int[][] groupCpus(boolean sockets) { return sockets ? socketCpus : llcCpus; }

    /** Whether CPU c is counted idle ({@link #updateIdle}): {@code idle_cpu()}. */
    boolean countedIdle(int c) { return countedIdle[c]; }

    /** {@code is_core_idle()}: every SMT sibling of c is idle. */
    boolean coreIdle(int c) {
        for (int i = 0; i < topo.siblingCount(c); i++) if (!k.cpuIdle(topo.sibling(c, i))) return false;
        return true;
    }

    /** CPU c's PELT util_avg and runnable_avg, ×1024, as last sampled. */
    long utilAvg(int c) { return utilAvg[c]; }
    long runnableAvg(int c) { return runnableAvg[c]; }

    void link(FairRq fair, Throttling thr) {
        this.fair = fair;
        this.thr = thr;
    }

    /** Keeps the idle-CPU count per LLC in step with CPU c's busy state. */
    void updateIdle(int c) {
        boolean idleNow = curr[c] == NONE && k.nrRunnable(c) == 0;
        if (idleNow != countedIdle[c]) {
            if (!idleNow) idleNs[c] += k.now - idleSinceNs[c];
            idleSinceNs[c] = k.now;
            countedIdle[c] = idleNow;
            llcIdle[topo.llcOf(c)] += idleNow ? 1 : -1;
            socketIdle[topo.socketOf(c)] += idleNow ? 1 : -1;
        }
    }

    /**
     * CPU c's runnable count changed (fair root h_nr_running or RT queue): keeps {@link #hasRunnable}, {@link
     * #runnableCount} and the groups' sums ({@link SrcGroupFinder#runnableChanged}).
     */
    void nrRunningChanged(int c) {
        k.forkInputsChanged(c);
        if (k.loads != null) k.loads.cpuRunnableChanged(c, fair.hNrRunning(k.rootQ(c)));
        runnableNs[c] += runnableCount[c] * (k.now - runnableSinceNs[c]);
        runnableSinceNs[c] = k.now;
        int delta = k.nrRunnable(c) - runnableCount[c];
        runnableCount[c] += delta;
        groups.runnableChanged(c, delta);
        if (numaGroups != null) numaGroups.runnableChanged(c, delta);
        if (periodic != null) periodic.runnableChanged(c, delta);
        if (k.nrRunnable(c) > 0) hasRunnable[c >>> 6] |= 1L << c;
        else hasRunnable[c >>> 6] &= ~(1L << c);
    }

    private boolean isQueuedTask(int t) { return k.isFair(t) ? fair.onRq(t) : true; }

    /** Arms the first periodic balance: in 4 ms, or at the next jiffy with {@link #periodic}. */
    void start() {
        events.push(k.now + (periodic != null ? k.tickNs : BALANCE_INTERVAL_NS), EV_BALANCE, EV_BALANCE, 0, 0);
    }

    int coreLoad(int c) {
        int n = 0;
        for (int i = 0; i < topo.siblingCount(c); i++) n += k.nrRunnable(topo.sibling(c, i));
        return n;
    }

    /** select_task_rq(): previous CPU if idle, else an idle CPU of its LLC (idle core first), else previous. */
    int selectTaskRq(int t) {
        int prev = tCpu[t];
        BitSet a = tAllowed[t];
        boolean prevOk = a.get(prev);
        if (prevOk && k.cpuIdle(prev) && !rtBusy(prev, t)) return prev;
        int llc = topo.llcOf(prevOk ? prev : a.nextSetBit(0));
        int idle = idleCpuOfLlc(a, llc);
        if (idle != NONE) return idle;
        if (prevOk && !(k.isFair(t) ? false : rtBusy(prev, t))) return prev;
        int best = NONE, bestLoad = Integer.MAX_VALUE;
        for (int c = a.nextSetBit(0); c >= 0 && c < ncpu; c = a.nextSetBit(c + 1)) {
            int l = k.nrRunnable(c) + (curr[c] == NONE ? 0 : 1);
            if (l < bestLoad) { bestLoad = l; best = c; }
        }
        return best;
    }

    /**
     * select_task_rq_fair() for a fair task woken by the running task {@code w} ({@link WakeAffine}): unless
     * wake_wide(), the target is wake_affine()'s choice between w's CPU and the previous one, then
     * select_idle_sibling(p, prev, target): the target if idle; the previous CPU if idle and in the target's LLC; an
     * idle CPU of the target's LLC (an idle core first); else the target. Without an affine target: {@link #selectTaskRq}.
     */
    int selectTaskRqAffine(int t, int w) {
        int prev = tCpu[t], thisCpu = tCpu[w];
        BitSet a = tAllowed[t];
        WakeAffine wa = k.affine;
        if (thisCpu == prev || !a.get(thisCpu) || !a.get(prev) || wa.wakeWide(w, t, thisCpu)) return selectTaskRq(t);
        int target = wa.wakeAffine(w, t, thisCpu, prev);
        if (target == prev) return selectTaskRq(t);
        if (k.cpuIdle(target)) return target;
        int llc = topo.llcOf(target);
        if (topo.llcOf(prev) == llc && k.cpuIdle(prev)) return prev;
        int idle = idleCpuOfLlc(a, llc);
        if (idle != NONE) return idle;
        return target;
    }

    /** select_idle_cpu() over LLC {@code llc}: an allowed idle CPU of an idle core first, else the first idle one, or NONE. */
    private int idleCpuOfLlc(BitSet a, int llc) {
        if (llcIdle[llc] == 0) return NONE;
        int idleCpu = NONE;
        for (int c : llcCpus[llc]) { // the LLC's CPUs in ascending order, not all allowed CPUs: O(LLC) on 384 CPUs
            if (!a.get(c) || !k.cpuIdle(c)) continue;
            if (coreLoad(c) == 0 && siblingsIdle(c)) return c;
            if (idleCpu == NONE) idleCpu = c;
        }
        return idleCpu;
    }

    private boolean rtBusy(int c, int t) {
        return !k.isFair(t) && curr[c] != NONE && !k.isFair(curr[c]);
    }

    private boolean siblingsIdle(int c) {
        for (int i = 0; i < topo.siblingCount(c); i++) if (curr[topo.sibling(c, i)] != NONE) return false;
        return true;
    }

    /**
     * Periodic load balance (sched_balance_domains(), kernel/sched/fair.c): CPUs with more than the average (rounded
     * up) runnable tasks give queued, migratable fair tasks to CPUs below the average (rounded down), so N hogs on M
     * CPUs end up evenly spread. Throttled hierarchies are left alone as {@code kernel.throttled_lb} says
     * (can_migrate_task). Each domain has its own interval: every {@link #BALANCE_INTERVAL_NS} each LLC is balanced
     * within itself, and only every {@link #crossLlcIntervalNs} the whole machine, across LLCs (see there). With
     * {@code kernel.periodic_balance} kernel, {@link SchedBalanceDomains#run} at every jiffy instead.
     */
    void balance() {
        if (periodic != null) { // 6.18's sched_balance_domains() at every jiffy; PELT sampled every 4 ms as before
            events.push(k.now + k.tickNs, EV_BALANCE, EV_BALANCE, 0, 0);
            if (k.now - lastPeltNs >= BALANCE_INTERVAL_NS) updatePelt();
            periodic.run();
            return;
        }
        events.push(k.now + BALANCE_INTERVAL_NS, EV_BALANCE, EV_BALANCE, 0, 0);
        updatePelt();
        if (llcCpus.length > 1 && k.now - lastCrossLlcNs < crossLlcIntervalNs) {
            for (int[] cpus : llcCpus) balanceSpan(cpus);
            return;
        }
        lastCrossLlcNs = k.now;
        balanceSpan(allCpus);
    }

    /** {@link #balance} over the CPUs {@code cpus} (ascending): tasks move only between them. */
    private void balanceSpan(int[] cpus) {
        int n = cpus.length;
        long total = 0;
        for (int c : cpus) total += load(c);
        int floor = (int) (total / n);
        int ceil = (int) ((total + n - 1) / n);
        int ri = 0;
        for (int donor : cpus) {
            while (load(donor) > Math.max(ceil, 1)) {
                while (ri < n && load(cpus[ri]) >= Math.max(floor, 1)
                        && !(load(cpus[ri]) < ceil && load(donor) > ceil)) ri++;
                if (ri >= n) return;
                int recv = cpus[ri];
                if (load(recv) >= load(donor) - 1) { ri++; continue; }
                if (curr[recv] != NONE && !overloaded(donor)) { ri++; continue; }
                if (!pullOne(donor, recv)) break;
            }
        }
    }

    /** The PELT decay over one balance interval, ×1024: y^(4 ms / 1.024 ms) with y^32 = 1/2. */
    private static final long PELT_DECAY = Math.round(1024 * Math.pow(0.5, BALANCE_INTERVAL_NS / 1_024_000.0 / 32));

    /** Decays each CPU's util_avg and runnable_avg and adds the last interval's busy share and runnable count. */
    private void updatePelt() {
        long span = k.now - lastPeltNs;
        if (span <= 0) return;
        for (int c = 0; c < ncpu; c++) {
            long idle = idleNs[c] + (countedIdle[c] ? k.now - idleSinceNs[c] : 0);
            long runnable = runnableNs[c] + runnableCount[c] * (k.now - runnableSinceNs[c]);
            idleNs[c] = 0;
            idleSinceNs[c] = k.now;
            runnableNs[c] = 0;
            runnableSinceNs[c] = k.now;
            long util = Math.max(0, span - idle) * 1024 / span;
            long run = runnable * 1024 / span;
            utilAvg[c] = (utilAvg[c] * PELT_DECAY + util * (1024 - PELT_DECAY)) >> 10;
            runnableAvg[c] = (runnableAvg[c] * PELT_DECAY + run * (1024 - PELT_DECAY)) >> 10;
        }
        lastPeltNs = k.now;
        groups.peltUpdated();
        if (numaGroups != null) numaGroups.peltUpdated();
        if (periodic != null) periodic.peltUpdated();
    }

    /**
     * group_is_overloaded() for a group of one CPU (find_busiest_group()): more tasks than CPUs, and either its
     * utilisation or its runnable average past its capacity by imbalance_pct (117, sd_init()). A busy CPU pulls
     * only from an overloaded one ("let another idle CPU try to pull task"), so a group whose tasks are unevenly
     * spread over busy CPUs but throttled most of the time stays as it is, as in the kernel.
     */
    boolean overloaded(int c) {
        if (load(c) <= 1) return false;
        return utilAvg[c] * ForkBurst.IMBALANCE_PCT > 1024 * 100 || runnableAvg[c] * 100 > 1024 * ForkBurst.IMBALANCE_PCT;
    }

    /**
     * Runnable plus running tasks on a CPU. Its runnable count is read from {@link #runnableCount}, which
     * {@link #nrRunningChanged} keeps equal to {@code k.nrRunnable(c)}: one hot array of ints, where the root
     * cfs_rqs' records that nrRunnable() reads are evicted by the park storms between two new-idle balances.
     */
    int load(int c) {
        int running = curr[c] != NONE && tState[curr[c]] == T_RUNNING ? 1 : 0;
        return runnableCount[c] - (running == 1 && isQueuedTask(curr[c]) ? 1 : 0) + running;
    }

    /**
     * New-idle balance ({@code sched_balance_newidle()}, kernel/sched/fair.c, 6.18): an idle CPU walks its sched
     * domains from the smallest up, its SMT core first (where the machine has SMT), then its LLC, then (on a
     * machine with several LLCs a socket, Genoa's CCXs) its socket, the PKG level, whose groups are the socket's
     * LLCs, then the whole machine (NUMA, whose groups are then the sockets), and at each pulls one task (CONFIG_PREEMPTION: {@code detach_tasks()} stops after the first at
     * CPU_NEWLY_IDLE) from the busiest CPU of that span that has one it may take; it stops at the first domain that
     * gave it one. So a task crosses an LLC only when nothing in the idle CPU's own LLC could be taken, as in the
     * kernel, whose MC domain is balanced before PKG and NUMA, and only from the LLC that {@link SrcGroupFinder}
     * finds imbalanced against the idle CPU's. Above the SMT level a task that ran on its CPU within
     * {@link #MIGRATION_COST_NS} is refused ({@link #taskHot}). A CPU without runnable tasks has a load of at most 1
     * and is never the busiest, so only CPUs with runnable tasks are looked at, in CPU order.
     */
    boolean newIdleBalance(int c) {
        if (topo.smt() > 1 && pullBusiest(c, LEVEL_SMT)) return true;
        if (topo.llcs() > 1 && pullBusiest(c, LEVEL_LLC)) return true;
        if (llcsInSockets && pullBusiest(c, LEVEL_PKG)) return true;
        return pullBusiest(c, LEVEL_TOP);
    }

    /**
     * Pulls one task to idle CPU c from the busiest CPU of c's span at {@code level} (its SMT core, its LLC, or the
     * machine) from which one can be taken: the busiest first (the first of equals), and if every task there is
     * refused for its hierarchy or its affinity (the kernel's LBF_ALL_PINNED redo without that CPU), the next
     * busiest, up to {@link #CANDIDATES} CPUs. A CPU whose tasks were refused for another reason (running, cache
     * hot) ends the domain's balance, as in {@code sched_balance_rq()}, which redoes only when all were pinned. A
     * refused pull changes nothing, so the loads stay as they were: one pass over the CPUs finds all the
     * candidates, in the order that a new search after each refusal would find them.
     */
    private boolean pullBusiest(int c, int level) {
        int llc = level == LEVEL_LLC ? topo.llcOf(c) : -1, socket = -1;
        if (level == LEVEL_PKG) {
            // the socket's LLCs (contiguous: llcOf follows the cores), from the one the group rules name
            int perSocket = topo.llcs() / topo.sockets(), first = topo.socketOf(c) * perSocket;
            llc = groups.findSrcGroup(topo.llcOf(c), first, first + perSocket);
            if (llc < 0) return false;
        } else if (level == LEVEL_TOP && llcsInSockets) {
            // NUMA: the groups are the sockets; the busiest CPU of the socket named, whichever LLC it is in
            socket = numaGroups.findSrcGroup(topo.socketOf(c));
            if (socket < 0) return false;
        } else if (level == LEVEL_TOP && topo.llcs() > 1) {
            // across LLCs only from the LLC sched_balance_find_src_group() names, if it finds an imbalance
            llc = groups.findSrcGroup(topo.llcOf(c));
            if (llc < 0) return false;
        }
        // the span's CPUs in ascending order: the core's, the LLC's or the socket's alone (not every CPU with a
        // runnable task filtered down to them, O(CPUs) on 384); the machine's by its runnable bits
        int[] span = level == LEVEL_SMT ? coreCpus[topo.coreOf(c)] : llc >= 0 ? llcCpus[llc]
                : socket >= 0 ? socketCpus[socket] : null;
        int n = 0; // candidates found: by load, highest first, then by CPU (the scan goes up, so a tie stays behind)
        if (span != null) {
            for (int s : span) if ((hasRunnable[s >>> 6] & 1L << s) != 0) n = addCandidate(s, c, n);
        } else {
            for (int w = 0; w < hasRunnable.length; w++)
                for (long bits = hasRunnable[w]; bits != 0; bits &= bits - 1)
                    n = addCandidate((w << 6) + Long.numberOfTrailingZeros(bits), c, n);
        }
        for (int i = 0; i < n; i++) {
            int r = detachTasks(candidate[i], c, level);
            if (r == PULLED) return true;
            if (r == REFUSED) return false;
        }
        return false;
    }

    /**
     * {@link #pullBusiest}'s step for CPU s, which has a runnable task, with n candidates found so far: s joins them
     * in load order if it is busier than the least of them (or than 1 while there is room). Returns the new n.
     */
    private int addCandidate(int s, int c, int n) {
        int least = n == CANDIDATES ? candidateLoad[CANDIDATES - 1] : 1; // what s must beat to be one
        if (s == c || runnableCount[s] + 1 <= least) return n; // load(s) <= nrRunnable(s) + 1: cannot beat it
        int l = load(s);
        if (l <= least) return n;
        int i = n < CANDIDATES ? n++ : CANDIDATES - 1;
        for (; i > 0 && candidateLoad[i - 1] < l; i--) {
            candidateLoad[i] = candidateLoad[i - 1];
            candidate[i] = candidate[i - 1];
        }
        candidateLoad[i] = l;
        candidate[i] = s;
        return n;
    }

    /** CPUs a {@link #pullBusiest} call tries at most: the busiest and four retries. */
    private static final int CANDIDATES = 5;
    /** {@link #pullBusiest}'s candidates and their loads. */
    private final int[] candidate = new int[CANDIDATES], candidateLoad = new int[CANDIDATES];

    /**
     * A pull of the model's own periodic balance ({@code kernel.periodic_balance} counts): {@link #detachTasks}
     * without {@link #taskHot}, walking src's list from its head (see {@link #balance}; the kernel's periodic
     * balance, with task_hot() and the tail-first walk, is {@link SchedBalanceDomains}).
     */
    boolean pullOne(int src, int dst) {
        return detachTasks(src, dst, PERIODIC) == PULLED;
    }

    /** {@link #detachTasks}: a task was moved. */
    static final int PULLED = 1;
    /** {@link #detachTasks}: none moved, but one could have run on dst (running or cache hot): no redo. */
    static final int REFUSED = 0;
    /** {@link #detachTasks}: none moved, every task looked at was refused for its hierarchy or affinity. */
    static final int ALL_PINNED = -1;

    /** Domain levels of {@link #newIdleBalance} ({@link #nrBalanceFailed}'s rows); {@link #PERIODIC}: the periodic balance. */
    static final int LEVEL_SMT = 0, LEVEL_LLC = 1, LEVEL_TOP = 2, LEVEL_PKG = 3, PERIODIC = -1;

    /** {@code sysctl_sched_migration_cost}: 500 µs (kernel/sched/fair.c, every version modelled). */
    static final long MIGRATION_COST_NS = 500_000L;
    /**
     * {@code sysctl_sched_nr_migrate} and {@code SCHED_NR_MIGRATE_BREAK}: 32 (8 with PREEMPT_RT, not modelled):
     * {@code detach_tasks()} looks at most at min(32, src's nr_running) tasks ({@code env->loop_max}).
     */
    static final int NR_MIGRATE = 32;

    /**
     * {@code sd->cache_nice_tries} per level ({@code sd_init()}, kernel/sched/topology.c): 0 at SMT (task_hot()
     * does not apply there), 1 at MC (SD_SHARE_LLC), 2 at a NUMA level, 1 at PKG. Indexed by level: the model's top
     * level ({@link #LEVEL_TOP}) is the whole machine: NUMA when it has more than one socket, PKG (1) with one;
     * {@link #LEVEL_PKG} is the socket of a machine with several LLCs a socket.
     */
    private final int[] cacheNiceTries;
    /**
     * {@code sd->nr_balance_failed} of each CPU's domain at each level: counted by {@code sched_balance_rq()} only for
     * periodic balances that found an imbalance and moved nothing ("We do not want newidle balance, which can be
     * very frequent, pollute the failure counter"), reset at a move and when all tasks were pinned. Counted by
     * {@link SchedBalanceDomains} ({@code kernel.periodic_balance} kernel); the model's own periodic balance
     * ({@code counts}) refuses tasks only for their hierarchy or affinity (the LBF_ALL_PINNED kind, which resets it)
     * and has no cache-hot refusal, so there it stays 0 in runs [simplified]; tests set it.
     */
    final int[][] nrBalanceFailed;

    /**
     * {@code task_hot()} (kernel/sched/fair.c, 6.18; the same test since 2.6): a fair task that ran on its CPU
     * within {@link #MIGRATION_COST_NS} is cache hot: {@code rq_clock_task(src) - p->se.exec_start <
     * sysctl_sched_migration_cost}. A task moved since it last ran, or that never ran, is cold ({@code
     * ENQUEUE_MIGRATED} zeroes exec_start). Not modelled: CACHE_HOT_BUDDY (it needs a busy destination, and a
     * new-idle one is idle), core scheduling's cookie, and {@code migrate_degrades_locality()}, which without NUMA
     * faults (the model has no memory) returns -1 or 0 and leaves the decision to task_hot(). The kernel reads the
     * source CPU's clock ({@code rq_clock_task(env->src_rq)}); the model has one clock for all CPUs, {@code k.now}, so
     * the source is not a parameter.
     */
    boolean taskHot(int t) {
        return k.isFair(t) && k.now - k.tExecStartNs[t] < MIGRATION_COST_NS;
    }

    /**
     * {@code detach_tasks()} for one task, with {@code can_migrate_task()}'s checks (kernel/sched/fair.c, 6.18): at
     * new-idle from the tail of src's list, the task queued longest (the kernel keeps {@code rq->cfs_tasks} MRU, so
     * its tail is the least recently picked; the model's list is in enqueue order, the same for a task not picked
     * since it was queued [simplified]; the periodic balance walks from the head), at most
     * {@link #NR_MIGRATE} tasks looked at, the first queued, not running fair task that is allowed on dst and passes
     * the throttle check: in a throttled hierarchy on neither CPU ({@code pair}, throttled_lb_pair()), not on dst
     * ({@code dst}, lb_throttled_hierarchy(), 6.18), or anywhere ({@code none}: a task pulled into a throttled
     * hierarchy is picked there and parks on its way back to user mode); above the SMT level at new-idle ({@code
     * level} &gt;= LEVEL_LLC) also not {@link #taskHot} unless dst's domain at that level has failed more than its
     * {@link #cacheNiceTries}. Returns {@link #PULLED}, {@link #REFUSED} or {@link #ALL_PINNED}.
     */
    int detachTasks(int src, int dst, int level) {
        return detachTasks(src, dst, level, true, SrcGroupFinder.MIGRATE_TASK, 1, false, false);
    }

    /** {@code sd->cache_nice_tries} of the domains at {@code level}. */
    int cacheNiceTries(int level) { return cacheNiceTries[level]; }

    /**
     * {@link #detachTasks(int, int, int)} for a balance of either kind: {@code dstIdle} (env-&gt;idle: CPU_IDLE or
     * CPU_NEWLY_IDLE, so src keeps at least one task), the migration type and imbalance of {@link SrcGroupFinder},
     * and {@code periodic}: a periodic balance moves tasks until the imbalance is met (a task counts 1 for
     * migrate_task; for migrate_util and migrate_load its CPU's PELT average over its tasks, refused while that,
     * halved per {@code nr_balance_failed}, exceeds what is left [simplified: no per-task util or load]), where
     * new-idle stops at the first (CONFIG_PREEMPTION); {@code active}: {@code detach_one_task()} of an active
     * balance (LBF_ACTIVE_LB: no {@code task_hot()}; pass {@code dstIdle} false, it has no "steal all" check).
     * Returns the tasks moved, {@link #REFUSED} or {@link #ALL_PINNED}.
     */
    int detachTasks(int src, int dst, int level, boolean dstIdle, int migrationType, long imbalance, boolean periodic,
            boolean active) {
        if (imbalance <= 0) return REFUSED;
        // the throttled subtrees of the CPUs checked, fetched once: the list may hold hundreds of throttled tasks
        int ns = checkSrc ? thr.throttledRanges(src, srcThrottled) : 0;
        int nd = checkDst ? thr.throttledRanges(dst, dstThrottled) : 0;
        if (ns >= 0) { // ns is 0 when src is not checked: then every queued task counts
            // none outside src's throttled subtrees (and dst's) but the running task: nothing to look at
            int outside = thr.queuedOutsideThrottled(src, srcThrottled, ns);
            if (nd > 0) outside -= thr.queuedInOtherRanges(src, srcThrottled, ns, dstThrottled, nd);
            int cur = curr[src];
            if (cur != NONE && k.isFair(cur) && fair.onRq(cur) && !Throttling.inRanges(tGroup[cur], srcThrottled, ns)
                    && !(nd > 0 && Throttling.inRanges(tGroup[cur], dstThrottled, nd))) outside--;
            if (outside <= 0) return ALL_PINNED;
        }
        boolean hotRefused = !active && level >= LEVEL_LLC && nrBalanceFailed[level][dst] <= cacheNiceTries[level];
        int nrTasks = load(src), loopMax = Math.min(NR_MIGRATE, nrTasks), loop = 0, moved = 0;
        boolean allPinned = true;
        // what one task counts for against a util or load imbalance, halved per failed balance (shr_bound())
        long each = migrationType == SrcGroupFinder.MIGRATE_UTIL ? utilAvg[src] / Math.max(1, nrTasks)
                : migrationType == SrcGroupFinder.MIGRATE_LOAD ? runnableAvg[src] / Math.max(1, nrTasks) : 1;
        if (migrationType != SrcGroupFinder.MIGRATE_TASK && level >= 0) each >>= Math.min(63, nrBalanceFailed[level][dst]);
        // new-idle walks from the tail, as detach_tasks() does; the model's own periodic spreading by counts
        // ({@link #pullOne}) keeps its walk from the head (docs/seed-reproductions.md, "seeds14")
        boolean fromTail = level != PERIODIC;
        int visits = fair.cpuTaskCount[src]; // each task of the list once, however the walk reorders it
        for (int t = fromTail ? fair.cpuTaskTail[src] : fair.cpuTaskHead[src], next; t != NONE && visits-- > 0; t = next) {
            next = fromTail ? fair.cpuTaskPrev[t] : fair.cpuTaskNext[t];
            if (!k.isFair(t)) continue; // RT tasks share the model's list; they are not on rq->cfs_tasks
            // "We don't want to steal all, otherwise we may be treated likewise"
            if (dstIdle && load(src) <= 1) break;
            if (++loop > loopMax) break; // "We've more or less seen every task there is, call it quits"
            // can_migrate_task()'s order: the throttle check and affinity leave LBF_ALL_PINNED set, the rest clear it;
            // the throttled checks first, as they turn away most tasks without touching the task's affinity object
            int g = tGroup[t];
            boolean take = false;
            if (!(checkSrc && (ns < 0 ? thr.throttledHierarchy(g, src) : Throttling.inRanges(g, srcThrottled, ns)))
                    && !(checkDst && (nd < 0 ? thr.throttledHierarchy(g, dst) : Throttling.inRanges(g, dstThrottled, nd)))
                    && tAllowed[t].get(dst)) {
                allPinned = false;
                take = t != curr[src] && tState[t] == T_RUNNABLE && !(hotRefused && taskHot(t))
                        && (migrationType == SrcGroupFinder.MIGRATE_TASK || each <= imbalance);
            }
            if (!take) {
                if (mruTasks) fair.cpuTaskToHead(src, t); // detach_tasks()'s "next:" list_move() to the head
                continue;
            }
            if (!checkDst && thr.throttledHierarchy(g, dst)) k.pullsIntoThrottled++;
            if (level != PERIODIC) k.newidleLbGained++;
            fair.dequeueTask(t, src);
            fair.migrateVruntime(t, src, dst);
            tCpu[t] = dst;
            k.migrated(t, src, dst);
            fair.enqueueTask(t, dst, false);
            if (curr[dst] == NONE) k.requestResched(dst);
            moved++;
            imbalance -= each;
            if (!periodic || imbalance <= 0) break; // new-idle: one task (CONFIG_PREEMPTION); else up to the imbalance
        }
        return moved > 0 ? moved : allPinned ? ALL_PINNED : REFUSED;
    }
}
