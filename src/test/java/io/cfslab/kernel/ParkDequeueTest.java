package io.cfslab.kernel;

import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;

/**
 * A 6.18 park's dequeue (throttle_cfs_rq_work(): DEQUEUE_SLEEP | DEQUEUE_THROTTLE) on hand-computed cases, one CPU,
 * HZ 250 (entity_lag()'s limit 4 ms). Root holds the group entities of {@code /p} (tasks 0 in {@code /p/a} and 1 in
 * {@code /p/b}), {@code /q} (task 2) and {@code /r} (task 3); every group entity has weight 1024 (one CPU), so a
 * task's charge moves each entity above it by as much. Task 0 is charged 4 ms and task 3 8 ms: {@code /p} at 4 ms,
 * {@code /q} at 0, {@code /r} at 8 ms, root's average 4 ms; in {@code /p}, {@code /p/a} at 4 ms and {@code /p/b}
 * at 0, average 2 ms.
 */
class ParkDequeueTest {
    private static final long MS = 1_000_000L;

    private static Kernel kernel() {
        Kernel k = OneCpuKernel.of("""
                {"name": "park", "duration": "1s", "machine": {"cpus": 1},
                 "kernel": {"hz": 250, "throttle": "task", "delay_dequeue": true},
                 "cgroups": [{"path": "/p"}, {"path": "/p/a"}, {"path": "/p/b"}, {"path": "/q"}, {"path": "/r"}],
                 "tasks": [{"name": "a", "cgroup": "/p/a", "workload": {"kind": "hog"}},
                           {"name": "b", "cgroup": "/p/b", "workload": {"kind": "hog"}},
                           {"name": "q", "cgroup": "/q", "workload": {"kind": "hog"}},
                           {"name": "r", "cgroup": "/r", "workload": {"kind": "hog"}}]}
                """);
        for (int t = 0; t < 4; t++) k.fair.enqueueTask(t, 0, false);
        k.fair.updateCurrFair(0, 0, 4 * MS);
        k.fair.updateCurrFair(3, 0, 8 * MS);
        return k;
    }

    private static int groupEntity(Kernel k, int t) { return k.groupEntity(k.leafQ(t, 0)); }

    @Test
    void aParkNeverDelaysAGroupEntityAbove() {
        Kernel k = kernel();
        int a = groupEntity(k, 0);
        k.fair.dequeueTask(0, 0, true);
        // /p/a at 4 ms against /p's average of 2 ms is not eligible, but DEQUEUE_THROTTLE forbids the delay
        assertThat(k.fair.onRq(a)).isFalse();
        assertThat(k.fair.vlag(a)).isEqualTo(-2 * MS);
    }

    @Test
    void aSleepDelaysTheSameGroupEntity() {
        Kernel k = kernel();
        int a = groupEntity(k, 0);
        k.fair.dequeueTask(0, 0);
        assertThat(k.fair.onRq(a)).isTrue();
    }

    @Test
    void theParkNominatesItsGroupAsNextBuddyWhichThePickTakesWhileEligible() {
        Kernel k = kernel();
        k.fair.dequeueTask(0, 0, true);
        // root's least vruntime is /q (0 ms), but the buddy /p (4 ms, average 4 ms) is eligible: /p/b's task runs
        assertThat(k.fair.pickFair(0)).isEqualTo(1);
        // picked, the buddy is cleared: the next pick is the least vruntime again
        assertThat(k.fair.pickFair(0)).isEqualTo(2);
    }

    @Test
    void withoutAParkThereIsNoBuddy() {
        Kernel k = kernel();
        k.fair.dequeueTask(0, 0);
        assertThat(k.fair.pickFair(0)).isEqualTo(2);
    }

    @Test
    void aBuddyThatIsNoLongerEligibleIsPassedOver() {
        Kernel k = kernel();
        k.fair.dequeueTask(0, 0, true);
        k.fair.updateCurrFair(1, 0, 2 * MS); // /p at 6 ms against root's average of 14 / 3 ms
        assertThat(k.fair.pickFair(0)).isEqualTo(2);
    }
}
