package io.cfslab.kernel;

import io.cfslab.machine.Topology;
import io.cfslab.event.EventQueue;
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
 * skip busy LLCs, the periodic load balance and {@code newidle_balance()}, which even out runnable task
 * counts by moving queued fair tasks ({@code can_migrate_task()} with the kernel's throttle check: {@code
 * throttled_lb_pair()}, {@code lb_throttled_hierarchy()} or none, {@code kernel.throttled_lb}).
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
    private final long[] utilAvg, runnableAvg;
    /** Integrals since the last sample, ns and task·ns, and where they were last brought up to date. */
    private final long[] idleNs, runnableNs, idleSinceNs, runnableSinceNs;
    private final int[] runnableCount;
    private long lastPeltNs;

    /** Every CPU, and the CPUs of each LLC, ascending: the spans of the periodic balance. */
    private final int[] allCpus;
    private final int[][] llcCpus;
    /**
     * How often the periodic balance crosses LLCs, ns: the balance interval of the machine's top domain, whose
     * {@code sd_init()} sets {@code balance_interval} to its weight in ms (384 ms for 384 CPUs), which an idle CPU
     * uses as it is and a busy one multiplies by {@code busy_factor} 16 (get_sd_balance_interval()) [simplified: the
     * idle CPU's interval, one domain above the LLC, so Genoa's PKG level, 192 ms within a socket, balances at the
     * machine's 384 ms]. Within an LLC the model keeps its 4 ms.
     */
    private final long crossLlcIntervalNs;
    private long lastCrossLlcNs;

    /** Scratch for {@link #pullOne}: the throttled subtrees of the source and destination CPUs. */
    private final int[] srcThrottled = new int[16], dstThrottled = new int[16];

    LoadBalancer(Kernel k, ThrottledLb rule) {
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
        crossLlcIntervalNs = Math.max(BALANCE_INTERVAL_NS, ncpu * 1_000_000L);
    }

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
        }
    }

    /** CPU c's runnable count changed (fair root h_nr_running or RT queue): keeps {@link #hasRunnable}. */
    void nrRunningChanged(int c) {
        k.forkInputsChanged(c);
        if (k.loads != null) k.loads.cpuRunnableChanged(c, fair.hNrRunning(k.rootQ(c)));
        runnableNs[c] += runnableCount[c] * (k.now - runnableSinceNs[c]);
        runnableSinceNs[c] = k.now;
        runnableCount[c] = k.nrRunnable(c);
        if (k.nrRunnable(c) > 0) hasRunnable[c >>> 6] |= 1L << c;
        else hasRunnable[c >>> 6] &= ~(1L << c);
    }

    private boolean isQueuedTask(int t) { return k.isFair(t) ? fair.onRq(t) : true; }

    /** Arms the first periodic balance. */
    void start() {
        events.push(k.now + BALANCE_INTERVAL_NS, EV_BALANCE, EV_BALANCE, 0, 0);
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
        for (int c = a.nextSetBit(0); c >= 0 && c < ncpu; c = a.nextSetBit(c + 1)) {
            if (topo.llcOf(c) != llc || !k.cpuIdle(c)) continue;
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
     * within itself, and only every {@link #crossLlcIntervalNs} the whole machine, across LLCs (see there).
     */
    void balance() {
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
     * New-idle balance ({@code sched_balance_newidle()}): an idle CPU walks its sched domains from the smallest up,
     * its LLC first, then the whole machine, and at each pulls one task from the busiest CPU of that span (the first
     * of equals) that has one it may take; it stops at the first domain that gave it one. So a task crosses an LLC
     * only when nothing in the idle CPU's own LLC could be taken, as in the kernel, whose MC domain is balanced before
     * PKG and NUMA. A CPU without runnable tasks has a load of at most 1 and is never the busiest, so only CPUs with
     * runnable tasks are looked at, in CPU order.
     */
    boolean newIdleBalance(int c) {
        int llc = topo.llcOf(c);
        if (topo.llcs() > 1 && pullBusiest(c, llc)) return true;
        return pullBusiest(c, -1);
    }

    /**
     * Pulls one task to idle CPU c from the busiest CPU of LLC {@code llc} (-1: any CPU) from which one can be taken:
     * the busiest first (the first of equals), and if every task there is refused (throttled, pinned: the kernel's
     * LBF_ALL_PINNED redo without that CPU), the next busiest, up to {@link #CANDIDATES} CPUs. A refused pull changes
     * nothing, so the loads stay as they were: one pass over the CPUs finds all the candidates, in the order that a
     * new search after each refusal would find them.
     */
    private boolean pullBusiest(int c, int llc) {
        int n = 0; // candidates found: by load, highest first, then by CPU (the scan goes up, so a tie stays behind)
        for (int w = 0; w < hasRunnable.length; w++) {
            for (long bits = hasRunnable[w]; bits != 0; bits &= bits - 1) {
                int s = (w << 6) + Long.numberOfTrailingZeros(bits);
                int least = n == CANDIDATES ? candidateLoad[CANDIDATES - 1] : 1; // what s must beat to be one
                if (s == c || runnableCount[s] + 1 <= least) continue; // load(s) <= nrRunnable(s) + 1: cannot beat it
                if (llc >= 0 && topo.llcOf(s) != llc) continue;
                int l = load(s);
                if (l <= least) continue;
                int i = n < CANDIDATES ? n++ : CANDIDATES - 1;
                for (; i > 0 && candidateLoad[i - 1] < l; i--) {
                    candidateLoad[i] = candidateLoad[i - 1];
                    candidate[i] = candidate[i - 1];
                }
                candidateLoad[i] = l;
                candidate[i] = s;
            }
        }
        for (int i = 0; i < n; i++) if (pullOne(candidate[i], c)) return true;
        return false;
    }

    /** CPUs a {@link #pullBusiest} call tries at most: the busiest and four retries. */
    private static final int CANDIDATES = 5;
    /** {@link #pullBusiest}'s candidates and their loads. */
    private final int[] candidate = new int[CANDIDATES], candidateLoad = new int[CANDIDATES];

    /**
     * Moves one queued, not running, migratable fair task from src to dst: the first on src's list that is
     * allowed on dst and passes can_migrate_task()'s throttle check: in a throttled hierarchy on neither CPU
     * ({@code pair}, throttled_lb_pair()), not on dst ({@code dst}, lb_throttled_hierarchy(), 6.18), or
     * anywhere ({@code none}: a task pulled into a throttled hierarchy is picked there and parks on its way
     * back to user mode).
     */
    boolean pullOne(int src, int dst) {
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
            if (outside <= 0) return false;
        }
        for (int t = fair.cpuTaskHead[src]; t != NONE; t = fair.cpuTaskNext[t]) {
            // the checks are pure; the throttled ones first, as they turn away most tasks without touching the
            // task's policy and affinity objects
            if (t == curr[src] || tState[t] != T_RUNNABLE) continue;
            int g = tGroup[t];
            if (checkSrc && (ns < 0 ? thr.throttledHierarchy(g, src) : Throttling.inRanges(g, srcThrottled, ns))) continue;
            if (checkDst && (nd < 0 ? thr.throttledHierarchy(g, dst) : Throttling.inRanges(g, dstThrottled, nd))) continue;
            if (!k.isFair(t) || !tAllowed[t].get(dst)) continue;
            if (!checkDst && thr.throttledHierarchy(g, dst)) k.pullsIntoThrottled++;
            fair.dequeueTask(t, src);
            fair.migrateVruntime(t, src, dst);
            tCpu[t] = dst;
            k.migrated(t, src, dst);
            fair.enqueueTask(t, dst, false);
            if (curr[dst] == NONE) k.requestResched(dst);
            return true;
        }
        return false;
    }
}
