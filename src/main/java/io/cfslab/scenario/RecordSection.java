package io.cfslab.scenario;

import java.util.List;
import tools.jackson.databind.JsonNode;

/** The scenario's {@code record} section ({@link RecordSpec}) and the size budget of the series it asks for. */
final class RecordSection {
    private RecordSection() {}

    /** @param durationNs the run's duration, or -1 if invalid (then the sample count is not checked) */
    static RecordSpec parse(CheckedObject top, ParseContext c, long durationNs) {
        JsonNode n = top.get("record");
        if (n == null) return RecordSpec.DEFAULT;
        CheckedObject o = c.obj(n, "/record");
        if (o == null) return RecordSpec.DEFAULT;
        RecordSpec d = RecordSpec.DEFAULT;
        long interval = d.intervalNs();
        JsonNode in = o.get("interval");
        if (in != null) {
            long v = c.duration(in, o.at("interval"));
            if (v >= 0) {
                if (v > 0 && durationNs > 0 && durationNs / v > ScenarioParser.MAX_SERIES_SAMPLES) {
                    c.add(o.at("interval"), "interval " + Durations.format(v) + " makes " + (durationNs / v)
                            + " samples; exceeds the limit of " + ScenarioParser.MAX_SERIES_SAMPLES, null);
                } else {
                    interval = v;
                }
            }
        }
        int calls = (int) c.integer(o, "max_distribute_calls", d.maxDistributeCalls(), 0, ScenarioParser.MAX_DISTRIBUTE_CALLS);
        int tasks = (int) c.integer(o, "max_series_tasks", d.maxSeriesTasks(), 0, Limits.MAX_TASKS);
        int groups = (int) c.integer(o, "max_series_cgroups", d.maxSeriesCgroups(), 0, Limits.MAX_CGROUPS);
        o.finish(c);
        return new RecordSpec(interval, calls, tasks, groups);
    }

    /** The series' size: samples × (cgroups + tasks recorded per sample) must fit MAX_SERIES_ENTRIES. */
    static void checkSeriesBudget(ParseContext c, RecordSpec record, long durationNs, List<CgroupSpec> groups,
                                  List<TaskSpec> tasks) {
        if (record.intervalNs() <= 0 || durationNs <= 0) return;
        long samples = durationNs / record.intervalNs();
        long perGroup = groups.size() <= record.maxSeriesCgroups() ? groups.size()
                : groups.stream().filter(g -> g.cpuMax().limited()).count();
        long taskCount = 0;
        for (TaskSpec t : tasks) taskCount += t.total();
        long perTask = taskCount <= record.maxSeriesTasks() ? taskCount : 0;
        long entries = samples * (perGroup + perTask + 1);
        if (entries > ScenarioParser.MAX_SERIES_ENTRIES) {
            c.add("/record/interval", "series would hold " + entries + " entries (" + samples + " samples of "
                    + (perGroup + perTask) + " cgroups and tasks); exceeds the limit of " + ScenarioParser.MAX_SERIES_ENTRIES
                    + ": raise record.interval or lower record.max_series_cgroups / max_series_tasks", null);
        }
    }
}
