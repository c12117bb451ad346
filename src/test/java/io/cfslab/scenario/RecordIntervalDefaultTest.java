package io.cfslab.scenario;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A scenario without {@code record.interval} gets one chosen from its duration, so that a short run's charts have
 * points to draw (a 2 s run had 3 with the old fixed 1 s): duration/200 rounded up to 1, 2 or 5 × 10^k, within
 * 1 ms .. 1 s, widened until the series fits its budget. An interval given is kept.
 */
class RecordIntervalDefaultTest {
    private static long interval(String scenario) {
        return ScenarioParser.parse(scenario).record().intervalNs();
    }

    @ParameterizedTest(name = "{0} -> {1} ns")
    @CsvSource({"100ms, 1000000", "2s, 10000000", "5s, 50000000", "10s, 50000000", "60s, 500000000", "70s, 500000000",
            "200s, 1000000000", "600s, 1000000000"})
    void theDefaultFollowsTheDuration(String duration, long expectedNs) {
        assertThat(interval("{\"duration\": \"" + duration + "\"}")).isEqualTo(expectedNs);
        assertThat(RecordSection.defaultIntervalNs(Durations.parseNs(duration))).isEqualTo(expectedNs);
        long samples = Durations.parseNs(duration) / expectedNs;
        if (expectedNs > 1_000_000 && expectedNs < 1_000_000_000) assertThat(samples).isBetween(80L, 200L);
    }

    @Test
    void aRecordSectionWithoutAnIntervalGetsTheDefaultAndAGivenOneIsKept() {
        assertThat(interval("{\"duration\": \"2s\", \"record\": {\"max_distribute_calls\": 5}}")).isEqualTo(10_000_000L);
        assertThat(interval("{\"duration\": \"2s\", \"record\": {\"interval\": \"1s\"}}")).isEqualTo(1_000_000_000L);
        assertThat(interval("{\"duration\": \"2s\", \"record\": {\"interval\": 0}}")).isZero();
    }

    @Test
    void theDefaultIsWidenedUntilTheSeriesFitsItsBudget() {
        // 5,010 groups, all recorded (max_series_cgroups above them): 200 samples would be 1,002,200 entries > 500,000
        String big = "{\"duration\": \"10s\", \"generate\": [{\"under\": \"/\", \"levels\": [10, 500]}],"
                + " \"record\": {\"max_series_cgroups\": 10000}}";
        long ns = interval(big);
        assertThat(ns).isEqualTo(200_000_000L);
        assertThat((10_000_000_000L / ns) * (5_010 + 1)).isLessThanOrEqualTo(ScenarioParser.MAX_SERIES_ENTRIES);
    }

    @Test
    void theCanonicalFormWritesTheChosenIntervalSoItParsesBackTheSame() {
        Scenario s = ScenarioParser.parse("{\"duration\": \"2s\"}");
        assertThat(ScenarioParser.parse(ScenarioWriter.toJson(s))).isEqualTo(s);
    }
}
