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
 * DELAY_DEQUEUE (6.12, 152e11f6df29) above a task's own level, on hand-computed cases: two groups {@code /a} and
 * {@code /b} with a task each on one CPU (HZ 250: entity_lag()'s limit is max(2 × 0.75 ms, 4 ms) = 4 ms). Their group
 * entities start at vruntime 0 on the root cfs_rq; a's task is charged 8 ms, so a's entity is at 8 ms against an
 * average of 4 ms: not eligible when its task leaves.
 */
class DelayDequeueTest {
    private static final long MS = 1_000_000L;

    private static Kernel kernel(boolean delayDequeue) {
        Scenario s = ScenarioParser.parse("""
                {"name": "delay", "duration": "1s", "machine": {"cpus": 1},
                 "kernel": {"hz": 250, "throttle": "task", "delay_dequeue": %s},
                 "cgroups": [{"path": "/a"}, {"path": "/b"}],
                 "tasks": [{"name": "a", "cgroup": "/a", "workload": {"kind": "hog"}},
                           {"name": "b", "cgroup": "/b", "workload": {"kind": "hog"}}]}
                """.formatted(delayDequeue));
        GroupTree tree = new GroupTree(s.cgroups());
        Kernel k = new Kernel(MachineProfile.generic(1, 1, 1), s.kernel(), tree, 2, new EventQueue(),
                new SplittableRandom(1), new KernelObserver() { });
        BitSet all = new BitSet();
        all.set(0);
        k.initTask(0, tree.indexOf("/a"), s.tasks().get(0).policy(), 0, all, Workloads.create(s.tasks().get(0).workload()));
        k.initTask(1, tree.indexOf("/b"), s.tasks().get(1).policy(), 0, all, Workloads.create(s.tasks().get(1).workload()));
        k.fair.enqueueTask(0, 0, false);
        k.fair.enqueueTask(1, 0, false);
        k.fair.updateCurrFair(0, 0, 8 * MS); // a's entity 8 ms, b's 0: average 4 ms
        return k;
    }

    /** The group entity of task t's group on CPU 0. */
    private static int groupEntity(Kernel k, int t) { return k.groupEntity(k.leafQ(t, 0)); }

    @Test
    void withoutDelayTheOverServedGroupEntityLeavesWithItsDebt() {
        Kernel k = kernel(false);
        int a = groupEntity(k, 0);
        k.fair.dequeueTask(0, 0);
        assertThat(k.fair.onRq(a)).isFalse();
        assertThat(k.fair.vlag(a)).isEqualTo(-4 * MS); // 4 - 8 ms, within the 4 ms limit
    }

    @Test
    void aGroupEntityThatIsNotEligibleStaysQueuedUntilPickedAndLeavesWithoutItsLag() {
        Kernel k = kernel(true);
        int a = groupEntity(k, 0);
        int root = k.rootQ(0);
        k.fair.dequeueTask(0, 0);
        // delayed: still queued beside b's entity, its own cfs_rq empty, and no longer runnable
        assertThat(k.fair.onRq(a)).isTrue();
        assertThat(k.fair.nrQueued(root)).isEqualTo(2);
        assertThat(k.fair.nrQueued(k.leafQ(0, 0))).isZero();
        assertThat(k.fair.hNrRunning(root)).isEqualTo(1);
        // b's entity (0 ms) comes first: b runs
        assertThat(k.fair.pickFair(0)).isEqualTo(1);
        assertThat(k.fair.onRq(a)).isTrue();
        // b runs 12 ms (its entity at 12 ms): a's delayed entity (8 ms) comes first now; the pick takes it off with
        // its lag (10 - 8 = +2 ms) dropped (DELAY_ZERO) and picks b again
        k.fair.updateCurrFair(1, 0, 12 * MS);
        assertThat(k.fair.pickFair(0)).isEqualTo(1);
        assertThat(k.fair.onRq(a)).isFalse();
        assertThat(k.fair.nrQueued(root)).isEqualTo(1);
        assertThat(k.fair.vlag(a)).isZero();
    }

    @Test
    void aDelayedGroupEntityThatGetsItsTaskBackWhileStillAheadKeepsItsPlace() {
        Kernel k = kernel(true);
        int a = groupEntity(k, 0);
        k.fair.dequeueTask(0, 0);
        k.fair.updateCurrFair(1, 0, 4 * MS); // b at 4 ms: average 6 ms, a (8 ms) still not owed anything
        k.fair.enqueueTask(0, 0, true);
        assertThat(k.fair.vruntime(a)).isEqualTo(8 * MS);
        assertThat(k.fair.hNrRunning(k.rootQ(0))).isEqualTo(2);
    }

    @Test
    void aDelayedGroupEntityThatIsOwedServiceWhenItsTaskComesBackIsPlacedAtTheAverage() {
        Kernel k = kernel(true);
        int a = groupEntity(k, 0);
        k.fair.dequeueTask(0, 0);
        k.fair.updateCurrFair(1, 0, 20 * MS); // b at 20 ms: average 14 ms, a (8 ms) is owed 6 ms
        k.fair.enqueueTask(0, 0, true);
        // requeue_delayed_entity() with DELAY_ZERO: off the cfs_rq, lag 0, placed at b's 20 ms (the average without it)
        // (with its positive lag kept it would be placed before 20 ms, at 20 - lag × 2 / 1; a queued entity's
        // se->vlag is not kept: its slot holds the heap's insertion number, EntityQueue.INSERTED)
        assertThat(k.fair.vruntime(a)).isEqualTo(20 * MS);
        assertThat(k.fair.nrQueued(k.rootQ(0))).isEqualTo(2);
    }
}
