package io.cfslab.experiment;

import io.cfslab.metrics.BpftraceText;
import io.cfslab.metrics.HistogramSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Several arms' histograms of one name side by side, each column exactly as bpftrace prints it
 * ({@link BpftraceText#format}: its own range of buckets, its bar scaled to its own largest bucket), the
 * columns aligned on bucket rows; a row outside one arm's range is blank in that arm's column:
 * <pre>
 * base (5 runs)                                                                   head (5 runs)
 * &#64;distribute_cfs_runtime_ns:                                                     &#64;distribute_cfs_runtime_ns:
 * [4K, 8K)              61 |&#64;&#64;&#64;&#64;&#64;&#64;&#64;                                             |   [4K, 8K)   …
 * </pre>
 */
public final class SideBySideHistograms {
    private SideBySideHistograms() {}

    /** Width of one bpftrace bucket line without its newline: 16 + 8 + 2 + 52 + 1. */
    static final int COLUMN = 16 + 8 + 2 + BpftraceText.BAR_WIDTH + 1;
    static final String GAP = "   ";

    /**
     * @param name  histogram name (printed as {@code @name:})
     * @param byArm arm label → histogram (arms in column order)
     * @return the text, every line ending in {@code '\n'}, trailing blanks removed
     */
    public static String format(String name, Map<String, HistogramSnapshot> byArm) {
        List<String> labels = new ArrayList<>(byArm.keySet());
        List<Map<Long, String>> lines = new ArrayList<>();
        List<String> heads = new ArrayList<>();
        TreeSet<Long> lows = new TreeSet<>();
        for (String arm : labels) {
            HistogramSnapshot h = byArm.get(arm);
            String[] text = BpftraceText.format(name, h).split("\n");
            heads.add(text[0]);
            Map<Long, String> byLow = new java.util.HashMap<>();
            for (int i = 0; i < h.buckets().size(); i++) {
                byLow.put(h.buckets().get(i).low(), text[i + 1]);
                lows.add(h.buckets().get(i).low());
            }
            lines.add(byLow);
        }
        StringBuilder out = new StringBuilder();
        List<String> row = new ArrayList<>();
        for (String arm : labels) row.add(arm + " (" + io.cfslab.scenario.Plural.of(byArm.get(arm).count(), "call") + ")");
        line(out, row);
        line(out, heads);
        for (long low : lows) {
            row.clear();
            for (Map<Long, String> l : lines) row.add(l.getOrDefault(low, ""));
            line(out, row);
        }
        return out.toString();
    }

    private static void line(StringBuilder out, List<String> cells) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cells.size(); i++) {
            String c = cells.get(i);
            b.append(c);
            if (i < cells.size() - 1) b.append(" ".repeat(Math.max(0, COLUMN - c.length()))).append(GAP);
        }
        int end = b.length();
        while (end > 0 && b.charAt(end - 1) == ' ') end--;
        out.append(b, 0, end).append('\n');
    }
}
