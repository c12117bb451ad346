package io.cfslab.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** The parts cut out of a stored result are exactly its members, in its order. */
class ResultPartsTest {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void partsAreTheResultsOwnMembers() {
        String result = """
                {"scenario": {"name": "x", "nested": {"histograms": {"fake": 1}}},
                 "histograms": {"distribute_ns": {"count": 2, "sum": 3.5, "buckets": [[1, 2, 2]]},
                                "unthrottle_ns": {"count": 0, "sum": 0, "buckets": []}},
                 "tasks": [{"name": "a"}], "cgroups": {"/a": {"cpu.stat": {"nr_throttled": 7}}}, "after": [1, 2]}
                """;
        ResultParts p = ResultParts.of(result);
        assertThat(p.histograms()).containsOnlyKeys("distribute_ns", "unthrottle_ns");
        assertThat(p.histograms().keySet()).containsExactly("distribute_ns", "unthrottle_ns");
        JsonNode whole = JSON.readTree(result);
        assertThat(JSON.readTree(p.histograms().get("distribute_ns"))).isEqualTo(whole.at("/histograms/distribute_ns"));
        assertThat(JSON.readTree(p.cgroups())).isEqualTo(whole.get("cgroups"));
    }

    @Test
    void aResultWithoutThemHasNone() {
        ResultParts p = ResultParts.of("{\"engine\": {\"events\": 1}}");
        assertThat(p.histograms()).isEmpty();
        assertThat(p.cgroups()).isEqualTo("{}");
        assertThatThrownBy(() -> ResultParts.of("[1]")).isInstanceOf(IllegalArgumentException.class);
    }
}
