package io.cfslab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.metrics.HistogramSnapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * Every format a result is printed in (text, Markdown, CSV, JSON) names each arm once and calls one arm, at most,
 * the base: for arm names that say base ({@code base}, {@code base (cfs_rq)}), that do not, and a base that is not
 * first ({@code head, base}). The cases are {@code frontend/test/fixtures/arm-labels.json}, which the dashboard's
 * {@code armLabel} is held to as well (ui11.test.ts), so that the experiment page and the tables label arms alike.
 */
class ArmLabelsTest {
    record Case(List<String> arms, List<String> labels) {}

    static List<Case> cases() throws Exception {
        JsonNode tree = new ObjectMapper().readTree(Files.readString(Path.of("frontend/test/fixtures/arm-labels.json")));
        List<Case> out = new ArrayList<>();
        for (JsonNode c : tree) {
            List<String> arms = new ArrayList<>(), labels = new ArrayList<>();
            c.get("arms").forEach(a -> arms.add(a.asString()));
            c.get("labels").forEach(a -> labels.add(a.asString()));
            out.add(new Case(arms, labels));
        }
        return out;
    }

    /** A result of {@code arms}, one metric, three repeats, each arm a little slower than the one before. */
    static ExperimentResult result(List<String> arms) {
        double[] first = {100, 102, 101};
        Map<String, ExperimentResult.MetricArm> byArm = new LinkedHashMap<>();
        Map<String, Map<String, JsonNode>> overrides = new LinkedHashMap<>();
        Map<String, Map<String, HistogramSnapshot>> hists = new LinkedHashMap<>();
        for (int i = 0; i < arms.size(); i++) {
            double[] v = {100 + 10 * i, 102 + 10 * i, 101 + 10 * i};
            byArm.put(arms.get(i), new ExperimentResult.MetricArm(ExperimentTablesTest.boxed(v), Summary.of(v),
                    i == 0 ? null : Welch.compare(first, v), null));
            overrides.put(arms.get(i), Map.of("/kernel/throttle", JsonNodeFactory.instance.stringNode("t" + i)));
            hists.put(arms.get(i), Map.of("distribute_cfs_runtime_ns", ExperimentTablesTest.hist(2048, 3 + i)));
        }
        return new ExperimentResult("labels", null, "s", null, 1, List.of(1L, 2L, 3L), arms, overrides,
                Map.of("benchmarks/x/time_s", byArm), hists);
    }

    /** "base" as a word, then " (base)" later in the same cell or line: the repetition this class is about. */
    static final Pattern TWICE = Pattern.compile("(?i)(?<![A-Za-z0-9_])base(?![A-Za-z0-9_])[^|\\n,\"]*\\(base\\)");

    @Test
    void everyFormatLabelsTheBaseArmOnceWhateverTheArmsAreNamed() throws Exception {
        List<Case> cases = cases();
        assertThat(cases).extracting(c -> c.arms().get(0)).contains("base", "cfs_rq", "head"); // named base, otherwise, base not first
        for (Case c : cases) {
            ExperimentResult r = result(c.arms());
            List<String> labels = new ArrayList<>();
            for (int i = 0; i < c.arms().size(); i++) labels.add(ArmNames.label(c.arms(), i));
            assertThat(labels).as("labels of %s", c.arms()).isEqualTo(c.labels());
            boolean someSaysBase = c.arms().stream().anyMatch(ArmNames::saysBase);
            Map<String, String> formats = Map.of("text", ExperimentTables.text(r), "markdown", ExperimentTables.markdown(r),
                    "csv", ExperimentTables.csv(r), "json", ExperimentResultJson.write(r));
            formats.forEach((format, out) -> {
                String as = format + " of " + c.arms();
                assertThat(TWICE.matcher(out).find()).as(as + ": an arm called base twice\n" + out).isFalse();
                // "(base)" marks the first arm in the formats that mark it, once, and only when no arm's name says base
                int marks = count(out, "(base)");
                assertThat(marks).as(as).isEqualTo(format.equals("markdown") && !someSaysBase ? 1 : 0);
                if (format.equals("markdown")) assertThat(out).as(as).contains("| " + c.labels().get(0) + " | ");
            });
            // the text table's verdict line names the first arm as what the others are compared with
            assertThat(formats.get("text")).contains("every arm against " + c.arms().get(0) + " (the first arm)");
            // CSV and JSON name arms as they are (scripts pick arms by name): no label in them
            JsonNode json = new ObjectMapper().readTree(formats.get("json"));
            List<String> jsonArms = new ArrayList<>();
            json.get("arms").forEach(a -> jsonArms.add(a.asString()));
            assertThat(jsonArms).as("json of %s", c.arms()).isEqualTo(c.arms());
            List<String> csvArms = new ArrayList<>();
            for (String line : formats.get("csv").split("\n")) if (line.startsWith("benchmarks/")) csvArms.add(csvArm(line));
            assertThat(csvArms).as("csv of %s", c.arms()).isEqualTo(c.arms());
        }
    }

    private static int count(String s, String what) {
        int n = 0;
        for (Matcher m = Pattern.compile(Pattern.quote(what)).matcher(s); m.find(); ) n++;
        return n;
    }

    /** The arm column of a CSV row (the second; quoted when it holds a comma or quote). */
    private static String csvArm(String line) {
        String rest = line.substring(line.indexOf(',') + 1);
        if (!rest.startsWith("\"")) return rest.substring(0, rest.indexOf(','));
        StringBuilder b = new StringBuilder();
        for (int i = 1; i < rest.length(); i++) {
            char ch = rest.charAt(i);
            if (ch == '"' && i + 1 < rest.length() && rest.charAt(i + 1) == '"') { b.append('"'); i++; }
            else if (ch == '"') break;
            else b.append(ch);
        }
        return b.toString();
    }
}
