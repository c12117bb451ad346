package io.cfslab.kernel;

import io.cfslab.event.EventQueue;
import io.cfslab.machine.MachineProfile;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioParser;
import io.cfslab.workload.Workloads;
import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * EEVDF in {@link FairRq} (6.6+) on hand-computed cases: __pick_eevdf() (the eligible entity with the earliest
 * deadline, RUN_TO_PARITY), update_deadline(), check_preempt_wakeup_fair(), update_cfs_group() with PELT-based
 * calc_group_shares() on the CPU that updates, and the era switch (CFS's least vruntime before 6.6).
 */
class EevdfTest {
    private static final long MS = 1_000_000L;

    /** {@code cpus} CPUs (slice 0.75 ms on one), HZ 250: three hogs in /a. */
    private static Kernel kernel(int cpus, String version) {
        Scenario s = ScenarioParser.parse("""
                {"name": "eevdf", "duration": "1s", "machine": {"cpus": %d}, "kernel": {"hz": 250, "version": "%s"},
                 "cgroups": [{"path": "/a"}],
                 "tasks": [{"name": "t", "cgroup": "/a", "count": 3, "workload": {"kind": "hog"}}]}
                """.formatted(cpus, version));
        GroupTree tree = new GroupTree(s.cgroups());
        Kernel k = new Kernel(MachineProfile.generic(cpus, 1, 1), s.kernel(), tree, 3, new EventQueue(),
                new SplittableRandom(1), new KernelObserver() { });
        BitSet all = new BitSet();
        all.set(0, cpus);
        for (int t = 0; t < 3; t++) {
            k.initTask(t, tree.indexOf("/a"), s.tasks().get(0).policy(), 0, all, Workloads.create(s.tasks().get(0).workload()));
        }
        return k;
    }

    private static void queue(Kernel k, int t, int cpu, long vruntime, long deadline) {
        k.fair.setVruntime(t, vruntime);
        if (k.eevdf) k.fair.setDeadline(t, deadline);
        k.fair.enqueueTask(t, cpu, false);
    }

    @Test
    void thePickIsTheEligibleEntityWithTheEarliestDeadline() {
        Kernel k = kernel(1, "6.18");
        // avg_vruntime 14 ms: tasks 0 and 1 are eligible; task 2 has the earliest deadline but is not eligible,
        // task 0 the least vruntime but a later deadline than task 1
        queue(k, 0, 0, 10 * MS, 40 * MS);
        queue(k, 1, 0, 12 * MS, 30 * MS);
        queue(k, 2, 0, 20 * MS, 22 * MS);
        int q = k.leafQ(0, 0);
        assertThat(k.fair.avgVruntime(q)).isEqualTo(14 * MS);
        assertThat(k.fair.entityEligible(q, 2)).isFalse();
        assertThat(k.fair.pickFair(0)).isEqualTo(1);
    }

    @Test
    void beforeEevdfThePickIsTheLeastVruntime() {
        Kernel k = kernel(1, "6.1");
        queue(k, 0, 0, 10 * MS, 0);
        queue(k, 1, 0, 12 * MS, 0);
        queue(k, 2, 0, 20 * MS, 0);
        assertThat(k.eevdf).isFalse();
        assertThat(k.fair.pickFair(0)).isZero();
    }

    /**
     * Task 1 leaves with 4 ms of lag (avg 14, vruntime 10); task 0 (vruntime 12, deadline 14) is picked over task 2
     * (20, 25), its slice protected up to its deadline.
     */
    private static Kernel taskZeroRunsTaskOneSleepsWithLag() {
        Kernel k = kernel(1, "6.18");
        queue(k, 0, 0, 12 * MS, 14 * MS);
        queue(k, 1, 0, 10 * MS, 11 * MS);
        queue(k, 2, 0, 20 * MS, 25 * MS);
        k.fair.dequeueTask(1, 0);
        assertThat(k.fair.vlag(1)).isEqualTo(4 * MS);
        assertThat(k.fair.pickFair(0)).isZero();
        return k;
    }

    @Test
    void aWokenTaskWithAnEarlierDeadlinePreemptsOnceTheCurrentSliceIsUsed() {
        Kernel k = taskZeroRunsTaskOneSleepsWithLag();
        k.fair.updateCurrFair(0, 0, 2_500_000); // vruntime 14.5 ms, past its deadline: the next is 15.25 ms
        assertThat(k.fair.deadline(0)).isEqualTo(15_250_000);
        // placed at avg 17.25 - 4 × (2048 + 1024) / 2048 = 11.25 ms, deadline 12 ms; avg 15.25: both eligible
        k.fair.enqueueTask(1, 0, true);
        assertThat(k.fair.vruntime(1)).isEqualTo(11_250_000);
        assertThat(k.fair.deadline(1)).isEqualTo(12 * MS);
        assertThat(k.fair.entityEligible(k.leafQ(0, 0), 0)).isTrue();
        assertThat(k.fair.checkPreemptWakeup(1, 0, 0)).isTrue();
    }

    @Test
    void aWokenTaskDoesNotPreemptInsideTheProtectedSlice() {
        Kernel k = taskZeroRunsTaskOneSleepsWithLag();
        k.fair.updateCurrFair(0, 0, 500_000); // vruntime 12.5 ms: still before its deadline (RUN_TO_PARITY)
        k.fair.enqueueTask(1, 0, true);
        assertThat(k.fair.deadline(1)).isLessThan(k.fair.deadline(0));
        assertThat(k.fair.entityEligible(k.leafQ(0, 0), 0)).isTrue();
        assertThat(k.fair.checkPreemptWakeup(1, 0, 0)).isFalse();
    }

    @Test
    void theSliceEndsAtTheDeadlineOnlyWithAnotherEntityQueued() {
        Kernel k = kernel(1, "6.18");
        queue(k, 0, 0, 10 * MS, 10_750_000);
        assertThat(k.fair.pickFair(0)).isZero();
        k.fair.updateCurrFair(0, 0, MS);
        assertThat(k.needResched[0]).isFalse(); // alone: a new deadline, no resched
        assertThat(k.fair.deadline(0)).isEqualTo(11_750_000);
        queue(k, 1, 0, 20 * MS, 21 * MS);
        k.fair.updateCurrFair(0, 0, MS);
        assertThat(k.needResched[0]).isTrue();
    }

    /**
     * calc_group_shares() from PELT load averages (GroupShares): /a has two tasks on CPU 0 and one on CPU 1. A
     * cfs_rq's average follows its load weight with a 32-period half-life, is published into the group's total at
     * most once a millisecond, and each CPU's group entity is reweighted only where that CPU updates it.
     */
    @Test
    void aGroupEntityWeightFollowsItsCpusPartOfTheGroupsLoadAverage() {
        Kernel k = kernel(2, "6.18");
        int q0 = k.leafQ(0, 0), q1 = k.leafQ(0, 1);
        int e0 = k.groupEntity(q0), e1 = k.groupEntity(q1);
        queue(k, 0, 0, 0, 0);
        queue(k, 1, 0, 0, 0);
        queue(k, 2, 1, 0, 0);
        // no load average published yet: each CPU sees only its own load
        assertThat(k.fair.weight(e0)).isEqualTo(1024);
        assertThat(k.fair.weight(e1)).isEqualTo(1024);

        k.setNow(1_000_000_000L); // 976 PELT periods: the averages have reached the load weights
        k.fair.entityTick(0, 0);
        assertThat(k.fair.groupShares.loadAvg(q0)).isEqualTo(2048);
        assertThat(k.fair.weight(e0)).isEqualTo(1024); // CPU 1 has published nothing yet
        k.fair.entityTick(2, 1);
        assertThat(k.fair.groupShares.tgLoadAvg(k.groupOf(q0))).isEqualTo(3072);
        assertThat(k.fair.weight(e1)).isEqualTo(1024 * 1024 / 3072);
        assertThat(k.fair.weight(e0)).isEqualTo(1024); // stale until CPU 0 updates it
        k.fair.entityTick(0, 0);
        assertThat(k.fair.weight(e0)).isEqualTo(1024 * 2048 / 3072);

        k.fair.dequeueTask(1, 0); // one task left on CPU 0, but its average still says two
        assertThat(k.fair.weight(e0)).isEqualTo(1024 * 2048 / 3072);
        k.setNow(1_000_000_000L + 32 * 1_024_000L); // one half-life: 2048 / 2 + 1024 / 2 = 1536
        k.fair.entityTick(0, 0);
        assertThat(k.fair.groupShares.loadAvg(q0)).isEqualTo(1536);
        assertThat(k.fair.groupShares.tgLoadAvg(k.groupOf(q0))).isEqualTo(2560);
        assertThat(k.fair.weight(e0)).isEqualTo(1024 * 1536 / 2560);
    }
}
