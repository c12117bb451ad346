package io.cfslab.metrics;

import java.util.ArrayList;
import java.util.List;

import org.HdrHistogram.HistogramIterationValue;
import org.HdrHistogram.IntCountsHistogram;

/**
 * One task's latency distribution in microseconds, as {@code runqlat} or {@code perf sched latency} shows it:
 * percentiles and log2 buckets of whole microseconds (a value is recorded as {@code ns / 1000}, truncated, as
 * runqlat's {@code delta / 1000}), plus the exact maximum in ns.
 *
 * <p>Counts live in an auto-resizing HdrHistogram with 2 significant digits (the project's rule: use the
 * library for histograms), so a percentile is within 1 % of the true value (values below 256 µs are exact);
 * the array grows only when a new maximum needs a larger range, never per record, and stays small (about
 * 5 KB for values up to 100 ms), so every task of a large tree can keep one. HdrHistogram's sub-buckets are
 * aligned powers of two, so the log2 buckets of {@link #summary()} are exact.
 *
 * <p>Not thread-safe: one recorder at a time (the simulator is single-threaded per run).
 */
public final class LatencyHistogram {
    /** Significant decimal digits kept inside each power of two. */
    public static final int SIGNIFICANT_DIGITS = 2;

    private final IntCountsHistogram histogram = new IntCountsHistogram(SIGNIFICANT_DIGITS);
    private long maxNs = -1;

    /**
     * Records one latency.
     *
     * @param ns a non-negative duration, ns
     */
    public void record(long ns) {
        if (ns < 0) throw new IllegalArgumentException("negative latency: " + ns);
        histogram.recordValue(ns / 1000);
        if (ns > maxNs) maxNs = ns;
    }

    /** @return number of values recorded */
    public long count() { return histogram.getTotalCount(); }

    /** @return the largest value recorded, exact, ns; -1 if none */
    public long maxNs() { return maxNs; }

    /**
     * The contract's latency figures ({@code count, p50, p90, p99, p999, max}, µs) and the log2 buckets in µs.
     *
     * @return a summary; for an empty histogram only {@code count} 0
     */
    public LatencySummary summary() {
        long n = count();
        if (n == 0) return LatencySummary.EMPTY;
        long[] counts = new long[64];
        int lowest = Integer.MAX_VALUE, highest = -1;
        for (HistogramIterationValue v : histogram.recordedValues()) {
            int index = Log2Histogram.bucketIndex(v.getValueIteratedTo());
            counts[index] += v.getCountAtValueIteratedTo();
            lowest = Math.min(lowest, index);
            highest = Math.max(highest, index);
        }
        List<HistogramSnapshot.Bucket> buckets = new ArrayList<>(highest - lowest + 1);
        for (int i = lowest; i <= highest; i++) {
            buckets.add(new HistogramSnapshot.Bucket(Log2Histogram.bucketLow(i), Log2Histogram.bucketHigh(i), counts[i]));
        }
        double max = maxNs / 1000.0;
        return new LatencySummary(n, percentile(50, max), percentile(90, max), percentile(99, max),
                percentile(99.9, max), max, List.copyOf(buckets));
    }

    /** A percentile in µs (the library's highest equivalent value), never above the exact maximum. */
    private double percentile(double p, double max) {
        return Math.min((double) histogram.getValueAtPercentile(p), max);
    }

    /**
     * A latency distribution in the result (contract v1.1: {@code wakeup_latency_us}, {@code iteration_wall_us}).
     *
     * @param count   values recorded
     * @param p50     median, µs (within 1 %)
     * @param p90     90th percentile, µs
     * @param p99     99th percentile, µs
     * @param p999    99.9th percentile, µs
     * @param max     largest value, µs, exact to the ns
     * @param buckets log2 buckets of whole µs ({@code [low, high)}), as runqlat prints them
     */
    @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
    public record LatencySummary(long count, Double p50, Double p90, Double p99, Double p999, Double max,
                                 List<HistogramSnapshot.Bucket> buckets) {
        /** Nothing recorded. */
        public static final LatencySummary EMPTY = new LatencySummary(0, null, null, null, null, null, null);
    }
}
