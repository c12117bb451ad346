package io.cfslab.kernel;

/**
 * Where the tasks a scenario starts at time 0 land: the kernel's fork balancing
 * ({@code select_task_rq_fair()} with {@code WF_FORK} → {@code sched_balance_find_dst_cpu()} →
 * {@code find_idlest_group()}, kernel/sched/fair.c, 6.18) for a burst of forks from one launcher process.
 *
 * <p>The launcher runs on the first CPU (its "local" group) and has no utilisation history; it counts as a running
 * task there until the burst ends. For each fork, {@code find_idlest_group()} compares the idlest other CPU with
 * the local one by group type ({@code group_has_spare} before {@code group_overloaded}), then:
 * <ul>
 *   <li>both {@code has_spare}: the idlest only if it has more idle CPUs ({@code local_sgs.idle_cpus >=
 *       idlest_sgs->idle_cpus} keeps the task local), so once no CPU is idle, forks stay on the launcher's CPU;</li>
 *   <li>both overloaded: the idlest only if the local load exceeds it by more than {@code imbalance_pct}
 *       (117 for the LLC domain, {@code sd_init()}) and by more than {@code NICE_0_LOAD × 17 %}.</li>
 * </ul>
 * A group of one CPU is overloaded ({@code group_is_overloaded()}) when it runs more than one task and its
 * utilisation × 117 exceeds its capacity × 100. The utilisation is the new tasks' initial PELT values: each new
 * task gets half of its cfs_rq's spare capacity ({@code post_init_entity_util_avg()}: {@code (1024 −
 * cfs_rq->avg.util_avg) / 2}), so n tasks forked into one group on one idle CPU bring its util to
 * {@code 1024 − 1024 >> n}; each task's load is {@code NICE_0_LOAD} ({@code init_entity_runnable_average()}).
 * This is why the kernel puts a multi-threaded process's threads 3 + 1 on two CPUs (reference E3: one thread at
 * 10 %, three at 3.3 %, in two of three runs), where spreading them evenly would be fairer.
 */
final class ForkBurst {
    /** sd_init(): the LLC (MC) domain's imbalance_pct. */
    static final int IMBALANCE_PCT = 117;
    /** SCHED_CAPACITY_SCALE: a CPU's capacity, and the PELT utilisation of a fully busy one. */
    static final long CAPACITY = 1024;

    /** The launcher's CPU: find_idlest_group()'s local group. */
    final int launcherCpu;
    /** Initial PELT utilisation the burst has put on each CPU. */
    private final long[] utilAvg;

    ForkBurst(int ncpu, int launcherCpu) {
        this.launcherCpu = launcherCpu;
        this.utilAvg = new long[ncpu];
    }

    /** post_init_entity_util_avg() of a task joining a cfs_rq that already holds {@code n} new tasks. */
    static long initUtil(int n) {
        return n >= 10 ? 0 : (CAPACITY / 2) >> n;
    }

    /** group_is_overloaded() of a one-CPU group: more tasks than CPUs, and utilisation above capacity / 1.17. */
    static boolean overloaded(int nrRunning, long util) {
        return nrRunning > 1 && Math.min(util, CAPACITY) * IMBALANCE_PCT > CAPACITY * 100;
    }

    /**
     * find_idlest_group()'s verdict for one fork: true to stay on the launcher's CPU, false to take the idlest
     * other CPU.
     *
     * @param localTasks tasks forked onto the launcher's CPU so far (the launcher itself excluded)
     * @param idlest the idlest other CPU
     * @param idlestTasks tasks on it
     */
    boolean staysLocal(int localTasks, int idlest, int idlestTasks) {
        if (idlestTasks == 0) return false; // it is idle; the local CPU runs the launcher
        boolean localOver = overloaded(localTasks + 1, utilAvg[launcherCpu]);
        boolean idlestOver = overloaded(idlestTasks, utilAvg[idlest]);
        if (!localOver) return true; // has_spare: no fewer idle CPUs than the idlest, or the idlest is overloaded
        if (!idlestOver) return false;
        long localLoad = Kernel.NICE_0_LOAD * localTasks, idlestLoad = Kernel.NICE_0_LOAD * idlestTasks;
        if (idlestLoad >= localLoad + Kernel.NICE_0_LOAD * (IMBALANCE_PCT - 100) / 100) return true;
        return 100 * localLoad <= IMBALANCE_PCT * idlestLoad;
    }

    /** A task joined CPU c's cfs_rq that held {@code groupTasks} new tasks of its group. */
    void forked(int c, int groupTasks) {
        utilAvg[c] += initUtil(groupTasks);
    }
}
