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
@EnableConfigurationProperties({RunsProperties.class, LiveProperties.class, QueueProperties.class})
public class RunService {
    private final RunRepository runs;
    private final RunQueue queue;
    private final RunWorker worker;
    private final RunMetrics metrics;
    private final TransactionTemplate tx;
    private final QueueProperties queueLimits;
    private final RunsProperties runsProps;
    /** Count and insert of a bounded submit happen under this lock (exact on one instance; see submit). */
    private final Object admission = new Object();

    public RunService(RunRepository runs, RunQueue queue, RunWorker worker, RunMetrics metrics, TransactionTemplate tx,
                      QueueProperties queueLimits, RunsProperties runsProps) {
        this.queueLimits = queueLimits;
        this.runsProps = runsProps;
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
    // Not bounded by the queue's limits: for the service's own callers; requests of clients go through
    // submit(..., client).
    public RunRecord submit(String scenarioId, String scenarioName, String scenarioJson, Long seed, int repeats) {
        return insert(scenarioId, scenarioName, scenarioJson, seed, repeats, null, null, null);
    }

    private RunRecord insert(String scenarioId, String scenarioName, String scenarioJson, Long seed, int repeats,
                             String settingsJson, String client, Double pace) {
        String id = UUID.randomUUID().toString();
        tx.executeWithoutResult(s -> insertRows(id, scenarioId, scenarioName, scenarioJson, seed, repeats, settingsJson,
                client, pace));
        metrics.submitted();
        return runs.find(id).orElseThrow();
    }

    private void insertRows(String id, String scenarioId, String scenarioName, String scenarioJson, Long seed, int repeats,
                            String settingsJson, String client, Double pace) {
        runs.insert(id, scenarioId, scenarioName, scenarioJson, seed, repeats, settingsJson);
        if (client != null) runs.setSubmittedBy(id, client);
        if (pace != null) runs.setPace(id, pace);
        queue.enqueue(id);
    }

    /**
     * Runs {@code inserts} once {@code n} more queued runs of {@code client} (and, if {@code paced}, one more paced run)
     * are admitted within the queue's bounds, in one transaction with the count: the transaction first takes the
     * database's admission lock ({@link RunRepository#lockAdmission}), so the count and the inserts are one step for
     * every instance sharing the database, and the bound is exact however many submit at once. On one instance the
     * admissions also take a Java lock first, so they queue there rather than in the database's lock wait (H2 gives up
     * after its lock timeout).
     *
     * @return what {@code inserts} returns
     * @throws QueueFullException if a bound is reached (nothing is inserted), or the admission lock could not be had
     */
    <T> T admitted(int n, String client, boolean paced, java.util.function.Supplier<T> inserts) {
        synchronized (admission) {
            try {
                return tx.execute(s -> {
                    runs.lockAdmission();
                    admit(n, client);
                    if (paced) admitPaced();
                    return inserts.get();
                });
            } catch (org.springframework.dao.PessimisticLockingFailureException busy) {
                throw new QueueFullException("the queue is busy admitting other runs (its admission lock was held longer"
                        + " than the database waits); try again", java.time.Duration.ofSeconds(1), false);
            }
        }
    }

    /**
     * Accepts a run from a client, within the queue's bounds ({@link QueueProperties}): at most {@code max}
     * queued runs in all and {@code maxPerClient} of this client's. The bound is exact, also for API instances
     * sharing one database ({@link #admitted}).
     *
     * @param settingsJson {@code io.cfslab.scenario.EffectiveSettings} of the validated scenario (with the seed
     *                     override), or null
     * @param client who asks (its remote address), recorded with the run
     * @throws QueueFullException if a bound is reached
     * @see #submit(String, String, String, Long, int)
     */
    public RunRecord submit(String scenarioId, String scenarioName, String scenarioJson, Long seed, int repeats,
                            String settingsJson, String client) {
        return submit(scenarioId, scenarioName, scenarioJson, seed, repeats, settingsJson, client, null);
    }

    /**
     * As {@link #submit(String, String, String, Long, int, String, String)}, executed at {@code pace}.
     *
     * @param pace simulated seconds per wall-clock second (10 = ten times real time), so that a person can watch
     *             the run; null for as fast as possible. Never changes the result ({@link GuardedRunControl}).
     */
    public RunRecord submit(String scenarioId, String scenarioName, String scenarioJson, Long seed, int repeats,
                            String settingsJson, String client, Double pace) {
        return submit(scenarioId, scenarioName, scenarioJson, seed, repeats, settingsJson, client, pace, 0);
    }

    /**
     * As {@link #submit(String, String, String, Long, int, String, String, Double)}, with the scenario's duration.
     *
     * @param durationNs the validated scenario's simulated duration per repeat (0: unknown until the run starts)
     */
    public RunRecord submit(String scenarioId, String scenarioName, String scenarioJson, Long seed, int repeats,
                            String settingsJson, String client, Double pace, long durationNs) {
        String id = UUID.randomUUID().toString();
        admitted(1, client, pace != null, () -> {
            insertRows(id, scenarioId, scenarioName, scenarioJson, seed, repeats, settingsJson, client, pace);
            if (durationNs > 0) runs.setDuration(id, durationNs);
            return id;
        });
        metrics.submitted();
        return runs.find(id).orElseThrow();
    }

    /**
     * The most runs one request of {@code client} can ever queue: the queue's bound ({@code cfslab.runs.queue.max}) and,
     * for a known client, its share ({@code max-per-client}). A request for more is refused as invalid (it can never
     * succeed, so "try again later" would be wrong), a request within it may still wait for room (429).
     */
    public int maxRunsPerRequest(String client) {
        long most = queueLimits.max();
        if (client != null && queueLimits.maxPerClient() > 0) most = Math.min(most, queueLimits.maxPerClient());
        return (int) Math.min(Integer.MAX_VALUE, most);
    }

    /** The property that sets {@link #maxRunsPerRequest} for {@code client}: the per-client share or the queue's bound. */
    public String maxRunsPerRequestProperty(String client) {
        return client != null && queueLimits.maxPerClient() > 0 && queueLimits.maxPerClient() < queueLimits.max()
                ? "cfslab.runs.queue.max-per-client" : "cfslab.runs.queue.max";
    }

    /**
     * Admits {@code n} more queued runs of {@code client} within the queue's bounds, or refuses them all. Call inside
     * {@link #admitted}, which holds the admission locks until the runs are inserted.
     *
     * @throws QueueFullException if {@code n} more would exceed a bound
     */
    void admit(int n, String client) {
        long queued = runs.count(RunStatus.QUEUED);
        if (queued + n > queueLimits.max()) {
            throw new QueueFullException(queued + " runs are queued, the limit (cfslab.runs.queue.max) is "
                    + queueLimits.max() + (n > 1 ? " and this request adds " + n : "")
                    + "; try again when some have started", queueLimits.retryAfter(), false);
        }
        if (client != null && queueLimits.maxPerClient() > 0) {
            long mine = runs.count(RunStatus.QUEUED, client);
            if (mine + n > queueLimits.maxPerClient()) {
                throw new QueueFullException("you have " + mine + " runs queued, the limit per client"
                        + " (cfslab.runs.queue.max-per-client) is " + queueLimits.maxPerClient()
                        + (n > 1 ? " and this request adds " + n : "")
                        + "; try again when some have started", queueLimits.retryAfter(), true);
            }
        }
    }

    /**
     * Admits one more paced run within {@code cfslab.runs.max-paced} ({@link RunsProperties#pacedLimit()}). A paced run
     * holds its simulation thread for its whole wall time, mostly waiting for the clock ({@code pace: 0.01} on a 1 s
     * scenario: 100 s), so without a bound two of them took both threads of a 2-core instance and every other run
     * waited behind them for up to {@code max-wall-time}. By default one thread stays free of paced runs.
     *
     * @throws QueueFullException (pointer {@code /pace}) if the limit is reached
     */
    private void admitPaced() {
        int limit = runsProps.pacedLimit();
        if (limit <= 0) return;
        long paced = runs.countPacedActive();
        if (paced >= limit) {
            throw new QueueFullException(paced + " paced run" + (paced == 1 ? " is" : "s are") + " queued or executing,"
                    + " the limit (cfslab.runs.max-paced) is " + limit + ": a paced run holds a simulation thread while"
                    + " it waits for the wall clock, and one thread stays for runs at full speed; try again when it"
                    + " has ended, or leave out pace", queueLimits.retryAfter(), false) {
                @Override
                public String pointer() { return "/pace"; }
            };
        }
    }

    public Optional<RunRecord> find(String id) { return runs.find(id); }

    /** Whether repeat {@code repeat} of run {@code id} has a stored result (a cancelled run's may be partial). */
    public boolean hasResult(String id, int repeat) { return runs.hasResult(id, repeat); }

    /** The run id {@code typed} names: the full id or a unique prefix ({@link io.cfslab.store.RunIds}). */
    public io.cfslab.store.RunIds.Resolution resolveId(String typed) { return io.cfslab.store.RunIds.resolve(runs, typed); }

    /**
     * Deletes a finished run and its results.
     *
     * @return false if there is no such run
     * @throws RunStateException if it is queued or running (cancel it first), or one repeat of an experiment
     *                               (delete the experiment)
     */
    public boolean delete(String id) {
        Optional<RunRecord> found = runs.find(id);
        if (found.isEmpty()) return false;
        RunRecord r = found.get();
        if (r.experimentId() != null) {
            throw new RunStateException("run " + id + " is one run of experiment " + r.experimentId()
                    + "; delete the experiment (DELETE /api/experiments/" + r.experimentId() + ")");
        }
        if (!r.status().finished() || !runs.deleteFinished(id)) {
            Optional<RunRecord> now = runs.find(id);
            if (now.isEmpty()) return false; // deleted by a concurrent request: there is no such run now
            throw new RunStateException("run " + id + " is " + now.get().status().word()
                    + "; only a run that has ended can be deleted: cancel it first (POST /api/runs/" + id + "/cancel)");
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
     * @throws RunStateException if the run already finished
     */
    public Optional<RunRecord> cancel(String id) {
        Optional<RunRecord> found = runs.find(id);
        if (found.isEmpty()) return found;
        for (int attempt = 0; attempt < 5; attempt++) {
            Optional<RunRecord> now = runs.find(id);
            if (now.isEmpty()) return now; // deleted by a concurrent DELETE since the first read: unknown now
            RunRecord r = now.get();
            if (r.status().finished()) {
                throw new RunStateException("run " + id + " already " + r.status().word());
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
