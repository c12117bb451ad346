package io.cfslab.kernel;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * check_preempt_wakeup_fair() ({@link FairRq#checkPreemptWakeup}) on hand-computed cases: three tasks of {@code /a}
 * on one CPU, their vruntimes set by charging them, task 0 the running one. avg_vruntime() is their mean (equal
 * weights); EEVDF keeps an eligible current within its slice (RUN_TO_PARITY) and otherwise preempts for the wakee
 * only if the wakee is what the pick would take; CFS preempts when the current is ahead by more than the
 * wake-up granularity (1 ms on one CPU: 1 + ilog2(1) = 1).
 */
class WakeupPreemptTest {
    private static final long MS = 1_000_000;
    private static final long EEVDF = -1, CFS_GRAN_1MS = MS;

    /** Tasks 0, 1, 2 queued on CPU 0 at vruntimes a, b, c (ms of a nice-0 task: charged from 0). */
    private static Kernel kernel(long a, long b, long c) {
        Kernel k = OneCpuKernel.of("""
                {"name": "wakeup preemption", "duration": "1s", "machine": {"cpus": 1}, "kernel": {"hz": 250},
                 "cgroups": [{"path": "/a"}],
                 "tasks": [{"name": "t", "cgroup": "/a", "count": 3, "workload": {"kind": "hog"}}]}
                """);
        for (int t = 0; t < 3; t++) k.fair.enqueueTask(t, 0, false);
        k.fair.updateCurrFair(0, 0, a * MS);
        k.fair.updateCurrFair(1, 0, b * MS);
        k.fair.updateCurrFair(2, 0, c * MS);
        return k;
    }

    @Test
    void anEligibleCurrentKeepsItsSliceAndLosesItOnceTheSliceIsUsed() {
        // vruntimes 2, 0, 10: mean 4, so the current (2) is eligible; the wakee (0) is the least
        Kernel k = kernel(2, 0, 10);
        assertThat(k.fair.avgVruntime(k.leafQ(0, 0)) - k.fair.minVruntime(k.leafQ(0, 0))).isEqualTo(4 * MS);
        assertThat(k.fair.checkPreemptWakeup(1, 0, 0, true, EEVDF)).isFalse();
        assertThat(k.fair.checkPreemptWakeup(1, 0, 0, false, EEVDF)).isTrue();
    }

    @Test
    void anIneligibleCurrentIsPreemptedWithinItsSlice() {
        // vruntimes 6, 0, 10: mean 16/3 < 6, the current is not eligible, the wakee is the pick
        assertThat(kernel(6, 0, 10).fair.checkPreemptWakeup(1, 0, 0, true, EEVDF)).isTrue();
    }

    @Test
    void aWakeeThatIsNotThePickDoesNotPreempt() {
        // vruntimes 6, 3, 1: mean 10/3 < 6, the current is not eligible, but the pick is task 2, not the wakee
        assertThat(kernel(6, 3, 1).fair.checkPreemptWakeup(1, 0, 0, true, EEVDF)).isFalse();
    }

    @Test
    void cfsPreemptsWhenTheCurrentIsAheadByMoreThanTheGranularity() {
        // 3 ms against 1 ms: 2 ms ahead, more than 1 ms; 3 against 2.5 (charged 2 then 0.5): 0.5 ms, less
        assertThat(kernel(3, 1, 10).fair.checkPreemptWakeup(1, 0, 0, true, CFS_GRAN_1MS)).isTrue();
        Kernel k = kernel(3, 2, 10);
        k.fair.updateCurrFair(1, 0, MS / 2);
        assertThat(k.fair.checkPreemptWakeup(1, 0, 0, true, CFS_GRAN_1MS)).isFalse();
    }
}
