package io.cfslab.experiment;

import io.cfslab.metrics.HistogramSnapshot;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * An experiment's result (contract v1.1, "Experiments"): per metric and arm the value of every repeat with its
 * seed and the summary; per non-base arm the difference to base, Welch's p-value and the verdict; per arm every
 * histogram merged over its repeats. Written and read by {@link ExperimentResultJson}, printed by
 * {@link ExperimentTables}.
 *
 * @param experiment  the experiment's name
 * @param description its description, or null
 * @param scenario    the base scenario's name
 * @param scenarioId  the stored scenario it came from, or null
 * @param seed        the experiment's seed
 * @param seeds       seed of each repeat (the same in every arm)
 * @param arms        arm names, base first
 * @param overrides   per arm its own {@code set} (pointer → value)
 * @param metrics     per metric path (in measuring order), per arm
 * @param histograms  per arm, per histogram name, merged over the arm's repeats
 */
public record ExperimentResult(String experiment, String description, String scenario, String scenarioId, long seed,
                               List<Long> seeds, List<String> arms, Map<String, Map<String, JsonNode>> overrides,
                               Map<String, Map<String, MetricArm>> metrics,
                               Map<String, Map<String, HistogramSnapshot>> histograms) {

    /** @return repeats per arm */
    public int repeats() { return seeds.size(); }

    /**
     * One arm's figures of one metric.
     *
     * @param values  value of each repeat (repeat order); null where a run's result has no number at the path
     * @param summary min … coefvar, or null if a value is missing
     * @param welch   versus the base arm; null for the base arm itself or if a value is missing
     * @param error   why there is no summary, or null
     */
    public record MetricArm(List<Double> values, Summary summary, Welch welch, String error) { }
}
