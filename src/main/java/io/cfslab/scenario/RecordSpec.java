package io.cfslab.scenario;

/**
 * {@code record}: what the result keeps.
 *
 * @param intervalNs            sampling period of {@code series}, ns (0 = no series); left out: chosen from the
 *                              duration, about 200 samples ({@code RecordSection.withDefaultInterval})
 * @param maxDistributeCalls    cap on {@code distribute_calls} kept (default 10000; the histogram is never capped)
 * @param maxSeriesTasks        series include per-task CPU % only while the run has at most this many tasks (default 1024)
 * @param maxSeriesCgroups      series include every cgroup up to this many, else only cgroups with a quota (default 256)
 */
public record RecordSpec(long intervalNs, int maxDistributeCalls, int maxSeriesTasks, int maxSeriesCgroups) {
    /** Contract v1's record defaults; the parser replaces the interval by one chosen from the duration when none is given. */
    public static final RecordSpec DEFAULT = new RecordSpec(1_000_000_000L, 10_000, 1024, 256);
}
