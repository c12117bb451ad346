package io.cfslab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code hackbench} and {@code netperf-udp-rr} workloads in a scenario: defaults, the canonical form, and bad
 * input refused by the parser with one problem at the right key — before any task, channel or pair is built (the
 * parser builds none; the simulation builds them only from a parsed scenario).
 */
class BenchmarkWorkloadInputTest {

    static String scenario(String workload, int count) {
        return ("{'duration': '1s', 'machine': {'cpus': 4}, 'tasks': [{'name': 'w', 'count': " + count
                + ", 'workload': " + workload + "}]}").replace('\'', '"');
    }

    static String hackbench(String fields) {
        return scenario("{'kind': 'hackbench'" + (fields.isEmpty() ? "" : ", " + fields) + "}", 1);
    }

    static String netperf(String fields) {
        return scenario("{'kind': 'netperf-udp-rr'" + (fields.isEmpty() ? "" : ", " + fields) + "}", 1);
    }

    static Stream<Arguments> bad() {
        String w = "/tasks/0/workload/";
        return Stream.of(
                Arguments.of(hackbench("'fds': 0"), w + "fds", "fds 0 is outside 1..1000"),
                Arguments.of(hackbench("'fds': 1001"), w + "fds", "fds 1001 is outside 1..1000"),
                Arguments.of(hackbench("'fds': '20'"), w + "fds", "must be an integer"),
                Arguments.of(hackbench("'groups': 0"), w + "groups", "groups 0 is outside 1..200000"),
                Arguments.of(hackbench("'groups': 1000000000000000000000000000000"), w + "groups", "groups 1000000000000000000000000000000 is outside 1..200000"),
                Arguments.of(hackbench("'groups': 100000, 'fds': 20"), w + "groups",
                        "one hackbench instance of 100000 groups × 20 fds × 2 = 4000000 tasks exceeds the limit of 200000"),
                Arguments.of(hackbench("'loops': 0"), w + "loops", "loops 0 is outside 1..4294967295"),
                Arguments.of(hackbench("'loops': -5"), w + "loops", "loops -5 is outside 1..4294967295"),
                Arguments.of(hackbench("'loops': 5000000000"), w + "loops", "loops 5000000000 is outside 1..4294967295"),
                Arguments.of(hackbench("'fds': 20, 'loops': 300000000"), w + "loops",
                        "fds × loops = 20 × 300000000 messages per receiver exceeds 4294967295"),
                Arguments.of(hackbench("'datasize': 0"), w + "datasize", "datasize 0 is outside 1..4096"),
                Arguments.of(hackbench("'datasize': 4097"), w + "datasize", "datasize 4097 is outside 1..4096"),
                Arguments.of(hackbench("'mode': 'fifo'"), w + "mode", "unknown value \"fifo\"; one of pipe, socket"),
                Arguments.of(hackbench("'threads': true"), w + "threads", "unknown key \"threads\""),
                Arguments.of(scenario("{'kind': 'hackbench'}", 1000), "/tasks",
                        "400000 task instances; exceeds the limit of 200000"),
                Arguments.of(netperf("'request_size': 0"), w + "request_size", "request_size 0 is outside 1..65507"),
                Arguments.of(netperf("'response_size': 70000"), w + "response_size", "response_size 70000 is outside 1..65507"),
                Arguments.of(netperf("'duration': '30s'"), w + "duration", "unknown key \"duration\""),
                Arguments.of(scenario("{'kind': 'netperf'}", 1), w + "kind",
                        "unknown workload kind \"netperf\"; one of hog, periodic, fixed-work, hackbench, netperf-udp-rr"),
                Arguments.of(scenario("{'kind': 'netperf-udp-rr'}", 100_001), "/tasks",
                        "200002 task instances; exceeds the limit of 200000"));
    }

    @ParameterizedTest(name = "{1}: {2}")
    @MethodSource("bad")
    void refused(String json, String pointer, String reason) {
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioParser.parse(json));
        assertThat(e.problems()).hasSize(1);
        Problem p = e.problems().get(0);
        assertThat(p.path()).isEqualTo(pointer);
        assertThat(p.reason()).contains(reason);
        // an integer out of its range is ERANGE, no integer at all EINVAL, in every document (Integers); a product of
        // integers over a limit (tasks in all, fds × loops) too, as the count alone over it is (breaker 3, item 10);
        // unknown keys and values have no errno of the kernel's
        assertThat(p.errno()).isEqualTo(reason.contains(" is outside ") || reason.contains(" exceeds ") ? "ERANGE"
                : reason.contains("must be an integer") ? "EINVAL" : null);
    }

    @Test
    void hackbenchDefaultsAreHackbenchsOwn() {
        TaskSpec t = ScenarioParser.parse(hackbench("")).tasks().get(0);
        assertThat(t.workload()).isEqualTo(new WorkloadSpec.Hackbench(WorkloadSpec.Hackbench.Mode.SOCKET, 10, 20, 100, 100));
        assertThat(t.total()).isEqualTo(400);
        assertThat(t.instances()).isEqualTo(1);
        assertThat(((WorkloadSpec.Hackbench) t.workload()).messages()).isEqualTo(10L * 20 * 20 * 100);
    }

    @Test
    void aHackbenchInstanceIsOneProcessTreeInEachCgroup() {
        Scenario s = ScenarioParser.parse("""
                {"duration": "1s", "machine": {"cpus": 8},
                 "generate": [{"levels": [2, 3]}],
                 "tasks": [{"name": "hb", "cgroup": "leaves:/", "count": 2,
                            "workload": {"kind": "hackbench", "mode": "pipe", "groups": 1, "fds": 5, "loops": 10}},
                           {"name": "rr", "cgroup": "/1/1_1", "workload": {"kind": "netperf-udp-rr", "request_size": 64}}]}
                """);
        TaskSpec hb = s.tasks().get(0), rr = s.tasks().get(1);
        assertThat(hb.instances()).isEqualTo(12);
        assertThat(hb.total()).isEqualTo(12 * 10);
        assertThat(hb.instanceName(0)).isEqualTo("hb/0");
        assertThat(hb.instanceName(119)).isEqualTo("hb/119");
        assertThat(rr.workload()).isEqualTo(new WorkloadSpec.NetperfUdpRr(64, 1));
        assertThat(rr.total()).isEqualTo(2);
        assertThat(List.of(rr.instanceName(0), rr.instanceName(1))).containsExactly("rr/0", "rr/1");
    }

    @Test
    void theCanonicalFormParsesBackToTheSameScenario() {
        for (String json : List.of(hackbench("'mode': 'pipe', 'groups': 2, 'fds': 3, 'loops': 77, 'datasize': 512"),
                netperf("'request_size': 100, 'response_size': 200"))) {
            Scenario s = ScenarioParser.parse(json);
            Scenario back = ScenarioParser.parse(ScenarioWriter.toJson(s));
            assertThat(back.tasks()).isEqualTo(s.tasks());
        }
    }
}
