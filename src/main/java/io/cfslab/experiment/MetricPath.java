package io.cfslab.experiment;

import java.util.ArrayList;
import java.util.List;
import tools.jackson.databind.JsonNode;

/**
 * A metric: a path into a run's result JSON, {@code /}-separated, with {@code ~1} for a {@code /} inside a name
 * and {@code ~0} for a {@code ~} (the contract's rule, RFC 6901's escaping): {@code cgroups/~1a/cpu.stat/throttled_usec}
 * is the {@code throttled_usec} of group {@code /a}; {@code benchmarks/hb/completion_s} a workload's figure.
 * A leading {@code /} is allowed (the path is then an RFC 6901 pointer).
 */
public final class MetricPath {
    private MetricPath() {}

    /** @return why {@code path} is not a well-formed metric path, or null */
    public static String syntaxProblem(String path) {
        String p = path.startsWith("/") ? path.substring(1) : path;
        if (p.isEmpty()) return "empty metric path";
        for (String t : p.split("/", -1)) {
            if (t.isEmpty()) return "metric path " + path + " has an empty step (a / inside a name is written ~1)";
            for (int i = 0; i < t.length(); i++) {
                if (t.charAt(i) == '~' && (i + 1 >= t.length() || "01".indexOf(t.charAt(i + 1)) < 0)) {
                    return "metric path " + path + ": ~ must be followed by 0 or 1 (~0 is ~, ~1 is /)";
                }
            }
        }
        return null;
    }

    /** The unescaped steps ({@code cgroups/~1a/cpu.stat/usage_usec} → cgroups, /a, cpu.stat, usage_usec). */
    public static List<String> steps(String path) {
        String p = path.startsWith("/") ? path.substring(1) : path;
        List<String> out = new ArrayList<>();
        for (String t : p.split("/", -1)) out.add(t.replace("~1", "/").replace("~0", "~"));
        return out;
    }

    /** Escapes one step for a metric path ({@code /a} → {@code ~1a}). */
    public static String escape(String step) { return ExperimentParser.esc(step); }

    /** The metric path of a list of steps. */
    public static String of(String... steps) {
        StringBuilder b = new StringBuilder();
        for (String s : steps) {
            if (b.length() > 0) b.append('/');
            b.append(escape(s));
        }
        return b.toString();
    }

    /**
     * @param result a run's result JSON
     * @param path   a metric path
     * @return the number there, or null if there is none (missing, or not a number)
     */
    public static Double value(JsonNode result, String path) {
        JsonNode n = result;
        for (String s : steps(path)) {
            if (n == null) return null;
            n = n.isArray() ? arrayItem(n, s) : n.get(s);
        }
        return n != null && n.isNumber() ? n.doubleValue() : null;
    }

    private static JsonNode arrayItem(JsonNode arr, String s) {
        try {
            return arr.get(Integer.parseInt(s));
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
