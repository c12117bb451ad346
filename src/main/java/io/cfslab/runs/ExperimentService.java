package io.cfslab.runs;

import io.cfslab.experiment.ExperimentAnalysis;
import io.cfslab.experiment.ExperimentPlan;
import io.cfslab.experiment.ExperimentPlanJson;
import io.cfslab.experiment.ExperimentResult;
import io.cfslab.experiment.ExperimentResultJson;
import io.cfslab.scenario.EffectiveSettings;
import io.cfslab.store.ExperimentRecord;
import io.cfslab.store.ExperimentRepository;
import io.cfslab.store.RunRecord;
import io.cfslab.store.RunRepository;
import io.cfslab.store.RunStatus;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Experiments on the worker pool. An experiment's arms × repeats are ordinary runs (rows of {@code run} with the
 * experiment's id, arm and repeat), each its own job in the shared db-scheduler queue, so every simulation thread
 * of every instance takes part, and a crash or restart loses nothing (the queue re-executes what was running).
 * The experiment's status is derived from its runs ({@link Status}); its statistics are computed once, when the
 * last run is done, by the instance that finished it, or on the first read after that (if that instance died
 * meanwhile), and stored. Blocking (JDBC): call from {@code io.cfslab.store.Jdbc#call} or a worker thread.
 */
@Service
public class ExperimentService {
    private static final Logger log = LoggerFactory.getLogger(ExperimentService.class);

    private final ExperimentRepository experiments;
    private final RunRepository runs;
    private final RunQueue queue;
    private final RunService runService;
    private final RunMetrics metrics;
    private final TransactionTemplate tx;

    public ExperimentService(ExperimentRepository experiments, RunRepository runs, RunQueue queue, RunService runService,
                             RunMetrics metrics, TransactionTemplate tx) {
        this.experiments = experiments;
        this.runs = runs;
        this.queue = queue;
        this.runService = runService;
        this.metrics = metrics;
        this.tx = tx;
    }

    /**
     * An experiment's state, derived from its runs: {@code queued} (no run started yet), {@code running} (some
     * run queued or running), then {@code failed} (a run failed: the others were cancelled), {@code cancelled}
     * (cancelled by request) or {@code done}.
     *
     * @param status   the word
     * @param progress 0..100 %, the mean of its runs' progress
     * @param done     runs done
     * @param total    runs in all
     * @param error    why it failed (the first failed run's arm, repeat and error), or null
     * @param finishedAt when its last run ended, or null while any runs
     */
    public record Status(String status, double progress, int done, int total, String error, Instant finishedAt) {
        public boolean finished() { return !status.equals("queued") && !status.equals("running"); }

        /** @param e the experiment, @param rs its runs */
        public static Status of(ExperimentRecord e, List<RunRecord> rs) {
            int queued = 0, running = 0, done = 0, failed = 0, cancelled = 0;
            double progress = 0;
            String error = null;
            Instant end = null;
            for (RunRecord r : rs) {
                switch (r.status()) {
                    case QUEUED -> queued++;
                    case RUNNING -> running++;
                    case DONE -> done++;
                    case FAILED -> {
                        failed++;
                        if (error == null) error = "arm " + r.armName() + ", run " + (r.repeatIndex() + 1) + " (seed "
                                + r.seed() + "): " + r.error();
                    }
                    case CANCELLED -> cancelled++;
                }
                progress += r.status() == RunStatus.DONE ? 100 : r.progress();
                if (r.finishedAt() != null && (end == null || r.finishedAt().isAfter(end))) end = r.finishedAt();
            }
            int total = Math.max(1, rs.size());
            String word;
            if (queued + running > 0) word = running == 0 && done + failed + cancelled == 0 ? "queued" : "running";
            else if (failed > 0) word = "failed";
            // a cancel that lost the race with the end of every run leaves them done: the experiment is done
            else if (cancelled > 0) word = "cancelled";
            else word = "done";
            boolean finished = queued + running == 0;
            return new Status(word, progress / total, done, rs.size(), error, finished ? end : null);
        }
    }

    /**
     * Accepts an experiment: the experiment row, one run row per arm × repeat (each with the exact scenario document
     * and seed it runs, and its effective settings) and their queue entries, in one transaction.
     *
     * Its runs count against the queue's bounds ({@code cfslab.runs.queue.*}) as so many runs: all are admitted,
     * or none.
     *
     * @param plan           the resolved experiment (every arm's scenario validated)
     * @param definitionJson the experiment document with the scenario snapshot inline
     * @param client         who asks (its remote address), recorded with each run; null for the service's own use
     * @return the new experiment
     * @throws QueueFullException if its runs would exceed a bound of the queue
     */
    public ExperimentRecord submit(ExperimentPlan plan, String definitionJson, String client) {
        String id = UUID.randomUUID().toString();
        Instant now = Instant.now();
        int total = plan.arms().size() * plan.repeats();
        runService.admitted(total, client, false, () -> {
            insert(id, plan, definitionJson, client, now, total);
            return id;
        });
        for (int i = 0; i < total; i++) metrics.submitted();
        return experiments.find(id).orElseThrow();
    }

    private void insert(String id, ExperimentPlan plan, String definitionJson, String client, Instant now, int total) {
        tx.executeWithoutResult(s -> {
            String planJson = ExperimentPlanJson.write(plan);
            experiments.insert(id, plan.name(), plan.scenarioId(), definitionJson, planJson,
                    ExperimentPlanJson.summary(planJson), plan.seed(), plan.arms().size(), plan.repeats(), now);
            int i = 0;
            for (int r = 0; r < plan.repeats(); r++) {
                long seed = plan.seeds()[r];
                for (ExperimentPlan.ArmPlan arm : plan.arms()) {
                    String runId = UUID.randomUUID().toString();
                    runs.insertForExperiment(runId, plan.scenarioId(), arm.scenario().name(),
                            arm.document(seed).toString(), seed, EffectiveSettings.of(arm.scenario(), seed).toString(),
                            id, arm.index(), arm.name(), r, now);
                    if (client != null) runs.setSubmittedBy(runId, client);
                    runs.setDuration(runId, arm.scenario().durationNs()); // shown while queued
                    // due in the past, a microsecond apart: picked in this order
                    queue.enqueue(runId, now.minusNanos((total - i++) * 1000L));
                }
            }
        });
    }

    public Optional<ExperimentRecord> find(String id) { return experiments.find(id); }

    /** The experiment id {@code typed} names: the full id or a unique prefix ({@link io.cfslab.store.RunIds}). */
    public io.cfslab.store.RunIds.Resolution resolveId(String typed) {
        return io.cfslab.store.RunIds.resolve("experiment", new io.cfslab.store.RunIds.Store() {
            @Override public boolean exists(String id) { return experiments.find(id).isPresent(); }
            @Override public List<String> idsStartingWith(String p, int limit) { return experiments.idsStartingWith(p, limit); }
        }, typed);
    }

    /** The ids of the experiments that start with {@code prefix} (stored form), at most {@code limit}. */
    public List<String> idsStartingWith(String prefix, int limit) { return experiments.idsStartingWith(prefix, limit); }

    /** Newest first, without definitions and results. */
    public List<ExperimentRecord> list(int limit) { return experiments.list(limit); }

    /** The runs of an experiment, arm then repeat order. */
    public List<RunRecord> runs(String id) { return runs.listByExperiment(id); }

    /** The most runs one experiment of {@code client} can have ({@link RunService#maxRunsPerRequest}). */
    public int maxRuns(String client) { return runService.maxRunsPerRequest(client); }

    /** The property behind {@link #maxRuns} ({@link RunService#maxRunsPerRequestProperty}). */
    public String maxRunsProperty(String client) { return runService.maxRunsPerRequestProperty(client); }

    /** The runs of each of these experiments, read in one query. @return id → runs (absent: none) */
    public java.util.Map<String, List<RunRecord>> runsOf(java.util.Collection<String> ids) { return runs.listByExperiments(ids); }

    /**
     * The statistics, once every run is done: the stored ones, or computed now from the runs' results and stored.
     *
     * @return empty while a run is not done (or the experiment failed or was cancelled)
     */
    public Optional<ExperimentResult> result(String id) {
        ExperimentRecord e = experiments.find(id).orElse(null);
        if (e == null) return Optional.empty();
        if (e.resultJson() != null) return Optional.of(ExperimentResultJson.read(e.resultJson()));
        List<RunRecord> rs = runs.listByExperiment(id);
        if (rs.isEmpty() || rs.stream().anyMatch(r -> r.status() != RunStatus.DONE)) return Optional.empty();
        ExperimentAnalysis analysis = new ExperimentAnalysis(ExperimentPlanJson.read(e.planJson()));
        for (RunRecord r : rs) {
            String result = runs.findResult(r.id(), 0).orElseThrow(() -> new IllegalStateException(
                    "run " + r.id() + " of experiment " + id + " is done but has no result"));
            analysis.add(r.armIndex(), r.repeatIndex(), result);
        }
        ExperimentResult result = analysis.result();
        experiments.saveResult(id, ExperimentResultJson.write(result));
        return Optional.of(result);
    }

    /**
     * Cancels every queued or running run of an experiment (any instance stops its running ones within the
     * progress interval).
     *
     * @return the experiment, or empty if unknown
     * @throws RunStateException if it already finished
     */
    public Optional<ExperimentRecord> cancel(String id) {
        Optional<ExperimentRecord> found = experiments.find(id);
        if (found.isEmpty()) return found;
        Status st = Status.of(found.get(), runs.listByExperiment(id));
        if (st.finished()) throw new RunStateException("experiment " + id + " already " + st.status());
        experiments.requestCancel(id);
        cancelRuns(id);
        return experiments.find(id);
    }

    private void cancelRuns(String id) {
        for (RunRecord r : runs.listByExperiment(id)) {
            if (r.status().finished()) continue;
            try {
                runService.cancel(r.id());
            } catch (RunStateException finishedMeanwhile) {
                // ended between the read and the cancel
            }
        }
    }

    /**
     * Deletes a finished experiment, its runs and their results.
     *
     * @return false if unknown
     * @throws RunStateException if a run is still queued or running (cancel first)
     */
    public boolean delete(String id) {
        Optional<ExperimentRecord> found = experiments.find(id);
        if (found.isEmpty()) return false;
        Status st = Status.of(found.get(), runs.listByExperiment(id));
        if (!st.finished()) {
            throw new RunStateException("experiment " + id + " is " + st.status() + "; cancel it first (POST /api/experiments/" + id + "/cancel)");
        }
        return Boolean.TRUE.equals(tx.execute(s -> {
            runs.deleteExperimentRuns(id);
            return experiments.delete(id);
        }));
    }

    /** A failed repeat stops the experiment's other runs; the last done one computes the statistics. */
    @EventListener
    public void runFinished(RunFinished f) {
        RunRecord r = runs.find(f.runId()).orElse(null);
        if (r == null || r.experimentId() == null) return;
        try {
            if (f.status() == RunStatus.FAILED) {
                cancelRuns(r.experimentId());
            } else if (f.status() == RunStatus.DONE) {
                result(r.experimentId());
            }
        } catch (RuntimeException e) {
            log.warn("experiment {}: after run {} ended {}: {}", r.experimentId(), r.id(), f.status().word(), e.toString());
        }
    }
}
