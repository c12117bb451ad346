package io.cfslab.experiment;

import io.cfslab.metrics.HistogramSnapshot;
import io.cfslab.metrics.Log2Histogram;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * Collects the results of an experiment's runs, one at a time and in any order (each is reduced at once to
 * its metric values and merged into its arm's histograms, so memory does not grow with the results' size),
 * then computes the {@link ExperimentResult}. Not thread-safe.
 *
 * <p>Default metrics (when the experiment names none): every number under {@code benchmarks} of any result
 * (first seen in arm, then repeat order), then {@code usage_usec}, {@code nr_throttled} and
 * {@code throttled_usec} of {@code cpu.stat} of every group with a quota in some arm
 * ({@link ExperimentPlan#limitedGroups()}).
 */
public final class ExperimentAnalysis {
    private static final JsonMapper JSON = JsonMapper.builder().build();
    static final List<String> GROUP_KEYS = List.of("usage_usec", "nr_throttled", "throttled_usec");

    private final ExperimentPlan plan;
    /** [arm][repeat]: metric → value (null where the result has none); null until added. */
    private final Map<String, Double>[][] values;
    /** [arm][repeat]: benchmark metric paths found. */
    private final List<String>[][] benchmarks;
    private final List<Map<String, Log2Histogram>> histograms = new ArrayList<>();

    @SuppressWarnings("unchecked")
    public ExperimentAnalysis(ExperimentPlan plan) {
        this.plan = plan;
        int arms = plan.arms().size();
        values = new Map[arms][plan.repeats()];
        benchmarks = new List[arms][plan.repeats()];
        for (int a = 0; a < arms; a++) histograms.add(new LinkedHashMap<>());
    }

    /**
     * Adds one run's result.
     *
     * @param arm    arm index
     * @param repeat repeat index
     * @param resultJson the run's result (contract JSON)
     * @throws IllegalArgumentException if that run was added already
     */
    public void add(int arm, int repeat, String resultJson) { add(arm, repeat, JSON.readTree(resultJson)); }

    /** As {@link #add(int, int, String)}, from a parsed result. */
    public void add(int arm, int repeat, JsonNode result) {
        if (values[arm][repeat] != null) throw new IllegalArgumentException("arm " + arm + " repeat " + repeat + " added twice");
        Map<String, Double> v = new LinkedHashMap<>();
        List<String> found = new ArrayList<>();
        JsonNode bench = result.path("benchmarks");
        for (Map.Entry<String, JsonNode> task : bench.properties()) {
            for (Map.Entry<String, JsonNode> key : task.getValue().properties()) {
                if (key.getValue().isNumber()) found.add(MetricPath.of("benchmarks", task.getKey(), key.getKey()));
            }
        }
        for (String m : metricsToRead(found)) v.put(m, MetricPath.value(result, m));
        values[arm][repeat] = v;
        benchmarks[arm][repeat] = found;
        Map<String, Log2Histogram> merged = histograms.get(arm);
        for (Map.Entry<String, JsonNode> h : result.path("histograms").properties()) {
            merged.computeIfAbsent(h.getKey(), k -> new Log2Histogram(1)).add(snapshot(h.getValue()));
        }
    }

    private List<String> metricsToRead(List<String> benchmarkMetrics) {
        if (!plan.metrics().isEmpty()) return plan.metrics();
        List<String> out = new ArrayList<>(benchmarkMetrics);
        out.addAll(groupMetrics());
        return out;
    }

    private List<String> groupMetrics() {
        List<String> out = new ArrayList<>();
        for (String g : plan.limitedGroups()) for (String k : GROUP_KEYS) out.add(MetricPath.of("cgroups", g, "cpu.stat", k));
        return out;
    }

    /** @return whether every run's result was added */
    public boolean complete() {
        for (Map<String, Double>[] arm : values) for (Map<String, Double> r : arm) if (r == null) return false;
        return true;
    }

    /**
     * @return the experiment's result
     * @throws IllegalStateException if a run's result is missing
     */
    public ExperimentResult result() {
        if (!complete()) throw new IllegalStateException("not every run's result was added");
        List<String> metrics;
        if (!plan.metrics().isEmpty()) {
            metrics = plan.metrics();
        } else {
            Set<String> all = new LinkedHashSet<>();
            for (List<String>[] arm : benchmarks) for (List<String> r : arm) all.addAll(r);
            metrics = new ArrayList<>(all);
            metrics.addAll(groupMetrics());
        }
        List<String> armNames = plan.arms().stream().map(ExperimentPlan.ArmPlan::name).toList();
        Map<String, Map<String, ExperimentResult.MetricArm>> byMetric = new LinkedHashMap<>();
        for (String m : metrics) {
            Map<String, ExperimentResult.MetricArm> byArm = new LinkedHashMap<>();
            double[] base = null;
            for (int a = 0; a < armNames.size(); a++) {
                List<Double> vs = new ArrayList<>();
                List<Integer> missing = new ArrayList<>();
                for (int r = 0; r < plan.repeats(); r++) {
                    Double x = values[a][r].get(m);
                    vs.add(x);
                    if (x == null || !Double.isFinite(x)) missing.add(r);
                }
                if (!missing.isEmpty()) {
                    byArm.put(armNames.get(a), new ExperimentResult.MetricArm(vs, null, null, "no number at " + m
                            + " in the result of repeat" + (missing.size() > 1 ? "s " : " ") + join(missing)));
                    if (a == 0) base = null;
                    continue;
                }
                double[] xs = vs.stream().mapToDouble(Double::doubleValue).toArray();
                Summary s = Summary.of(xs);
                Welch w = null;
                if (a == 0) base = xs;
                else if (base != null) w = Welch.compare(base, xs);
                byArm.put(armNames.get(a), new ExperimentResult.MetricArm(vs, s, w, null));
            }
            byMetric.put(m, byArm);
        }
        Map<String, Map<String, HistogramSnapshot>> hists = new LinkedHashMap<>();
        for (int a = 0; a < armNames.size(); a++) {
            Map<String, HistogramSnapshot> h = new LinkedHashMap<>();
            histograms.get(a).forEach((name, hist) -> h.put(name, hist.snapshot()));
            hists.put(armNames.get(a), h);
        }
        Map<String, Map<String, JsonNode>> overrides = new LinkedHashMap<>();
        for (ExperimentPlan.ArmPlan a : plan.arms()) overrides.put(a.name(), a.set());
        List<Long> seeds = Arrays.stream(plan.seeds()).boxed().toList();
        return new ExperimentResult(plan.name(), plan.description(), plan.scenarioName(), plan.scenarioId(), plan.seed(),
                seeds, armNames, overrides, byMetric, hists);
    }

    private static String join(List<Integer> repeats) {
        StringBuilder b = new StringBuilder();
        for (int r : repeats) b.append(b.length() == 0 ? "" : ", ").append(r + 1);
        return b.toString();
    }

    static HistogramSnapshot snapshot(JsonNode h) {
        List<HistogramSnapshot.Bucket> buckets = new ArrayList<>();
        for (JsonNode b : h.path("buckets")) {
            buckets.add(new HistogramSnapshot.Bucket(b.path("low").asLong(), b.path("high").asLong(), b.path("count").asLong()));
        }
        return new HistogramSnapshot(h.path("count").asLong(), h.path("sum").asLong(), List.copyOf(buckets));
    }
}
