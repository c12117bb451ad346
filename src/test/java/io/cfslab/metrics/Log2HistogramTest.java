package io.cfslab.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Random;

import org.junit.jupiter.api.Test;

class Log2HistogramTest {

    /** The single non-zero bucket after recording one value, checked against the bucket definition low <= v < high. */
    private static HistogramSnapshot.Bucket onlyBucket(long value) {
        Log2Histogram h = new Log2Histogram();
        h.record(value);
        HistogramSnapshot s = h.snapshot();
        assertEquals(1, s.buckets().size(), "one bucket for a single value " + value);
        HistogramSnapshot.Bucket b = s.buckets().get(0);
        assertEquals(1, b.count());
        assertTrue(b.low() <= value && value < b.high(), value + " outside " + b);
        return b;
    }

    @Test
    void powerOfTwoBoundariesAreExact() {
        assertEquals(new HistogramSnapshot.Bucket(4096, 8192, 1), onlyBucket(8191));
        assertEquals(new HistogramSnapshot.Bucket(8192, 16384, 1), onlyBucket(8192));
        assertEquals(new HistogramSnapshot.Bucket(8192, 16384, 1), onlyBucket(16383));
        assertEquals(new HistogramSnapshot.Bucket(16384, 32768, 1), onlyBucket(16384));
        assertEquals(new HistogramSnapshot.Bucket(1L << 40, 1L << 41, 1), onlyBucket(1L << 40));
        assertEquals(new HistogramSnapshot.Bucket(1L << 39, 1L << 40, 1), onlyBucket((1L << 40) - 1));
    }

    @Test
    void smallValuesFollowBpftrace() {
        assertEquals(new HistogramSnapshot.Bucket(0, 1, 1), onlyBucket(0));
        assertEquals(new HistogramSnapshot.Bucket(1, 2, 1), onlyBucket(1));
        assertEquals(new HistogramSnapshot.Bucket(2, 4, 1), onlyBucket(2));
        assertEquals(new HistogramSnapshot.Bucket(2, 4, 1), onlyBucket(3));
        assertEquals(new HistogramSnapshot.Bucket(4, 8, 1), onlyBucket(4));
    }

    @Test
    void everyPowerOfTwoEdgeUpToTwoToTheFifty() {
        for (int p = 1; p <= 50; p++) {
            long pow = 1L << p;
            HistogramSnapshot.Bucket below = onlyBucket(pow - 1);
            HistogramSnapshot.Bucket at = onlyBucket(pow);
            HistogramSnapshot.Bucket above = onlyBucket(pow + 1);
            assertEquals(pow, below.high(), "2^" + p + " - 1");
            assertEquals(pow, at.low(), "2^" + p);
            assertEquals(2 * pow, at.high(), "2^" + p);
            assertEquals(at, above, "2^" + p + " + 1");
        }
    }

    @Test
    void randomValuesLandInTheirBucket() {
        Random r = new Random(42);
        for (int i = 0; i < 2000; i++) {
            long v = r.nextLong() >>> (1 + r.nextInt(62)); // spread over all magnitudes, above one hour too
            onlyBucket(v);
        }
    }

    @Test
    void bucketsDoNotDependOnPrecision() {
        Random r = new Random(7);
        Log2Histogram[] hs = {new Log2Histogram(0), new Log2Histogram(1), new Log2Histogram(2), new Log2Histogram()};
        long[] counts = new long[64];
        for (int i = 0; i < 20_000; i++) {
            long v = r.nextLong() >>> (20 + r.nextInt(44));
            counts[64 - Long.numberOfLeadingZeros(v)]++;
            for (Log2Histogram h : hs) {
                h.record(v);
            }
        }
        HistogramSnapshot reference = hs[3].snapshot();
        for (HistogramSnapshot.Bucket b : reference.buckets()) {
            int index = b.low() == 0 ? 0 : 64 - Long.numberOfLeadingZeros(b.low());
            assertEquals(counts[index], b.count(), "bucket " + b);
        }
        for (Log2Histogram h : hs) {
            assertEquals(reference, h.snapshot());
        }
    }

    @Test
    void zeroBucketsBetweenAreListedAndCountsAndSumAreExact() {
        Log2Histogram h = new Log2Histogram();
        h.record(1);
        h.record(1000);
        h.record(1023);
        long big = (1L << 40) + 12_345;
        h.record(big);
        HistogramSnapshot s = h.snapshot();
        assertEquals(4, s.count());
        assertEquals(4, h.count());
        assertEquals(1 + 1000 + 1023 + big, s.sum());
        assertEquals(s.sum(), h.sum());
        // [1, 2) ... [2^40, 2^41): 41 buckets, from index 1 to index 41
        assertEquals(41, s.buckets().size());
        assertEquals(new HistogramSnapshot.Bucket(1, 2, 1), s.buckets().get(0));
        assertEquals(new HistogramSnapshot.Bucket(512, 1024, 2), s.buckets().get(9));
        assertEquals(new HistogramSnapshot.Bucket(1L << 40, 1L << 41, 1), s.buckets().get(40));
        long zeros = s.buckets().stream().filter(b -> b.count() == 0).count();
        assertEquals(38, zeros);
        for (int i = 1; i < s.buckets().size(); i++) {
            assertEquals(s.buckets().get(i - 1).high(), s.buckets().get(i).low(), "contiguous");
        }
    }

    @Test
    void emptyHistogram() {
        Log2Histogram h = new Log2Histogram();
        HistogramSnapshot s = h.snapshot();
        assertEquals(new HistogramSnapshot(0, 0, List.of()), s);
        assertEquals("@empty:\n", BpftraceText.format("empty", s));
        h.record(5);
        h.reset();
        assertEquals(new HistogramSnapshot(0, 0, List.of()), h.snapshot());
    }

    @Test
    void mergeAddsCountsAndSums() {
        Log2Histogram a = new Log2Histogram();
        Log2Histogram b = new Log2Histogram();
        a.record(10);
        b.record(12);
        b.record(100_000);
        a.add(b);
        HistogramSnapshot s = a.snapshot();
        assertEquals(3, s.count());
        assertEquals(100_022, s.sum());
        assertEquals(new HistogramSnapshot.Bucket(8, 16, 2), s.buckets().get(0));
        assertEquals(new HistogramSnapshot.Bucket(65536, 131072, 1), s.buckets().get(s.buckets().size() - 1));
    }

    @Test
    void rejectsNegativeValues() {
        Log2Histogram h = new Log2Histogram();
        assertThrows(IllegalArgumentException.class, () -> h.record(-1));
        assertEquals(0, h.count());
    }

    @Test
    void recordDoesNotAllocate() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Log2Histogram h = new Log2Histogram();
        long hour = Log2Histogram.INITIAL_HIGHEST_NS;
        for (int i = 0; i < 200_000; i++) { // warm up (JIT), same values as measured
            h.record((i * 7_919L * 1_000_003L) % hour);
        }
        long tid = Thread.currentThread().getId();
        long before = mx.getThreadAllocatedBytes(tid);
        for (int i = 0; i < 1_000_000; i++) {
            h.record((i * 7_919L * 1_000_003L) % hour);
        }
        long allocated = mx.getThreadAllocatedBytes(tid) - before;
        assertTrue(allocated < 10_000, "1e6 records allocated " + allocated + " bytes");
        assertEquals(1_200_000, h.count());
    }

    @org.junit.jupiter.api.Test
    void snapshotsOfSeveralRunsMergeExactly() {
        Log2Histogram a = new Log2Histogram();
        Log2Histogram b = new Log2Histogram();
        for (long v : new long[] {0, 1, 3, 5000, 9000, 9001, 70_000}) a.record(v);
        for (long v : new long[] {2, 8191, 8192, 1L << 40}) b.record(v);
        Log2Histogram both = new Log2Histogram();
        for (long v : new long[] {0, 1, 3, 5000, 9000, 9001, 70_000, 2, 8191, 8192, 1L << 40}) both.record(v);
        Log2Histogram merged = new Log2Histogram(1);
        merged.add(a.snapshot());
        merged.add(b.snapshot());
        org.assertj.core.api.Assertions.assertThat(merged.snapshot()).isEqualTo(both.snapshot());
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> merged.add(BpftraceText.parse("[4K, 8K) 3 |@@|")))
                .hasMessageContaining("without a sum");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> merged.add(new HistogramSnapshot(1, 5,
                java.util.List.of(new HistogramSnapshot.Bucket(3, 6, 1))))).hasMessageContaining("not a log2 bucket");
    }
}
