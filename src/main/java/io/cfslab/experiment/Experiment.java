package io.cfslab.experiment;

import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * An experiment as written (contract v1.1, "Experiments"): one scenario run under several arms, each arm
 * repeated with seeds derived from the experiment's seed. Made by {@link ExperimentParser}; resolved against
 * its scenario into runnable arms by {@link ExperimentPlan}.
 *
 * @param name        free text (the table's title)
 * @param description free text: why the experiment is set up as it is (ready-made experiments say here what
 *                    they simplify), or null
 * @param scenario    the whole scenario document, or null when {@code scenarioId} names a stored one
 * @param scenarioId  id of a stored or ready-made scenario, or null when {@code scenario} is given
 * @param seed        the experiment's seed, or null for the scenario's own {@code seed}
 * @param set         overrides applied to every arm before the arm's own (extension of the contract: e.g. a
 *                    shorter {@code /duration} for all arms), RFC 6901 pointer → value, in document order
 * @param arms        at least one; the first is the base
 * @param repeats     runs per arm, 1..{@link #MAX_REPEATS}
 * @param metrics     result paths to measure ({@code cgroups/~1a/cpu.stat/throttled_usec}), or empty for the
 *                    default set (every benchmark, and usage/nr_throttled/throttled_usec of every limited group)
 */
public record Experiment(String name, String description, ObjectNode scenario, String scenarioId, Long seed,
                         Map<String, JsonNode> set, List<Arm> arms, int repeats, List<String> metrics) {
    /** Most arms an experiment may have. */
    public static final int MAX_ARMS = 10;
    /** Most repeats per arm. */
    public static final int MAX_REPEATS = 100;
    /** Most runs (arms × repeats) in one experiment. */
    public static final int MAX_RUNS = 200;
    /** Most metrics named explicitly. */
    public static final int MAX_METRICS = 100;
    /** Most overrides in one {@code set} object. */
    public static final int MAX_OVERRIDES = 1000;

    /**
     * One arm.
     *
     * @param name unique within the experiment, 1..{@value ExperimentParser#MAX_NAME} characters
     * @param set  RFC 6901 pointer into the scenario → the value written there (document order); may be empty
     */
    public record Arm(String name, Map<String, JsonNode> set) { }

    /** The same experiment with another number of repeats (the command line's {@code --repeats}). */
    public Experiment withRepeats(int n) {
        return new Experiment(name, description, scenario, scenarioId, seed, set, arms, n, metrics);
    }

    /** The same experiment with another seed (the command line's {@code --seed}). */
    public Experiment withSeed(long s) {
        return new Experiment(name, description, scenario, scenarioId, s, set, arms, repeats, metrics);
    }
}
