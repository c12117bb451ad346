package io.cfslab.metrics;

import java.util.List;

/**
 * A log2 histogram as bpftrace's {@code hist()} prints it: buckets {@code [low, high)} with
 * {@code high = 2 low}, low a power of two (a value 0 goes in bucket {@code [0, 1)}).
 *
 * @param count   values recorded
 * @param sum     sum of the values
 * @param buckets non-empty range from the lowest to the highest non-zero bucket, zeros in between kept
 */
public record HistogramSnapshot(long count, long sum, List<Bucket> buckets) {
    /** One bucket: values v with low &le; v &lt; high. */
    public record Bucket(long low, long high, long count) { }
}
