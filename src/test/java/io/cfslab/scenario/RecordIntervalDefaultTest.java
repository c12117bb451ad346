package io.cfslab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A scenario without {@code record.interval} gets one chosen from its duration, so that a short run's charts have
 * points to draw (a 2 s run had 3 with the old fixed 1 s): duration/200 rounded up to 1, 2 or 5 × 10^k, within
 * 100 ms (or the longest cpu.max period) .. 1 s, so that a sample spans whole quota periods, widened (up to 1 s) so
 * that a large scenario gets fewer samples. An interval given is kept.
 */
class RecordIntervalDefaultTest {
    private static long interval(String scenario) {
        return ScenarioParser.parse(scenario).record().intervalNs();
    }

    @ParameterizedTest(name = "{0} -> {1} ns")
    @CsvSource({"100ms, 100000000", "2s, 100000000", "5s, 100000000", "10s, 100000000", "30s, 200000000",
            "60s, 500000000", "70s, 500000000", "200s, 1000000000", "600s, 1000000000"})
    void theDefaultFollowsTheDuration(String duration, long expectedNs) {
        assertThat(interval("{\"duration\": \"" + duration + "\"}")).isEqualTo(expectedNs);
        assertThat(RecordSection.defaultIntervalNs(Durations.parseNs(duration))).isEqualTo(expectedNs);
        long samples = Durations.parseNs(duration) / expectedNs;
        if (expectedNs > 100_000_000 && expectedNs < 1_000_000_000) assertThat(samples).isBetween(80L, 200L);
    }

    @Test
    void aRecordSectionWithoutAnIntervalGetsTheDefaultAndAGivenOneIsKept() {
        assertThat(interval("{\"duration\": \"2s\", \"record\": {\"max_distribute_calls\": 5}}")).isEqualTo(100_000_000L);
        assertThat(interval("{\"duration\": \"2s\", \"record\": {\"interval\": \"1s\"}}")).isEqualTo(1_000_000_000L);
        assertThat(interval("{\"duration\": \"2s\", \"record\": {\"interval\": 0}}")).isZero();
    }

    @Test
    void aLargeScenarioGetsFewerSamplesNotALargerResult() {
        // 250 hogs in one group: 251 entries a sample; 5,000 entries at most -> 19 samples -> 263 ms -> 500 ms
        String tasks = "{\"duration\": \"5s\", \"cgroups\": [{\"path\": \"/a\"}],"
                + " \"tasks\": [{\"name\": \"h\", \"cgroup\": \"/a\", \"count\": 250}]}";
        assertThat(interval(tasks)).isEqualTo(500_000_000L);
        assertThat((5_000_000_000L / interval(tasks)) * 252).isLessThanOrEqualTo(RecordSection.DEFAULT_MAX_ENTRIES);
        // 5,010 groups, all recorded (max_series_cgroups above them): never coarser than contract v1's 1 s
        String big = "{\"duration\": \"10s\", \"generate\": [{\"under\": \"/\", \"levels\": [10, 500]}],"
                + " \"record\": {\"max_series_cgroups\": 10000}}";
        assertThat(interval(big)).isEqualTo(1_000_000_000L);
    }

    @Test
    void aSampleSpansTheLongestQuotaPeriod() {
        // a 250 ms period: samples of 500 ms (the period rounded up to 1, 2 or 5 x 10^k), not 100 ms
        assertThat(interval("{\"duration\": \"10s\", \"cgroups\": [{\"path\": \"/a\", \"cpu.max\": \"50000 250000\"},"
                + " {\"path\": \"/b\", \"cpu.max\": \"5000 10000\"}]}")).isEqualTo(500_000_000L);
        // an unlimited group's period does not count
        assertThat(interval("{\"duration\": \"10s\", \"cgroups\": [{\"path\": \"/a\", \"cpu.max\": \"max 1000000\"}]}"))
                .isEqualTo(100_000_000L);
    }

    @Test
    void theCanonicalFormWritesTheChosenIntervalSoItParsesBackTheSame() {
        Scenario s = ScenarioParser.parse("{\"duration\": \"2s\"}");
        assertThat(ScenarioParser.parse(ScenarioWriter.toJson(s))).isEqualTo(s);
    }
}
