package io.cfslab.sim;

import io.cfslab.metrics.ResultJson;
import io.cfslab.scenario.KernelSpec;
import io.cfslab.scenario.ScenarioException;
import io.cfslab.scenario.ScenarioParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.node.ObjectNode;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every era switch changes something: for each {@link KernelSpec} switch a scenario in which each value of the
 * switch gives a different outcome (the result without {@code engine} and the switch list, or the problems when
 * the kernel refuses the scenario). A switch added to {@code KernelSpec} without a case here fails
 * {@link #everySwitchHasACase()}.
 */
class EraSwitchesTest {

    /** A small mixed load: a hog and periodic tasks with kernel stretches under a quota, 2 CPUs. */
    static final String MIXED = """
            {'duration': '1s', 'seed': 5, 'machine': {'cpus': 2}, 'kernel': {%s},
             'cgroups': [{'path': '/g', 'cpu.max': '30000 100000', 'cpu.max.burst': 10000}],
             'tasks': [{'name': 'h', 'cgroup': '/g', 'workload': {'kind': 'hog'}},
                       {'name': 'p', 'cgroup': '/g', 'count': 3,
                        'workload': {'kind': 'periodic', 'run': '2ms', 'kernel': '0.5ms', 'sleep': '3ms'}}]}""";
    /** Eight hogs whose 3 ms quota cannot pay all eight debts at a refill: the throttled list's order decides. */
    static final String LIST = """
            {'duration': '1s', 'seed': 1, 'machine': {'cpus': 8}, 'kernel': {'version': '5.4', %s},
             'cgroups': [{'path': '/g', 'cpu.max': '3000 100000'}],
             'generate': [{'under': '/g', 'levels': [1000]}],
             'tasks': [{'name': 'h', 'cgroup': '/g/1', 'count': 8, 'workload': {'kind': 'hog'}}]}""";
    /** fibtest on 16 CPUs (report-2019-fibtest.json, smaller). */
    static final String FIB = """
            {'duration': '1s', 'seed': 1, 'machine': {'cpus': 16}, 'kernel': {'version': '5.4', %s},
             'cgroups': [{'path': '/fib', 'cpu.max': '10000 100000'}],
             'tasks': [{'name': 'fast', 'cgroup': '/fib', 'cpus_allowed': '0', 'workload': {'kind': 'hog'}},
                       {'name': 'slow', 'cgroup': '/fib', 'count': 15, 'cpus_allowed': '1-15',
                        'workload': {'kind': 'periodic', 'run': '1us', 'sleep': '10ms'}}]}""";
    /** A hog turned RT after 0.5 s, in a cgroup v1 group with RT runtime (in the root for the global RT throttle). */
    static final String RT = """
            {'duration': '2s', 'machine': {'cpus': 1}, 'kernel': {%s},
             'cgroups': [{'path': '/a', 'cpu.shares': 1024}],
             'tasks': [{'name': 'h', 'cgroup': '/a', 'workload': {'kind': 'hog'}},
                       {'name': 'r', 'workload': {'kind': 'hog'}}],
             'timeline': [{'at': '0.5s', 'chrt': 'h', 'policy': 'fifo', 'priority': 10},
                          {'at': '0.5s', 'chrt': 'r', 'policy': 'fifo', 'priority': 5}]}""";
    /** Kernel-heavy tasks: the 2026 series throttles at the tick, 6.18 only when a task leaves the CPU. */
    static final String KERNEL_HEAVY = """
            {'duration': '2s', 'seed': 5, 'machine': {'cpus': 2}, 'kernel': {%s},
             'cgroups': [{'path': '/g', 'cpu.max': '20000 100000'}],
             'tasks': [{'name': 'k', 'cgroup': '/g', 'count': 4,
                        'workload': {'kind': 'periodic', 'run': '1ms', 'kernel': '7ms', 'sleep': '2ms'}}]}""";
    /** A hog and a sleeper on one CPU: whether the sleeper's wake-ups preempt the hog. */
    static final String SLEEPER = """
            {'duration': '1s', 'seed': 1, 'machine': {'cpus': 1}, 'kernel': {'hz': 1000, %s},
             'tasks': [{'name': 'h', 'workload': {'kind': 'hog'}},
                       {'name': 's', 'workload': {'kind': 'periodic', 'run': '1ms', 'sleep': '9500us'}}]}""";
    /** hackbench -p -f 4 on 2 CPUs: its wakees' previous CPUs are mostly busy, so where they go depends on the target. */
    static final String PIPES = """
            {'duration': '300ms', 'seed': 5, 'machine': {'cpus': 2}, 'kernel': {%s},
             'tasks': [{'name': 'hb', 'workload': {'kind': 'hackbench', 'mode': 'pipe', 'groups': 1, 'fds': 4,
                                                   'loops': 300, 'datasize': 100}}]}""";
    /** Three limited groups whose period timers may or may not share boundaries. */
    static final String TIMERS = """
            {'duration': '1s', 'seed': 5, 'machine': {'cpus': 2}, 'kernel': {%s},
             'cgroups': [{'path': '/a', 'cpu.max': '30000 100000'}, {'path': '/b', 'cpu.max': '30000 100000'},
                         {'path': '/c', 'cpu.max': '30000 100000'}],
             'tasks': [{'name': 'a', 'cgroup': '/a', 'workload': {'kind': 'hog'}},
                       {'name': 'b', 'cgroup': '/b', 'workload': {'kind': 'hog'}},
                       {'name': 'c', 'cgroup': '/c', 'workload': {'kind': 'hog'}}]}""";
    /** A group that is idle for several periods between throttled runs: its timer restarts each time. */
    static final String RESTARTS = """
            {'duration': '3s', 'seed': 5, 'machine': {'cpus': 2}, 'kernel': {%s},
             'cgroups': [{'path': '/a', 'cpu.max': '20000 100000'}],
             'tasks': [{'name': 'a', 'cgroup': '/a', 'workload': {'kind': 'periodic', 'run': '30ms', 'sleep': '633ms'}}]}""";
    /** cpu.max rewritten while a burst is set. */
    static final String REWRITE = """
            {'duration': '1s', 'kernel': {'version': '6.1', %s},
             'cgroups': [{'path': '/a', 'cpu.max': '20000 100000', 'cpu.max.burst': 20000}],
             'timeline': [{'at': '0.5s', 'write': '/a/cpu.max', 'value': '30000 100000'}]}""";

    /** E11's tree (2 x 5 x 4 leaves, a hog each) for 1 s: group entities park in turns at three levels. */
    static final String TREE = """
            {'duration': '1s', 'seed': 5, 'machine': {'cpus': 2}, 'kernel': {%s},
             'generate': [{'under': '/', 'levels': [2, 5, 4], 'cpu.max': {'1': '50000 100000'}}],
             'tasks': [{'name': 'leaf', 'cgroup': 'leaves:/', 'count': 1, 'workload': {'kind': 'hog'}}]}""";

    record Case(String key, String scenarioResource, String scenarioTemplate, String baseKernel, List<Object> values) { }

    static Case inline(String key, String template, Object... values) {
        return new Case(key, null, template, "", List.of(values));
    }

    static Case resource(String key, String resource, String version, Object... values) {
        return new Case(key, resource, null, version, List.of(values));
    }

    static List<Case> cases() {
        return List.of(
                inline("throttle", MIXED, "cfs_rq", "task"),
                inline("throttle", KERNEL_HEAVY, "task", "task-account"),
                inline("unthrottle", MIXED, "sync", "async"),
                inline("hz", MIXED, 1000, 250, 100),
                inline("bandwidth_slice_us", MIXED, 5000, 1000),
                inline("timer_placement", TIMERS, "random", "aligned", "spread"),
                // interleave differs from aligned only where a timer restarts after an idle period
                inline("timer_placement", RESTARTS, "aligned", "interleave"),
                // fibtest's spinner runs from its unthrottle to the next tick: where the tick lies decides how long
                inline("tick_aligned", FIB.replace("'version': '5.4'", "'version': '4.19'"), true, false),
                inline("preempt", MIXED.replace("%s", "'throttle': 'cfs_rq', %s"), "voluntary", "full"),
                inline("throttled_list_insert", LIST, "tail", "head", "tail-unless-distributing"),
                inline("slice_expiry", FIB, false, true),
                resource("stale_expiry", EraReportsTest.STALE, "4.14", true, false),
                resource("period_overrun", EraReportsTest.SCALING, "5.4", "unlimited", "scale-147-128", "scale-2",
                        "scale-2-refill-first"),
                inline("burst", MIXED, true, false),
                inline("burst_stats", MIXED, true, false),
                inline("burst_units_bug", REWRITE, true, false),
                inline("cpu_stat_local", MIXED, true, false),
                // the rules differ only at a throttle that finds the cfs_rq empty (its last task blocked as the runtime
                // ran out), which one second on 6.1's timer grid hits for some seeds only (seeds 1, 5 and 8 none since
                // seeds14's new-idle balance); three seconds hit it for each of those
                inline("throttled_clock_start", MIXED.replace("%s", "'version': '6.1', 'tick_aligned': true, %s")
                        .replace("'seed': 5", "'seed': 1").replace("'duration': '1s'", "'duration': '3s'"),
                        "throttle", "nonempty"),
                // a task picked in a throttled hierarchy in the kernel parks later than the throttle (exact time: with
                // this seed's inexact time the two rules happen to give the same counts)
                inline("throttled_clock_start", MIXED.replace("%s", "'preempt': 'full', %s")
                        .replace("'machine': {'cpus': 2}", "'machine': {'cpus': 2, 'exact_time': true}"), "first-park", "nonempty"),
                // none lets CPUs whose hierarchy is throttled pull tasks, which park there (239 migrations against 44);
                // pair and dst differ only while a throttled CPU has tasks queued behind a kernel stretch and another
                // CPU's cfs_rq still has runtime, which no small scenario here hits: ThrottledLbTest checks that rule
                inline("throttled_lb", KERNEL_HEAVY.replace("'cpus': 2", "'cpus': 4").replace("'count': 4", "'count': 12")
                        .replace("20000 100000", "200000 100000"), "dst", "none"),
                // a group entity past the average when its task sleeps stays queued (delayed) and leaves later without its
                // lag (a park never delays: DEQUEUE_THROTTLE, so E11's hogs differ only by their rare pulls)
                inline("delay_dequeue", TREE.replace("'kind': 'hog'", "'kind': 'periodic', 'run': '2ms', 'sleep': '3ms'"), true, false),
                // each value on a version that has its rule (6.18: EEVDF's; 6.1: CFS's granularity, which at HZ 250 the
                // sleeper's lag, within entity_lag()'s one-tick limit, exceeds; at HZ 1000 its 1.5 ms limit does not)
                inline("wakeup_preemption", SLEEPER, "eevdf", "none"),
                inline("wakeup_preemption", SLEEPER.replace("'hz': 1000", "'version': '6.1', 'hz': 250"), "cfs", "none"),
                // the waker's CPU as select_idle_sibling()'s target: a wakee whose previous CPU is busy stacks on it
                inline("wake_affine", PIPES, true, false),
                // wake_affine_weight() by loads: the waker's own load leaves its CPU's, a queued burst weighs as it rises
                inline("wake_affine_load", PIPES, "runnable", "pelt"),
                // the kernel's periodic balance: hogs of E11's kind of tree spread by sched_balance_rq() at MC's
                // 2/31 ms intervals with task_hot(), not by counts every 4 ms
                inline("periodic_balance", TREE, "counts", "kernel"),
                inline("rt_group_sched", RT.replace("'cpu.shares': 1024", "'cpu.shares': 1024, 'cpu.rt_runtime_us': 0"), true, false),
                inline("sched_rt_runtime_us", RT, 950000, 500000),
                inline("sched_rt_period_us", RT.replace("%s", "'sched_rt_runtime_us': 400000, %s"), 1000000, 500000));
    }

    static Stream<Arguments> arguments() {
        return cases().stream().map(c -> Arguments.of(c.key(), c));
    }

    /** The kernel object of a scenario with {@code key} set to {@code value}. */
    static String scenario(Case c, Object value) {
        String v = value instanceof String s ? "'" + s + "'" : value.toString();
        if (c.scenarioResource() != null) {
            return Scenarios.withKernel(c.scenarioResource(), "version", c.baseKernel(), c.key(), value);
        }
        String tpl = c.scenarioTemplate();
        // the RT case needs files that exist only with RT group scheduling: drop them when it is off
        if (c.key().equals("rt_group_sched") && Boolean.FALSE.equals(value)) tpl = tpl.replace(", 'cpu.rt_runtime_us': 0", "");
        return tpl.formatted("'" + c.key() + "': " + v).replace('\'', '"');
    }

    /** The run's result without engine and the switch list, or the problems that refused the scenario. */
    static String outcome(String json) {
        try {
            var r = Simulator.run(ScenarioParser.parse(json), RunControl.NONE);
            ObjectNode n = (ObjectNode) ResultJson.mapper().readTree(ResultJson.write(r));
            n.remove("engine");
            n.remove("kernel");
            return n.toString();
        } catch (ScenarioException e) {
            return "refused: " + e.problems();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("arguments")
    void eachValueOfTheSwitchGivesADifferentOutcome(String key, Case c) {
        Map<Object, String> outcomes = new LinkedHashMap<>();
        for (Object v : c.values()) outcomes.put(v, outcome(scenario(c, v)));
        List<Object> values = new ArrayList<>(c.values());
        for (int i = 0; i < values.size(); i++) {
            for (int j = i + 1; j < values.size(); j++) {
                assertThat(outcomes.get(values.get(i))).as("%s: %s vs %s", key, values.get(i), values.get(j))
                        .isNotEqualTo(outcomes.get(values.get(j)));
            }
        }
        assertThat(outcomes.values()).as("%s: at least one value runs", key).anyMatch(o -> !o.startsWith("refused"));
    }

    @Test
    void everySwitchHasACase() {
        Set<String> switches = new TreeSet<>();
        for (RecordComponent rc : KernelSpec.class.getRecordComponents()) switches.add(snake(rc.getName()));
        switches.remove("version");        // sets the others
        switches.remove("cgroup_version"); // follows from the files
        Set<String> covered = new TreeSet<>();
        for (Case c : cases()) covered.add(c.key());
        assertThat(covered).isEqualTo(switches);
    }

    static String snake(String camel) {
        return camel.replaceAll("([A-Z])", "_$1").toLowerCase(java.util.Locale.ROOT);
    }
}
