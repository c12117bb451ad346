package io.cfslab.kernel;

import io.cfslab.event.EventQueue;
import io.cfslab.machine.MachineProfile;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioParser;
import io.cfslab.scenario.TaskSpec;
import io.cfslab.workload.Workloads;

import java.util.BitSet;
import java.util.SplittableRandom;

/**
 * A kernel on one {@code generic} CPU for hand-computed cases: every task of a scenario (each spec's instances in
 * its first cgroup, in document order, indices 0, 1, …) initialised on CPU 0, none queued yet.
 */
final class OneCpuKernel {
    private OneCpuKernel() { }

    /** @param scenarioJson a scenario document whose tasks are one-task workloads (e.g. hogs) */
    static Kernel of(String scenarioJson) {
        Scenario s = ScenarioParser.parse(scenarioJson);
        GroupTree tree = new GroupTree(s.cgroups());
        int tasks = s.tasks().stream().mapToInt(TaskSpec::countPerCgroup).sum();
        Kernel k = new Kernel(MachineProfile.generic(1, 1, 1), s.kernel(), tree, tasks, new EventQueue(),
                new SplittableRandom(1), new KernelObserver() { });
        BitSet all = new BitSet();
        all.set(0);
        int t = 0;
        for (TaskSpec spec : s.tasks()) {
            for (int i = 0; i < spec.countPerCgroup(); i++) {
                k.initTask(t++, tree.indexOf(spec.cgroups().get(0)), spec.policy(), 0, all, Workloads.create(spec.workload()));
            }
        }
        return k;
    }
}
