package io.cfslab.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.scenario.ScenarioParser;
import org.junit.jupiter.api.Test;

/** Why a run page's panel stays empty, as the scenario tells it: each note names the limit and the value. */
class RunPanelNotesTest {

    private static RunPanelNotes notes(String record, String cgroups, int tasks, String timeline) {
        return RunPanelNotes.of(ScenarioParser.parse("""
                {"name": "n", "duration": "10s", "machine": {"cpus": 2}, "record": %s, "cgroups": %s,
                 "tasks": [{"name": "t", "cgroup": "/g", "count": %d, "workload": {"kind": "hog"}}], "timeline": %s}
                """.formatted(record, cgroups, tasks, timeline)));
    }

    @Test
    void tooManyTasksForTheSeriesNamesTheLimitAndTheCount() {
        RunPanelNotes n = notes("{\"max_series_tasks\": 1000}", "[{\"path\": \"/g\", \"cpu.max\": \"50000 100000\"}]", 20000, "[]");
        assertThat(n.notRecorded()).containsOnlyKeys("chart-tasks");
        assertThat(n.notRecorded().get("chart-tasks")).startsWith("Not recorded: 20,000 tasks > record.max_series_tasks (1,000)");
        assertThat(n.ifEmpty()).isEmpty();
    }

    @Test
    void withoutAQuotaNothingIsDistributedUnlessTheTimelineSetsOne() {
        RunPanelNotes none = notes("{}", "[{\"path\": \"/g\"}]", 2, "[]");
        assertThat(none.ifEmpty()).containsOnlyKeys("hist", "slowest");
        assertThat(none.ifEmpty().get("hist")).contains("no group has a quota");
        RunPanelNotes later = notes("{}", "[{\"path\": \"/g\"}]", 2,
                "[{\"at\": \"1s\", \"write\": \"/g/cpu.max\", \"value\": \"50000 100000\"}]");
        assertThat(later.ifEmpty()).isEmpty();
    }

    @Test
    void seriesThatAreNotKeptOrCannotDrawALineSaySo() {
        RunPanelNotes off = notes("{\"interval\": 0}", "[{\"path\": \"/g\", \"cpu.max\": \"50000 100000\"}]", 2, "[]");
        assertThat(off.notRecorded()).containsOnlyKeys("chart-nr-throttled", "chart-throttled-usec", "chart-usage", "chart-tasks");
        assertThat(off.notRecorded().values()).allMatch(t -> t.contains("record.interval is 0"));
        RunPanelNotes one = notes("{\"interval\": \"10s\", \"max_distribute_calls\": 0}",
                "[{\"path\": \"/g\", \"cpu.max\": \"50000 100000\"}]", 2, "[]");
        assertThat(one.notRecorded().get("chart-usage")).contains("leaves 1 sample in a 10s run");
        assertThat(one.notRecorded().get("slowest")).contains("record.max_distribute_calls is 0");
    }

    @Test
    void anUnparsableScenarioGivesNoNotes() {
        assertThat(RunPanelNotes.of(null).notRecorded()).isEmpty();
        assertThat(PageController.pace(10.0)).isEqualTo("10× real time");
        assertThat(PageController.pace(0.1)).isEqualTo("0.1× real time");
    }
}
