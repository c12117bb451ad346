package io.cfslab.metrics;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * bpftrace's text form of a {@code hist()} map, as {@code print(@name)} (or the end-of-run dump) shows it:
 * <pre>
 * &#64;durations:
 * [8K, 16K)            274 |&#64;&#64;&#64;&#64;&#64;&#64;&#64;&#64;&#64;&#64;&#64;&#64;&#64;&#64;&#64;&#64;&#64;&#64;&#64;&#64;&#64;                               |
 * [16K, 32K)           132 |&#64;&#64;&#64;&#64;&#64;&#64;&#64;&#64;&#64;&#64;                                          |
 * </pre>
 *
 * <p>The rules are those of bpftrace's {@code TextOutput::hist_to_str} and
 * {@code TextOutput::hist_index_label(index, k)} with {@code k = 0} (repository {@code bpftrace/bpftrace},
 * file {@code src/output.cpp}; in later versions the same rules moved to
 * {@code TextEmitter<Value::Histogram>} in {@code src/output/text.cpp}):
 * <ul>
 *   <li>the map's line is {@code @name:}; then the buckets from the lowest to the highest non-zero one,
 *       zero buckets in between included; an empty histogram prints no bucket line;</li>
 *   <li>a bucket's label is {@code [0]} for the value 0, {@code [1]} for the value 1, otherwise
 *       {@code [lo, hi)} where a power of two {@code 2^p} is written {@code 2^(p mod 10)} followed by the
 *       suffix {@code "", K, M, G, T, P, E}[p / 10] ({@code [512, 1K)}, {@code [1K, 2K)}, {@code [8K, 16K)});</li>
 *   <li>the label is left-aligned in 16 columns ({@code std::setw(16) << std::left}, never cut), the count
 *       right-aligned in 8, then {@code " |"}, the bar left-aligned in 52 columns, then {@code "|"};</li>
 *   <li>the bar is {@code int bar_width = count / (float) max_count * 52} '@' characters. bpftrace computes
 *       this in single-precision {@code float}, and so does this class: for counts below 2^24 it equals the
 *       integer {@code count * 52 / max_count}, but for larger counts the float rounding can add one '@'
 *       (e.g. 40549927 of 55489374 gives 38, where integer division gives 37).</li>
 * </ul>
 * Each line ends with {@code '\n'}. bpftrace prints one more empty line after a map; {@link #format} does not.
 */
public final class BpftraceText {
    /** Width of the bar in characters, bpftrace's {@code max_width}. */
    public static final int BAR_WIDTH = 52;
    private static final String SUFFIXES = "\0KMGTPE";
    private static final Pattern MAP_LINE = Pattern.compile("^[>\\s]*@(\\w*):\\s*$");
    private static final Pattern BUCKET_LINE =
            Pattern.compile("^[>\\s]*(\\[\\d+[KMGTPE]?\\]|\\[\\d+[KMGTPE]?, \\d+[KMGTPE]?\\)|\\(\\.\\.\\., 0\\))\\s+(\\d+)\\s*\\|.*$");
    private static final Pattern LABEL_VALUE = Pattern.compile("(\\d+)([KMGTPE]?)");

    private BpftraceText() {}

    /**
     * Formats a histogram as bpftrace prints it.
     *
     * @param name map name, with or without the leading {@code @} ({@code "durations"} and
     *             {@code "@durations"} both give the line {@code @durations:})
     * @param h    log2 buckets (bounds in the histogram's unit, ns here); each bucket's {@code low} must be
     *             0, or a power of two with {@code high = 2 low} (the snapshot's {@code sum} is not printed)
     * @return {@code "@name:\n"} then one line per bucket, each ending in {@code '\n'}
     * @throws IllegalArgumentException if a bucket is not a log2 bucket
     */
    public static String format(String name, HistogramSnapshot h) {
        StringBuilder out = new StringBuilder();
        out.append(name.startsWith("@") ? name : "@" + name).append(":\n");
        long max = 0;
        for (HistogramSnapshot.Bucket b : h.buckets()) {
            max = Math.max(max, b.count());
        }
        for (HistogramSnapshot.Bucket b : h.buckets()) {
            String label = label(b);
            out.append(label);
            pad(out, 16 - label.length());
            String count = Long.toString(b.count());
            pad(out, 8 - count.length());
            out.append(count).append(" |");
            int bar = barWidth(b.count(), max);
            out.append("@".repeat(bar));
            pad(out, BAR_WIDTH - bar);
            out.append("|\n");
        }
        return out.toString();
    }

    /**
     * Number of '@' bpftrace draws for a bucket: {@code (int) (count / (float) max * 52)}.
     *
     * @param count the bucket's count
     * @param max   the largest count of the histogram ({@code >= count})
     * @return bar width in characters, in {@code [0, 52]}; 0 if {@code max} is 0
     */
    public static int barWidth(long count, long max) {
        if (max <= 0) {
            return 0;
        }
        return (int) ((float) count / (float) max * BAR_WIDTH);
    }

    /**
     * The label of a log2 bucket: {@code [0]}, {@code [1]}, or {@code [lo, hi)} with K/M/G/T/P/E suffixes.
     *
     * @param b a bucket with {@code low} 0, 1, or a power of two, and {@code high = 2 low} (or {@code [0, 1)})
     * @return the label as bpftrace prints it
     */
    public static String label(HistogramSnapshot.Bucket b) {
        long low = b.low();
        if (low == 0) {
            if (b.high() != 1) {
                throw new IllegalArgumentException("not a log2 bucket: " + b);
            }
            return "[0]";
        }
        if (Long.bitCount(low) != 1) {
            throw new IllegalArgumentException("not a log2 bucket: " + b);
        }
        int p = Long.numberOfTrailingZeros(low);
        long expectedHigh = p == 62 ? Long.MAX_VALUE : low << 1;
        if (b.high() != expectedHigh) {
            throw new IllegalArgumentException("not a log2 bucket: " + b);
        }
        if (low == 1) {
            return "[1]";
        }
        return "[" + powerLabel(p) + ", " + powerLabel(p + 1) + ")";
    }

    /** bpftrace's {@code hist_index_label}: {@code 2^p} as {@code 2^(p mod 10)} and a suffix for {@code p / 10}. */
    private static String powerLabel(int p) {
        int decade = p / 10;
        String digits = Long.toString(1L << (p - 10 * decade));
        return decade == 0 ? digits : digits + SUFFIXES.charAt(decade);
    }

    private static void pad(StringBuilder out, int n) {
        for (int i = 0; i < n; i++) {
            out.append(' ');
        }
    }

    /**
     * Reads the buckets back from bpftrace's text of one {@code hist()} map, such as a report pasted from a
     * mailing list. Tolerant of mail quoting and reflowed whitespace: leading {@code >} markers, blank
     * lines between bucket lines, and runs of spaces (the bar is not read). Starts after the first
     * {@code @name:} line if there is one, and stops at the first other line after a bucket.
     *
     * @param text bpftrace output
     * @return the buckets, in the order printed, with their counts; {@code count} is their total, and
     *         {@code sum} is -1 (bpftrace's text does not carry the sum)
     * @throws IllegalArgumentException if no bucket line is found, a label is not a log2 bucket (the
     *         negative bucket {@code (..., 0)} included), or buckets are not contiguous
     */
    public static HistogramSnapshot parse(String text) {
        String[] lines = text.split("\\R", -1);
        int start = 0;
        for (int i = 0; i < lines.length; i++) {
            if (MAP_LINE.matcher(lines[i]).matches()) {
                start = i + 1;
                break;
            }
        }
        List<HistogramSnapshot.Bucket> buckets = new ArrayList<>();
        long total = 0;
        for (int i = start; i < lines.length; i++) {
            String line = lines[i];
            Matcher m = BUCKET_LINE.matcher(line);
            if (!m.matches()) {
                if (line.replace(">", "").isBlank() || buckets.isEmpty()) {
                    continue;
                }
                break;
            }
            long count = Long.parseLong(m.group(2));
            HistogramSnapshot.Bucket b = parseLabel(m.group(1), count);
            if (!buckets.isEmpty() && buckets.get(buckets.size() - 1).high() != b.low()) {
                throw new IllegalArgumentException("buckets not contiguous at line " + (i + 1) + ": " + line.strip());
            }
            buckets.add(b);
            total += count;
        }
        if (buckets.isEmpty()) {
            throw new IllegalArgumentException("no bpftrace hist() bucket line found");
        }
        return new HistogramSnapshot(total, -1, List.copyOf(buckets));
    }

    private static HistogramSnapshot.Bucket parseLabel(String label, long count) {
        if (label.startsWith("(")) {
            throw new IllegalArgumentException("negative values are not supported: " + label);
        }
        if (label.endsWith("]")) {
            long v = labelValue(label.substring(1, label.length() - 1));
            if (v != 0 && v != 1) {
                throw new IllegalArgumentException("not a log2 bucket: " + label);
            }
            return new HistogramSnapshot.Bucket(v, v + 1, count);
        }
        String[] parts = label.substring(1, label.length() - 1).split(", ");
        long low = labelValue(parts[0]);
        long high = labelValue(parts[1]);
        if (Long.bitCount(low) != 1 || low < 2 || high != low << 1) {
            throw new IllegalArgumentException("not a log2 bucket: " + label);
        }
        // [4E, 8E): 2^63 is not a long; Log2Histogram.bucketHigh uses Long.MAX_VALUE for it.
        return new HistogramSnapshot.Bucket(low, low == 1L << 62 ? Long.MAX_VALUE : high, count);
    }

    private static long labelValue(String s) {
        Matcher m = LABEL_VALUE.matcher(s);
        if (!m.matches()) {
            throw new IllegalArgumentException("bad bucket bound: " + s);
        }
        long digits = Long.parseLong(m.group(1));
        int decade = m.group(2).isEmpty() ? 0 : SUFFIXES.indexOf(m.group(2).charAt(0));
        return digits << (10 * decade);
    }
}
