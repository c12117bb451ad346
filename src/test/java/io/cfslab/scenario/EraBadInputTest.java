package io.cfslab.scenario;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Bad input of the kernel-version features: each scenario gives exactly one problem, at the JSON pointer of the
 * value, with the errno the kernel would return (ENOENT for a file this cgroup version or kernel does not have).
 */
class EraBadInputTest {

    static String json(String s) { return s.replace('\'', '"'); }

    static Arguments bad(String scenario, String pointer, String reason, String errno) {
        return Arguments.of(json(scenario), pointer, reason, errno);
    }

    static Stream<Arguments> cases() {
        String v1Parent = "{'path': '/p', 'cpu.cfs_period_us': 100000, 'cpu.cfs_quota_us': 50000}";
        return Stream.of(
                bad("{'duration': '1s', 'kernel': {'version': '5.20'}}", "/kernel/version",
                        "unknown kernel version \"5.20\"", null),
                bad("{'duration': '1s', 'kernel': {'version': 'centos7'}}", "/kernel/version",
                        "unknown kernel version \"centos7\"", null),
                // an unquoted version is a number: 6.10 would be 6.1
                bad("{'duration': '1s', 'kernel': {'version': 6.10}}", "/kernel/version",
                        "kernel version must be a string, not the number 6.1: an unquoted version is read as a decimal "
                                + "number (6.10 becomes 6.1); write it in quotes, such as \"6.10\"", null),
                bad("{'duration': '1s', 'kernel': {'version': '6.10.3'}}", "/kernel/version",
                        "kernel version \"6.10.3\" is a stable update", null),
                // burst_stats and the burst-units bug need the burst files
                bad("{'duration': '1s', 'kernel': {'burst': false, 'burst_stats': true}}", "/kernel/burst_stats",
                        "burst_stats true contradicts burst false", null),
                bad("{'duration': '1s', 'kernel': {'version': '5.10', 'burst_units_bug': true}}", "/kernel/burst_units_bug",
                        "burst_units_bug true contradicts burst false", null),
                // wake-up preemption by the version's own rule: EEVDF's from 6.6, CFS's before
                bad("{'duration': '1s', 'kernel': {'version': '6.1', 'wakeup_preemption': 'eevdf'}}",
                        "/kernel/wakeup_preemption", "wakeup_preemption eevdf is not kernel 6.1's rule", null),
                bad("{'duration': '1s', 'kernel': {'wakeup_preemption': 'cfs'}}",
                        "/kernel/wakeup_preemption", "wakeup_preemption cfs is not kernel 6.18's rule", null),
                // first-park needs tasks that park
                bad("{'duration': '1s', 'kernel': {'throttle': 'cfs_rq', 'throttled_clock_start': 'first-park'}}",
                        "/kernel/throttled_clock_start", "first-park needs a task-based throttle model", null),
                // C1 control characters are refused like C0 (U+009B is a terminal's CSI)
                bad("{'duration': '1s', 'tasks': [{'name': 'a\u009b2J'}]}", "/tasks/0/name",
                        "name contains a control character (U+009B)", "EINVAL"),
                bad("{'duration': '1s', 'name': 'x\u0085y'}", "/name", "name contains a control character (U+0085)", "EINVAL"),
                // one scenario uses v1 or v2 files: the first file decides
                bad("{'duration': '1s', 'cgroups': [{'path': '/a', 'cpu.cfs_quota_us': 10000}, {'path': '/b', 'cpu.max': '10000 100000'}]}",
                        "/cgroups/1/cpu.max", "cpu.max is a cgroup v2 file; this scenario's files are cgroup v1", "ENOENT"),
                bad("{'duration': '1s', 'cgroups': [{'path': '/a', 'cpu.max': '10000 100000', 'cpu.shares': 512}]}",
                        "/cgroups/0/cpu.shares", "cpu.shares is a cgroup v1 file; this scenario's files are cgroup v2", "ENOENT"),
                bad("{'duration': '1s', 'cgroups': [{'path': '/a', 'cpu.max': '10000 100000'}],"
                        + " 'timeline': [{'at': '0.5s', 'write': '/a/cpu.cfs_quota_us', 'value': '5000'}]}",
                        "/timeline/0/write", "cpu.cfs_quota_us is a cgroup v1 file", "ENOENT"),
                bad("{'duration': '1s', 'generate': [{'levels': [2], 'cpu.cfs_quota_us': {'1': 10000}, 'cpu.weight': {'1': 50}}]}",
                        "/generate/0/cpu.weight", "cpu.weight is a cgroup v2 file", "ENOENT"),
                // on v1 every group directory holds a file `tasks` (and notify_on_release): mkdir of that name is EEXIST,
                // as the API's mkdir answers
                bad("{'duration': '1s', 'cgroups': [" + v1Parent + ", {'path': '/p/tasks', 'cpu.cfs_quota_us': 10000}]}",
                        "/cgroups/1/path", "cgroup name \"tasks\" in /p/tasks is the name of a cgroup v1 file", "EEXIST"),
                bad("{'duration': '1s', 'cgroups': [{'path': '/notify_on_release/a', 'cpu.shares': 512}]}",
                        "/cgroups/0/path", "is the name of a cgroup v1 file", "EEXIST"),
                // cgroup v1's hierarchy: a child at or below its parent
                bad("{'duration': '1s', 'cgroups': [" + v1Parent + ", {'path': '/p/c', 'cpu.cfs_quota_us': 60000}]}",
                        "/cgroups/1/cpu.cfs_quota_us", "exceeds the parent's", "EINVAL"),
                // (a timeline write that the state refuses, /p below its child, is the run's: TimelineAtRunTimeTest)
                // the writes are separate: a quota before its period is checked against the old period
                bad("{'duration': '1s', 'cgroups': [" + v1Parent + ", {'path': '/p/c', 'cpu.cfs_quota_us': 100000, 'cpu.cfs_period_us': 200000}]}",
                        "/cgroups/1/cpu.cfs_quota_us", "exceeds the parent's", "EINVAL"),
                bad("{'duration': '1s', 'cgroups': [{'path': '/a', 'cpu.cfs_quota_us': 500}]}",
                        "/cgroups/0/cpu.cfs_quota_us", "quota 500 us is below the 1000 us minimum", "EINVAL"),
                bad("{'duration': '1s', 'cgroups': [{'path': '/a', 'cpu.cfs_period_us': 'x'}]}",
                        "/cgroups/0/cpu.cfs_period_us", "is not an unsigned number", "EINVAL"),
                bad("{'duration': '1s', 'cgroups': [{'path': '/a', 'cpu.cfs_quota_us': '99999999999999999999'}]}",
                        "/cgroups/0/cpu.cfs_quota_us", "out of range of s64", "ERANGE"),
                bad("{'duration': '1s', 'cgroups': [{'path': '/a'}], 'timeline': [{'at': '0s', 'write': '/cpu.cfs_quota_us', 'value': '1000'}]}",
                        "/timeline/0/value", "root cgroup's cpu.cfs_quota_us cannot be written", "EINVAL"),
                // burst is 5.14+
                bad("{'duration': '1s', 'kernel': {'version': '5.10'}, 'cgroups': [{'path': '/a', 'cpu.max': '10000 100000', 'cpu.max.burst': 1000}]}",
                        "/cgroups/0/cpu.max.burst", "no file cpu.max.burst on kernel 5.10: CFS burst is 5.14+", "ENOENT"),
                bad("{'duration': '1s', 'kernel': {'version': 'rhel8'}, 'cgroups': [{'path': '/a', 'cpu.cfs_quota_us': 10000, 'cpu.cfs_burst_us': 1000}]}",
                        "/cgroups/0/cpu.cfs_burst_us", "no file cpu.cfs_burst_us on kernel rhel8", "ENOENT"),
                bad("{'duration': '1s', 'kernel': {'version': '5.13'}, 'cgroups': [{'path': '/a', 'cpu.max': '10000 100000'}],"
                        + " 'timeline': [{'at': '0s', 'write': '/a/cpu.max.burst', 'value': '1000'}]}",
                        "/timeline/0/write", "CFS burst is 5.14+", "ENOENT"),
                // RT group scheduling
                bad("{'duration': '1s', 'cgroups': [{'path': '/a', 'cpu.rt_runtime_us': 10000}]}",
                        "/cgroups/0/cpu.rt_runtime_us", "without RT group scheduling", "ENOENT"),
                bad("{'duration': '1s', 'kernel': {'rt_group_sched': true}, 'cgroups': [{'path': '/a', 'cpu.shares': 1024}],"
                        + " 'tasks': [{'name': 'r', 'cgroup': '/a', 'policy': 'fifo', 'priority': 10}]}",
                        "/tasks/0/policy", "has no RT runtime (cpu.rt_runtime_us is 0)", "EPERM"),
                bad("{'duration': '1s', 'kernel': {'rt_group_sched': true}, 'cgroups': [{'path': '/a'}],"
                        + " 'tasks': [{'name': 'r', 'cgroup': '/a', 'policy': 'rr', 'priority': 10}]}",
                        "/tasks/0/policy", "cgroup v2 has no cpu.rt_runtime_us", "EPERM"),
                bad("{'duration': '1s', 'kernel': {'rt_group_sched': true}, 'cgroups': [{'path': '/a', 'cpu.rt_runtime_us': 1000001}]}",
                        "/cgroups/0/cpu.rt_runtime_us", "exceeds rt_period", "EINVAL"),
                bad("{'duration': '1s', 'kernel': {'rt_group_sched': true}, 'cgroups': [{'path': '/a', 'cpu.rt_runtime_us': 600000},"
                        + " {'path': '/b', 'cpu.rt_runtime_us': 600000}]}",
                        "/cgroups/1/cpu.rt_runtime_us", "the root's children would exceed the global sched_rt_runtime_us", "EINVAL"),
                // timeline kill and rmdir
                bad("{'duration': '1s', 'tasks': [{'name': 't'}], 'timeline': [{'at': '0.5s', 'kill': 'u'}]}",
                        "/timeline/0/kill", "no task named \"u\"", "ENOENT"),
                bad("{'duration': '1s', 'tasks': [{'name': 't', 'count': 2}], 'timeline': [{'at': '0.5s', 'kill': 't/2'}]}",
                        "/timeline/0/kill", "no task instance t/2 (entry \"t\" has 2: /0 to /1)", "ESRCH"),
                bad("{'duration': '1s', 'tasks': [{'name': 't'}], 'timeline': [{'at': '0.5s', 'taskset': 't/0', 'cpus': '0'}]}",
                        "/timeline/0/taskset", "task entry \"t\" has one instance, named \"t\" without an index", "ESRCH"),
                bad("{'duration': '1s', 'cgroups': [{'path': '/a/b'}], 'timeline': [{'at': '0.5s', 'rmdir': '/a'}]}",
                        "/timeline/0/rmdir", "cgroup /a has child groups (/a/b)", "EBUSY"),
                bad("{'duration': '1s', 'timeline': [{'at': '0.5s', 'rmdir': '/nope'}]}",
                        "/timeline/0/rmdir", "cgroup /nope does not exist", "ENOENT"),
                bad("{'duration': '1s', 'timeline': [{'at': '0.5s', 'rmdir': '/'}]}",
                        "/timeline/0/rmdir", "the root cgroup cannot be removed", "EBUSY"),
                bad("{'duration': '1s', 'cgroups': [{'path': '/a'}], 'timeline': [{'at': '0.5s', 'rmdir': '/a'},"
                        + " {'at': '0.6s', 'write': '/a/cpu.max', 'value': 'max'}]}",
                        "/timeline/1/write", "cgroup /a does not exist", "ENOENT"),
                bad("{'duration': '1s', 'cgroups': [{'path': '/a'}, {'path': '/b'}], 'tasks': [{'name': 't', 'cgroup': '/a'}],"
                        + " 'timeline': [{'at': '0.5s', 'rmdir': '/b'}, {'at': '0.6s', 'move': 't', 'to': '/b'}]}",
                        "/timeline/1/to", "cgroup /b does not exist", "ENOENT"));
    }

    @ParameterizedTest(name = "[{index}] {1}: {2}")
    @MethodSource("cases")
    void eachGivesOneClearProblem(String scenario, String pointer, String reason, String errno) {
        assertThatThrownBy(() -> ScenarioParser.parse(scenario)).isInstanceOfSatisfying(ScenarioException.class, e -> {
            assertThat(e.problems()).as(e.problems().toString()).hasSize(1);
            Problem p = e.problems().get(0);
            assertThat(p.path()).isEqualTo(pointer);
            assertThat(p.reason()).contains(reason);
            assertThat(p.errno()).isEqualTo(errno);
        });
    }
}
