package io.cfslab.experiment;

import io.cfslab.metrics.HistogramSnapshot;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.dataformat.csv.CsvMapper;
import tools.jackson.dataformat.csv.CsvSchema;
import tools.jackson.dataformat.csv.CsvWriteFeature;

/**
 * The tables people paste into a review: fixed-width text as the seeds print it (seed 00's
 * {@code base  head  diff} summary with {@code mean±coefvar%}, then seed 04's Min/Max/Median/AMean/GMean/HMean/
 * Stddev/CoefVar block per metric), Markdown, and CSV (one row per metric and arm); then every histogram of the
 * arms side by side in bpftrace's layout ({@link SideBySideHistograms}). The JSON form is
 * {@link ExperimentResultJson}.
 *
 * <p>Numbers: per metric, by the size of its values ({@code Fmt}): whole-number metrics print their runs'
 * values without decimals; statistics keep 2 decimals from 100 (seed 04's 207.33), none from 100,000 (µs
 * counters), 3 from 1 and 4 below; p-values 4 decimals (or {@code 1.2e-07} below 0.0001). The CSV keeps full
 * precision.
 */
public final class ExperimentTables {
    private ExperimentTables() {}

    private static final String VERDICT_RULE = "Welch's t-test, two-sided: \"noise\" when p >= 0.05, else the"
            + " difference of the arithmetic means, (arm - base) / base";
    static final String[] ROWS = {"Min", "Max", "Median", "AMean", "GMean", "HMean", "AMean Stddev", "AMean CoefVar"};

    // ---------------------------------------------------------------------------------------------- text

    /** The fixed-width text table, then the histograms side by side. Lines end with {@code '\n'}. */
    public static String text(ExperimentResult r) {
        StringBuilder out = new StringBuilder();
        out.append("Experiment: ").append(r.experiment()).append('\n');
        out.append("Scenario:   ").append(r.scenario() == null ? "" : r.scenario())
                .append(r.scenarioId() == null ? "" : " (" + r.scenarioId() + ")").append('\n');
        out.append("Repeats:    ").append(r.repeats()).append(" per arm, experiment seed ").append(r.seed())
                .append("; run i of every arm has seed i: ").append(joinSeeds(r.seeds())).append('\n');
        int armWidth = r.arms().stream().mapToInt(String::length).max().orElse(4);
        for (int i = 0; i < r.arms().size(); i++) {
            String arm = r.arms().get(i);
            out.append(i == 0 ? "Arms:       " : "            ").append(pad(arm, armWidth + 2))
                    .append(overrides(r.overrides().get(arm))).append('\n');
        }
        out.append("Verdict:    every arm against ").append(r.arms().get(0)).append(" (the first arm); ")
                .append(VERDICT_RULE).append("\n\n");

        // seed 00: metric, mean±coefvar per arm, then the verdict per non-base arm
        List<String> head = new ArrayList<>(List.of("metric"));
        head.addAll(r.arms());
        for (int i = 1; i < r.arms().size(); i++) head.add(r.arms().size() == 2 ? "diff" : "diff " + r.arms().get(i));
        List<List<String>> rows = new ArrayList<>();
        rows.add(head);
        r.metrics().forEach((metric, byArm) -> {
            List<String> row = new ArrayList<>(List.of(metric));
            Fmt f = Fmt.of(byArm);
            for (String arm : r.arms()) row.add(meanCv(byArm.get(arm), f));
            for (int i = 1; i < r.arms().size(); i++) {
                ExperimentResult.MetricArm a = byArm.get(r.arms().get(i));
                row.add(a == null || a.welch() == null ? "-" : a.welch().verdict());
            }
            rows.add(row);
        });
        columns(out, rows, "", 3);

        // seed 04: one block per metric
        r.metrics().forEach((metric, byArm) -> {
            out.append('\n').append(metric).append('\n');
            Fmt f = Fmt.of(byArm);
            List<List<String>> block = new ArrayList<>();
            List<String> armRow = new ArrayList<>(List.of("arm"));
            armRow.addAll(r.arms());
            block.add(armRow);
            for (int k = 0; k < r.repeats(); k++) {
                final int rep = k;
                block.add(row("Run " + (k + 1), r, byArm, a -> a.values().get(rep) == null ? "n/a" : f.value(a.values().get(rep))));
            }
            for (String label : ROWS) block.add(row(label, r, byArm, a -> stat(a, label, f)));
            if (r.arms().size() > 1) {
                block.add(row("Diff", r, byArm, a -> a.welch() == null ? "" : a.welch().diffPercent() == null ? "n/a"
                        : String.format(Locale.ROOT, "%+.2f pct", a.welch().diffPercent())));
                block.add(row("p (Welch)", r, byArm, a -> a.welch() == null ? "" : p(a.welch().pValue())));
                block.add(row("Verdict", r, byArm, a -> a.welch() == null ? "" : a.welch().verdict()));
            }
            List<String> errors = new ArrayList<>();
            byArm.forEach((arm, a) -> { if (a.error() != null) errors.add(arm + ": " + a.error()); });
            labelledColumns(out, block);
            for (String e : errors) out.append("  (").append(e).append(")\n");
        });

        for (String name : histogramNames(r)) {
            out.append('\n').append(SideBySideHistograms.format(name, histograms(r, name)));
        }
        return out.toString();
    }

    private static List<String> row(String label, ExperimentResult r, Map<String, ExperimentResult.MetricArm> byArm,
                                    Function<ExperimentResult.MetricArm, String> cell) {
        List<String> row = new ArrayList<>(List.of(label));
        for (String arm : r.arms()) {
            ExperimentResult.MetricArm a = byArm.get(arm);
            row.add(a == null ? "" : cell.apply(a));
        }
        return row;
    }

    /** Seed 04's layout: {@code "  Label         : v1        v2"}. */
    private static void labelledColumns(StringBuilder out, List<List<String>> rows) {
        int label = 14;
        for (List<String> row : rows) label = Math.max(label, row.get(0).length());
        int[] w = widths(rows);
        for (List<String> row : rows) {
            StringBuilder b = new StringBuilder("  ").append(pad(row.get(0), label)).append(" : ");
            for (int c = 1; c < row.size(); c++) b.append(c < row.size() - 1 ? pad(row.get(c), w[c] + 4) : row.get(c));
            out.append(strip(b)).append('\n');
        }
    }

    private static void columns(StringBuilder out, List<List<String>> rows, String indent, int gap) {
        int[] w = widths(rows);
        for (List<String> row : rows) {
            StringBuilder b = new StringBuilder(indent);
            for (int c = 0; c < row.size(); c++) b.append(c < row.size() - 1 ? pad(row.get(c), w[c] + gap) : row.get(c));
            out.append(strip(b)).append('\n');
        }
    }

    private static int[] widths(List<List<String>> rows) {
        int n = rows.stream().mapToInt(List::size).max().orElse(0);
        int[] w = new int[n];
        for (List<String> row : rows) for (int c = 0; c < row.size(); c++) w[c] = Math.max(w[c], row.get(c).length());
        return w;
    }

    // ------------------------------------------------------------------------------------------ markdown

    /** GitHub-flavoured Markdown: the summary table, one table per metric, the histograms in code blocks. */
    public static String markdown(ExperimentResult r) {
        StringBuilder out = new StringBuilder();
        out.append("## ").append(md(r.experiment())).append("\n\n");
        if (r.description() != null && !r.description().isBlank()) out.append(md(r.description())).append("\n\n");
        out.append("Scenario ").append(md(r.scenario())).append(r.scenarioId() == null ? "" : " (`" + r.scenarioId() + "`)")
                .append("; ").append(r.repeats()).append(" repeats per arm, experiment seed ").append(r.seed())
                .append(", run seeds ").append(joinSeeds(r.seeds())).append(". ").append(VERDICT_RULE).append(".\n\n");
        out.append("| arm | overrides |\n|---|---|\n");
        for (int i = 0; i < r.arms().size(); i++) {
            String arm = r.arms().get(i);
            out.append("| ").append(md(ArmNames.label(r.arms(), i))).append(" | ")
                    .append(mdOverrides(r.overrides().get(arm))).append(" |\n");
        }
        out.append("\n| metric |");
        for (String arm : r.arms()) out.append(' ').append(md(arm)).append(" |");
        for (int i = 1; i < r.arms().size(); i++) out.append(r.arms().size() == 2 ? " diff |" : " diff " + md(r.arms().get(i)) + " |");
        out.append("\n|---|");
        out.append("---:|".repeat(r.arms().size() * 2 - 1)).append('\n');
        r.metrics().forEach((metric, byArm) -> {
            out.append("| ").append(code(metric)).append(" |");
            Fmt f = Fmt.of(byArm);
            for (String arm : r.arms()) out.append(' ').append(meanCv(byArm.get(arm), f).replace("±", " ± ")).append(" |");
            for (int i = 1; i < r.arms().size(); i++) {
                ExperimentResult.MetricArm a = byArm.get(r.arms().get(i));
                out.append(' ').append(a == null || a.welch() == null ? "-" : a.welch().verdict()
                        + (a.welch().pValue() == null ? "" : " (p = " + p(a.welch().pValue()) + ")")).append(" |");
            }
            out.append('\n');
        });
        r.metrics().forEach((metric, byArm) -> {
            Fmt f = Fmt.of(byArm);
            out.append("\n### ").append(code(metric)).append("\n\n|  |");
            for (String arm : r.arms()) out.append(' ').append(md(arm)).append(" |");
            out.append("\n|---|").append("---:|".repeat(r.arms().size())).append('\n');
            List<String> labels = new ArrayList<>();
            for (int k = 0; k < r.repeats(); k++) labels.add("Run " + (k + 1));
            labels.addAll(List.of(ROWS));
            if (r.arms().size() > 1) labels.addAll(List.of("Diff", "p (Welch)", "Verdict"));
            for (String label : labels) {
                out.append("| ").append(label).append(" |");
                for (String arm : r.arms()) {
                    ExperimentResult.MetricArm a = byArm.get(arm);
                    String cell;
                    if (a == null) cell = "";
                    else if (label.startsWith("Run ")) {
                        Double v = a.values().get(Integer.parseInt(label.substring(4)) - 1);
                        cell = v == null ? "n/a" : f.value(v);
                    } else if (label.equals("Diff")) {
                        cell = a.welch() == null ? "" : a.welch().diffPercent() == null ? "n/a"
                                : String.format(Locale.ROOT, "%+.2f%%", a.welch().diffPercent());
                    } else if (label.equals("p (Welch)")) cell = a.welch() == null ? "" : p(a.welch().pValue());
                    else if (label.equals("Verdict")) cell = a.welch() == null ? "" : "**" + a.welch().verdict() + "**";
                    else cell = stat(a, label, f);
                    out.append(' ').append(md(cell)).append(" |");
                }
                out.append('\n');
            }
            byArm.forEach((arm, a) -> { if (a.error() != null) out.append("\n").append(md(arm)).append(": ").append(md(a.error())).append('\n'); });
        });
        for (String name : histogramNames(r)) {
            out.append("\n### ").append(md(name)).append("\n\n```\n")
                    .append(SideBySideHistograms.format(name, histograms(r, name))).append("```\n");
        }
        return out.toString();
    }

    /** Each override as code: {@code `/kernel/throttle` = `"task"`}. */
    private static String mdOverrides(Map<String, JsonNode> set) {
        if (set == null || set.isEmpty()) return "(the scenario as it is)";
        StringBuilder b = new StringBuilder();
        set.forEach((k, v) -> b.append(b.length() == 0 ? "" : ", ").append(code(k)).append(" = ").append(code(v.toString())));
        return b.toString();
    }

    /**
     * A code span that holds any text: {@code |} escaped for the table, and a fence of one backtick more than the
     * longest run inside (CommonMark), padded when the text starts or ends with one; so a task named {@code a|b`c} in
     * a metric neither ends the table cell nor the span.
     */
    static String code(String s) {
        String t = md(s);
        int longest = 0, run = 0;
        for (int i = 0; i < t.length(); i++) {
            run = t.charAt(i) == '`' ? run + 1 : 0;
            longest = Math.max(longest, run);
        }
        String fence = "`".repeat(longest + 1);
        String pad = t.startsWith("`") || t.endsWith("`") ? " " : "";
        return fence + pad + t + pad + fence;
    }

    private static String md(String s) {
        return s == null ? "" : s.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ");
    }

    // ----------------------------------------------------------------------------------------------- CSV

    /** CSV header columns. */
    public static final List<String> CSV_COLUMNS = List.of("metric", "arm", "n", "min", "max", "median", "amean", "gmean",
            "hmean", "stddev", "coefvar_pct", "diff_percent", "p_value", "verdict", "values", "seeds", "error");

    /** CSV (RFC 4180, written by Jackson's CSV module): a header, then one row per metric and arm, full precision. */
    public static String csv(ExperimentResult r) {
        CsvSchema.Builder schema = CsvSchema.builder().setUseHeader(true);
        CSV_COLUMNS.forEach(schema::addColumn);
        List<Map<String, String>> rows = new ArrayList<>();
        String seeds = joinSeeds(r.seeds()).replace(",", "");
        r.metrics().forEach((metric, byArm) -> byArm.forEach((arm, a) -> {
            Map<String, String> row = new LinkedHashMap<>();
            Summary s = a.summary();
            Welch w = a.welch();
            row.put("metric", text(metric));
            row.put("arm", text(arm));
            row.put("n", String.valueOf(a.values().size()));
            row.put("min", s == null ? "" : plain(s.min()));
            row.put("max", s == null ? "" : plain(s.max()));
            row.put("median", s == null ? "" : plain(s.median()));
            row.put("amean", s == null ? "" : plain(s.amean()));
            row.put("gmean", s == null ? "" : plain(s.gmean()));
            row.put("hmean", s == null ? "" : plain(s.hmean()));
            row.put("stddev", s == null ? "" : plain(s.stddev()));
            row.put("coefvar_pct", s == null ? "" : plain(s.coefvar()));
            row.put("diff_percent", w == null ? "" : plain(w.diffPercent()));
            row.put("p_value", w == null ? "" : plain(w.pValue()));
            row.put("verdict", w == null ? "" : w.verdict());
            StringBuilder vs = new StringBuilder();
            for (Double v : a.values()) vs.append(vs.length() == 0 ? "" : " ").append(v == null ? "n/a" : plain(v));
            row.put("values", vs.toString());
            row.put("seeds", seeds);
            row.put("error", a.error() == null ? "" : text(a.error()));
            rows.add(row);
        }));
        // quote only where RFC 4180 needs it (a comma, quote or line break), so paths and numbers read as they are
        return CsvMapper.builder().enable(CsvWriteFeature.STRICT_CHECK_FOR_QUOTING).build()
                .writer(schema.build()).writeValueAsString(rows);
    }

    /**
     * A text cell a spreadsheet will not run as a formula (OWASP "CSV injection"): a leading {@code = + - @}, tab or
     * carriage return gets a {@code '} before it. Only names and messages pass here; numbers are written as they are.
     */
    static String text(String s) {
        if (s.isEmpty()) return s;
        char c = s.charAt(0);
        return c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r' ? "'" + s : s;
    }

    // ------------------------------------------------------------------------------------------- helpers

    /** The histograms' names over every arm, in first-seen order. */
    static List<String> histogramNames(ExperimentResult r) {
        List<String> names = new ArrayList<>();
        r.histograms().values().forEach(h -> h.keySet().forEach(n -> { if (!names.contains(n)) names.add(n); }));
        return names;
    }

    static Map<String, HistogramSnapshot> histograms(ExperimentResult r, String name) {
        Map<String, HistogramSnapshot> out = new LinkedHashMap<>();
        for (String arm : r.arms()) {
            HistogramSnapshot h = r.histograms().getOrDefault(arm, Map.of()).get(name);
            out.put(arm, h == null ? new HistogramSnapshot(0, 0, List.of()) : h);
        }
        return out;
    }

    private static String stat(ExperimentResult.MetricArm a, String label, Fmt f) {
        Summary s = a.summary();
        if (s == null) return "n/a";
        return switch (label) {
            case "Min" -> f.stat(s.min());
            case "Max" -> f.stat(s.max());
            case "Median" -> f.stat(s.median());
            case "AMean" -> f.stat(s.amean());
            case "GMean" -> s.gmean() == null ? "-" : f.stat(s.gmean());
            case "HMean" -> s.hmean() == null ? "-" : f.stat(s.hmean());
            case "AMean Stddev" -> f.stat(s.stddev());
            case "AMean CoefVar" -> s.coefvar() == null ? "-" : String.format(Locale.ROOT, "%.2f pct", s.coefvar());
            default -> throw new IllegalArgumentException(label);
        };
    }

    /** Seed 00's cell: {@code 85.45±3.98%}. */
    private static String meanCv(ExperimentResult.MetricArm a, Fmt f) {
        if (a == null || a.summary() == null) return "n/a";
        Summary s = a.summary();
        return f.stat(s.amean()) + "±" + (s.coefvar() == null ? "-" : String.format(Locale.ROOT, "%.2f%%", s.coefvar()));
    }

    /**
     * How one metric's numbers are printed, chosen from the largest of its values so that a column never
     * changes its decimals: whole-number metrics print their values without decimals and their statistics with at
     * most 2; statistics get none from 100,000 up, 2 from 100, 3 from 1, 4 from 0.01, else 3 significant digits.
     */
    record Fmt(boolean whole, int decimals) {
        static Fmt of(Map<String, ExperimentResult.MetricArm> byArm) {
            double scale = 0;
            boolean whole = true;
            for (ExperimentResult.MetricArm a : byArm.values()) {
                for (Double v : a.values()) {
                    if (v == null) continue;
                    scale = Math.max(scale, Math.abs(v));
                    whole &= v == Math.rint(v);
                }
            }
            int d = scale >= 100_000 ? 0 : scale >= 100 ? 2 : scale >= 1 ? 3 : scale >= 0.01 || scale == 0 ? 4 : -1;
            return new Fmt(whole, whole ? Math.min(d, 2) : d); // counts: 59.80, as seed 04's means
        }

        String value(double v) { return whole ? String.format(Locale.ROOT, "%.0f", v) : stat(v); }

        String stat(double v) {
            return decimals < 0 ? String.format(Locale.ROOT, "%.3g", v) : String.format(Locale.ROOT, "%." + decimals + "f", v);
        }
    }

    static String p(Double p) {
        if (p == null) return "n/a";
        if (p != 0 && p < 0.0001) return String.format(Locale.ROOT, "%.1e", p);
        return String.format(Locale.ROOT, "%.4f", p);
    }

    /** Full precision without exponent ({@code 1003530}, {@code 0.123456789}); empty for null. */
    static String plain(Double v) {
        if (v == null || !Double.isFinite(v)) return "";
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    private static String overrides(Map<String, JsonNode> set) {
        if (set == null || set.isEmpty()) return "(the scenario as it is)";
        StringBuilder b = new StringBuilder();
        set.forEach((k, v) -> b.append(b.length() == 0 ? "" : ", ").append(k).append(" = ").append(v));
        return b.toString();
    }

    private static String joinSeeds(List<Long> seeds) {
        StringBuilder b = new StringBuilder();
        for (long s : seeds) b.append(b.length() == 0 ? "" : ", ").append(s);
        return b.toString();
    }

    private static String pad(String s, int w) { return s.length() >= w ? s + " " : s + " ".repeat(w - s.length()); }

    private static String strip(StringBuilder b) {
        int end = b.length();
        while (end > 0 && b.charAt(end - 1) == ' ') end--;
        return b.substring(0, end);
    }
}
