package io.cfslab.runs;

import io.cfslab.store.RunStatus;

/**
 * Published (Spring application event, on the thread that ended the run) when a run reached {@code done},
 * {@code failed} or {@code cancelled} on this instance. {@link ExperimentService} listens: a failed repeat
 * stops its experiment's other runs, the last done one triggers the statistics.
 *
 * @param runId  the run
 * @param status its final status
 */
public record RunFinished(String runId, RunStatus status) { }
