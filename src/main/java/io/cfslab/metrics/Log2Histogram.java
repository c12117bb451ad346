package io.cfslab.metrics;

import java.util.ArrayList;
import java.util.List;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * A log2 histogram of non-negative {@code long} values (nanoseconds in this project), as bpftrace's
 * {@code hist()} keeps them: bucket {@code [0, 1)} for the value 0, then {@code [1, 2)}, {@code [2, 4)},
 * {@code [4, 8)}, ... {@code [2^62, 2^63)}.
 *
 * <p>The counts live in an HdrHistogram {@link Histogram} (the project's rule: use the library for
 * histograms), with 3 significant digits and a range pre-sized to one hour in ns, so that
 * {@link #record(long)} allocates nothing for values up to one hour; a larger value grows the
 * library's array once (auto-resize), not per record. HdrHistogram's sub-buckets are powers of two
 * wide and aligned on their width, so each lies wholly inside one power-of-two bucket: the log2
 * counts of {@link #snapshot()} are exact, never interpolated. The sum is kept exactly, as a
 * {@code long} beside the library (which only keeps an approximate mean).
 *
 * <p>Footprint: about 270 KB at the default 3 significant digits (the library's counts array for a
 * one-hour range), about 37 KB at 2 digits. The log2 buckets are exact at any precision, so a caller that
 * keeps many histograms (say one per cgroup) and needs no percentiles can pass 1 or 2 digits to
 * {@link #Log2Histogram(int)}.
 *
 * <p>Not thread-safe: one recorder at a time (the simulator is single-threaded per run).
 */
public final class Log2Histogram {
    /** Initial highest trackable value: one hour in ns (3.6e12). */
    public static final long INITIAL_HIGHEST_NS = 3_600_000_000_000L;
    /** Significant decimal digits the library keeps inside each power of two (for percentiles). */
    public static final int SIGNIFICANT_DIGITS = 3;

    private final Histogram histogram;
    private long sum;

    /**
     * An empty histogram with {@link #SIGNIFICANT_DIGITS} digits (range pre-sized to
     * {@link #INITIAL_HIGHEST_NS}, auto-resizing beyond).
     */
    public Log2Histogram() {
        this(SIGNIFICANT_DIGITS);
    }

    /**
     * An empty histogram keeping the given precision inside each power of two (for {@link #max()} and
     * {@link #valueAtPercentile(double)}; the log2 buckets of {@link #snapshot()} are exact at any precision).
     *
     * @param significantDigits 0 to 5, the library's {@code numberOfSignificantValueDigits}
     */
    public Log2Histogram(int significantDigits) {
        histogram = new Histogram(1, INITIAL_HIGHEST_NS, significantDigits);
        histogram.setAutoResize(true);
    }

    /**
     * Records one value.
     *
     * @param value a non-negative value, ns
     * @throws IllegalArgumentException if {@code value < 0}
     * @throws ArithmeticException if the exact sum would overflow a {@code long}
     */
    public void record(long value) {
        if (value < 0) {
            throw new IllegalArgumentException("negative value: " + value);
        }
        long newSum = Math.addExact(sum, value);
        histogram.recordValue(value);
        sum = newSum;
    }

    /** @return number of values recorded */
    public long count() {
        return histogram.getTotalCount();
    }

    /** @return exact sum of the values recorded, ns */
    public long sum() {
        return sum;
    }

    /** @return largest value recorded, to the library's precision (its bucket's highest equivalent value), ns; 0 if empty */
    public long max() {
        return histogram.getMaxValue();
    }

    /**
     * @param percentile in {@code [0, 100]}
     * @return the value at that percentile, to the library's precision (3 significant digits), ns; 0 if empty
     */
    public long valueAtPercentile(double percentile) {
        return histogram.getValueAtPercentile(percentile);
    }

    /**
     * Adds every value recorded in {@code other} to this histogram (for merging per-CPU histograms).
     *
     * @param other another histogram; unchanged
     */
    public void add(Log2Histogram other) {
        long newSum = Math.addExact(sum, other.sum);
        histogram.add(other.histogram);
        sum = newSum;
    }

    /**
     * Adds the values of a log2 snapshot (for merging the histograms of several runs, e.g. an experiment arm's
     * repeats): each bucket's count is recorded at the bucket's low bound, so the log2 buckets of
     * {@link #snapshot()} stay exact; the sum is added exactly.
     *
     * @param other log2 buckets with a known sum ({@code sum >= 0}, as the simulator's results carry it)
     * @throws IllegalArgumentException if the sum is unknown (-1, parsed from text) or a bucket is not a log2 bucket
     * @throws ArithmeticException if the exact sum would overflow a {@code long}
     */
    public void add(HistogramSnapshot other) {
        if (other.sum() < 0) {
            throw new IllegalArgumentException("snapshot without a sum (parsed from text?) cannot be merged exactly");
        }
        for (HistogramSnapshot.Bucket b : other.buckets()) {
            if (b.low() != 0 && (Long.bitCount(b.low()) != 1 || bucketIndex(b.low()) != bucketIndex(b.high() - 1))) {
                throw new IllegalArgumentException("not a log2 bucket: " + b);
            }
        }
        long newSum = Math.addExact(sum, other.sum());
        for (HistogramSnapshot.Bucket b : other.buckets()) {
            if (b.count() > 0) histogram.recordValueWithCount(b.low(), b.count());
        }
        sum = newSum;
    }

    /** Forgets every value recorded. */
    public void reset() {
        histogram.reset();
        sum = 0;
    }

    /**
     * The log2 buckets as bpftrace's {@code hist()} prints them.
     *
     * @return count, exact sum and buckets {@code [low, high)} from the lowest to the highest non-zero
     *         bucket, zero buckets in between included; {@code low} is 0 for the first bucket
     *         {@code [0, 1)}, else a power of two with {@code high = 2 low}. Empty list if nothing was
     *         recorded.
     */
    public HistogramSnapshot snapshot() {
        long[] counts = new long[64];
        int lowest = Integer.MAX_VALUE;
        int highest = -1;
        for (HistogramIterationValue v : histogram.recordedValues()) {
            long top = v.getValueIteratedTo();
            long bottom = histogram.lowestEquivalentValue(top);
            int index = bucketIndex(bottom);
            if (bucketIndex(top) != index) {
                // Cannot happen with HdrHistogram's aligned power-of-two sub-buckets; guard the claim.
                throw new IllegalStateException("sub-bucket [" + bottom + ", " + top + "] straddles a power of two");
            }
            counts[index] += v.getCountAtValueIteratedTo();
            lowest = Math.min(lowest, index);
            highest = Math.max(highest, index);
        }
        List<HistogramSnapshot.Bucket> buckets = new ArrayList<>();
        for (int i = lowest; i <= highest; i++) {
            buckets.add(new HistogramSnapshot.Bucket(bucketLow(i), bucketHigh(i), counts[i]));
        }
        return new HistogramSnapshot(count(), sum, List.copyOf(buckets));
    }

    /**
     * Index of the log2 bucket of a value: 0 for the value 0, {@code i >= 1} for {@code [2^(i-1), 2^i)}.
     *
     * @param value a non-negative value
     * @return bucket index in {@code [0, 63]}
     */
    public static int bucketIndex(long value) {
        if (value < 0) {
            throw new IllegalArgumentException("negative value: " + value);
        }
        return 64 - Long.numberOfLeadingZeros(value);
    }

    /**
     * @param index a bucket index in {@code [0, 63]}, as {@link #bucketIndex(long)} gives
     * @return inclusive lower bound of bucket {@code index} (0 for index 0, else {@code 2^(index-1)})
     */
    public static long bucketLow(int index) {
        return index == 0 ? 0 : 1L << (index - 1);
    }

    /**
     * @param index a bucket index in {@code [0, 63]}, as {@link #bucketIndex(long)} gives
     * @return exclusive upper bound of bucket {@code index} ({@code 2^index}); for the last bucket
     *         {@code [2^62, 2^63)} this is {@link Long#MAX_VALUE} (2^63 - 1), as 2^63 is not a {@code long}
     */
    public static long bucketHigh(int index) {
        return index >= 63 ? Long.MAX_VALUE : 1L << index;
    }
}
