package io.cfslab.metrics;

import java.util.List;

/**
 * A log2 histogram as bpftrace's {@code hist()} prints it: buckets {@code [low, high)} with
 * {@code high = 2 low}, low a power of two (a value 0 goes in bucket {@code [0, 1)}).
 *
 * <p>Made by {@link Log2Histogram#snapshot()}, printed by {@link BpftraceText#format}, written to the result
 * JSON as {@code {"count", "sum", "buckets": [{"low", "high", "count"}]}} by {@link ResultJson}.
 *
 * @param count   values recorded
 * @param sum     sum of the values (ns for the simulator's histograms); -1 when unknown (parsed from text)
 * @param buckets range from the lowest to the highest non-zero bucket, zeros in between kept; empty if
 *                nothing was recorded. The last possible bucket {@code [2^62, 2^63)} has
 *                {@code high = Long.MAX_VALUE}, 2^63 not being a {@code long}
 */
public record HistogramSnapshot(long count, long sum, List<Bucket> buckets) {
    /** One bucket: values v with low &le; v &lt; high. */
    public record Bucket(long low, long high, long count) { }
}
