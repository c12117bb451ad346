package io.cfslab.api;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * A result histogram ({@code {"count","sum","buckets":[{"low","high","count"}]}}) in bpftrace's {@code hist()}
 * layout: {@code @name:} then one line per bucket, {@code [8K, 16K)} left in 16 columns, the count right
 * in 8, and a bar of up to 52 {@code @} scaled to the largest bucket.
 */
final class HistogramText {
    private static final int BAR = 52;

    private HistogramText() {}

    static String format(String name, JsonNode histogram) {
        List<long[]> buckets = new ArrayList<>();
        long max = 0;
        for (JsonNode b : histogram.path("buckets")) {
            long[] x = {b.path("low").asLong(), b.path("high").asLong(), b.path("count").asLong()};
            buckets.add(x);
            max = Math.max(max, x[2]);
        }
        StringBuilder sb = new StringBuilder("@").append(name).append(":\n");
        for (long[] b : buckets) {
            String label = b[0] == 0 && b[1] <= 1 ? "[0]" : b[1] - b[0] == 1 ? "[" + size(b[0]) + "]"
                    : "[" + size(b[0]) + ", " + size(b[1]) + ")";
            int bar = max == 0 ? 0 : (int) (b[2] * BAR / max);
            sb.append(String.format("%-16s%8d |%s%s|%n", label, b[2], "@".repeat(bar), " ".repeat(BAR - bar)));
        }
        return sb.toString();
    }

    /** bpftrace's power-of-two suffixes: 1K, 16M, 2G … */
    private static String size(long v) {
        String[] units = {"", "K", "M", "G", "T", "P", "E"};
        int u = 0;
        while (u < units.length - 1 && v >= 1024 && v % 1024 == 0) {
            v /= 1024;
            u++;
        }
        return v + units[u];
    }
}
