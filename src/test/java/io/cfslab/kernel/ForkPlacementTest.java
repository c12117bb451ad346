package io.cfslab.kernel;

import io.cfslab.event.EventQueue;
import io.cfslab.machine.MachineProfile;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioParser;
import io.cfslab.scenario.TaskSpec;
import io.cfslab.workload.Workloads;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.BitSet;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Kernel#startTasks} (the tournament tree of {@link ForkPlacement}) places every task on the CPU that
 * {@link Kernel#startTask} alone (a scan of every allowed CPU) chooses, on machines with and without SMT,
 * with tasks pinned to some CPUs, RT tasks and tasks that sleep first.
 */
class ForkPlacementTest {

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"cpus\": 7, \"smt\": 1, \"sockets\": 1}",
            "{\"cpus\": 24, \"smt\": 2, \"sockets\": 2}",
            "{\"cpus\": 32, \"smt\": 4, \"sockets\": 1}",
            "{\"cpus\": 384, \"smt\": 2, \"sockets\": 2}"})
    void sameCpusAsOneScanPerTask(String machine) {
        String json = """
                {"name": "forks", "duration": "1s", "machine": %s,
                 "kernel": {"throttle": "task"},
                 "cgroups": [{"path": "/a", "cpu.max": "50000 100000"}, {"path": "/a/b"}, {"path": "/c"}],
                 "tasks": [
                   {"name": "hog", "cgroup": "/a/b", "count": 50, "workload": {"kind": "hog"}},
                   {"name": "pinned", "cgroup": "/c", "count": 9, "cpus_allowed": "1-3", "workload": {"kind": "hog"}},
                   {"name": "rt", "cgroup": "/", "count": 3, "policy": "fifo", "priority": 10, "workload": {"kind": "hog"}},
                   {"name": "sleeper", "cgroup": "/c", "count": 20,
                    "workload": {"kind": "periodic", "run": "1ms", "kernel": "0.1ms", "sleep": "2ms", "loops": 0}},
                   {"name": "late", "cgroup": "/", "count": 400, "workload": {"kind": "hog"}}]}
                """.formatted(machine);
        Scenario s = ScenarioParser.parse(json);
        Kernel batch = kernel(s), single = kernel(s);
        int n = batch.ntasks;
        batch.startTasks(n);
        single.beginForkBurst();
        for (int t = 0; t < n; t++) single.startTask(t);
        single.endForkBurst();
        assertThat(batch.tCpu).containsExactly(single.tCpu);
        assertThat(batch.fair.cpuTaskCount).containsExactly(single.fair.cpuTaskCount);
        // more than one CPU was used, and the pinned tasks stayed on theirs
        assertThat(java.util.Arrays.stream(batch.tCpu).distinct().count()).isGreaterThan(1);
    }

    private static Kernel kernel(Scenario s) {
        var m = s.machine();
        GroupTree tree = new GroupTree(s.cgroups());
        int ntasks = s.tasks().stream().mapToInt(TaskSpec::total).sum();
        Kernel k = new Kernel(MachineProfile.generic(m.cpus(), m.smt(), m.sockets()), s.kernel(), tree, ntasks,
                new EventQueue(), new SplittableRandom(1), new KernelObserver() { });
        BitSet all = new BitSet();
        all.set(0, m.cpus());
        int t = 0;
        for (TaskSpec ts : s.tasks()) {
            for (String path : ts.cgroups()) {
                for (int i = 0; i < ts.countPerCgroup(); i++, t++) {
                    BitSet allowed = ts.cpusAllowed() == null ? all : (BitSet) ts.cpusAllowed().clone();
                    k.initTask(t, tree.indexOf(path), ts.policy(), ts.rtPriority(), allowed, Workloads.create(ts.workload()));
                }
            }
        }
        return k;
    }
}
