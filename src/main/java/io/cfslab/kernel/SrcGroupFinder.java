package io.cfslab.kernel;

/**
 * {@code sched_balance_find_src_group()} (kernel/sched/fair.c, 6.18; the rules of 0b0695f2b34a "sched/fair: Rework
 * load_balance()", 5.5, with 16b0a7a1a0af's spreading inside an LLC, 5.10, and 7ff1693236f5's
 * {@code sibling_imbalance()}, 6.6) for one of the model's domains above the LLC: the LLCs of a socket (Genoa's PKG
 * level), the LLCs of the machine (its top level when each socket is one LLC, or with one socket), or the sockets
 * (the NUMA level of a machine with several LLCs per socket): whether a newly idle CPU may pull from another group of
 * the domain at all, and from which. At a NUMA level ({@code imbNumaNr} &gt; 0) {@code calculate_imbalance()} applies
 * {@code adjust_numa_imbalance()}. Per group (update_sg_lb_stats()): {@code sum_nr_running}
 * (the CPUs' runnable counts), {@code idle_cpus}, {@code group_weight}, {@code group_capacity} (1024 per CPU: equal
 * capacities), {@code group_util} and {@code group_runnable} (the CPUs' PELT averages, sampled at the periodic
 * balance); {@code group_classify()} gives overloaded, fully busy or has spare; {@code update_sd_pick_busiest()} the
 * busiest; then the balanced/force rules and {@code calculate_imbalance()}'s sign. Not modelled: misfit, asym
 * packing, group_imbalanced (affinity), smt_balance, and the amount of the
 * imbalance beyond its sign (new-idle moves one task, and a task's own load or util is not in the model: every task
 * is taken to fit) [simplified]. {@code avg_load} uses {@code group_runnable} for {@code group_load}: in a
 * hierarchy of equal tasks {@code cpu_load()} follows the runnable share [INFERRED].
 *
 * <p>No allocation: the per-LLC sums are arrays filled in place. {@code sum_nr_running} is kept per group as the
 * CPUs' counts change ({@link #runnableChanged}), so a balance costs O(groups), not O(CPUs): the kernel sums it
 * per balance, but on Genoa's 384 CPUs that sum took 16 of the 21 JFR samples in this class (docs/benchmarks.md,
 * "hyg1").
 */
final class SrcGroupFinder {
    /** group_type, in the kernel's order (only those modelled): a higher one is busier. */
    static final int HAS_SPARE = 0, FULLY_BUSY = 1, OVERLOADED = 2;
    /** sd->imbalance_pct of MC, PKG and NUMA domains (sd_init()). */
    static final int IMBALANCE_PCT = ForkBurst.IMBALANCE_PCT;
    /** SCHED_CAPACITY_SCALE: one CPU's capacity. */
    static final long CAPACITY = 1024;

    /** env-&gt;migration_type (calculate_imbalance()): what {@link #lastImbalance} counts. */
    static final int MIGRATE_LOAD = 0, MIGRATE_UTIL = 1, MIGRATE_TASK = 2;

    /** NUMA_IMBALANCE_MIN (kernel/sched/fair.c): the imbalance a pair of communicating tasks may leave. */
    static final long NUMA_IMBALANCE_MIN = 2;

    /** The groups' CPUs (named for the LLC groups; the sockets at a NUMA level) and their idle CPU counts. */
    private final int[][] llcCpus;
    private final int[] llcIdle;
    /** The group of each CPU (the index into {@link #llcCpus}). */
    private final int[] groupOf;
    /**
     * {@code sd->imb_numa_nr} of the domain (build_sched_domains(), kernel/sched/topology.c, 5.18+: the number of
     * LLCs under the first domain above the LLC), or 0 for a domain without SD_NUMA.
     */
    private final int imbNumaNr;
    private final long[] utilAvg, runnableAvg;
    /** The domain's sd-&gt;imbalance_pct: 117 (MC, PKG, NUMA), 110 at SMT (sd_init()). */
    private final int imbalancePct;
    /**
     * The domain's flags ({@code sd_init()}): SD_SHARE_LLC (SMT and MC: calculate_imbalance() never fills spare
     * capacity by util there), {@code sds->prefer_sibling} (the child domain has SD_PREFER_SIBLING: every level
     * with a child), and groups of SMT siblings (MC on an SMT machine: update_sd_pick_busiest() keeps the first of
     * two fully busy groups).
     */
    private final boolean shareLlc, preferSibling, smtGroups;
    /** The last {@link #findSrcGroup}'s migration type ({@link #MIGRATE_TASK} ...) and imbalance, when it named a group. */
    int lastMigrationType;
    long lastImbalance;
    /**
     * Per LLC: sum_nr_running, kept by {@link #runnableChanged}; group_util and group_runnable, brought up to date by
     * {@link #peltUpdated}.
     */
    final long[] nrRunning, util, runnable;
    /** Per LLC: group_type of the last {@link #findSrcGroup}. */
    final int[] type;

    SrcGroupFinder(int[][] llcCpus, int[] runnableCount, int[] llcIdle, long[] utilAvg, long[] runnableAvg) {
        this(llcCpus, runnableCount, llcIdle, utilAvg, runnableAvg, 0);
    }

    /**
     * @param groupCpus the CPUs of each group, ascending
     * @param runnableCount the CPUs' runnable counts now: the groups' sums start from them, and follow
     *                      {@link #runnableChanged} after
     * @param groupIdle idle CPUs per group, kept by the caller
     * @param imbNumaNr {@code sd->imb_numa_nr} of a NUMA domain, 0 for any other
     */
    SrcGroupFinder(int[][] groupCpus, int[] runnableCount, int[] groupIdle, long[] utilAvg, long[] runnableAvg,
            int imbNumaNr) {
        this(groupCpus, runnableCount, groupIdle, utilAvg, runnableAvg, imbNumaNr, IMBALANCE_PCT, false, true, false);
    }

    /**
     * A domain's finder with its {@code sd_init()} values (the others: a domain above the LLC).
     *
     * @param imbalancePct  sd-&gt;imbalance_pct (110 at SMT, 117 above)
     * @param shareLlc      SD_SHARE_LLC: the groups share a cache (SMT and MC domains)
     * @param preferSibling the child domain has SD_PREFER_SIBLING (every domain but the lowest)
     * @param smtGroups     the groups are SMT cores (MC on an SMT machine)
     */
    SrcGroupFinder(int[][] groupCpus, int[] runnableCount, int[] groupIdle, long[] utilAvg, long[] runnableAvg,
            int imbNumaNr, int imbalancePct, boolean shareLlc, boolean preferSibling, boolean smtGroups) {
        if (imbNumaNr < 0) throw new IllegalArgumentException("imbNumaNr must be >= 0");
        if (imbalancePct <= 100) throw new IllegalArgumentException("imbalancePct must be > 100");
        this.imbNumaNr = imbNumaNr;
        this.imbalancePct = imbalancePct;
        this.shareLlc = shareLlc;
        this.preferSibling = preferSibling;
        this.smtGroups = smtGroups;
        this.llcCpus = groupCpus;
        this.llcIdle = groupIdle;
        this.utilAvg = utilAvg;
        this.runnableAvg = runnableAvg;
        int n = groupCpus.length;
        nrRunning = new long[n];
        util = new long[n];
        runnable = new long[n];
        type = new int[n];
        groupOf = new int[runnableCount.length];
        for (int l = 0; l < n; l++) {
            for (int c : groupCpus[l]) {
                groupOf[c] = l;
                nrRunning[l] += runnableCount[c];
            }
        }
    }

    /** CPU c's runnable count (rq->nr_running) changed by {@code delta}: its group's sum_nr_running follows. */
    void runnableChanged(int c, int delta) {
        nrRunning[groupOf[c]] += delta;
    }

    /** The CPUs' PELT averages were sampled: sums them per LLC. */
    void peltUpdated() {
        for (int l = 0; l < llcCpus.length; l++) {
            long u = 0, r = 0;
            for (int c : llcCpus[l]) { u += utilAvg[c]; r += runnableAvg[c]; }
            util[l] = u;
            runnable[l] = r;
        }
    }

    /**
     * The LLC a newly idle CPU of LLC {@code local} may pull from (sched_balance_find_src_group() returning a group
     * with a positive imbalance), or -1: balanced.
     */
    int findSrcGroup(int local) {
        return findSrcGroup(local, 0, llcCpus.length);
    }

    /**
     * {@link #findSrcGroup(int)} in a domain whose groups are {@code from} (inclusive) to {@code to} (exclusive), the
     * local group among them: the LLCs of one socket at Genoa's PKG level.
     */
    int findSrcGroup(int local, int from, int to) {
        return findSrcGroup(local, from, to, true);
    }

    /**
     * {@link #findSrcGroup(int, int, int)} for a destination CPU that is idle ({@code idle}: CPU_IDLE or
     * CPU_NEWLY_IDLE) or busy (CPU_NOT_IDLE: a busy CPU pulls only from an overloaded group, "let another idle CPU
     * try to pull task", and sibling_imbalance() is 0 for it). Leaves the migration type and amount in
     * {@link #lastMigrationType} and {@link #lastImbalance}.
     */
    int findSrcGroup(int local, int from, int to, boolean idle) {
        dstIdle = idle;
        long totalRunnable = 0, totalCapacity = 0;
        int busiest = -1;
        for (int l = from; l < to; l++) {
            type[l] = groupClassify(l);
            totalRunnable += runnable[l];
            totalCapacity += capacity(l);
            if (l != local && updateSdPickBusiest(l, busiest)) busiest = l;
        }
        if (busiest < 0) return -1;
        if (type[local] > type[busiest]) return -1; // "the local group is busier than the selected busiest group"
        long sdsAvgLoad = totalRunnable * CAPACITY / totalCapacity;
        if (type[local] == OVERLOADED) {
            // "When groups are overloaded, use the avg_load to ensure fairness between tasks"
            if (avgLoad(local) >= avgLoad(busiest)) return -1;
            if (avgLoad(local) >= sdsAvgLoad) return -1;
            if (100 * avgLoad(busiest) <= imbalancePct * avgLoad(local)) return -1;
        }
        // prefer_sibling (the child domain has SD_PREFER_SIBLING): "move all excess tasks to a sibling domain"
        boolean force = preferSibling && type[local] == HAS_SPARE && siblingImbalance(busiest, local) > 1;
        if (!force && type[busiest] != OVERLOADED) {
            if (!idle) return -1; // "this CPU is already busy, let another idle CPU try to pull task"
            // "there is no imbalance between this and busiest group wrt idle CPUs, it is balanced"
            if (llcCpus[busiest].length > 1 && llcIdle[local] <= llcIdle[busiest] + 1) return -1;
            if (nrRunning[busiest] == 1) return -1; // "busiest doesn't have any tasks waiting to run"
        }
        lastImbalance = calculateImbalance(local, busiest, sdsAvgLoad);
        return lastImbalance > 0 ? busiest : -1;
    }

    /** env-&gt;idle of the last {@link #findSrcGroup}: the destination CPU is idle (sibling_imbalance() needs it). */
    private boolean dstIdle = true;

    /**
     * calculate_imbalance()'s result for the cases modelled (its sign is what new-idle needs): migrate_util to fill
     * the local group's spare capacity from an overloaded one (outside an LLC), else migrate_task by
     * {@code sibling_imbalance() >> 1}; for a busy local group, migrate_load toward the domain's average load.
     */
    long calculateImbalance(int local, int busiest, long sdsAvgLoad) {
        if (type[local] == HAS_SPARE) {
            if (type[busiest] > FULLY_BUSY && !shareLlc) {
                long imb = Math.max(capacity(local), util[local]) - util[local];
                lastMigrationType = MIGRATE_UTIL;
                if (dstIdle && imb == 0) { // "There is at least one waiting task in this overloaded busiest group"
                    lastMigrationType = MIGRATE_TASK;
                    return 1;
                }
                return imb;
            }
            // "Consider allowing a small imbalance between NUMA groups", then "Number of tasks to move"
            lastMigrationType = MIGRATE_TASK;
            // "When prefer sibling, evenly spread running tasks on groups", else "even the number of idle CPUs"
            long imb = llcCpus[busiest].length == 1 || preferSibling ? siblingImbalance(busiest, local)
                    : Math.max(0, llcIdle[local] - llcIdle[busiest]);
            return adjustNumaImbalance(imb, nrRunning[local] + 1) >> 1;
        }
        if (type[local] < OVERLOADED) {
            if (avgLoad(local) >= avgLoad(busiest)) return 0;
            if (avgLoad(local) >= sdsAvgLoad) return 0;
        }
        lastMigrationType = MIGRATE_LOAD;
        return Math.min((avgLoad(busiest) - sdsAvgLoad) * capacity(busiest),
                (sdsAvgLoad - avgLoad(local)) * capacity(local)) / CAPACITY;
    }

    /**
     * adjust_numa_imbalance() (kernel/sched/fair.c, 6.18; Mel Gorman's "sched/fair: Adjust the allowed NUMA imbalance
     * when SD_NUMA spans multiple LLCs", 5.18, with the destination as the local group, read in the patch mails): at a NUMA
     * domain, an imbalance of at most NUMA_IMBALANCE_MIN is dropped while the destination group, with the task it
     * would get ({@code dstRunning}), runs at most {@code imb_numa_nr} tasks; anything else stands. The kernel applies
     * it whatever the idle type, so at new-idle too.
     */
    long adjustNumaImbalance(long imbalance, long dstRunning) {
        if (imbNumaNr == 0 || dstRunning > imbNumaNr) return imbalance;
        return imbalance <= NUMA_IMBALANCE_MIN ? 0 : imbalance;
    }

    /**
     * sibling_imbalance() at a newly idle CPU (6.6+): with groups of equal cores, busiest's runnable tasks less the
     * local group's; otherwise the difference of their runnable tasks per core, rounded, and 2 when an empty local
     * group faces more than one task.
     */
    long siblingImbalance(int busiest, int local) {
        if (!dstIdle || nrRunning[busiest] == 0) return 0;
        long nb = llcCpus[busiest].length, nl = llcCpus[local].length;
        if (nb == nl) return Math.max(0, nrRunning[busiest] - nrRunning[local]);
        long imb = Math.max(0, nl * nrRunning[busiest] - nb * nrRunning[local]);
        imb = (2 * imb + nl + nb) / (nl + nb);
        if (imb <= 1 && nrRunning[local] == 0 && nrRunning[busiest] > 1) imb = 2;
        return imb;
    }

    /**
     * group_classify() of LLC l from the sums {@link #findSrcGroup} and {@link #peltUpdated} left: overloaded
     * (group_is_overloaded()), fully busy (!group_has_capacity()) or has spare.
     */
    int groupClassify(int l) {
        long weight = llcCpus[l].length, cap = capacity(l);
        if (nrRunning[l] > weight && (cap * 100 < util[l] * imbalancePct || cap * imbalancePct < runnable[l] * 100))
            return OVERLOADED;
        if (nrRunning[l] < weight) return HAS_SPARE;
        if (cap * imbalancePct < runnable[l] * 100) return FULLY_BUSY;
        return cap * 100 > util[l] * imbalancePct ? HAS_SPARE : FULLY_BUSY;
    }

    /**
     * update_sd_pick_busiest(): whether group {@code l} replaces {@code busiest} (-1: none yet). A group without a
     * task never; a busier type always; among overloaded ones the higher avg_load; among fully busy ones the later
     * (avg_load is not computed for them: equal); among those with spare the fewer idle CPUs, then the more tasks.
     */
    boolean updateSdPickBusiest(int l, int busiest) {
        if (nrRunning[l] == 0) return false;
        if (busiest < 0) return true;
        if (type[l] != type[busiest]) return type[l] > type[busiest];
        return switch (type[l]) {
            case OVERLOADED -> avgLoad(l) > avgLoad(busiest);
            case FULLY_BUSY -> !smtGroups; // "we select the 1st one, except if @sg is composed of SMT siblings"
            default -> llcIdle[l] < llcIdle[busiest]
                    || (llcIdle[l] == llcIdle[busiest] && nrRunning[l] > nrRunning[busiest]);
        };
    }

    private long capacity(int l) { return CAPACITY * llcCpus[l].length; }

    /** avg_load = group_load × SCHED_CAPACITY_SCALE / group_capacity, group_load by group_runnable (see above). */
    private long avgLoad(int l) { return runnable[l] * CAPACITY / capacity(l); }
}
