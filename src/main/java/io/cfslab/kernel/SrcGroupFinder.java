package io.cfslab.kernel;

/**
 * {@code sched_balance_find_src_group()} (kernel/sched/fair.c, 6.18; the rules of 0b0695f2b34a "sched/fair: Rework
 * load_balance()", 5.5, with 16b0a7a1a0af's spreading inside an LLC, 5.10, and 7ff1693236f5's
 * {@code sibling_imbalance()}, 6.6) for the model's domain above the LLC, whose groups are the LLCs: whether a newly
 * idle CPU may pull across LLCs at all, and from which LLC. Per group (update_sg_lb_stats()): {@code sum_nr_running}
 * (the CPUs' runnable counts), {@code idle_cpus}, {@code group_weight}, {@code group_capacity} (1024 per CPU: equal
 * capacities), {@code group_util} and {@code group_runnable} (the CPUs' PELT averages, sampled at the periodic
 * balance); {@code group_classify()} gives overloaded, fully busy or has spare; {@code update_sd_pick_busiest()} the
 * busiest; then the balanced/force rules and {@code calculate_imbalance()}'s sign. Not modelled: misfit, asym
 * packing, group_imbalanced (affinity), smt_balance, NUMA's {@code adjust_numa_imbalance()}, and the amount of the
 * imbalance beyond its sign (new-idle moves one task, and a task's own load or util is not in the model: every task
 * is taken to fit) [simplified]. {@code avg_load} uses {@code group_runnable} for {@code group_load}: in a
 * hierarchy of equal tasks {@code cpu_load()} follows the runnable share [INFERRED].
 *
 * <p>No allocation: the per-LLC sums are arrays filled in place.
 */
final class SrcGroupFinder {
    /** group_type, in the kernel's order (only those modelled): a higher one is busier. */
    static final int HAS_SPARE = 0, FULLY_BUSY = 1, OVERLOADED = 2;
    /** sd->imbalance_pct of MC, PKG and NUMA domains (sd_init()). */
    static final int IMBALANCE_PCT = ForkBurst.IMBALANCE_PCT;
    /** SCHED_CAPACITY_SCALE: one CPU's capacity. */
    static final long CAPACITY = 1024;

    private final int[][] llcCpus;
    private final int[] runnableCount, llcIdle;
    private final long[] utilAvg, runnableAvg;
    /** Per LLC: sum_nr_running, group_util, group_runnable; the last two brought up to date by {@link #peltUpdated}. */
    final long[] nrRunning, util, runnable;
    /** Per LLC: group_type of the last {@link #findSrcGroup}. */
    final int[] type;

    SrcGroupFinder(int[][] llcCpus, int[] runnableCount, int[] llcIdle, long[] utilAvg, long[] runnableAvg) {
        this.llcCpus = llcCpus;
        this.runnableCount = runnableCount;
        this.llcIdle = llcIdle;
        this.utilAvg = utilAvg;
        this.runnableAvg = runnableAvg;
        int n = llcCpus.length;
        nrRunning = new long[n];
        util = new long[n];
        runnable = new long[n];
        type = new int[n];
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
        int n = llcCpus.length;
        long totalRunnable = 0, totalCapacity = 0;
        int busiest = -1;
        for (int l = 0; l < n; l++) {
            long sum = 0;
            for (int c : llcCpus[l]) sum += runnableCount[c];
            nrRunning[l] = sum;
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
            if (100 * avgLoad(busiest) <= IMBALANCE_PCT * avgLoad(local)) return -1;
        }
        // prefer_sibling (the LLC's domain has SD_PREFER_SIBLING): "move all excess tasks to a sibling domain"
        boolean force = type[local] == HAS_SPARE && siblingImbalance(busiest, local) > 1;
        if (!force && type[busiest] != OVERLOADED) {
            // "there is no imbalance between this and busiest group wrt idle CPUs, it is balanced"
            if (llcCpus[busiest].length > 1 && llcIdle[local] <= llcIdle[busiest] + 1) return -1;
            if (nrRunning[busiest] == 1) return -1; // "busiest doesn't have any tasks waiting to run"
        }
        return calculateImbalance(local, busiest, sdsAvgLoad) > 0 ? busiest : -1;
    }

    /**
     * calculate_imbalance()'s result for the cases modelled (its sign is what new-idle needs): migrate_util to fill
     * the local group's spare capacity from an overloaded one (outside an LLC), else migrate_task by
     * {@code sibling_imbalance() >> 1}; for a busy local group, migrate_load toward the domain's average load.
     */
    long calculateImbalance(int local, int busiest, long sdsAvgLoad) {
        if (type[local] == HAS_SPARE) {
            if (type[busiest] > FULLY_BUSY) {
                long imb = Math.max(capacity(local), util[local]) - util[local];
                return imb == 0 ? 1 : imb; // "There is at least one waiting task in this overloaded busiest group"
            }
            return siblingImbalance(busiest, local) >> 1;
        }
        if (type[local] < OVERLOADED) {
            if (avgLoad(local) >= avgLoad(busiest)) return 0;
            if (avgLoad(local) >= sdsAvgLoad) return 0;
        }
        return Math.min((avgLoad(busiest) - sdsAvgLoad) * capacity(busiest),
                (sdsAvgLoad - avgLoad(local)) * capacity(local)) / CAPACITY;
    }

    /**
     * sibling_imbalance() at a newly idle CPU (6.6+): with groups of equal cores, busiest's runnable tasks less the
     * local group's; otherwise the difference of their runnable tasks per core, rounded, and 2 when an empty local
     * group faces more than one task.
     */
    long siblingImbalance(int busiest, int local) {
        if (nrRunning[busiest] == 0) return 0;
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
        if (nrRunning[l] > weight && (cap * 100 < util[l] * IMBALANCE_PCT || cap * IMBALANCE_PCT < runnable[l] * 100))
            return OVERLOADED;
        if (nrRunning[l] < weight) return HAS_SPARE;
        if (cap * IMBALANCE_PCT < runnable[l] * 100) return FULLY_BUSY;
        return cap * 100 > util[l] * IMBALANCE_PCT ? HAS_SPARE : FULLY_BUSY;
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
            case FULLY_BUSY -> true;
            default -> llcIdle[l] < llcIdle[busiest]
                    || (llcIdle[l] == llcIdle[busiest] && nrRunning[l] > nrRunning[busiest]);
        };
    }

    private long capacity(int l) { return CAPACITY * llcCpus[l].length; }

    /** avg_load = group_load × SCHED_CAPACITY_SCALE / group_capacity, group_load by group_runnable (see above). */
    private long avgLoad(int l) { return runnable[l] * CAPACITY / capacity(l); }
}
