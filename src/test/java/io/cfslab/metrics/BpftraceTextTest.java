package io.cfslab.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

class BpftraceTextTest {

    /** Seed 03 (src/test/resources/seeds/03-*.txt, lines 181-190): bpftrace's own output, copied byte for byte. */
    static final String SEED_03 = """
            @durations:
            [8K, 16K)            274 |@@@@@@@@@@@@@@@@@@@@@                               |
            [16K, 32K)           132 |@@@@@@@@@@                                          |
            [32K, 64K)             6 |                                                    |
            [64K, 128K)            0 |                                                    |
            [128K, 256K)           2 |                                                    |
            [256K, 512K)           0 |                                                    |
            [512K, 1M)           117 |@@@@@@@@@                                           |
            [1M, 2M)             665 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|
            [2M, 4M)              10 |                                                    |
            """;

    /** Seed 01 (src/test/resources/seeds/01-*.txt): the same output after a mail client quoted and reflowed it. */
    static final String SEED_01 = """
            > The bpftrace duration of distribute_cfs_runtime() is:
            >
            > @durations:
            >
            > [4K, 8K) 1 | |
            >
            > [8K, 16K) 8 | |
            >
            > [16K, 32K) 1 | |
            >
            > [32K, 64K) 0 | |
            >
            > [64K, 128K) 0 | |
            >
            > [128K, 256K) 0 | |
            >
            > [256K, 512K) 0 | |
            >
            > [512K, 1M) 0 | |
            >
            > [1M, 2M) 0 | |
            >
            > [2M, 4M) 0 | |
            >
            > [4M, 8M) 0 | |
            >
            > [8M, 16M) 0 | |
            >
            > [16M, 32M) 0 | |
            >
            > [32M, 64M) 376 |@@@@@@@@@@@@@@@@@@@@@@@ |
            >
            > [64M, 128M) 824 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|
            >
            > One random trace point from the trace prints is:
            """;

    /** Records {@code count} values spread inside {@code [low, high)}. */
    private static void fill(Log2Histogram h, long low, long count) {
        for (long i = 0; i < count; i++) {
            h.record(low + (i * 7919) % low); // low .. 2 low - 1
        }
    }

    @Test
    void seed03ByteForByte() {
        Log2Histogram h = new Log2Histogram();
        fill(h, 8 << 10, 274);
        fill(h, 16 << 10, 132);
        fill(h, 32 << 10, 6);
        fill(h, 128 << 10, 2);
        fill(h, 512 << 10, 117);
        fill(h, 1 << 20, 665);
        fill(h, 2 << 20, 10);
        String text = BpftraceText.format("durations", h.snapshot());
        assertEquals(SEED_03, text);
        assertEquals("[8K, 16K)            274 |@@@@@@@@@@@@@@@@@@@@@                               |",
                text.lines().skip(1).findFirst().orElseThrow());
        assertEquals(10, text.lines().count());
        assertEquals(text, BpftraceText.format("@durations", h.snapshot()), "leading @ optional");
    }

    @Test
    void seed03ParsesAndRoundTrips() {
        HistogramSnapshot s = BpftraceText.parse(SEED_03);
        assertEquals(9, s.buckets().size());
        assertEquals(274 + 132 + 6 + 2 + 117 + 665 + 10, s.count());
        assertEquals(-1, s.sum());
        assertEquals(new HistogramSnapshot.Bucket(8192, 16384, 274), s.buckets().get(0));
        assertEquals(new HistogramSnapshot.Bucket(1 << 20, 2 << 20, 665), s.buckets().get(7));
        assertEquals(new HistogramSnapshot.Bucket(2 << 20, 4 << 20, 10), s.buckets().get(8));
        assertEquals(SEED_03, BpftraceText.format("durations", s));
    }

    @Test
    void seed01FifteenLinesWithZeroBucketsBetween() {
        Log2Histogram h = new Log2Histogram();
        fill(h, 4 << 10, 1);
        fill(h, 8 << 10, 8);
        fill(h, 16 << 10, 1);
        fill(h, 32 << 20, 376);
        fill(h, 64 << 20, 824);
        HistogramSnapshot snap = h.snapshot();
        HistogramSnapshot parsed = BpftraceText.parse(SEED_01);
        assertEquals(parsed.buckets(), snap.buckets());
        assertEquals(15, snap.buckets().size());

        String text = BpftraceText.format("durations", snap);
        List<String> lines = text.lines().toList();
        assertEquals(16, lines.size());
        assertEquals("[4K, 8K)               1 |                                                    |", lines.get(1));
        assertEquals("[32M, 64M)           376 |@@@@@@@@@@@@@@@@@@@@@@@                             |", lines.get(14));
        assertEquals("[64M, 128M)          824 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|", lines.get(15));
        // The mail's text is ours with runs of spaces collapsed to one, each line quoted.
        List<String> mailLines = SEED_01.lines()
                .filter(l -> l.startsWith("> [") || l.startsWith("> @"))
                .map(l -> l.substring(2))
                .toList();
        List<String> collapsed = lines.stream().map(l -> l.replaceAll(" +", " ")).toList();
        assertEquals(mailLines, collapsed);
    }

    @Test
    void labelsOfSmallAndLargeBuckets() {
        assertEquals("[0]", BpftraceText.label(new HistogramSnapshot.Bucket(0, 1, 1)));
        assertEquals("[1]", BpftraceText.label(new HistogramSnapshot.Bucket(1, 2, 1)));
        assertEquals("[2, 4)", BpftraceText.label(new HistogramSnapshot.Bucket(2, 4, 1)));
        assertEquals("[512, 1K)", BpftraceText.label(new HistogramSnapshot.Bucket(512, 1024, 1)));
        assertEquals("[1K, 2K)", BpftraceText.label(new HistogramSnapshot.Bucket(1024, 2048, 1)));
        assertEquals("[512M, 1G)", BpftraceText.label(new HistogramSnapshot.Bucket(1L << 29, 1L << 30, 1)));
        assertEquals("[1T, 2T)", BpftraceText.label(new HistogramSnapshot.Bucket(1L << 40, 1L << 41, 1)));
        assertEquals("[256T, 512T)", BpftraceText.label(new HistogramSnapshot.Bucket(1L << 48, 1L << 49, 1)));
        assertEquals("[1P, 2P)", BpftraceText.label(new HistogramSnapshot.Bucket(1L << 50, 1L << 51, 1)));
        assertEquals("[4E, 8E)", BpftraceText.label(new HistogramSnapshot.Bucket(1L << 62, Long.MAX_VALUE, 1)));
        assertThrows(IllegalArgumentException.class,
                () -> BpftraceText.label(new HistogramSnapshot.Bucket(3, 6, 1)));
        assertThrows(IllegalArgumentException.class,
                () -> BpftraceText.label(new HistogramSnapshot.Bucket(4, 16, 1)));
    }

    @Test
    void smallValuesAndLongLabelsKeepColumns() {
        Log2Histogram h = new Log2Histogram();
        h.record(0);
        h.record(0);
        h.record(1);
        h.record(3);
        String text = BpftraceText.format("x", h.snapshot());
        assertEquals("""
                @x:
                [0]                    2 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|
                [1]                    1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |
                [2, 4)                 1 |@@@@@@@@@@@@@@@@@@@@@@@@@@                          |
                """, text);
        // A label of 16 characters or more is not cut (std::setw pads, never truncates).
        HistogramSnapshot wide = new HistogramSnapshot(123_456_789, -1,
                List.of(new HistogramSnapshot.Bucket(1L << 59, 1L << 60, 123_456_789)));
        assertEquals("@w:\n[512P, 1E)      123456789 |" + "@".repeat(52) + "|\n", BpftraceText.format("w", wide));
    }

    @Test
    void barWidthFollowsBpftraceFloatArithmetic() {
        assertEquals(21, BpftraceText.barWidth(274, 665));
        assertEquals(52, BpftraceText.barWidth(665, 665));
        assertEquals(0, BpftraceText.barWidth(12, 665));
        assertEquals(1, BpftraceText.barWidth(13, 665));
        assertEquals(0, BpftraceText.barWidth(0, 0));
        // bpftrace: int bar_width = count / (float) max * 52; integer division would give 37 here.
        assertEquals(38, BpftraceText.barWidth(40_549_927, 55_489_374));
    }

    @Test
    void parseRejectsWhatIsNotALog2Hist() {
        assertThrows(IllegalArgumentException.class, () -> BpftraceText.parse("no histogram here\n"));
        assertThrows(IllegalArgumentException.class, () -> BpftraceText.parse("""
                @x:
                (..., 0)               1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|
                """));
        assertThrows(IllegalArgumentException.class, () -> BpftraceText.parse("""
                @x:
                [2, 4)                 1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|
                [8, 16)                1 |@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@|
                """));
    }

    /**
     * Guards the copies above against the seed messages themselves, kept in the repository
     * ({@code src/test/resources/seeds/}, copies of the project's seeds 01 and 03), so that it runs in any clone.
     */
    @Test
    void embeddedCopiesMatchTheSeedFiles() throws IOException {
        Path seeds = Path.of("src", "test", "resources", "seeds");
        assertTrue(Files.isDirectory(seeds), "src/test/resources/seeds");
        String seed03 = read(seeds, "03-");
        String seed01 = read(seeds, "01-");
        assertEquals(true, seed03.contains(SEED_03), "seed 03 histogram copied byte for byte");
        assertEquals(BpftraceText.parse(SEED_01), BpftraceText.parse(seed01.substring(seed01.indexOf("@durations:"))));
        assertEquals(BpftraceText.parse(SEED_03), BpftraceText.parse(seed03.substring(seed03.indexOf("@durations:"))));
    }

    private static String read(Path dir, String prefix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            Path p = files.filter(f -> f.getFileName().toString().startsWith(prefix)).findFirst().orElseThrow();
            return Files.readString(p);
        }
    }
}
