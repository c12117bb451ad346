package io.cfslab.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * A non-zero number too small for a double ({@code 1e-400}) is refused with ERANGE and its pointer, as {@code 1e400}
 * is, instead of being read as 0 (a breaker's finding), in JSON and in YAML; zeros written any way stay zeros.
 */
class UnderflowTest {
    private static final String SCENARIO = """
            {"name": "u", "seed": 3, "duration": "1s", "machine": {"profile": "generic", "cpus": 2},
             "cgroups": [{"path": "/a", "cpu.max": "50000 100000"}],
             "tasks": [{"name": "p", "cgroup": "/a", "count": 1,
                        "workload": {"kind": "periodic", "run": "1ms", "period": "10ms", "jitter": %s}}]}
            """;

    @Test
    void aNumberThatWouldReadAsZeroIsRefusedWithItsPointer() {
        for (String tiny : new String[] {"1e-400", "-2.5E-330", "1e-99999999999"}) {
            assertThatThrownBy(() -> ScenarioParser.readTree(SCENARIO.formatted(tiny)))
                    .as(tiny).isInstanceOfSatisfying(ScenarioException.class, e -> assertThat(e.problems()).singleElement()
                            .satisfies(p -> {
                                assertThat(p.path()).isEqualTo("/tasks/0/workload/jitter");
                                assertThat(p.reason()).contains("out of range").contains("read as 0");
                                assertThat(p.errno()).isEqualTo("ERANGE");
                            }));
        }
    }

    @Test
    void yamlToo() {
        assertThatThrownBy(() -> ScenarioParser.readTree("name: u\nduration: 1s\nx:\n  - 1\n  - 1.0e-400\n"))
                .isInstanceOfSatisfying(ScenarioException.class, e -> assertThat(e.problems()).singleElement()
                        .satisfies(p -> {
                            assertThat(p.path()).isEqualTo("/x/1");
                            assertThat(p.errno()).isEqualTo("ERANGE");
                        }));
    }

    @Test
    void zerosAndSmallNumbersThatFitStay() {
        assertThat(ScenarioParser.readTree("{\"a\": 0.0, \"b\": -0.0, \"c\": 0e-400, \"d\": 0.000e5, \"e\": 4.9e-324}")
                .path("e").doubleValue()).isEqualTo(4.9e-324);
        assertThat(JsonNodeWords.underflows("1e-400")).isTrue();
        assertThat(JsonNodeWords.underflows("-1E-400")).isTrue();
        assertThat(JsonNodeWords.underflows("0e-400")).isFalse();
        assertThat(JsonNodeWords.underflows("0.0")).isFalse();
        assertThat(JsonNodeWords.underflows("1e-300")).isFalse();
    }
}
