package io.cfslab.kernel;

import io.cfslab.event.EventQueue;
import io.cfslab.machine.CacheTransferCosts;
import io.cfslab.machine.CostModel;
import io.cfslab.machine.IpcCosts;
import io.cfslab.machine.MachineProfile;
import io.cfslab.machine.SmtCurve;
import io.cfslab.machine.Topology;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioParser;
import io.cfslab.scenario.TaskSpec;
import io.cfslab.workload.Workloads;
import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Wake-affine placement ({@link WakeAffine}: record_wakee(), wake_wide(), wake_affine(), then select_idle_sibling()
 * around the chosen target) and the periodic balance's domain intervals ({@link LoadBalancer#balance}), on hand-made
 * cases. Machine: 2 sockets × 2 LLCs × 2 cores, no SMT: LLCs {0,1}, {2,3}, {4,5}, {6,7} (sd_llc_size 2).
 */
class WakeAffineTest {

    @Test
    void aWakerFlipsOnlyWhenItWakesAnotherTaskAndItsFlipsHalveOnceASecond() {
        Kernel k = kernel(3, true);
        WakeAffine wa = k.affine;
        wa.recordWakee(0, 1);
        wa.recordWakee(0, 1);
        assertThat(wa.wakeeFlips[0]).isEqualTo(1);
        wa.recordWakee(0, 2);
        wa.recordWakee(0, 1);
        assertThat(wa.wakeeFlips[0]).isEqualTo(3);
        k.now = 1_000_000_001L; // more than HZ jiffies since the last decay (0): halved, then this flip
        wa.recordWakee(0, 2);
        assertThat(wa.wakeeFlips[0]).isEqualTo(3 / 2 + 1);
        k.now = 1_500_000_000L; // within a second of that decay: no halving
        wa.recordWakee(0, 1);
        assertThat(wa.wakeeFlips[0]).isEqualTo(3);
    }

    @Test
    void wakeWideNeedsBothToFlipAtLeastTheLlcSizeAndOneThatManyTimesMore() {
        Kernel k = kernel(3, true);
        WakeAffine wa = k.affine;
        flips(wa, 0, 5, 1);
        assertThat(wa.wakeWide(0, 1, 0)).as("the wakee flips less than sd_llc_size 2").isFalse();
        flips(wa, 0, 3, 2);
        assertThat(wa.wakeWide(0, 1, 0)).as("3 < 2 × 2").isFalse();
        flips(wa, 0, 4, 2);
        assertThat(wa.wakeWide(0, 1, 0)).as("4 ≥ 2 × 2").isTrue();
        flips(wa, 0, 2, 4);
        assertThat(wa.wakeWide(0, 1, 0)).as("either side may be the master").isTrue();
    }

    /**
     * The waker (task 0) is alone on CPU 0 of LLC {0,1}; the wakee (task 1) last ran on CPU 2, busy like CPU 3
     * (a hog queued on each). wake_affine_idle(): sync and the waker alone on its CPU, so the waker's CPU is the
     * target; select_idle_sibling() finds CPU 1 idle in its LLC. Without wake-affine the wakee stays on busy CPU 2,
     * its LLC having no idle CPU.
     */
    @Test
    void aSyncWakeeJoinsAnIdleCpuOfTheWakersLlcWhenTheWakerIsAloneOnItsCpu() {
        Kernel k = wakeeFromABusyLlc();
        assertThat(k.balancer.selectTaskRqAffine(1, 0)).isEqualTo(1);
        assertThat(k.balancer.selectTaskRq(1)).as("no wake-affine: the previous CPU").isEqualTo(2);
    }

    @Test
    void aWakeWidePairIsPlacedAroundThePreviousCpu() {
        Kernel k = wakeeFromABusyLlc();
        flips(k.affine, 0, 8, 2);
        assertThat(k.balancer.selectTaskRqAffine(1, 0)).isEqualTo(2);
    }

    /**
     * wake_affine_weight() by runnable counts (the default): the waker's CPU with 3 tasks (the waker and two hogs)
     * against the previous CPU with 2 is 3 × 100 against 2 × 108 + tie: the previous CPU; with 3 on the previous CPU,
     * 300 against 324: the waker's CPU, where the wakee stacks (no idle CPU in its LLC: CPU 1 busy too).
     */
    @Test
    void wakeAffineWeightByCountsComparesThemWithTheImbalanceMarginForThePreviousCpu() {
        Kernel k = kernel(9, true);
        assertThat(k.loads).as("no PELT loads by default").isNull();
        wakerWithTwoHogsAndPrevWithTwo(k);
        assertThat(k.affine.wakeAffine(0, 1, 0, 2)).isEqualTo(2);
        queue(k, 7, 2);
        assertThat(k.affine.wakeAffine(0, 1, 0, 2)).isEqualTo(0);
        queue(k, 8, 3); // LLC {2,3} has no idle CPU either
        assertThat(k.balancer.selectTaskRqAffine(1, 0)).as("stacks on the waker's CPU").isEqualTo(0);
    }

    /** 32 PELT periods of 1024 × 1024 ns: one half-life. */
    private static final long HALF_LIFE_NS = 32L * 1024 * 1024;

    @Test
    void peltDecaysByHalfEvery32PeriodsOf1024Microseconds() {
        assertThat(EntityLoad.decay(0)).isEqualTo(1.0);
        assertThat(EntityLoad.decay(32 * 1024)).isEqualTo(0.5);
        assertThat(EntityLoad.decay(64 * 1024)).isEqualTo(0.25);
        assertThat(EntityLoad.decay(16 * 1024)).isCloseTo(Math.sqrt(0.5), org.assertj.core.data.Offset.offset(1e-12));
        assertThat(EntityLoad.decay(512)).as("half a period").isCloseTo(Math.pow(0.5, 1 / 64.0), org.assertj.core.data.Offset.offset(1e-12));
        assertThat(EntityLoad.decay(32L * 1024 * 64)).as("past LOAD_AVG_MAX_N's reach").isZero();
    }

    /**
     * A task queued for one half-life has half a nice-0 load (512), its CPU the same; dequeued (blocked) for another,
     * 256, still on that CPU; woken onto another CPU, its load moves there (migrate_task_rq_fair()).
     */
    @Test
    void aTasksLoadRisesWhileQueuedDecaysWhileBlockedAndMovesWithIt() {
        Kernel k = kernel(1, true, "pelt");
        EntityLoad l = k.loads;
        queue(k, 0, 0);
        k.now = HALF_LIFE_NS;
        assertThat(l.taskLoad(0)).isEqualTo(512.0);
        assertThat(l.cpuLoad(0)).isEqualTo(512.0);
        k.fair.dequeueTask(0, 0);
        k.tState[0] = Kernel.T_SLEEPING;
        k.now = 2 * HALF_LIFE_NS;
        assertThat(l.taskLoad(0)).isEqualTo(256.0);
        assertThat(l.cpuLoad(0)).isEqualTo(256.0);
        k.migrated(0, 0, 4);
        assertThat(l.cpuLoad(0)).isZero();
        assertThat(l.cpuLoad(4)).isEqualTo(256.0);
    }

    /**
     * wake_affine_weight() by PELT loads ({@code kernel.wake_affine_load} pelt), hand-computed, on the same CPUs. At 0 the waker (task 0) and two hogs are queued on CPU 0, a
     * hog on CPU 1, two on CPU 2, the wakee's previous CPU (the wakee, task 1, never ran: load 0). One half-life on:
     * each queued task 512; this = 1536 − 512 (the waker's) + 0 = 1024, ×100 = 102,400, against prev = 1024 × 108 + 1
     * = 110,593: the waker's CPU, where by runnable counts (3 × 100 against 2 × 108) it was the previous one. A
     * fourth task joins CPU 0 then; a half-life later CPU 0 has 3 × 768 + 512 = 2816, the waker 768: this = 2048 ×
     * 100 = 204,800 against 2 × 768 × 108 + 1 = 165,889: the previous CPU. Four more queued on CPU 2 at that
     * instant (6 against 4 by counts: the waker's CPU) do not weigh yet: still the previous CPU.
     */
    @Test
    void wakeAffineWeightComparesPeltLoadsWithoutTheWakersAndWithTheImbalanceMargin() {
        Kernel k = kernel(12, true, "pelt");
        wakerWithTwoHogsAndPrevWithTwo(k);
        k.now = HALF_LIFE_NS;
        assertThat(k.affine.wakeAffine(0, 1, 0, 2)).isEqualTo(0);
        assertThat(k.balancer.selectTaskRqAffine(1, 0)).as("stacks on the waker's CPU: CPU 1 busy too").isEqualTo(0);
        queue(k, 7, 0);
        k.now = 2 * HALF_LIFE_NS;
        assertThat(k.affine.wakeAffine(0, 1, 0, 2)).isEqualTo(2);
        for (int t = 8; t < 12; t++) queue(k, t, 2);
        assertThat(k.nrRunnable(2)).isEqualTo(6);
        assertThat(k.affine.wakeAffine(0, 1, 0, 2)).as("a burst weighs only as its loads rise").isEqualTo(2);
    }

    @Test
    void withWakeAffineOffThereIsNone() {
        assertThat(kernel(2, false).affine).isNull();
    }

    /**
     * 4 hogs queued on CPU 0. The balance at 4 ms evens LLC {0,1} alone (2 and 2); the machine-wide one comes at the
     * top domain's interval, its weight in ms (8 CPUs: 8 ms), and spreads them one per CPU.
     */
    @Test
    void thePeriodicBalanceCrossesLlcsOnlyAtTheTopDomainsInterval() {
        Kernel k = kernel(4, true);
        for (int t = 0; t < 4; t++) queue(k, t, 0);
        k.now = 4_000_000L;
        k.balancer.balance();
        assertThat(new int[] {k.nrRunnable(0), k.nrRunnable(1), k.nrRunnable(2), k.nrRunnable(4)}).containsExactly(2, 2, 0, 0);
        k.now = 8_000_000L;
        k.balancer.balance();
        for (int c = 0; c < 8; c++) assertThat(k.nrRunnable(c)).as("cpu %d", c).isLessThanOrEqualTo(1);
        assertThat(k.llcMigrations()).isEqualTo(2);
    }

    /**
     * The waker (task 0) and hogs 2 and 3 queued on CPU 0, hog 4 on CPU 1, hogs 5 and 6 on CPU 2, where the wakee
     * (task 1) last ran.
     */
    private static void wakerWithTwoHogsAndPrevWithTwo(Kernel k) {
        queue(k, 0, 0);
        queue(k, 2, 0);
        queue(k, 3, 0);
        queue(k, 4, 1);
        queue(k, 5, 2);
        queue(k, 6, 2);
        k.tCpu[1] = 2;
    }

    /** The waker, task 0, alone on CPU 0; the wakee, task 1, last ran on CPU 2; CPUs 2 and 3 each run a hog. */
    private static Kernel wakeeFromABusyLlc() {
        Kernel k = kernel(4, true);
        queue(k, 0, 0);
        queue(k, 2, 2);
        queue(k, 3, 3);
        k.tCpu[1] = 2;
        return k;
    }

    private static void flips(WakeAffine wa, int w, int wFlips, int pFlips) {
        wa.wakeeFlips[w] = wFlips;
        wa.wakeeFlips[1] = pFlips;
    }

    /** Task t queued (runnable, not running) on CPU c. */
    private static void queue(Kernel k, int t, int c) {
        k.tCpu[t] = c;
        k.tState[t] = Kernel.T_RUNNABLE;
        k.fair.enqueueTask(t, c, false);
    }

    /** n hogs in an unlimited group, allowed everywhere, none started. */
    private static Kernel kernel(int n, boolean wakeAffine) { return kernel(n, wakeAffine, "runnable"); }

    /** {@link #kernel(int, boolean)} with {@code kernel.wake_affine_load} {@code load}. */
    private static Kernel kernel(int n, boolean wakeAffine, String load) {
        Scenario s = ScenarioParser.parse("""
                {"duration": "1s", "machine": {"cpus": 8}, "kernel": {"wake_affine": %s, "wake_affine_load": "%s"},
                 "cgroups": [{"path": "/g"}],
                 "tasks": [{"name": "h", "cgroup": "/g", "count": %d, "workload": {"kind": "hog"}}]}
                """.formatted(wakeAffine, load, n));
        GroupTree tree = new GroupTree(s.cgroups());
        MachineProfile machine = new MachineProfile("test", new Topology(8, 1, 2, 2, false), CostModel.generic(),
                SmtCurve.twoLevel(1, 0.6), IpcCosts.generic(), null, new CacheTransferCosts(60, 170, 4, 100));
        Kernel k = new Kernel(machine, s.kernel(), tree, n, new EventQueue(), new SplittableRandom(1),
                new KernelObserver() { });
        TaskSpec ts = s.tasks().get(0);
        for (int t = 0; t < n; t++) {
            BitSet all = new BitSet();
            all.set(0, 8);
            k.initTask(t, tree.indexOf("/g"), ts.policy(), ts.rtPriority(), all, Workloads.create(ts.workload()));
        }
        return k;
    }
}
