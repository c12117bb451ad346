package io.cfslab.runs;

import io.cfslab.store.RunRecord;
import io.cfslab.store.RunRepository;
import io.cfslab.store.RunStatus;
import java.util.Optional;
import java.util.UUID;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Run lifecycle as the API sees it. Blocking (JDBC): call from {@code io.cfslab.store.Jdbc#call}.
 */
@Service
@EnableConfigurationProperties({RunsProperties.class, LiveProperties.class})
public class RunService {
    private final RunRepository runs;
    private final RunQueue queue;
    private final RunWorker worker;
    private final RunMetrics metrics;
    private final TransactionTemplate tx;

    public RunService(RunRepository runs, RunQueue queue, RunWorker worker, RunMetrics metrics, TransactionTemplate tx) {
        this.runs = runs;
        this.queue = queue;
        this.worker = worker;
        this.metrics = metrics;
        this.tx = tx;
    }

    /**
     * Accepts a run: the run row and its queue entry are written in one transaction, so an accepted run
     * is never lost and never queued without its row.
     *
     * @param scenarioId   the scenario it came from (null for inline)
     * @param scenarioName its name
     * @param scenarioJson the validated scenario document (snapshot)
     * @param seed         seed override or null
     * @param repeats      &ge; 1
     * @return the new run, status {@code queued}
     */
    public RunRecord submit(String scenarioId, String scenarioName, String scenarioJson, Long seed, int repeats) {
        return submit(scenarioId, scenarioName, scenarioJson, seed, repeats, null);
    }

    /**
     * As {@link #submit(String, String, String, Long, int)}, recording the effective settings the run will use.
     *
     * @param settingsJson {@code io.cfslab.scenario.EffectiveSettings} of the validated scenario (with the seed
     *                     override), or null
     */
    public RunRecord submit(String scenarioId, String scenarioName, String scenarioJson, Long seed, int repeats,
                            String settingsJson) {
        String id = UUID.randomUUID().toString();
        tx.executeWithoutResult(s -> {
            runs.insert(id, scenarioId, scenarioName, scenarioJson, seed, repeats, settingsJson);
            queue.enqueue(id);
        });
        metrics.submitted();
        return runs.find(id).orElseThrow();
    }

    public Optional<RunRecord> find(String id) { return runs.find(id); }

    /**
     * Deletes a finished run and its results.
     *
     * @return false if there is no such run
     * @throws IllegalStateException if it is queued or running (cancel it first), or one repeat of an experiment
     *                               (delete the experiment)
     */
    public boolean delete(String id) {
        Optional<RunRecord> found = runs.find(id);
        if (found.isEmpty()) return false;
        RunRecord r = found.get();
        if (r.experimentId() != null) {
            throw new IllegalStateException("run " + id + " is one run of experiment " + r.experimentId()
                    + "; delete the experiment (DELETE /api/experiments/" + r.experimentId() + ")");
        }
        if (!r.status().finished() || !runs.deleteFinished(id)) {
            throw new IllegalStateException("run " + id + " is " + runs.find(id).map(x -> x.status().word()).orElse("gone")
                    + "; only a finished run can be deleted");
        }
        return true;
    }

    /** The live state of a run executing on this instance, or null (queued, finished, or on another instance). */
    public LiveRun live(String id) { return worker.live(id); }

    /**
     * Cancels a queued or running run. A queued run leaves the queue and is {@code cancelled} at once; a
     * running one (on any instance) is flagged and stops within the progress interval.
     *
     * @return the run after the request, or empty if unknown
     * @throws IllegalStateException if the run already finished
     */
    public Optional<RunRecord> cancel(String id) {
        Optional<RunRecord> found = runs.find(id);
        if (found.isEmpty()) return found;
        for (int attempt = 0; attempt < 5; attempt++) {
            RunRecord r = runs.find(id).orElseThrow();
            if (r.status().finished()) {
                throw new IllegalStateException("run " + id + " already " + r.status().word());
            }
            if (r.status() == RunStatus.QUEUED) {
                if (queue.dequeue(id) && runs.cancelQueued(id, "cancelled while queued")) {
                    metrics.finished(RunStatus.CANCELLED, 0, 0);
                    return runs.find(id);
                }
                // picked by an instance between our read and the dequeue: it is (about to be) running
                if (runs.cancelQueued(id, "cancelled while queued")) {
                    metrics.finished(RunStatus.CANCELLED, 0, 0); // the worker will see it finished and skip it
                    return runs.find(id);
                }
            }
            if (runs.requestCancel(id)) {
                worker.cancelLocal(id);
                return runs.find(id);
            }
        }
        return runs.find(id);
    }
}
