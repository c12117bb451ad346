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
 * {@link LoadBalancer#newIdleBalance}'s choice of source on a hand-made case: the busiest CPU first (the first of
 * equals), and when every task there is refused (pinned: the kernel's LBF_ALL_PINNED redo without that CPU), the
 * next busiest, at most five CPUs in all.
 */
class NewIdleBalanceTest {

    /**
     * Seven CPUs (one LLC), one group without a limit; {@code queued[c]} tasks queued on CPU c, the tasks of CPU c
     * allowed on CPU 0 only where {@code movable[c]}. Nothing runs: each CPU's load is its queued tasks.
     */
    private static Kernel kernel(int[] queued, boolean[] movable) {
        int n = 0;
        for (int q : queued) n += q;
        Scenario s = ScenarioParser.parse("""
                {"name": "nib", "duration": "1s", "machine": {"cpus": 7},
                 "cgroups": [{"path": "/a"}],
                 "tasks": [{"name": "t", "cgroup": "/a", "count": %d, "workload": {"kind": "hog"}}]}
                """.formatted(n));
        GroupTree tree = new GroupTree(s.cgroups());
        Kernel k = new Kernel(MachineProfile.generic(7, 1, 1), s.kernel(), tree, n, new EventQueue(),
                new SplittableRandom(1), new KernelObserver() { });
        int t = 0;
        for (int c = 0; c < queued.length; c++) {
            for (int i = 0; i < queued[c]; i++, t++) {
                BitSet allowed = new BitSet();
                allowed.set(c);
                if (movable[c]) allowed.set(0);
                k.initTask(t, tree.indexOf("/a"), s.tasks().get(0).policy(), 0, allowed,
                        Workloads.create(s.tasks().get(0).workload()));
                k.tCpu[t] = c;
                k.tState[t] = Kernel.T_RUNNABLE;
                k.fair.enqueueTask(t, c, false);
            }
        }
        return k;
    }

    /** The CPU that CPU 0's new-idle balance took a task from, or -1. */
    private static int pulledFrom(int[] queued, boolean[] movable) {
        Kernel k = kernel(queued, movable);
        int[] before = new int[queued.length];
        for (int c = 0; c < queued.length; c++) before[c] = k.nrRunnable(c);
        if (!k.balancer.newIdleBalance(0)) return -1;
        assertThat(k.nrRunnable(0)).isEqualTo(1);
        for (int c = 1; c < queued.length; c++) if (k.nrRunnable(c) == before[c] - 1) return c;
        throw new AssertionError("a task was pulled, but from no CPU");
    }

    @Test
    void theBusiestFirstTheFirstOfEquals() {
        assertThat(pulledFrom(new int[] {0, 2, 4, 4, 3, 2, 2}, new boolean[] {true, true, true, true, true, true, true}))
                .isEqualTo(2);
    }

    @Test
    void aCpuWhoseTasksAreAllRefusedIsPassedOverForTheNextBusiest() {
        // CPU 2 and 3 (4 tasks each) are pinned: CPU 4 (3 tasks) is next; then the first of CPU 1, 5, 6 (2 each)
        assertThat(pulledFrom(new int[] {0, 2, 4, 4, 3, 2, 2}, new boolean[] {true, true, false, false, true, true, true}))
                .isEqualTo(4);
        assertThat(pulledFrom(new int[] {0, 2, 4, 4, 3, 2, 2}, new boolean[] {true, true, false, false, false, true, true}))
                .isEqualTo(1);
    }

    @Test
    void atMostFiveCpusAreTried() {
        // five pinned CPUs before the one that could give a task: the balance gives up, as the kernel's redo does
        assertThat(pulledFrom(new int[] {0, 6, 6, 5, 5, 4, 3}, new boolean[] {true, false, false, false, false, false, true}))
                .isEqualTo(-1);
        assertThat(pulledFrom(new int[] {0, 6, 6, 5, 5, 3, 4}, new boolean[] {true, false, false, false, false, true, false}))
                .isEqualTo(-1);
        assertThat(pulledFrom(new int[] {0, 6, 6, 5, 5, 4, 3}, new boolean[] {true, false, false, false, true, false, true}))
                .isEqualTo(4);
    }
}
