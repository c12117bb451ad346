package io.cfslab.kernel;

import io.cfslab.machine.Topology;

import static io.cfslab.kernel.Kernel.NONE;
import static io.cfslab.kernel.LoadBalancer.ALL_PINNED;
import static io.cfslab.kernel.LoadBalancer.LEVEL_LLC;
import static io.cfslab.kernel.LoadBalancer.LEVEL_PKG;
import static io.cfslab.kernel.LoadBalancer.LEVEL_SMT;
import static io.cfslab.kernel.LoadBalancer.LEVEL_TOP;

/**
 * The periodic load balance as 6.18 has it ({@code kernel.periodic_balance} {@code kernel}): {@code
 * sched_balance_domains()} (kernel/sched/fair.c, 6.18) walks each CPU's sched domains bottom-up (SMT, MC = the LLC,
 * PKG on a machine of several LLCs a socket, then the machine: NUMA across sockets, or PKG with one socket) and at
 * each whose {@code get_sd_balance_interval()} has passed runs {@code sched_balance_rq()} with CPU_IDLE or
 * CPU_NOT_IDLE: {@code should_we_balance()} (only the first idle CPU of the local group, an idle core's first, or
 * the group's first CPU balances; the others stop walking up), {@code sched_balance_find_src_group()} ({@link
 * SrcGroupFinder}, the domain's {@code sd_init()} values), {@code sched_balance_find_src_rq()} by the migration type,
 * then {@code detach_tasks()} ({@link LoadBalancer#detachTasks}: from the tail of the MRU task list, {@code loop_max}
 * 32, {@code task_hot()} refused until {@code nr_balance_failed > cache_nice_tries}, up to the imbalance), and the
 * bookkeeping: {@code nr_balance_failed} +1 on a balance that found an imbalance and moved nothing, 0 on a move and on
 * a balanced domain; {@code balance_interval} back to {@code min_interval} after an imbalance, doubled (to
 * {@code max_interval}, or {@code MAX_PINNED_INTERVAL} when all were pinned) after a balanced one.
 *
 * <p>Intervals ({@code sd_init()}, kernel/sched/topology.c): {@code min_interval} = {@code balance_interval} =
 * the domain's weight in ms, {@code max_interval} twice that, {@code busy_factor} 16; {@code get_sd_balance_interval()}:
 * × 16 and one jiffy less on a busy CPU, in jiffies, clamped to [1, HZ × CPUs / 10]. Checked at every jiffy.
 *
 * <p>Active balance: after more than {@code cache_nice_tries + 2} failures with {@code migrate_task}
 * ({@code imbalanced_active_balance()}), {@link Kernel#activeLoadBalanceCpuStop} [simplified: at once].
 *
 * <p>Not modelled [simplified]: NOHZ (an idle CPU balances at its own interval, as if the idle-load-balancer CPU did
 * it for it without delay), {@code need_active_balance()}'s other cases (asym packing, a CPU whose capacity RT or
 * IRQs reduce, misfit), {@code LBF_DST_PINNED}'s other destination, {@code group_smt_balance},
 * misfit, asym packing, {@code group_imbalanced}, and the all-pinned redo's new group search (the redo takes the
 * next busiest CPU of the same group). A task's own util or load is not in the model: for {@code migrate_util} and
 * {@code migrate_load} each task counts as its CPU's PELT average over its tasks [simplified].
 */
final class SchedBalanceDomains {
    /** {@code MAX_PINNED_INTERVAL}, ms (kernel/sched/fair.c). */
    static final int MAX_PINNED_INTERVAL_MS = 512;
    /** {@code sd->busy_factor} (sd_init()). */
    static final int BUSY_FACTOR = 16;
    /** How many CPUs of the busiest group an all-pinned balance tries in turn (the kernel's redo). */
    private static final int REDO_CPUS = 5;

    private final Kernel k;
    private final LoadBalancer lb;
    private final int ncpu;
    private final long tickNs, hz;
    /** Per domain level i (bottom-up): LoadBalancer's level ({@code LEVEL_*}), finder, span weight in CPUs. */
    final int[] levels;
    final SrcGroupFinder[] finders;
    private final int[] weight;
    /** Per level: each CPU's group and the range of groups of its domain, [from, to). */
    private final int[][] groupOf, domFrom, domTo;
    /** Per level: the groups' CPUs; the idle counts the finder reads (null where LoadBalancer keeps them). */
    private final int[][][] groupCpus;
    private final int[][] ownIdle;
    /** Per level and CPU: {@code sd->last_balance} (ns) and {@code sd->balance_interval} (ms). */
    final long[][] lastBalanceNs;
    final int[][] balanceIntervalMs;
    /** sched_balance_rq()s that moved something, and active balances kicked, for tests. */
    long balancesMoved, activeBalances;
    private final int[] excluded = new int[REDO_CPUS];

    SchedBalanceDomains(Kernel k, LoadBalancer lb, Topology topo, int[] runnableCount, long[] utilAvg, long[] runnableAvg,
            boolean llcsInSockets) {
        this.k = k;
        this.lb = lb;
        this.ncpu = k.ncpu;
        this.tickNs = k.tickNs;
        this.hz = 1_000_000_000L / k.tickNs;
        int smt = topo.smt(), cores = topo.cores(), coresPerLlc = cores / topo.llcs();
        int n = (smt > 1 ? 1 : 0) + (coresPerLlc * smt > smt ? 1 : 0) + (llcsInSockets ? 1 : 0) + (topo.llcs() > 1 ? 1 : 0);
        levels = new int[n];
        finders = new SrcGroupFinder[n];
        weight = new int[n];
        groupOf = new int[n][ncpu];
        domFrom = new int[n][ncpu];
        domTo = new int[n][ncpu];
        groupCpus = new int[n][][];
        ownIdle = new int[n][];
        // the CPUs of each core, ascending: the SMT domain's span, the MC domain's groups
        int[][] coreCpus = new int[cores][smt];
        int[] fill = new int[cores];
        for (int c = 0; c < ncpu; c++) coreCpus[topo.coreOf(c)][fill[topo.coreOf(c)]++] = c;
        int i = 0;
        if (smt > 1) { // SMT: SD_SHARE_CPUCAPACITY | SD_SHARE_LLC, imbalance_pct 110, groups of one CPU, no child
            int[][] g = new int[ncpu][];
            for (int core = 0; core < cores; core++) {
                for (int t = 0; t < smt; t++) {
                    int c = coreCpus[core][t], gi = core * smt + t;
                    g[gi] = new int[] {c};
                    groupOf[i][c] = gi;
                    domFrom[i][c] = core * smt;
                    domTo[i][c] = core * smt + smt;
                }
            }
            ownIdle[i] = new int[ncpu];
            groupCpus[i] = g;
            finders[i] = new SrcGroupFinder(g, runnableCount, ownIdle[i], utilAvg, runnableAvg, 0, 110, true, false, false);
            levels[i] = LEVEL_SMT;
            weight[i++] = smt;
        }
        if (coresPerLlc * smt > smt) { // MC: SD_SHARE_LLC, 117, the LLC's cores as groups (SMT's SD_PREFER_SIBLING)
            for (int c = 0; c < ncpu; c++) {
                int core = topo.coreOf(c), llc = topo.llcOf(c);
                groupOf[i][c] = core;
                domFrom[i][c] = llc * coresPerLlc;
                domTo[i][c] = (llc + 1) * coresPerLlc;
            }
            ownIdle[i] = new int[cores];
            groupCpus[i] = coreCpus;
            finders[i] = new SrcGroupFinder(coreCpus, runnableCount, ownIdle[i], utilAvg, runnableAvg, 0,
                    SrcGroupFinder.IMBALANCE_PCT, true, smt > 1, smt > 1);
            levels[i] = LEVEL_LLC;
            weight[i++] = coresPerLlc * smt;
        }
        if (llcsInSockets) { // PKG: the socket's LLCs (LoadBalancer's finder over the LLCs)
            int perSocket = topo.llcs() / topo.sockets();
            for (int c = 0; c < ncpu; c++) {
                groupOf[i][c] = topo.llcOf(c);
                domFrom[i][c] = topo.socketOf(c) * perSocket;
                domTo[i][c] = domFrom[i][c] + perSocket;
            }
            groupCpus[i] = lb.groupCpus(false);
            finders[i] = lb.groups;
            levels[i] = LEVEL_PKG;
            weight[i++] = ncpu / topo.sockets();
        }
        if (topo.llcs() > 1) { // the machine: NUMA over the sockets, or over the LLCs (= sockets, or one socket: PKG)
            for (int c = 0; c < ncpu; c++) {
                groupOf[i][c] = llcsInSockets ? topo.socketOf(c) : topo.llcOf(c);
                domFrom[i][c] = 0;
                domTo[i][c] = llcsInSockets ? topo.sockets() : topo.llcs();
            }
            groupCpus[i] = lb.groupCpus(llcsInSockets);
            finders[i] = llcsInSockets ? lb.numaGroups : lb.groups;
            levels[i] = LEVEL_TOP;
            weight[i++] = ncpu;
        }
        lastBalanceNs = new long[n][ncpu];
        balanceIntervalMs = new int[n][ncpu];
        for (int l = 0; l < n; l++) java.util.Arrays.fill(balanceIntervalMs[l], weight[l]);
    }

    /**
     * CPU c's runnable count changed by {@code delta}: the finders this class owns (SMT, MC) keep their groups'
     * sum_nr_running ({@link SrcGroupFinder#runnableChanged}); PKG's and NUMA's are the load balancer's own.
     */
    void runnableChanged(int c, int delta) {
        for (int i = 0; i < levels.length; i++) if (ownIdle[i] != null) finders[i].runnableChanged(c, delta);
    }

    /** The CPUs' PELT averages were sampled: the finders this class owns sum them per group. */
    void peltUpdated() {
        for (int i = 0; i < levels.length; i++) if (ownIdle[i] != null) finders[i].peltUpdated();
    }

    /**
     * {@code get_sd_balance_interval()} of CPU c's domain at level index i, ns: {@code balance_interval} ms, × 16 and
     * one jiffy less when busy, in whole jiffies (msecs_to_jiffies() rounds up), at least 1 and at most
     * {@code max_load_balance_interval} (HZ × CPUs / 10 jiffies).
     */
    long intervalNs(int i, int c, boolean busy) {
        long ms = (long) balanceIntervalMs[i][c] * (busy ? BUSY_FACTOR : 1);
        long jiffies = (ms * hz + 999) / 1000;
        if (busy) jiffies -= 1;
        jiffies = Math.max(1, Math.min(jiffies, hz * ncpu / 10));
        return jiffies * tickNs;
    }

    /** {@code sched_balance_domains()} of every CPU, at one jiffy (CPU order). */
    void run() {
        long now = k.now;
        for (int c = 0; c < ncpu; c++) {
            boolean idle = k.cpuIdle(c);
            for (int i = 0; i < levels.length; i++) {
                if (now - lastBalanceNs[i][c] < intervalNs(i, c, !idle)) continue;
                lastBalanceNs[i][c] = now;
                if (!shouldWeBalance(i, c)) break; // continue_balancing = 0: the levels above are left too
                if (schedBalanceRq(c, i, idle)) idle = k.cpuIdle(c);
            }
        }
    }

    /**
     * {@code should_we_balance()} for a periodic balance (6.18): the first idle CPU of c's group at level i, where
     * above SMT an idle CPU of a busy core only counts if no idle core is found; with none idle, the group's first.
     */
    boolean shouldWeBalance(int i, int c) {
        int[] cpus = groupCpus[i][groupOf[i][c]];
        int idleSmt = NONE;
        boolean smtLevel = levels[i] == LEVEL_SMT;
        for (int cpu : cpus) {
            if (!k.cpuIdle(cpu)) continue;
            if (!smtLevel && !lb.coreIdle(cpu)) {
                if (idleSmt == NONE) idleSmt = cpu; // its siblings are skipped in the kernel: not idle cores either
                continue;
            }
            return cpu == c;
        }
        if (idleSmt != NONE) return idleSmt == c;
        return cpus[0] == c;
    }

    /**
     * {@code sched_balance_rq()} of CPU c at level index i with CPU_IDLE ({@code idle}) or CPU_NOT_IDLE: returns
     * whether a task moved.
     */
    boolean schedBalanceRq(int c, int i, boolean idle) {
        int level = levels[i];
        SrcGroupFinder f = finders[i];
        int from = domFrom[i][c], to = domTo[i][c];
        if (ownIdle[i] != null) {
            for (int g = from; g < to; g++) {
                int n = 0;
                for (int cpu : groupCpus[i][g]) if (lb.countedIdle(cpu)) n++;
                ownIdle[i][g] = n;
            }
        }
        int busiestGroup = f.findSrcGroup(groupOf[i][c], from, to, idle);
        if (busiestGroup < 0) return outBalanced(i, c, level, false);
        int type = f.lastMigrationType;
        long imbalance = f.lastImbalance;
        int nExcluded = 0;
        while (true) {
            int src = findSrcRq(groupCpus[i][busiestGroup], c, type, imbalance, nExcluded);
            if (src == NONE) return nExcluded > 0 ? outBalanced(i, c, level, true) : outBalanced(i, c, level, false);
            int moved = 0;
            if (lb.load(src) > 1) {
                moved = lb.detachTasks(src, c, level, idle, type, imbalance, true, false);
                if (moved == ALL_PINNED) {
                    // "All tasks on this runqueue were pinned by CPU affinity": redo without that CPU
                    if (nExcluded < REDO_CPUS) {
                        excluded[nExcluded++] = src;
                        continue;
                    }
                    return outBalanced(i, c, level, true);
                }
            }
            if (moved > 0) {
                lb.nrBalanceFailed[level][c] = 0;
                balancesMoved++;
            } else {
                int failed = ++lb.nrBalanceFailed[level][c]; // "Increment the failure counter only on periodic balance"
                // need_active_balance(): imbalanced_active_balance(), migrate_task after cache_nice_tries + 2 failures;
                // not kicked if the running task may not run on c
                int cur = k.curr[src];
                if (type == SrcGroupFinder.MIGRATE_TASK && failed > lb.cacheNiceTries(level) + 2 && cur != NONE
                        && k.tAllowed[cur].get(c)) {
                    activeBalances++;
                    // the stopper's move is not this balance's ld_moved: it returns 0 either way
                    if (k.activeLoadBalanceCpuStop(src, c, level)) lb.nrBalanceFailed[level][c] = 0;
                }
            }
            balanceIntervalMs[i][c] = weight[i]; // "We were unbalanced, so reset the balancing interval"
            return moved > 0;
        }
    }

    /**
     * {@code out_balanced} / {@code out_all_pinned}: the failure count is reset and the interval doubled, up to
     * {@code max_interval} (twice the weight), or to {@code MAX_PINNED_INTERVAL} when every task was pinned.
     */
    private boolean outBalanced(int i, int c, int level, boolean allPinned) {
        lb.nrBalanceFailed[level][c] = 0;
        int iv = balanceIntervalMs[i][c];
        if ((allPinned && iv < MAX_PINNED_INTERVAL_MS) || iv < 2 * weight[i]) balanceIntervalMs[i][c] = iv * 2;
        return false;
    }

    /**
     * {@code sched_balance_find_src_rq()} over the busiest group's CPUs (not c, not the first {@code nExcluded} of
     * {@link #excluded}): migrate_task the most runnable tasks, migrate_util the highest util_avg among CPUs with
     * more than one, migrate_load the highest load (runnable_avg, as {@link SrcGroupFinder}'s group_load) but not a
     * CPU whose one task outweighs the imbalance; the first of equals. NONE if no CPU has a task.
     */
    int findSrcRq(int[] cpus, int c, int type, long imbalance, int nExcluded) {
        int best = NONE;
        long bestValue = 0;
        outer:
        for (int s : cpus) {
            if (s == c) continue;
            for (int x = 0; x < nExcluded; x++) if (excluded[x] == s) continue outer;
            int nr = lb.load(s);
            if (nr == 0) continue;
            long v;
            switch (type) {
                case SrcGroupFinder.MIGRATE_UTIL -> {
                    if (nr <= 1) continue;
                    v = lb.utilAvg(s);
                }
                case SrcGroupFinder.MIGRATE_LOAD -> {
                    v = lb.runnableAvg(s);
                    if (nr == 1 && v > imbalance) continue;
                }
                default -> v = nr;
            }
            if (best == NONE || v > bestValue) {
                best = s;
                bestValue = v;
            }
        }
        return best;
    }
}
