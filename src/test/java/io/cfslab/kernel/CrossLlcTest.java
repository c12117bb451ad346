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
import io.cfslab.workload.Segment;
import io.cfslab.workload.Workloads;
import org.junit.jupiter.api.Test;

import java.util.BitSet;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What LLCs change, on hand-made cases: new-idle balance takes from the idle CPU's own LLC before any other
 * (sched_balance_newidle()'s domain walk, MC before PKG), moves across LLCs are counted, and with a machine's
 * {@link CacheTransferCosts} a message between tasks in different LLCs, or a move to another LLC, costs what the
 * profile says. Machine: 2 sockets × 2 LLCs × 2 cores, no SMT (CPUs 0-1, 2-3 in socket 0; 4-5, 6-7 in socket 1).
 */
class CrossLlcTest {
    private static final CacheTransferCosts COSTS = new CacheTransferCosts(60, 170, 4, 100);

    @Test
    void newIdleBalancePullsFromItsOwnLlcFirst() {
        Kernel k = kernel(new int[] {0, 0, 0, 2, 2, 2, 2}); // 3 hogs on CPU 0 (LLC 0), 4 on CPU 2 (LLC 1)
        assertThat(k.balancer.newIdleBalance(1)).isTrue();
        assertThat(k.fair.cpuTaskCount[1]).as("CPU 1 took from CPU 0, its LLC, not the busier CPU 2").isEqualTo(1);
        assertThat(k.fair.cpuTaskCount[2]).isEqualTo(4);
        assertThat(k.llcMigrations()).isZero();
    }

    @Test
    void newIdleBalanceCrossesAnLlcOnlyWhenItsOwnHasNothing() {
        Kernel k = kernel(new int[] {0, 2, 2, 2}); // CPU 0 runs its only hog; 3 hogs on CPU 2
        assertThat(k.balancer.newIdleBalance(1)).isTrue();
        assertThat(k.fair.cpuTaskCount[1]).isEqualTo(1);
        assertThat(k.fair.cpuTaskCount[2]).isEqualTo(2);
        assertThat(k.llcMigrations()).isEqualTo(1);
    }

    @Test
    void messagesCostTheLinesTheyMoveBetweenLlcsAndSockets() {
        Kernel k = kernel(new int[] {0, 1, 2, 4});
        assertThat(k.messageTransferNs(0, 1)).as("same LLC").isZero();
        assertThat(k.messageTransferNs(0, 2)).as("another LLC of the socket").isEqualTo(4 * 60);
        assertThat(k.messageTransferNs(0, 3)).as("the other socket").isEqualTo(4 * 170);
        assertThat(k.messageTransferNs(3, 0)).isEqualTo(4 * 170);
    }

    @Test
    void aMoveToAnotherLlcRefillsTheTaskOnce() {
        Kernel k = kernel(new int[] {0});
        k.segKind[0] = Segment.RUN_KERNEL;
        k.segRemainingNs[0] = 1_000;
        k.migrated(0, 0, 1);
        assertThat(k.segRemainingNs[0]).as("same LLC: no refill").isEqualTo(1_000);
        k.migrated(0, 1, 2);
        assertThat(k.segRemainingNs[0]).isEqualTo(1_000 + 100 * 60);
        k.migrated(0, 2, 6);
        assertThat(k.segRemainingNs[0]).isEqualTo(1_000 + 100 * 60 + 100 * 170);
        assertThat(k.llcMigrations()).isEqualTo(2);
        assertThat(k.nrMigrations[0]).isEqualTo(3);
        k.segRemainingNs[0] = Long.MAX_VALUE; // a hog's endless stretch stays endless
        k.migrated(0, 6, 0);
        assertThat(k.segRemainingNs[0]).isEqualTo(Long.MAX_VALUE);
    }

    /** Hogs in an unlimited group, task i started on CPU {@code cpus[i]}, then allowed everywhere. */
    private static Kernel kernel(int[] cpus) {
        Scenario s = ScenarioParser.parse("""
                {"duration": "1s", "machine": {"cpus": 8}, "cgroups": [{"path": "/g"}],
                 "tasks": [{"name": "h", "cgroup": "/g", "count": %d, "workload": {"kind": "hog"}}]}
                """.formatted(cpus.length));
        GroupTree tree = new GroupTree(s.cgroups());
        MachineProfile machine = new MachineProfile("test", new Topology(8, 1, 2, 2, false), CostModel.generic(),
                SmtCurve.twoLevel(1, 0.6), IpcCosts.generic(), null, COSTS);
        Kernel k = new Kernel(machine, s.kernel(), tree, cpus.length, new EventQueue(), new SplittableRandom(1),
                new KernelObserver() { });
        int g = tree.indexOf("/g");
        TaskSpec ts = s.tasks().get(0);
        for (int t = 0; t < cpus.length; t++) {
            BitSet one = new BitSet();
            one.set(cpus[t]);
            k.initTask(t, g, ts.policy(), ts.rtPriority(), one, Workloads.create(ts.workload()));
        }
        for (int t = 0; t < cpus.length; t++) k.startTask(t);
        for (int t = 0; t < cpus.length; t++) k.tAllowed[t].set(0, 8);
        return k;
    }
}
