package io.cfslab.kernel;

import io.cfslab.event.EventQueue;
import io.cfslab.machine.MachineProfile;
import io.cfslab.scenario.KernelSpec.ThrottledLb;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioParser;
import io.cfslab.scenario.TaskSpec;
import io.cfslab.workload.Workloads;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.BitSet;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * can_migrate_task()'s throttle check ({@code kernel.throttled_lb}) on a hand-made case: three hogs of group
 * {@code /g} queued on CPU 0 (one running), CPU 1 idle, and {@code /g}'s cfs_rq throttled on the source, the
 * destination, both or neither; {@link LoadBalancer#pullOne} from CPU 0 to CPU 1 moves a queued task or not:
 * {@code pair} (throttled_lb_pair(), up to 6.17) only when neither is throttled, {@code dst}
 * (lb_throttled_hierarchy(p, dst_cpu), 6.18, 0d4eaf8caf8c) whenever the destination is not, {@code none} (the
 * task-based series before that commit) always.
 */
class ThrottledLbTest {

    @ParameterizedTest(name = "{0}: src throttled {1}, dst throttled {2} -> pulled {3}")
    @CsvSource({
            "pair, false, false, true", "pair, true, false, false", "pair, false, true, false", "pair, true, true, false",
            "dst,  false, false, true", "dst,  true, false, true",  "dst,  false, true, false", "dst,  true, true, false",
            "none, false, false, true", "none, true, false, true",  "none, false, true, true",  "none, true, true, true"})
    void pullsAsTheRuleSays(String rule, boolean srcThrottled, boolean dstThrottled, boolean pulled) {
        Kernel k = kernel(rule);
        int g = k.tGroup[0];
        for (int t = 0; t < 3; t++) k.startTask(t); // allowed on CPU 0 only while forking: all three land there
        for (int t = 0; t < 3; t++) k.tAllowed[t].set(1);
        assertThat(k.fair.cpuTaskCount[0]).isEqualTo(3);
        // the period's pool and both cfs_rqs' local runtime are spent: a throttle check finds nothing to take
        k.bwc.bw[g].runtimeNs = 0;
        k.bwc.runtimeRemainingNs[k.cfsRq(g, 0)] = 0;
        k.bwc.runtimeRemainingNs[k.cfsRq(g, 1)] = 0;
        if (srcThrottled) assertThat(k.thr.throttleCfsRq(k.cfsRq(g, 0), 1)).isTrue();
        if (dstThrottled) assertThat(k.thr.throttleCfsRq(k.cfsRq(g, 1), 1)).isTrue();
        assertThat(k.thr.throttledHierarchy(g, 0)).isEqualTo(srcThrottled);
        assertThat(k.thr.throttledHierarchy(g, 1)).isEqualTo(dstThrottled);

        assertThat(k.balancer.pullOne(0, 1)).isEqualTo(pulled);
        assertThat(k.fair.cpuTaskCount[1]).isEqualTo(pulled ? 1 : 0);
        long migrated = java.util.stream.LongStream.of(k.nrMigrations).sum();
        assertThat(migrated).isEqualTo(pulled ? 1 : 0);
        assertThat(k.pullsIntoThrottled()).as("pulls into a throttled hierarchy of the puller")
                .isEqualTo(pulled && dstThrottled ? 1 : 0);
    }

    /**
     * {@code machine.newidle_lb_gained}: a new-idle balance of idle CPU 1 pulls one of CPU 0's two queued hogs (none
     * has run: cold) and counts it, as schedstat's {@code lb_gained[CPU_NEWLY_IDLE]} does; a periodic balance's pull is
     * not counted there.
     */
    @ParameterizedTest
    @CsvSource({"pair", "dst", "none"})
    void aNewIdlePullIsCountedAndAPeriodicOneIsNot(String rule) {
        Kernel k = kernel(rule);
        for (int t = 0; t < 3; t++) k.startTask(t);
        for (int t = 0; t < 3; t++) k.tAllowed[t].set(1);
        assertThat(k.balancer.pullOne(0, 1)).isTrue();
        assertThat(k.newidleLbGained()).as("periodic").isZero();
        assertThat(k.fair.cpuTaskCount[1]).isEqualTo(1);
        Kernel k2 = kernel(rule);
        for (int t = 0; t < 3; t++) k2.startTask(t);
        for (int t = 0; t < 3; t++) k2.tAllowed[t].set(1);
        assertThat(k2.balancer.newIdleBalance(1)).isTrue();
        assertThat(k2.newidleLbGained()).isEqualTo(1);
        assertThat(k2.fair.cpuTaskCount[1]).isEqualTo(1);
    }

    /**
     * Why per-cfs_rq throttling makes more idle stretches than task-based throttling in seed 00's hackbench
     * (docs/seed-reproductions.md, branch {@code seeds18}). CPU 0 holds three hogs of {@code /a}, queued first, and two of
     * {@code /b}; {@code /a}'s cfs_rq on CPU 0 is throttled. {@code detach_tasks()} walks {@code rq->cfs_tasks} from the
     * tail and counts every task it looks at against {@code loop_max = min(32, nr_running)} before
     * {@code can_migrate_task()} (kernel/sched/fair.c). Per cfs_rq ({@code throttle_cfs_rq()} up to 6.17) the throttled
     * tasks stay on the list but not in {@code nr_running} (2): the walk sees two {@code /a} tasks, refuses both, and
     * CPU 1's new-idle balance pulls nothing. Task-based (6.18), the three have parked ({@code throttle_cfs_rq_work()}
     * dequeues each): the list holds the two {@code /b} tasks and the balance pulls one.
     */
    @ParameterizedTest(name = "{0}, {1}: new-idle pull {2}")
    @CsvSource({"cfs_rq, pair, false", "task, dst, true", "task, pair, true"})
    void throttledTasksUseUpTheNewIdleBudgetOnlyWhileTheyStayOnTheList(String throttle, String rule, boolean pulled) {
        Scenario s = ScenarioParser.parse("""
                {"duration": "1s", "machine": {"cpus": 2}, "kernel": {"throttle": "%s", "throttled_lb": "%s"},
                 "cgroups": [{"path": "/a", "cpu.max": "1000 100000"}, {"path": "/b"}],
                 "tasks": [{"name": "a", "cgroup": "/a", "count": 3, "workload": {"kind": "hog"}},
                           {"name": "b", "cgroup": "/b", "count": 2, "workload": {"kind": "hog"}}]}
                """.formatted(throttle, rule));
        GroupTree tree = new GroupTree(s.cgroups());
        Kernel k = new Kernel(MachineProfile.generic(2, 1, 1), s.kernel(), tree, 5, new EventQueue(),
                new SplittableRandom(1), new KernelObserver() { });
        int ga = tree.indexOf("/a"), gb = tree.indexOf("/b");
        k.setCfsBandwidth(ga, 100_000_000L, 1_000_000L, 0, 0);
        BitSet cpu0 = new BitSet();
        cpu0.set(0);
        for (int t = 0; t < 5; t++) {
            k.initTask(t, t < 3 ? ga : gb, s.tasks().get(t < 3 ? 0 : 1).policy(), 0, (BitSet) cpu0.clone(),
                    Workloads.create(s.tasks().get(t < 3 ? 0 : 1).workload()));
        }
        for (int t = 0; t < 5; t++) k.startTask(t); // /a's first: the list's tail, where detach_tasks() starts
        for (int t = 0; t < 5; t++) k.tAllowed[t].set(1);
        k.bwc.bw[ga].runtimeNs = 0;
        k.bwc.runtimeRemainingNs[k.cfsRq(ga, 0)] = 0;
        assertThat(k.thr.throttleCfsRq(k.cfsRq(ga, 0), 1)).isTrue();
        if (throttle.equals("task")) {
            for (int t = 0; t < 3; t++) k.thr.parkTask(t, 0); // each picked in the throttled hierarchy parks
        }
        assertThat(k.fair.cpuTaskCount[0]).as("tasks on CPU 0's list").isEqualTo(throttle.equals("task") ? 2 : 5);
        assertThat(k.balancer.load(0)).as("nr_running").isEqualTo(2);

        assertThat(k.balancer.newIdleBalance(1)).isEqualTo(pulled);
        assertThat(k.newidleLbGained()).isEqualTo(pulled ? 1 : 0);
        assertThat(k.fair.cpuTaskCount[1]).isEqualTo(pulled ? 1 : 0);
        if (pulled) assertThat(k.tGroup[k.fair.cpuTaskHead[1]]).as("a /b task").isEqualTo(gb);
    }

    private static Kernel kernel(String rule) {
        Scenario s = ScenarioParser.parse("""
                {"duration": "1s", "machine": {"cpus": 2}, "kernel": {"throttle": "task", "throttled_lb": "%s"},
                 "cgroups": [{"path": "/g", "cpu.max": "1000 100000"}],
                 "tasks": [{"name": "h", "cgroup": "/g", "count": 3, "workload": {"kind": "hog"}}]}
                """.formatted(rule));
        assertThat(s.kernel().throttledLb()).isEqualTo(ThrottledLb.valueOf(rule.toUpperCase()));
        GroupTree tree = new GroupTree(s.cgroups());
        int ntasks = s.tasks().stream().mapToInt(TaskSpec::total).sum();
        Kernel k = new Kernel(MachineProfile.generic(2, 1, 1), s.kernel(), tree, ntasks, new EventQueue(),
                new SplittableRandom(1), new KernelObserver() { });
        int g = tree.indexOf("/g");
        k.setCfsBandwidth(g, 100_000_000L, 1_000_000L, 0, 0);
        int t = 0;
        for (TaskSpec ts : s.tasks()) {
            for (int i = 0; i < ts.countPerCgroup(); i++, t++) {
                BitSet cpu0 = new BitSet();
                cpu0.set(0);
                k.initTask(t, g, ts.policy(), ts.rtPriority(), cpu0, Workloads.create(ts.workload()));
            }
        }
        return k;
    }
}
