package io.cfslab.kernel;

import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;

/**
 * EEVDF's lag in {@link FairRq} on hand-computed cases: avg_vruntime(), update_entity_lag() with entity_lag()'s
 * limit, and place_entity() with PLACE_LAG.
 */
class PlaceLagTest {
    private static final long MS = 1_000_000L;

    /** One CPU (slice 0.75 ms), HZ 250 (tick 4 ms): the lag limit is max(2 × 0.75 ms, 4 ms) = 4 ms. */
    private static Kernel kernel() {
        return OneCpuKernel.of("""
                {"name": "lag", "duration": "1s", "machine": {"cpus": 1}, "kernel": {"hz": 250},
                 "cgroups": [{"path": "/a"}],
                 "tasks": [{"name": "t", "cgroup": "/a", "count": 3, "workload": {"kind": "hog"}}]}
                """);
    }

    private static void queue(Kernel k, int t, long vruntime) {
        k.fair.setVruntime(t, vruntime);
        k.fair.enqueueTask(t, 0, false);
    }

    @Test
    void avgVruntimeIsTheMeanOfTheQueuedEntities() {
        Kernel k = kernel();
        int q = k.leafQ(0, 0);
        queue(k, 0, 14 * MS);
        queue(k, 1, 16 * MS);
        queue(k, 2, 18 * MS);
        assertThat(k.fair.avgVruntime(q)).isEqualTo(16 * MS);
        k.fair.dequeueTask(2, 0);
        assertThat(k.fair.avgVruntime(q)).isEqualTo(15 * MS);
    }

    @Test
    void aWokenTaskGetsBackTheLagItLeftWithScaledByTheQueuedEntities() {
        Kernel k = kernel();
        int q = k.leafQ(0, 0);
        queue(k, 0, 14 * MS);
        queue(k, 1, 16 * MS);
        k.fair.dequeueTask(0, 0); // avg 15 ms: task 0 is owed 1 ms
        assertThat(k.fair.vlag(0)).isEqualTo(MS);
        k.fair.enqueueTask(0, 0, true); // one entity queued (avg 16 ms): 16 - 1 × (1 + 1) / 1 = 14 ms
        assertThat(k.fair.vruntime(0)).isEqualTo(14 * MS);
    }

    @Test
    void theLagIsLimitedToTwoSlicesOrATick() {
        Kernel k = kernel();
        queue(k, 0, 0);
        queue(k, 1, 20 * MS);
        k.fair.dequeueTask(1, 0); // avg 10 ms: 10 ms ahead, limited to 4 ms
        assertThat(k.fair.vlag(1)).isEqualTo(-4 * MS);
        k.fair.dequeueTask(0, 0); // alone: avg = its own vruntime, no lag
        assertThat(k.fair.vlag(0)).isZero();
    }

    @Test
    void anEmptyCfsRqPlacesAtItsAvgVruntimeWithoutTheLag() {
        Kernel k = kernel();
        int q = k.leafQ(0, 0);
        queue(k, 0, 14 * MS);
        queue(k, 1, 16 * MS);
        k.fair.dequeueTask(0, 0);
        k.fair.dequeueTask(1, 0);
        k.fair.enqueueTask(0, 0, true);
        assertThat(k.fair.vruntime(0)).isEqualTo(k.fair.minVruntime(q));
    }
}
