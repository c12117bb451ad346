package io.cfslab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.metrics.BpftraceText;
import io.cfslab.metrics.HistogramSnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.dataformat.csv.CsvMapper;
import tools.jackson.dataformat.csv.CsvSchema;

/** The pasted forms of a result: seed 04's text block, seed 00's summary row, Markdown, CSV, side-by-side histograms. */
class ExperimentTablesTest {

    static HistogramSnapshot hist(long... lowCount) {
        List<HistogramSnapshot.Bucket> b = new ArrayList<>();
        long n = 0;
        for (int i = 0; i < lowCount.length; i += 2) {
            b.add(new HistogramSnapshot.Bucket(lowCount[i], lowCount[i] * 2, lowCount[i + 1]));
            n += lowCount[i + 1];
        }
        return new HistogramSnapshot(n, n * 3000, b);
    }

    /** StatisticsTest's "significant" data as a two-arm result of metric benchmarks/hb/time_s. */
    static ExperimentResult result() {
        double[] base = StatisticsTest.SIG_BASE;
        double[] head = StatisticsTest.SIG_HEAD;
        Map<String, ExperimentResult.MetricArm> byArm = new LinkedHashMap<>();
        byArm.put("tip", new ExperimentResult.MetricArm(boxed(base), Summary.of(base), null, null));
        byArm.put("tip + series", new ExperimentResult.MetricArm(boxed(head), Summary.of(head), Welch.compare(base, head), null));
        Map<String, Map<String, ExperimentResult.MetricArm>> metrics = new LinkedHashMap<>();
        metrics.put("benchmarks/hb/time_s", byArm);
        Map<String, Map<String, HistogramSnapshot>> hists = new LinkedHashMap<>();
        hists.put("tip", Map.of("distribute_cfs_runtime_ns", hist(2048, 20, 4096, 17, 8192, 2)));
        hists.put("tip + series", Map.of("distribute_cfs_runtime_ns", hist(4096, 5, 8192, 30, 16384, 9, 32768, 1)));
        Map<String, Map<String, tools.jackson.databind.JsonNode>> overrides = new LinkedHashMap<>();
        overrides.put("tip", Map.of("/kernel/throttle", JsonNodeFactory.instance.stringNode("task")));
        overrides.put("tip + series", Map.of("/kernel/throttle", JsonNodeFactory.instance.stringNode("task-account")));
        return new ExperimentResult("seed 04", null, "three levels", null, 4, List.of(11L, 12L, 13L, 14L, 15L),
                List.of("tip", "tip + series"), overrides, metrics, hists);
    }

    static List<Double> boxed(double[] xs) {
        List<Double> out = new ArrayList<>();
        for (double x : xs) out.add(x);
        return out;
    }

    @Test
    void textIsSeed04sBlockAfterSeed00sSummary() {
        String text = ExperimentTables.text(result());
        assertThat(text).contains("""
                metric                 tip            tip + series   diff
                benchmarks/hb/time_s   208.29±0.53%   217.76±1.48%   +4.5%
                """);
        assertThat(text).contains("""
                benchmarks/hb/time_s
                  arm            : tip         tip + series
                  Run 1          : 207.33      214.20
                  Run 2          : 207.83      218.33
                  Run 3          : 208.10      222.47
                  Run 4          : 210.20      215.36
                  Run 5          : 207.99      218.44
                  Min            : 207.33      214.20
                  Max            : 210.20      222.47
                  Median         : 207.99      218.33
                  AMean          : 208.29      217.76
                  GMean          : 208.29      217.74
                  HMean          : 208.29      217.72
                  AMean Stddev   : 1.11        3.22
                  AMean CoefVar  : 0.53 pct    1.48 pct
                  Diff           :             +4.55 pct
                  p (Welch)      :             0.0016
                  Verdict        :             +4.5%
                """);
        assertThat(text).contains("Arms:       tip           /kernel/throttle = \"task\"\n            tip + series  /kernel/throttle");
        assertThat(text).contains("run i of every arm has seed i: 11, 12, 13, 14, 15");
        assertThat(text).contains("tip (39 calls)");
    }

    @Test
    void histogramsSideBySideKeepEachColumnAsBpftracePrintsIt() {
        ExperimentResult r = result();
        String text = SideBySideHistograms.format("distribute_cfs_runtime_ns", ExperimentTables.histograms(r, "distribute_cfs_runtime_ns"));
        String[] lines = text.split("\n");
        int col = SideBySideHistograms.COLUMN + SideBySideHistograms.GAP.length();
        List<String> left = new ArrayList<>();
        List<String> right = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            String l = lines[i];
            String a = l.substring(0, Math.min(l.length(), SideBySideHistograms.COLUMN)).stripTrailing();
            String b = l.length() > col ? l.substring(col) : "";
            if (!a.isEmpty()) left.add(a);
            if (!b.isEmpty()) right.add(b);
        }
        assertThat(String.join("\n", left) + "\n").isEqualTo(
                BpftraceText.format("distribute_cfs_runtime_ns", r.histograms().get("tip").get("distribute_cfs_runtime_ns")));
        assertThat(String.join("\n", right) + "\n").isEqualTo(
                BpftraceText.format("distribute_cfs_runtime_ns", r.histograms().get("tip + series").get("distribute_cfs_runtime_ns")));
        // rows are aligned on buckets: [32K, 64K) exists only on the right, [2K, 4K) only on the left
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith(" ".repeat(col) + "[32K, 64K)"));
        assertThat(lines).anySatisfy(l -> assertThat(l).startsWith("[2K, 4K)").doesNotContain("[4K"));
    }

    @Test
    void markdownAndCsv() {
        String md = ExperimentTables.markdown(result());
        assertThat(md).contains("| metric | tip | tip + series | diff |\n|---|---:|---:|---:|\n"
                + "| `benchmarks/hb/time_s` | 208.29 ± 0.53% | 217.76 ± 1.48% | +4.5% (p = 0.0016) |\n");
        assertThat(md).contains("| AMean CoefVar | 0.53 pct | 1.48 pct |", "| Verdict |  | **+4.5%** |", "```\ntip (39 calls)");

        String csv = ExperimentTables.csv(result());
        var rows = new CsvMapper().readerFor(Map.class).with(CsvSchema.emptySchema().withHeader())
                .<Map<String, String>>readValues(csv).readAll();
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).keySet()).containsExactlyElementsOf(ExperimentTables.CSV_COLUMNS);
        Map<String, String> head = rows.get(1);
        assertThat(head.get("arm")).isEqualTo("tip + series");
        assertThat(head.get("values")).isEqualTo("214.2 218.33 222.47 215.36 218.44");
        assertThat(head.get("seeds")).isEqualTo("11 12 13 14 15");
        assertThat(Double.parseDouble(head.get("p_value"))).isEqualTo(Welch.compare(StatisticsTest.SIG_BASE, StatisticsTest.SIG_HEAD).pValue());
        assertThat(head.get("verdict")).isEqualTo("+4.5%");
        assertThat(rows.get(0).get("verdict")).isEmpty();
    }

    @Test
    void jsonFollowsTheContractLayout() {
        var tree = ExperimentResultJson.tree(result());
        assertThat(tree.path("arms").toString()).isEqualTo("[\"tip\",\"tip + series\"]");
        assertThat(tree.path("repeats").asInt()).isEqualTo(5);
        var head = tree.path("metrics").path("benchmarks/hb/time_s").path("tip + series");
        assertThat(head.path("values").toString()).isEqualTo("[214.2,218.33,222.47,215.36,218.44]");
        assertThat(head.path("seeds").toString()).isEqualTo("[11,12,13,14,15]");
        for (String k : List.of("min", "max", "median", "amean", "gmean", "hmean", "stddev", "coefvar", "diff_percent", "p_value")) {
            assertThat(head.path(k).isNumber()).as(k).isTrue();
        }
        assertThat(head.path("verdict").asString()).isEqualTo("+4.5%");
        assertThat(tree.path("metrics").path("benchmarks/hb/time_s").path("tip").has("verdict")).isFalse();
        assertThat(tree.path("histograms").path("tip").path("distribute_cfs_runtime_ns").path("count").asLong()).isEqualTo(39);
    }

    @Test
    void namesCannotBreakAMarkdownCellOrRunAsASpreadsheetFormula() {
        // a plain metric reads as before; a | is escaped for the table; backticks get a longer fence
        assertThat(ExperimentTables.code("tasks/nop/usage_usec")).isEqualTo("`tasks/nop/usage_usec`");
        assertThat(ExperimentTables.code("tasks/a|b`c/usage_usec")).isEqualTo("``tasks/a\\|b`c/usage_usec``");
        assertThat(ExperimentTables.code("`x")).isEqualTo("`` `x ``");
        // CSV: a name that a spreadsheet would evaluate is written as text; others as they are
        assertThat(ExperimentTables.text("=HYPERLINK(\"http://x\")")).isEqualTo("'=HYPERLINK(\"http://x\")");
        assertThat(ExperimentTables.text("@SUM(A1)")).startsWith("'");
        assertThat(ExperimentTables.text("+1")).isEqualTo("'+1");
        assertThat(ExperimentTables.text("base")).isEqualTo("base");
        assertThat(ExperimentTables.text("")).isEmpty();
    }
}
