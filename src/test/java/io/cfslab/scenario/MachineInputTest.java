package io.cfslab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** {@code machine}: named profiles fix the topology; bad profiles and topology beside a named one are problems. */
class MachineInputTest {

    static String scenario(String machine) {
        return ("{'duration': '1s', 'machine': " + machine + "}").replace('\'', '"');
    }

    static Stream<Arguments> bad() {
        return Stream.of(
                Arguments.of("{'profile': 'amd-genoa'}", "/machine/profile",
                        "unknown profile \"amd-genoa\"; implemented: generic, intel-emr-2s, amd-genoa-2s, power10-1c-smt8"),
                Arguments.of("{'profile': 'amd-genoa-2s', 'cpus': 384}", "/machine/cpus",
                        "cpus cannot be set with the named profile \"amd-genoa-2s\", which has 384 CPUs (2 sockets, SMT2)"),
                Arguments.of("{'profile': 'power10-4c-smt8', 'smt': 4}", "/machine/smt",
                        "smt cannot be set with the named profile \"power10-4c-smt8\", which has 32 CPUs (1 socket, SMT8)"),
                Arguments.of("{'profile': 'intel-emr-2s', 'sockets': 1}", "/machine/sockets",
                        "sockets cannot be set with the named profile \"intel-emr-2s\""),
                Arguments.of("{'profile': 'intel-emr-2s', 'cores': 60}", "/machine/cores", "unknown key \"cores\""));
    }

    @ParameterizedTest(name = "{1}: {2}")
    @MethodSource("bad")
    void refused(String machine, String pointer, String reason) {
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioParser.parse(scenario(machine)));
        assertThat(e.problems()).hasSize(1);
        assertThat(e.problems().get(0).path()).isEqualTo(pointer);
        assertThat(e.problems().get(0).reason()).contains(reason);
    }

    @Test
    void aNamedProfileFixesTheTopologyAndCpuListsAreCheckedAgainstIt() {
        Scenario s = ScenarioParser.parse(scenario("{'profile': 'power10-2c-smt8'}"));
        assertThat(s.machine()).isEqualTo(new MachineSpec("power10-2c-smt8", 16, 8, 1));
        String tooFar = ("{'duration': '1s', 'machine': {'profile': 'power10-1c-smt8'}, 'tasks': [{'name': 't', "
                + "'workload': {'kind': 'hog'}, 'cpus_allowed': '8'}]}").replace('\'', '"');
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioParser.parse(tooFar));
        assertThat(e.problems().get(0).path()).isEqualTo("/tasks/0/cpus_allowed");
    }

    @Test
    void theCanonicalFormOfANamedMachineParsesBack() {
        Scenario s = ScenarioParser.parse(scenario("{'profile': 'amd-genoa-2s'}"));
        String json = ScenarioWriter.toJson(s);
        assertThat(json).doesNotContain("\"cpus\"");
        assertThat(ScenarioParser.parse(json).machine()).isEqualTo(s.machine());
    }
}
