package io.cfslab.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.store.RunRecord;
import io.cfslab.store.RunStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The compare page's "settings that differ" pairs cgroups by path and tasks by name, not by array position: two
 * scenarios with the same groups in another order differ in nothing, a group or task only one side has is one row
 * (added or removed), and a changed value names its group (a newcomer's finding: every group showed as different).
 */
class RunSettingsDiffTest {
    private static RunRecord run(String scenarioJson) {
        return new RunRecord("r", null, "s", scenarioJson, 1L, 1, RunStatus.DONE, 100, 0, 0, 0, 0, null, false, 1, null,
                null, null, null, null, null, null, null, "{\"seed\": 1}", 0, null, null, null);
    }

    private static List<RunSettings.Diff> diff(String a, String b) {
        return RunSettings.diff(run(a), run(b)).stream().filter(RunSettings.Diff::differs).toList();
    }

    private static final String WEB = "{\"path\": \"/app/web\", \"cpu.max\": \"50000 100000\"}";
    private static final String DB = "{\"path\": \"/app/db\", \"cpu.max\": \"20000 100000\"}";
    private static final String FE = "{\"name\": \"fe\", \"cgroup\": \"/app/web\", \"count\": 2}";
    private static final String BE = "{\"name\": \"be\", \"cgroup\": \"/app/db\", \"count\": 1}";

    private static String scenario(String cgroups, String tasks) {
        return "{\"duration\": \"1s\", \"cgroups\": [" + cgroups + "], \"tasks\": [" + tasks + "]}";
    }

    @Test
    void theSameGroupsAndTasksInAnotherOrderDifferInNothing() {
        assertThat(diff(scenario(WEB + "," + DB, FE + "," + BE), scenario(DB + "," + WEB, BE + "," + FE))).isEmpty();
    }

    @Test
    void aChangedValueNamesItsGroupAndTask() {
        List<RunSettings.Diff> d = diff(scenario(WEB + "," + DB, FE + "," + BE),
                scenario(DB + "," + WEB.replace("50000", "40000"), BE + "," + FE.replace("2}", "3}")));
        assertThat(d).extracting(RunSettings.Diff::key).containsExactly("/cgroups[/app/web]/cpu.max", "/tasks[fe]/count");
        assertThat(d.get(0).a()).isEqualTo("50000 100000");
        assertThat(d.get(0).b()).isEqualTo("40000 100000");
    }

    @Test
    void aGroupOrTaskOnlyOneSideHasIsOneRowAddedOrRemoved() {
        List<RunSettings.Diff> d = diff(scenario(WEB + "," + DB, FE + "," + BE), scenario(WEB, FE));
        assertThat(d).extracting(RunSettings.Diff::key).containsExactly("/cgroups[/app/db]", "/tasks[be]");
        assertThat(d.get(0).a()).contains("/app/db", "20000 100000");
        assertThat(d.get(0).b()).isEqualTo("(absent)");
        List<RunSettings.Diff> added = diff(scenario(WEB, FE), scenario(DB + "," + WEB, FE));
        assertThat(added).extracting(RunSettings.Diff::key).containsExactly("/cgroups[/app/db]");
        assertThat(added.get(0).a()).isEqualTo("(absent)");
    }

    @Test
    void theTimelineIsStillPairedByPositionItsOrderIsItsMeaning() {
        String a = "{\"duration\": \"1s\", \"timeline\": [{\"at\": \"1s\", \"kill\": \"x\"}, {\"at\": \"2s\", \"kill\": \"y\"}]}";
        String b = "{\"duration\": \"1s\", \"timeline\": [{\"at\": \"2s\", \"kill\": \"y\"}, {\"at\": \"1s\", \"kill\": \"x\"}]}";
        assertThat(diff(a, b)).extracting(RunSettings.Diff::key).contains("/timeline/0/at", "/timeline/1/at");
    }
}
