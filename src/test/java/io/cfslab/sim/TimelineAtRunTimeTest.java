package io.cfslab.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.metrics.SimulationResult;
import io.cfslab.metrics.SimulationResult.ActionRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What only the run can decide about a timeline action, decided by the run and recorded in the result's
 * {@code actions} (contract v1.1, "Timeline"): rmdir of a parent whose child's rmdir waits for a kill, actions on
 * tasks that have exited (ESRCH, as the kernel gives for a pid that is gone), writes refused because of the state
 * at that moment (a burst above the quota, a cgroup v1 child above its parent), and actions on one instance
 * ({@code h/1}) of a task entry.
 */
class TimelineAtRunTimeTest {
    static String json(String s) { return s.replace('\'', '"'); }

    static ActionRecord action(SimulationResult r, String describe) {
        return r.actions().stream().filter(a -> a.action().equals(describe)).findFirst().orElseThrow(
                () -> new AssertionError("no action " + describe + " in " + r.actions()));
    }

    /**
     * Timeline entries at the same instant run in the document's order, as a script's lines do: each sees what the
     * one before it did, and each is recorded. Raising a cgroup v1 child's quota above its parent's before raising
     * the parent is EINVAL (the run goes on with the old quota); the other way round both succeed. Entries given
     * out of time order run in time order.
     */
    @Test
    void entriesAtTheSameInstantRunInTheDocumentsOrder() {
        String s = """
                {'duration': '1s', 'machine': {'cpus': 1},
                 'cgroups': [{'path': '/p', 'cpu.cfs_quota_us': 20000}, {'path': '/p/c', 'cpu.cfs_quota_us': 10000}],
                 'tasks': [{'name': 'h', 'cgroup': '/p/c', 'workload': {'kind': 'hog'}}],
                 'timeline': [%s]}""";
        String parent = "{'at': '0.5s', 'write': '/p/cpu.cfs_quota_us', 'value': '50000'}";
        String child = "{'at': '0.5s', 'write': '/p/c/cpu.cfs_quota_us', 'value': '40000'}";
        SimulationResult childFirst = Scenarios.run(json(s.formatted(child + ", " + parent)));
        assertThat(childFirst.actions()).extracting(ActionRecord::action)
                .containsExactly("write /p/c/cpu.cfs_quota_us 40000", "write /p/cpu.cfs_quota_us 50000");
        assertThat(childFirst.actions().get(0).errno()).isEqualTo("EINVAL");
        assertThat(childFirst.actions().get(1).ok()).isTrue();
        SimulationResult parentFirst = Scenarios.run(json(s.formatted(parent + ", " + child)));
        assertThat(parentFirst.actions()).allSatisfy(a -> assertThat(a.ok()).as(a.toString()).isTrue());
        // 10 % for the first half either way; then 40 % only where the child's write succeeded (a successful write
        // also refills the pool at once, tg_set_cfs_bandwidth(): up to one quota more in the period of the write)
        assertThat(childFirst.tasks().get("h").usageUsec()).isBetween(90_000L, 130_000L);
        assertThat(parentFirst.tasks().get("h").usageUsec()).isBetween(230_000L, 330_000L);

        SimulationResult reversed = Scenarios.run(json(s.formatted(
                "{'at': '0.7s', 'write': '/p/c/cpu.cfs_quota_us', 'value': '5000'}, " + parent.replace("0.5s", "0.3s"))));
        assertThat(reversed.actions()).extracting(ActionRecord::action)
                .containsExactly("write /p/cpu.cfs_quota_us 50000", "write /p/c/cpu.cfs_quota_us 5000");
    }

    @Test
    void rmdirOfAParentAfterTheKillOfItsChildsTasksIsDecidedByTheRun() {
        String scenario = json("""
                {'duration': '1s', 'machine': {'cpus': 2},
                 'cgroups': [{'path': '/p/c', 'cpu.max': '50000 100000'}],
                 'tasks': [{'name': 'h', 'cgroup': '/p/c', 'workload': {'kind': 'hog'}}],
                 'timeline': [%s{'at': '0.6s', 'rmdir': '/p/c'}, {'at': '0.7s', 'rmdir': '/p'}]}""");
        SimulationResult killed = Scenarios.run(scenario.formatted(json("{'at': '0.3s', 'kill': 'h'}, ")));
        assertThat(killed.actions()).allSatisfy(a -> assertThat(a.ok()).as(a.toString()).isTrue());
        assertThat(killed.cgroups()).doesNotContainKeys("/p", "/p/c");

        // without the kill the child keeps its task, so both rmdirs fail in the run, each with EBUSY
        SimulationResult alive = Scenarios.run(scenario.formatted(""));
        assertThat(action(alive, "rmdir /p/c").errno()).isEqualTo("EBUSY");
        assertThat(action(alive, "rmdir /p").errno()).isEqualTo("EBUSY");
        assertThat(action(alive, "rmdir /p").reason()).contains("child groups (/p/c)");
        assertThat(alive.cgroups()).containsKeys("/p", "/p/c");
    }

    /** Every action that names a task, on a task that has exited: ESRCH, and the run goes on. */
    @ParameterizedTest
    @ValueSource(strings = {"{'at': '0.5s', 'move': 'w', 'to': '/b'}", "{'at': '0.5s', 'taskset': 'w', 'cpus': '1'}",
            "{'at': '0.5s', 'chrt': 'w', 'policy': 'fifo', 'priority': 5}", "{'at': '0.5s', 'kill': 'w'}"})
    void actionsOnAnExitedTaskFailWithEsrch(String entry) {
        SimulationResult r = Scenarios.run(json("""
                {'duration': '1s', 'machine': {'cpus': 2}, 'cgroups': [{'path': '/a'}, {'path': '/b'}],
                 'tasks': [{'name': 'w', 'cgroup': '/a', 'workload': {'kind': 'fixed-work', 'work': '100ms'}},
                           {'name': 'h', 'cgroup': '/a', 'workload': {'kind': 'hog'}}],
                 'timeline': [%s, {'at': '0.6s', 'move': 'h', 'to': '/b'}]}""".formatted(json(entry))));
        assertThat(r.tasks().get("w").exitS()).isLessThan(0.5);
        ActionRecord a = r.actions().get(0);
        assertThat(a.ok()).isFalse();
        assertThat(a.errno()).isEqualTo("ESRCH");
        assertThat(a.reason()).isEqualTo("task w has exited");
        assertThat(r.actions().get(1).ok()).as("the run goes on").isTrue();
        assertThat(r.cgroups().get("/b").cpuStat().usageUsec()).isGreaterThan(300_000L);
    }

    @Test
    void instancesCanBeNamedAndAPartlyExitedEntryIsActedOnWhereItLives() {
        SimulationResult r = Scenarios.run(json("""
                {'duration': '1s', 'machine': {'cpus': 4}, 'cgroups': [{'path': '/a'}, {'path': '/b'}],
                 'tasks': [{'name': 'h', 'cgroup': '/a', 'count': 3, 'workload': {'kind': 'hog'}}],
                 'timeline': [{'at': '0.2s', 'kill': 'h/1'}, {'at': '0.5s', 'move': 'h', 'to': '/b'},
                              {'at': '0.6s', 'kill': 'h/1'}, {'at': '0.7s', 'taskset': 'h/2', 'cpus': '3'}]}"""));
        assertThat(r.tasks().get("h/1").exitS()).isBetween(0.2, 0.21);
        assertThat(r.tasks().get("h/0").exitS()).isNull();
        assertThat(r.tasks().get("h/2").exitS()).isNull();
        ActionRecord move = action(r, "move h /b");
        assertThat(move.errno()).isEqualTo("ESRCH");
        assertThat(move.reason()).isEqualTo("1 of 3 instances of h had exited (the others were acted on)");
        // h/0 and h/2 moved at 0.5 s: /b has their second half
        assertThat(r.cgroups().get("/b").cpuStat().usageUsec()).isBetween(990_000L, 1_010_000L);
        // the first kill ends a running task at once: that is no ESRCH; the second finds it gone
        assertThat(r.actions().get(0).ok()).as(r.actions().get(0).toString()).isTrue();
        assertThat(r.actions().get(2).action()).isEqualTo("kill h/1");
        assertThat(r.actions().get(2).errno()).isEqualTo("ESRCH");
        assertThat(r.actions().get(2).reason()).isEqualTo("task h/1 has exited");
        assertThat(action(r, "taskset h/2 3").ok()).isTrue();
    }

    @Test
    void writesRefusedByTheStateThenAreRecordedAndTheRunGoesOn() {
        SimulationResult v2 = Scenarios.run(json("""
                {'duration': '1s', 'cgroups': [{'path': '/a', 'cpu.max': '10000 100000'}],
                 'tasks': [{'name': 'h', 'cgroup': '/a', 'workload': {'kind': 'hog'}}],
                 'timeline': [{'at': '0.2s', 'write': '/a/cpu.max.burst', 'value': '20000'},
                              {'at': '0.3s', 'write': '/a/cpu.max.burst', 'value': '5000'},
                              {'at': '0.4s', 'write': '/a/cpu.max', 'value': '2000'}]}"""));
        assertThat(v2.actions()).extracting(ActionRecord::ok).containsExactly(false, true, false);
        assertThat(v2.actions().get(0).errno()).isEqualTo("EINVAL");
        assertThat(v2.actions().get(0).reason()).isEqualTo("burst 20000 us exceeds quota 10000 us");
        assertThat(v2.actions().get(2).reason()).isEqualTo("burst 5000 us exceeds quota 2000 us");
        assertThat(v2.cgroups().get("/a").cpuMax()).isEqualTo("10000 100000");
        assertThat(v2.cgroups().get("/a").cpuMaxBurst()).isEqualTo("5000");

        SimulationResult v1 = Scenarios.run(json("""
                {'duration': '1s', 'cgroups': [{'path': '/p', 'cpu.cfs_period_us': 100000, 'cpu.cfs_quota_us': 50000},
                                               {'path': '/p/c', 'cpu.cfs_quota_us': 30000}],
                 'timeline': [{'at': '0.5s', 'write': '/p/cpu.cfs_quota_us', 'value': '20000'}]}"""));
        assertThat(v1.actions().get(0).ok()).isFalse();
        assertThat(v1.actions().get(0).errno()).isEqualTo("EINVAL");
        assertThat(v1.actions().get(0).reason()).contains("child /p/c");
        assertThat(v1.cgroups().get("/p").cpuCfsQuotaUs()).isEqualTo("50000");
    }
}
