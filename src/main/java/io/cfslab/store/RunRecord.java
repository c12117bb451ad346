package io.cfslab.store;

import java.time.Instant;

/**
 * A stored run.
 *
 * @param id              opaque id (UUID text)
 * @param scenarioId      the stored or ready-made scenario it was started from, or null for an inline one
 * @param scenarioName    the scenario's name
 * @param scenarioJson    snapshot of the scenario at submission (later edits do not change the run)
 * @param seed            seed override, or null for the scenario's own
 * @param repeats         how many times the scenario runs (seeds seed, seed+1, …), &ge; 1
 * @param status          lifecycle state
 * @param progress        0..100 %, over all repeats
 * @param simulatedNs     simulated time reached in the current repeat, ns
 * @param durationNs      simulated time to reach per repeat, ns (0 until known)
 * @param events          simulated events processed so far (all repeats)
 * @param wallMs          wall time spent executing, ms
 * @param error           why it failed or was cancelled, else null
 * @param cancelRequested a cancel was asked for while it ran (any instance stops it at its next poll)
 * @param attempts        how many times an executor started it (more than 1 after a re-queue)
 * @param worker          the instance that executes or executed it last
 * @param createdAt       submission time
 * @param startedAt       start of the last attempt, or null
 * @param finishedAt      end, or null
 * @param experimentId    the experiment this run is one repeat of, or null for a run of its own
 * @param armIndex        its arm (0 = base), or null
 * @param armName         its arm's name, or null
 * @param repeatIndex     its repeat (0-based), or null
 * @param settingsJson    the effective settings it ran with ({@code io.cfslab.scenario.EffectiveSettings}), or
 *                        null for a run stored before they were recorded
 * @param interruptions   how many of its attempts died with their instance (crash, kill -9); bounded by
 *                        {@code cfslab.runs.max-attempts}
 * @param interruptedAt   when the last such death was noticed, or null
 * @param interruptedWorker the instance that died during its last interrupted attempt, or null
 * @param pace            simulated seconds per wall-clock second it is executed at (10 = ten times real time), or
 *                        null for as fast as possible; never changes the result
 */
public record RunRecord(String id, String scenarioId, String scenarioName, String scenarioJson, Long seed,
                        int repeats, RunStatus status, double progress, long simulatedNs, long durationNs,
                        long events, long wallMs, String error, boolean cancelRequested, int attempts,
                        String worker, Instant createdAt, Instant startedAt, Instant finishedAt,
                        String experimentId, Integer armIndex, String armName, Integer repeatIndex,
                        String settingsJson, int interruptions, Instant interruptedAt, String interruptedWorker,
                        Double pace) {
}
