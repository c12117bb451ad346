package io.cfslab.store;

import java.time.Instant;

/**
 * A stored experiment; its runs are rows of {@code run} with its id ({@link RunRecord#experimentId()}).
 *
 * @param id              opaque id (UUID text)
 * @param name            the experiment's name
 * @param scenarioId      the stored or ready-made scenario it was made from, or null for an inline one
 * @param definitionJson  the experiment document with the scenario snapshot inline: POSTing it again runs exactly
 *                        the same experiment, whatever happened to the stored scenario since
 * @param planJson        the resolved plan ({@code io.cfslab.experiment.ExperimentPlanJson})
 * @param seed            the experiment's seed
 * @param arms            number of arms
 * @param repeats         repeats per arm
 * @param cancelRequested a cancel was asked for
 * @param resultJson      the statistics ({@code io.cfslab.experiment.ExperimentResultJson}) once every run is done,
 *                        else null
 * @param createdAt       submission time
 */
public record ExperimentRecord(String id, String name, String scenarioId, String definitionJson, String planJson,
                               long seed, int arms, int repeats, boolean cancelRequested, String resultJson,
                               Instant createdAt) {
}
