package io.cfslab.scenario;

import java.util.List;
import tools.jackson.databind.JsonNode;

/** The scenario's {@code record} section ({@link RecordSpec}) and the size budget of the series it asks for. */
public final class RecordSection {
    private RecordSection() {}

    /** The {@code series} samples a run gets at most when {@code record.interval} is left out (about this many). */
    static final long DEFAULT_SAMPLES = 200;
    /**
     * The series entries (samples × groups and tasks recorded) a left-out interval aims at most: a large scenario
     * gets fewer samples rather than a result many times larger (a 5 s run of 52 groups and 40 tasks: 50 samples,
     * not 200; each group's sample is about 250 bytes of JSON), never coarser than the 1 s contract v1 had.
     */
    static final long DEFAULT_MAX_ENTRIES = 5_000;
    /**
     * Bounds of the default interval: at least 100 ms, the default {@code cpu.max} period (and at least the longest
     * period of a limited group), so that a sample spans whole quota periods and a throttled task's CPU % is its rate,
     * as {@code pidstat} shows it, not the run/stall sawtooth of one period (newcomer walk: a 3 s run sampled every
     * 20 ms showed a hog at 0 % and 60 % in turn); at most 1 s (the contract v1 default).
     */
    static final long MIN_DEFAULT_INTERVAL_NS = 100_000_000L;
    static final long MAX_DEFAULT_INTERVAL_NS = 1_000_000_000L;
    /** The default interval's rule in words (the editor's placeholder, {@code GET /api/scenario-defaults}, docs/scenarios.md). */
    public static final String DEFAULT_INTERVAL_RULE = "duration/200 rounded up to 1, 2 or 5 × 10^k, at least 100ms and the longest cpu.max period, at most 1s, fewer samples for large trees";
    /** {@link RecordSpec#intervalNs()} of a parsed {@code record} without {@code interval}, until {@link #withDefaultInterval}. */
    private static final long UNSET = Long.MIN_VALUE;

    /** @param durationNs the run's duration, or -1 if invalid (then the sample count is not checked) */
    static RecordSpec parse(CheckedObject top, ParseContext c, long durationNs) {
        RecordSpec d = RecordSpec.DEFAULT;
        JsonNode n = top.get("record");
        if (n == null) return new RecordSpec(UNSET, d.maxDistributeCalls(), d.maxSeriesTasks(), d.maxSeriesCgroups());
        CheckedObject o = c.obj(n, "/record");
        if (o == null) return RecordSpec.DEFAULT;
        long interval = UNSET;
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

    /**
     * The record with its interval filled in when the scenario left it out: the smallest 1, 2 or 5 × 10^k ns step
     * that gives at most {@link #DEFAULT_SAMPLES} samples over the duration (a 60 s run is sampled every 500 ms),
     * within 100 ms (or the longest period of a limited group, rounded up the same way) .. 1 s (a 2 s run: 100 ms, 20
     * samples), widened (up to 1 s) until the series holds at most
     * {@link #DEFAULT_MAX_ENTRIES} entries for the groups and tasks it records. An interval given is kept.
     */
    static RecordSpec withDefaultInterval(RecordSpec r, long durationNs, List<CgroupSpec> groups, List<TaskSpec> tasks) {
        if (r.intervalNs() != UNSET) return r;
        long interval = MAX_DEFAULT_INTERVAL_NS;
        if (durationNs > 0) {
            long perSample = perSample(r, groups, tasks) + 1;
            long samples = Math.max(1, Math.min(DEFAULT_SAMPLES, DEFAULT_MAX_ENTRIES / perSample));
            long floor = MIN_DEFAULT_INTERVAL_NS;
            for (CgroupSpec g : groups) {
                if (g.cpuMax() != null && g.cpuMax().limited()) floor = Math.max(floor, niceStepAtLeast(g.cpuMax().periodUs() * 1_000L));
            }
            interval = Math.min(MAX_DEFAULT_INTERVAL_NS, Math.max(floor, niceStepAtLeast(ceilDiv(durationNs, samples))));
        }
        return new RecordSpec(interval, r.maxDistributeCalls(), r.maxSeriesTasks(), r.maxSeriesCgroups());
    }

    /** The interval a scenario of this duration gets when it gives none (groups and tasks aside): docs/scenarios.md. */
    public static long defaultIntervalNs(long durationNs) {
        return withDefaultInterval(new RecordSpec(UNSET, 0, 0, 0), durationNs, List.of(), List.of()).intervalNs();
    }

    private static long ceilDiv(long a, long b) { return (a + b - 1) / b; }

    /** The smallest 1, 2 or 5 × 10^k at or above {@code ns} (at least 1). */
    static long niceStepAtLeast(long ns) {
        for (long decade = 1; decade > 0 && decade <= Long.MAX_VALUE / 10; decade *= 10) {
            for (long m : new long[] {1, 2, 5}) {
                if (m * decade >= ns) return m * decade;
            }
        }
        return ns;
    }

    /** Groups and tasks one series sample records (see Simulation: all groups up to max_series_cgroups, else the limited ones). */
    private static long perSample(RecordSpec record, List<CgroupSpec> groups, List<TaskSpec> tasks) {
        long perGroup = groups.size() <= record.maxSeriesCgroups() ? groups.size()
                : groups.stream().filter(g -> g.cpuMax().limited()).count();
        long taskCount = 0;
        for (TaskSpec t : tasks) taskCount += t.total();
        long perTask = taskCount <= record.maxSeriesTasks() ? taskCount : 0;
        return perGroup + perTask;
    }

    /** The series' size: samples × (cgroups + tasks recorded per sample) must fit MAX_SERIES_ENTRIES. */
    static void checkSeriesBudget(ParseContext c, RecordSpec record, long durationNs, List<CgroupSpec> groups,
                                  List<TaskSpec> tasks) {
        if (record.intervalNs() <= 0 || durationNs <= 0) return;
        long samples = durationNs / record.intervalNs();
        long per = perSample(record, groups, tasks);
        long entries = samples * (per + 1);
        if (entries > ScenarioParser.MAX_SERIES_ENTRIES) {
            c.add("/record/interval", "series would hold " + entries + " entries (" + samples + " samples of "
                    + per + " cgroups and tasks); exceeds the limit of " + ScenarioParser.MAX_SERIES_ENTRIES
                    + ": raise record.interval or lower record.max_series_cgroups / max_series_tasks", null);
        }
    }
}
