package io.cfslab.kernel;

import io.cfslab.machine.Topology;

import static io.cfslab.kernel.Kernel.NONE;

/**
 * Wake-affine placement of a task woken by another task (kernel/sched/fair.c, 6.18): {@code record_wakee()},
 * {@code wake_wide()} and {@code wake_affine()} ({@code wake_affine_idle()}, then {@code wake_affine_weight()}), which
 * {@code select_task_rq_fair()} uses to choose the target CPU that {@code select_idle_sibling()} searches around: the
 * waker's CPU ("this_cpu") or the wakee's previous CPU. The waker's CPU makes communicating tasks gather in one LLC,
 * where {@code select_idle_sibling()} alone keeps every task in its previous CPU's LLC.
 *
 * <p>Per task: {@code wakee_flips} (how often the task wakes another task than the one it woke last, halved once a
 * second: {@code record_wakee()}'s {@code jiffies + HZ} decay), {@code last_wakee}, and when its flips last decayed.
 *
 * <p><b>Load.</b> {@code wake_affine_weight()} compares the two CPUs' PELT {@code cpu_load()} with the waker's and
 * the wakee's loads. {@code kernel.wake_affine_load} {@code pelt} does so ({@link EntityLoad}: per-entity load
 * averages, lazily decayed), so a CPU's recent past weighs in and a burst of queued tasks (a throttled hierarchy's,
 * under the task-based throttle, until they park) only as their loads rise; {@code runnable}, the default, compares
 * runnable task counts instead [INFERRED: equal for nice-0 tasks of equal groups; it keeps the kernel's biases:
 * WA_BIAS's {@code imbalance_pct} half-margin in favour of prev, and sync's +1 in favour of the waker's CPU on a
 * tie]. Both CPUs' capacities are taken as equal (the profiles' CPUs are alike).
 * Every domain is taken to have {@code SD_WAKE_AFFINE} [INFERRED: sd_init() clears it only for NUMA distances above
 * {@code node_reclaim_distance}: 30, 32 on AMD Zen (arch/x86/kernel/cpu/amd.c); the 2-socket profiles' distances
 * are 21 (EMR) and 32 (Genoa), neither above it].
 */
final class WakeAffine {
    /** {@code record_wakee()} halves the flips once per second ({@code HZ} jiffies). */
    static final long FLIP_DECAY_NS = 1_000_000_000L;
    /** sd_init()'s {@code imbalance_pct} of the MC and PKG domains: 117. */
    private static final int IMBALANCE_PCT = 117;

    private final Kernel k;
    private final Topology topo;
    /** Per task: wakee_flips (package-private for tests), last_wakee. */
    final int[] wakeeFlips;
    private final int[] lastWakee;
    private final long[] flipDecayNs;
    /** CPUs per LLC ({@code sd_llc_size}), by LLC. */
    private final int[] llcSize;
    /** The PELT loads wake_affine_weight() compares ({@code kernel.wake_affine_load} pelt), else null: counts. */
    private final EntityLoad loads;

    WakeAffine(Kernel k) {
        this.k = k;
        this.topo = k.topo;
        int n = k.ntasks;
        wakeeFlips = new int[n];
        lastWakee = new int[n];
        java.util.Arrays.fill(lastWakee, NONE);
        flipDecayNs = new long[n];
        llcSize = new int[topo.llcs()];
        for (int c = 0; c < k.ncpu; c++) llcSize[topo.llcOf(c)]++;
        loads = k.loads;
    }

    /** record_wakee(): the waker {@code current} wakes p. */
    void recordWakee(int current, int p) {
        if (k.now - flipDecayNs[current] > FLIP_DECAY_NS) {
            wakeeFlips[current] >>= 1;
            flipDecayNs[current] = k.now;
        }
        if (lastWakee[current] != p) {
            lastWakee[current] = p;
            wakeeFlips[current]++;
        }
    }

    /**
     * wake_wide(): true when the waker and the wakee switch partners so often (one of them at least {@code
     * sd_llc_size} flips, the other that many times more) that one LLC would not hold them: no affine wake-up.
     */
    boolean wakeWide(int current, int p, int thisCpu) {
        int master = wakeeFlips[current], slave = wakeeFlips[p];
        int factor = llcSize[topo.llcOf(thisCpu)];
        if (master < slave) { int x = master; master = slave; slave = x; }
        return !(slave < factor || (long) master < (long) slave * factor);
    }

    /**
     * wake_affine() for a sync wake-up (pipes and sockets wake with {@code wake_up_interruptible_sync_poll()}): the
     * waker's CPU or the wakee's previous one, as the target of select_idle_sibling(); {@code current} wakes p.
     */
    int wakeAffine(int current, int p, int thisCpu, int prevCpu) {
        int target = wakeAffineIdle(thisCpu, prevCpu);
        if (target == NONE) {
            target = loads != null ? wakeAffineWeight(current, p, thisCpu, prevCpu) : wakeAffineWeightByCounts(thisCpu, prevCpu);
        }
        return target == thisCpu ? thisCpu : prevCpu;
    }

    /**
     * wake_affine_idle(), sync: an idle waker CPU (a wake-up from an interrupt) only within the LLC; the waker alone on
     * its CPU: its CPU; an idle previous CPU: that one; else undecided (NONE).
     */
    private int wakeAffineIdle(int thisCpu, int prevCpu) {
        if (k.cpuIdle(thisCpu) && topo.llcOf(thisCpu) == topo.llcOf(prevCpu)) return k.cpuIdle(prevCpu) ? prevCpu : thisCpu;
        if (k.nrRunnable(thisCpu) == 1) return thisCpu;
        if (k.cpuIdle(prevCpu)) return prevCpu;
        return NONE;
    }

    /**
     * wake_affine_weight(), sync: the waker's CPU's load without the waker's (the waker's CPU at once if the waker's
     * load exceeds it) and with the wakee's, ×100 ({@code WA_BIAS}), against the previous CPU's without the wakee's,
     * ×(100 + (imbalance_pct − 100) / 2), +1 for sync; both ×capacity (1024).
     */
    private int wakeAffineWeight(int current, int p, int thisCpu, int prevCpu) {
        double thisEff = loads.cpuLoad(thisCpu);
        double currentLoad = loads.taskLoad(current);

        if (currentLoad > thisEff) return thisCpu;
        thisEff -= currentLoad;
        double taskLoad = loads.taskLoad(p);
        thisEff = (thisEff + taskLoad) * 100 * 1024;
        double prevEff = (loads.cpuLoad(prevCpu) - taskLoad) * (100 + (IMBALANCE_PCT - 100) / 2) * 1024 + 1;
        return thisEff < prevEff ? thisCpu : NONE;
    }

    /**
     * wake_affine_weight(), sync, by runnable counts ({@code kernel.wake_affine_load} runnable): the waker's CPU
     * without the waker and with the wakee, ×100, against the previous CPU ×(100 + (imbalance_pct − 100) / 2), +1.
     */
    private int wakeAffineWeightByCounts(int thisCpu, int prevCpu) {
        long thisEff = (long) (k.nrRunnable(thisCpu) - 1 + 1) * 100 * 1024;
        long prevEff = (long) k.nrRunnable(prevCpu) * (100 + (IMBALANCE_PCT - 100) / 2) * 1024 + 1;
        return thisEff < prevEff ? thisCpu : NONE;
    }
}
