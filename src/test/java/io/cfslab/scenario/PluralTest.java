package io.cfslab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.web.RunSettings;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** A count and its noun agree wherever the server states one (a newcomer read "1 groups"). */
class PluralTest {
    @Test
    void oneIsSingularEveryOtherCountPlural() {
        assertThat(Plural.of(1, "group")).isEqualTo("1 group");
        assertThat(Plural.of(0, "group")).isEqualTo("0 groups");
        assertThat(Plural.of(2, "arm", "arms")).isEqualTo("2 arms");
    }

    @Test
    void aOneCpuMachineIsOneCpu() {
        JsonMapper json = JsonMapper.builder().build();
        assertThat(RunSettings.machine(json.readTree("{\"profile\": \"generic\", \"cpus\": 1}"))).isEqualTo("generic, 1 CPU");
        assertThat(RunSettings.machine(json.readTree("{\"profile\": \"generic\", \"cpus\": 2}"))).isEqualTo("generic, 2 CPUs");
    }
}
