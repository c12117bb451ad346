package io.cfslab.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Bad scenarios: each gives exactly one problem, at the expected JSON pointer, with the kernel's errno. */
class BadScenarioTest {

    /** A valid scenario with {@code %s} spliced in at the top level (single quotes become double). */
    static String with(String extra) {
        String base = "{'duration': '5s', 'cgroups': [{'path': '/a', 'cpu.max': '10000 100000'}, {'path': '/b'}],"
                + " 'tasks': [{'name': 't', 'cgroup': '/a'}]" + (extra.isEmpty() ? "" : ", " + extra) + "}";
        return base.replace('\'', '"');
    }

    /** A valid scenario whose cgroup /x has the given extra fields. */
    static String cgroup(String fields) {
        return ("{'duration': '5s', 'cgroups': [{'path': '/x', " + fields + "}]}").replace('\'', '"');
    }

    static String timeline(String entry) {
        return with("'timeline': [" + entry + "]");
    }

    static String duration(String d) {
        return ("{'duration': " + d + "}").replace('\'', '"');
    }

    static Arguments bad(String json, String pointer, String reason, String errno) {
        return Arguments.of(json, pointer, reason, errno);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                // cpu.max syntax and tg_set_bandwidth() checks
                bad(cgroup("'cpu.max': '0 100000'"), "/cgroups/0/cpu.max", "quota 0 us is below the 1000 us minimum", "EINVAL"),
                bad(cgroup("'cpu.max': '1000 100'"), "/cgroups/0/cpu.max", "period 100 us is below the 1000 us minimum", "EINVAL"),
                bad(cgroup("'cpu.max': 'max 2000000'"), "/cgroups/0/cpu.max", "period 2000000 us exceeds the 1000000 us maximum", "EINVAL"),
                bad(cgroup("'cpu.max': 'abc'"), "/cgroups/0/cpu.max", "quota \"abc\" is neither a number of us nor \"max\"", "EINVAL"),
                bad(cgroup("'cpu.max': ''"), "/cgroups/0/cpu.max", "empty cpu.max value", "EINVAL"),
                bad(cgroup("'cpu.max': '999 100000'"), "/cgroups/0/cpu.max", "quota 999 us is below the 1000 us minimum", "EINVAL"),
                bad(cgroup("'cpu.max': '17592186044416 1000000'"), "/cgroups/0/cpu.max", "exceeds the 17592186044415 us maximum", "EINVAL"),
                bad(cgroup("'cpu.max': 'maxx 100000'"), "/cgroups/0/cpu.max", "quota \"maxx\" is neither a number", "EINVAL"),
                // cpu.max is a string only (the schema's contract); a value of another type is EINVAL, as the kernel's
                bad(cgroup("'cpu.max': 10000"), "/cgroups/0/cpu.max", "must be a string", "EINVAL"),
                bad(cgroup("'cpu.max': 1.5"), "/cgroups/0/cpu.max", "must be a string", "EINVAL"),
                bad(cgroup("'cpu.weight': 1.5"), "/cgroups/0/cpu.weight", "must be a string or an integer", "EINVAL"),
                bad(cgroup("'cpu.max': '10000 100000', 'cpu.max.burst': 20000"), "/cgroups/0/cpu.max.burst",
                        "burst 20000 us exceeds quota 10000 us", "EINVAL"),
                bad(cgroup("'cpu.max.burst': '-1'"), "/cgroups/0/cpu.max.burst", "is not an unsigned number", "EINVAL"),
                bad(cgroup("'cpu.weight': 0"), "/cgroups/0/cpu.weight", "weight 0 is outside 1..10000", "ERANGE"),
                bad(cgroup("'cpu.weight': '10001'"), "/cgroups/0/cpu.weight", "weight 10001 is outside 1..10000", "ERANGE"),
                bad(cgroup("'cpu.weight': 'heavy'"), "/cgroups/0/cpu.weight", "is not an unsigned number", "EINVAL"),
                // cgroup paths
                bad(cgroup("'cpu.weight': 1}, {'path': '/x'"), "/cgroups/1/path", "cgroup /x is listed twice", "EEXIST"),
                bad(cgroup("'cpu.weight': 1}, {'path': '/a/../b'"), "/cgroups/1/path", "bad name \"..\"", "EINVAL"),
                bad(cgroup("'cpu.weight': 1}, {'path': 'rel'"), "/cgroups/1/path", "is not absolute", null),
                bad(cgroup("'cpu.weight': 1}, {'path': '/'"), "/cgroups/1/path", "root cgroup", "EEXIST"),
                // unknown keys everywhere
                bad(with("'durationn': '5s'"), "/durationn", "unknown key \"durationn\"", null),
                bad(with("'kernel': {'hz': 250, 'throtle': 'task'}"), "/kernel/throtle", "unknown key \"throtle\"", null),
                bad(cgroup("'cpu.maxx': '10000 100000'"), "/cgroups/0/cpu.maxx", "unknown key \"cpu.maxx\"", null),
                bad(with("'machine': {'cpus': 2, 'numa': 1}"), "/machine/numa", "unknown key \"numa\"", null),
                bad(with("'record': {'every': '1s'}"), "/record/every", "unknown key \"every\"", null),
                bad(with("'tasks': [{'name': 't', 'cgroup': '/a', 'nice': 5}]").replace("\"tasks\": [{\"name\": \"t\", \"cgroup\": \"/a\"}], ", ""),
                        "/tasks/0/nice", "unknown key \"nice\"", null),
                bad(with("'tasks': [{'name': 't', 'workload': {'kind': 'hog', 'run': '5ms'}}]")
                                .replace("\"tasks\": [{\"name\": \"t\", \"cgroup\": \"/a\"}], ", ""),
                        "/tasks/0/workload/run", "unknown key \"run\"", null),
                bad(timeline("{'at': '1s', 'move': 't', 'to': '/b', 'from': '/a'}"), "/timeline/0/from", "unknown key \"from\"", null),
                bad(with("'generate': [{'levels': [2], 'cpu.max': {'2': '10000 100000'}}]"), "/generate/0/cpu.max/2",
                        "depth \"2\" is not a level 1..1", null),
                // wrong types and enums
                bad(with("'seed': 'one'"), "/seed", "must be an integer", "EINVAL"),
                bad(with("'kernel': {'throttle': 'group'}"), "/kernel/throttle", "unknown value \"group\"", null),
                bad(with("'kernel': {'hz': 500}"), "/kernel/hz", "hz must be 100, 250, 300 or 1000", null),
                // one refusal for every integer that is not a CONFIG_HZ choice (breaker 6 F12: 0 and 100001 said
                // "outside 1..100000", which suggested 5000 was allowed)
                // the code point is named in parentheses (breaker 7 N13: "a plain space U+00A0" read as if it were one)
                bad("{'duration': '5s', 'tasks': [{'name': 'a\u00a0b'}]}".replace('\'', '"'), "/tasks/0/name",
                        "contains white space other than a plain space (U+00A0 NO-BREAK SPACE): two names", "EINVAL"),
                bad(with("'kernel': {'hz': 0}"), "/kernel/hz", "hz must be 100, 250, 300 or 1000 (CONFIG_HZ), not 0", null),
                bad(with("'kernel': {'hz': 100001}"), "/kernel/hz", "hz must be 100, 250, 300 or 1000 (CONFIG_HZ), not 100001", null),
                bad(with("'kernel': {'hz': -250}"), "/kernel/hz", "hz must be 100, 250, 300 or 1000 (CONFIG_HZ), not -250", null),
                bad(with("'kernel': {'bandwidth_slice_us': 0}"), "/kernel/bandwidth_slice_us", "outside 1..", "EINVAL"),
                bad(with("'machine': {'profile': 'amd-milan-2s'}"), "/machine/profile", "unknown profile", null),
                bad(with("'machine': {'cpus': 6, 'smt': 4}"), "/machine/cpus", "not a multiple of smt 4", null),
                // tasks and groups that do not exist
                bad(with("'tasks': [{'name': 't', 'cgroup': '/nope'}]").replace("\"tasks\": [{\"name\": \"t\", \"cgroup\": \"/a\"}], ", ""),
                        "/tasks/0/cgroup", "cgroup /nope does not exist", "ENOENT"),
                bad(with("'tasks': [{'name': 't', 'cgroup': 'leaves:/nope'}]").replace("\"tasks\": [{\"name\": \"t\", \"cgroup\": \"/a\"}], ", ""),
                        "/tasks/0/cgroup", "cgroup /nope does not exist", "ENOENT"),
                bad(with("'tasks': [{'name': 't'}, {'name': 't'}]").replace("\"tasks\": [{\"name\": \"t\", \"cgroup\": \"/a\"}], ", ""),
                        "/tasks/1/name", "task name \"t\" is used twice", null),
                bad(timeline("{'at': '1s', 'move': 't', 'to': '/nope'}"), "/timeline/0/to", "cgroup /nope does not exist", "ENOENT"),
                bad(timeline("{'at': '1s', 'move': 'ghost', 'to': '/b'}"), "/timeline/0/move", "no task named \"ghost\"", "ENOENT"),
                bad(timeline("{'at': '1s', 'write': '/nope/cpu.max', 'value': '10000 100000'}"), "/timeline/0/write",
                        "cgroup /nope does not exist", "ENOENT"),
                bad(timeline("{'at': '1s', 'write': '/a/cpu.quota', 'value': '10000'}"), "/timeline/0/write",
                        "no file cpu.quota in a cgroup", "ENOENT"),
                bad(timeline("{'at': '1s', 'write': '/cpu.max', 'value': '10000 100000'}"), "/timeline/0/write",
                        "the root cgroup has no cpu.max", "ENOENT"),
                bad(timeline("{'at': '1s', 'write': '/a/cpu.max', 'value': '0 100000'}"), "/timeline/0/value",
                        "quota 0 us is below the 1000 us minimum", "EINVAL"),
                bad(timeline("{'at': '6s', 'move': 't', 'to': '/b'}"), "/timeline/0/at", "at 6s is beyond duration 5s", null),
                bad(timeline("{'at': '1s'}"), "/timeline/0", "no action", null),
                bad(timeline("{'at': '1s', 'move': 't', 'to': '/b', 'chrt': 't'}"), "/timeline/0", "more than one action", null),
                // durations
                bad(duration("'-5s'"), "/duration", "negative duration", "ERANGE"),
                bad(duration("'5'"), "/duration", "has no unit", null),
                bad(duration("'5 parsecs'"), "/duration", "is not a duration", null),
                bad(duration("'NaN'"), "/duration", "is not a duration", null),
                bad(duration("'99999999999999999999s'"), "/duration", "is too large", "ERANGE"),
                bad(duration("2.5"), "/duration", "must be an integer", null),
                bad(duration("'0.5ns'"), "/duration", "not a whole number of nanoseconds", null),
                bad(duration("'2h'"), "/duration", "unknown unit \"h\"", null),
                bad(duration("'3601s'"), "/duration", "exceeds the limit of 3600s", "ERANGE"),
                bad("{'name': 'x'}".replace('\'', '"'), "/duration", "duration is required", null),
                // limits
                bad(with("'generate': [{'levels': [1000, 1000, 1000]}]"), "/generate/0/levels", "exceeds the limit of 20000", null),
                bad(with("'machine': {'cpus': 100000}"), "/machine/cpus", "exceeds the limit of 1024", "ERANGE"),
                bad(with("'tasks': [{'name': 't', 'count': 10000000}]").replace("\"tasks\": [{\"name\": \"t\", \"cgroup\": \"/a\"}], ", ""),
                        "/tasks/0/count", "count 10000000 exceeds the limit of 200000", "ERANGE"),
                bad(with("'generate': [{'levels': [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]}]"), "/generate/0/levels",
                        "exceeds the depth limit of 16", null),
                // CPU lists and policies
                bad(with("'tasks': [{'name': 't', 'cpus_allowed': '3-1'}]").replace("\"tasks\": [{\"name\": \"t\", \"cgroup\": \"/a\"}], ", ""),
                        "/tasks/0/cpus_allowed", "range 3-1 is reversed", "EINVAL"),
                bad(with("'tasks': [{'name': 't', 'cpus_allowed': '0-2'}]").replace("\"tasks\": [{\"name\": \"t\", \"cgroup\": \"/a\"}], ", ""),
                        "/tasks/0/cpus_allowed", "CPU 2 does not exist (machine has 2 CPUs)", "EINVAL"),
                bad(with("'tasks': [{'name': 't', 'cpus_allowed': ''}]").replace("\"tasks\": [{\"name\": \"t\", \"cgroup\": \"/a\"}], ", ""),
                        "/tasks/0/cpus_allowed", "empty CPU list", "EINVAL"),
                bad(timeline("{'at': '1s', 'taskset': 't', 'cpus': '5'}"), "/timeline/0/cpus", "CPU 5 does not exist", "EINVAL"),
                bad(with("'tasks': [{'name': 't', 'policy': 'rr'}]").replace("\"tasks\": [{\"name\": \"t\", \"cgroup\": \"/a\"}], ", ""),
                        "/tasks/0/priority", "policy rr needs a priority 1..99", "EINVAL"),
                bad(with("'tasks': [{'name': 't', 'policy': 'normal', 'priority': 5}]").replace("\"tasks\": [{\"name\": \"t\", \"cgroup\": \"/a\"}], ", ""),
                        "/tasks/0/priority", "policy normal takes priority 0", "EINVAL"),
                bad(timeline("{'at': '1s', 'chrt': 't', 'policy': 'fifo', 'priority': 100}"), "/timeline/0/priority",
                        "priority 100 is outside 1..99", "EINVAL"),
                bad(with("'tasks': [{'name': 't', 'workload': {'kind': 'spin'}}]").replace("\"tasks\": [{\"name\": \"t\", \"cgroup\": \"/a\"}], ", ""),
                        "/tasks/0/workload/kind", "unknown workload kind \"spin\"", null),
                bad(with("'tasks': [{'name': 't', 'workload': {'kind': 'periodic', 'run': '5ms'}}]").replace("\"tasks\": [{\"name\": \"t\", \"cgroup\": \"/a\"}], ", ""),
                        "/tasks/0/workload/sleep", "sleep is required", null),
                // malformed text
                bad("{\"duration\": \"5s\",, }", "", "malformed JSON at line 1", null),
                bad("{\"duration\": \"5s\", \"duration\": \"6s\"}", "", "key \"duration\" given twice in one object", null),
                bad("duration: [5s\n", "", "malformed YAML", null),
                bad("   ", "", "empty scenario", null),
                bad("[1, 2]", "", "must be a JSON object, not an array", "EINVAL"));
    }

    @ParameterizedTest(name = "{1}: {2}")
    @MethodSource("cases")
    void badScenario(String json, String pointer, String reason, String errno) {
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioParser.parse(json));
        assertEquals(1, e.problems().size(), () -> "expected one problem, got " + e.problems());
        Problem p = e.problems().get(0);
        assertEquals(pointer, p.path(), p::line);
        assertTrue(p.reason().contains(reason), () -> "reason \"" + p.reason() + "\" lacks \"" + reason + "\"");
        assertEquals(errno, p.errno(), p::line);
    }

    @Test
    void theBaseScenariosAreValid() {
        assertEquals(2, ScenarioParser.parse(with("")).cgroups().size());
        assertEquals(1, ScenarioParser.parse(cgroup("'cpu.weight': 1")).cgroups().size());
        assertEquals(1, ScenarioParser.parse(timeline("{'at': '1s', 'move': 't', 'to': '/b'}")).timeline().size());
        assertEquals(5_000_000_000L, ScenarioParser.parse(duration("'5s'")).durationNs());
    }
}
