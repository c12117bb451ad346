package io.cfslab.experiment;

import io.cfslab.metrics.HistogramSnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * The contract's experiment result JSON:
 * <pre>
 * { "experiment": name, "description", "scenario": scenario name, "scenario_id", "seed", "arms": ["base", "head"],
 *   "repeats": N, "seeds": [...], "overrides": { ARM: { POINTER: value } },
 *   "metrics": { METRIC: { ARM: { "values": [...], "seeds": [...], "min", "max", "median", "amean", "gmean",
 *                                  "hmean", "stddev", "coefvar",
 *                                  "diff_percent", "p_value", "verdict" (non-base arms), "error" (if any) } } },
 *   "histograms": { ARM: { NAME: { "count", "sum", "buckets": [ { "low", "high", "count" } ] } } } }
 * </pre>
 * {@code coefvar} is in percent (seed 04's "pct"); {@code gmean}/{@code hmean} are null unless every value is
 * positive; {@code p_value} is null with a single repeat. Values that are whole numbers are written as integers.
 * Key order is fixed, so the same result gives the same bytes.
 */
public final class ExperimentResultJson {
    private ExperimentResultJson() {}

    private static final JsonMapper MAPPER = JsonMapper.builder()
            .enable(SerializationFeature.INDENT_OUTPUT)
            .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER).build();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    /** @return pretty-printed JSON */
    public static String write(ExperimentResult r) { return MAPPER.writeValueAsString(tree(r)); }

    /** @return the JSON tree */
    public static ObjectNode tree(ExperimentResult r) {
        ObjectNode o = F.objectNode();
        o.put("experiment", r.experiment());
        o.put("description", r.description());
        o.put("scenario", r.scenario());
        o.put("scenario_id", r.scenarioId());
        o.put("seed", r.seed());
        ArrayNode arms = o.putArray("arms");
        r.arms().forEach(arms::add);
        o.put("repeats", r.repeats());
        ArrayNode seeds = o.putArray("seeds");
        r.seeds().forEach(seeds::add);
        ObjectNode ov = o.putObject("overrides");
        r.overrides().forEach((arm, set) -> {
            ObjectNode s = ov.putObject(arm);
            set.forEach(s::set);
        });
        ObjectNode ms = o.putObject("metrics");
        r.metrics().forEach((metric, byArm) -> {
            ObjectNode m = ms.putObject(metric);
            byArm.forEach((arm, a) -> {
                ObjectNode x = m.putObject(arm);
                ArrayNode vs = x.putArray("values");
                a.values().forEach(v -> vs.add(number(v)));
                ArrayNode ss = x.putArray("seeds");
                r.seeds().forEach(ss::add);
                Summary s = a.summary();
                if (s != null) {
                    x.set("min", number(s.min()));
                    x.set("max", number(s.max()));
                    x.set("median", number(s.median()));
                    x.set("amean", number(s.amean()));
                    x.set("gmean", number(s.gmean()));
                    x.set("hmean", number(s.hmean()));
                    x.set("stddev", number(s.stddev()));
                    x.set("coefvar", number(s.coefvar()));
                }
                Welch w = a.welch();
                if (w != null) {
                    x.set("diff_percent", number(w.diffPercent()));
                    x.set("p_value", number(w.pValue()));
                    x.put("verdict", w.verdict());
                }
                if (a.error() != null) x.put("error", a.error());
            });
        });
        ObjectNode hs = o.putObject("histograms");
        r.histograms().forEach((arm, byName) -> {
            ObjectNode a = hs.putObject(arm);
            byName.forEach((name, h) -> a.set(name, histogram(h)));
        });
        return o;
    }

    static ObjectNode histogram(HistogramSnapshot h) {
        ObjectNode o = F.objectNode();
        o.put("count", h.count());
        o.put("sum", h.sum());
        ArrayNode b = o.putArray("buckets");
        for (HistogramSnapshot.Bucket x : h.buckets()) {
            ObjectNode e = b.addObject();
            e.put("low", x.low());
            e.put("high", x.high());
            e.put("count", x.count());
        }
        return o;
    }

    /** A whole number as an integer, else a double; null stays null. */
    static JsonNode number(Double v) {
        if (v == null || !Double.isFinite(v)) return F.nullNode();
        if (v == Math.rint(v) && Math.abs(v) < 9.007199254740992E15) return F.numberNode(v.longValue());
        return F.numberNode(v);
    }

    /**
     * @param json text written by {@link #write}
     * @return the result (summaries and comparisons as written)
     */
    public static ExperimentResult read(String json) {
        JsonNode o = MAPPER.readTree(json);
        List<String> arms = new ArrayList<>();
        o.path("arms").forEach(a -> arms.add(a.asString()));
        List<Long> seeds = new ArrayList<>();
        o.path("seeds").forEach(s -> seeds.add(s.asLong()));
        Map<String, Map<String, JsonNode>> overrides = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : o.path("overrides").properties()) {
            Map<String, JsonNode> set = new LinkedHashMap<>();
            e.getValue().properties().forEach(p -> set.put(p.getKey(), p.getValue()));
            overrides.put(e.getKey(), set);
        }
        Map<String, Map<String, ExperimentResult.MetricArm>> metrics = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> m : o.path("metrics").properties()) {
            Map<String, ExperimentResult.MetricArm> byArm = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> a : m.getValue().properties()) {
                JsonNode x = a.getValue();
                List<Double> values = new ArrayList<>();
                x.path("values").forEach(v -> values.add(v.isNumber() ? v.doubleValue() : null));
                Summary s = x.has("amean") ? new Summary(values.size(), d(x, "min"), d(x, "max"), d(x, "median"),
                        d(x, "amean"), dn(x, "gmean"), dn(x, "hmean"), d(x, "stddev"), dn(x, "coefvar")) : null;
                Welch w = x.has("verdict") ? new Welch(dn(x, "diff_percent"), dn(x, "p_value"), x.path("verdict").asString()) : null;
                String err = x.hasNonNull("error") ? x.get("error").asString() : null;
                byArm.put(a.getKey(), new ExperimentResult.MetricArm(values, s, w, err));
            }
            metrics.put(m.getKey(), byArm);
        }
        Map<String, Map<String, HistogramSnapshot>> hists = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> a : o.path("histograms").properties()) {
            Map<String, HistogramSnapshot> byName = new LinkedHashMap<>();
            a.getValue().properties().forEach(h -> byName.put(h.getKey(), ExperimentAnalysis.snapshot(h.getValue())));
            hists.put(a.getKey(), byName);
        }
        return new ExperimentResult(o.path("experiment").asString(), text(o, "description"), text(o, "scenario"),
                text(o, "scenario_id"), o.path("seed").asLong(), seeds, arms, overrides, metrics, hists);
    }

    private static String text(JsonNode o, String k) { return o.hasNonNull(k) ? o.get(k).asString() : null; }

    private static double d(JsonNode o, String k) { return o.path(k).doubleValue(); }

    private static Double dn(JsonNode o, String k) { return o.hasNonNull(k) ? o.get(k).doubleValue() : null; }
}
