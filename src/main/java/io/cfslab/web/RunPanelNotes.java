package io.cfslab.web;

import io.cfslab.scenario.CgroupSpec;
import io.cfslab.scenario.RecordSpec;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.TaskSpec;
import io.cfslab.scenario.TimelineAction;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Why a panel of the run page stays empty, as far as the scenario tells before any result: what its {@code record}
 * section keeps out of the result ("not recorded: 20,000 tasks &gt; record.max_series_tasks (1,024)"), and what cannot
 * happen (no quota, so no distribute_cfs_runtime() call). The page shows a {@link #notRecorded} note at once and an
 * {@link #ifEmpty} note when a finished run left the panel empty; the run's status (cancelled, failed) is explained by
 * the page itself. Keys are the ids of the panels' hosts in {@code run.html}.
 */
public final class RunPanelNotes {
    /** The series charts of run.html. */
    static final String[] GROUP_CHARTS = {"chart-nr-throttled", "chart-throttled-usec", "chart-usage"};
    static final String TASK_CHART = "chart-tasks";

    private final Map<String, String> notRecorded = new LinkedHashMap<>();
    private final Map<String, String> ifEmpty = new LinkedHashMap<>();

    /** Panel id → why it is never filled for this scenario. */
    public Map<String, String> notRecorded() { return notRecorded; }

    /** Panel id → why it is empty if a finished run left it so. */
    public Map<String, String> ifEmpty() { return ifEmpty; }

    /** @param s the run's scenario (parsed snapshot), or null when it cannot be parsed: no notes */
    public static RunPanelNotes of(Scenario s) {
        RunPanelNotes n = new RunPanelNotes();
        if (s == null) return n;
        RecordSpec rec = s.record();
        long tasks = s.tasks().stream().mapToLong(TaskSpec::total).sum();
        int groups = s.cgroups().size();
        boolean anyQuota = s.cgroups().stream().anyMatch(c -> c.cpuMax().limited())
                || s.timeline().stream().anyMatch(a -> a instanceof TimelineAction.Write w
                        && (w.file().equals("cpu.max") || w.file().equals("cpu.cfs_quota_us")));
        if (rec.intervalNs() <= 0) {
            String why = "Not recorded: record.interval is 0, so the result keeps no series.";
            for (String id : GROUP_CHARTS) n.notRecorded.put(id, why);
            n.notRecorded.put(TASK_CHART, why);
        } else {
            if (tasks > rec.maxSeriesTasks()) {
                n.notRecorded.put(TASK_CHART, "Not recorded: " + fmt(tasks) + (tasks == 1 ? " task" : " tasks") + " > record.max_series_tasks ("
                        + fmt(rec.maxSeriesTasks()) + "); the series keep per-task CPU % only up to that many tasks.");
            } else if (tasks == 0) {
                n.ifEmpty.put(TASK_CHART, "No tasks: the scenario starts none.");
            }
            long limited = s.cgroups().stream().map(CgroupSpec::cpuMax).filter(m -> m.limited()).count();
            if (groups > rec.maxSeriesCgroups() && limited == 0) {
                for (String id : GROUP_CHARTS) {
                    n.notRecorded.put(id, "Not recorded: " + fmt(groups) + (groups == 1 ? " group" : " groups") + " > record.max_series_cgroups ("
                            + fmt(rec.maxSeriesCgroups()) + "), so the series keep only groups with a quota, and none"
                            + " has one.");
                }
            }
            long samples = s.durationNs() / rec.intervalNs();
            if (samples < 2) {
                // a line needs two points: one sample (or none) draws nothing
                String why = "Not drawn: record.interval (" + io.cfslab.scenario.Durations.format(rec.intervalNs())
                        + ") leaves " + samples + " sample" + (samples == 1 ? "" : "s") + " in a "
                        + io.cfslab.scenario.Durations.format(s.durationNs()) + " run; a line needs two. Set a shorter"
                        + " record.interval to see the series.";
                for (String id : GROUP_CHARTS) n.notRecorded.putIfAbsent(id, why);
                n.notRecorded.putIfAbsent(TASK_CHART, why);
            }
            if (groups == 0) {
                for (String id : GROUP_CHARTS) n.ifEmpty.put(id, "No groups: the scenario creates no cgroup.");
            }
        }
        if (!anyQuota) {
            String why = "No distribute_cfs_runtime() calls: no group has a quota (cpu.max is \"max\" everywhere, and"
                    + " the timeline sets none), so no period timer ever refills a throttled runqueue.";
            n.ifEmpty.put("hist", why);
            n.ifEmpty.put("slowest", why);
        }
        if (rec.maxDistributeCalls() == 0) {
            n.notRecorded.put("slowest", "Not recorded: record.max_distribute_calls is 0 (the histogram above still"
                    + " counts every call).");
        }
        return n;
    }

    private static String fmt(long v) { return String.format(Locale.ROOT, "%,d", v); }
}
