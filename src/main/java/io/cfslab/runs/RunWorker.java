package io.cfslab.runs;

import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioException;
import io.cfslab.sim.SimulationAbortedException;
import io.cfslab.store.RunRecord;
import io.cfslab.store.RunRepository;
import io.cfslab.store.RunStatus;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Executes one run on the calling queue thread: every repeat in turn (seeds {@code seed}, {@code seed+1},
 * …), writing progress every {@code cfslab.runs.progress-interval} and reading the run's cancel flag at the
 * same time, so a cancel from any instance stops the simulation within about that interval.
 *
 * <p>Outcomes: all repeats finish → {@code done}; cancel → {@code cancelled}; wall-time or event guard →
 * {@code failed} with the reason; a scenario the engine rejects or an engine error → {@code failed} with
 * the message; this instance shutting down → the run goes back to {@code queued} and
 * {@link RequeueException} tells the queue to execute it again (from the start).
 */
@Component
public class RunWorker {
    private static final Logger log = LoggerFactory.getLogger(RunWorker.class);

    private final RunRepository runs;
    private final SimulationEngine engine;
    private final RunsProperties props;
    private final RunMetrics metrics;
    private final Map<String, Active> active = new ConcurrentHashMap<>();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "cfslab-progress");
        t.setDaemon(true);
        return t;
    });
    private volatile boolean shuttingDown;
    private volatile String workerName = "unnamed";

    /** One executing run: its current repeat's control and what earlier repeats used. */
    private static final class Active {
        volatile GuardedRunControl control;
        volatile int repeat;
        volatile long eventsBefore;
        final long startNanos = System.nanoTime();
        final long durationNs;
        final int repeats;

        Active(long durationNs, int repeats) {
            this.durationNs = durationNs;
            this.repeats = repeats;
        }

        double percent() {
            double total = (double) durationNs * repeats;
            if (total <= 0) return 0;
            double done = (double) repeat * durationNs + Math.min(control == null ? 0 : control.simulatedNs(), durationNs);
            return Math.min(100.0, 100.0 * done / total);
        }

        long events() { return eventsBefore + (control == null ? 0 : control.events()); }

        long wallMs() { return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos); }
    }

    public RunWorker(RunRepository runs, SimulationEngine engine, RunsProperties props, RunMetrics metrics) {
        this.runs = runs;
        this.engine = engine;
        this.props = props;
        this.metrics = metrics;
        long every = Math.max(10, props.progressInterval().toMillis());
        ticker.scheduleWithFixedDelay(this::tick, every, every, TimeUnit.MILLISECONDS);
    }

    void setWorkerName(String name) { this.workerName = name; }

    /** Executes run {@code runId} to its end; see the class comment for the outcomes. */
    void execute(String runId) {
        Optional<RunRecord> found = runs.find(runId);
        if (found.isEmpty() || found.get().status().finished()) {
            return; // deleted, or cancelled while queued
        }
        RunRecord run = found.get();
        if (shuttingDown) throw new RequeueException(runId);
        Scenario base;
        try {
            base = engine.parse(run.scenarioJson());
        } catch (ScenarioException e) {
            if (runs.start(runId, workerName, 0)) {
                finish(runId, RunStatus.FAILED, "invalid scenario: " + e.getMessage(), 0, 0, 0, 0);
            }
            return;
        }
        if (!runs.start(runId, workerName, base.durationNs())) return;
        runs.deleteResults(runId);
        Active a = new Active(base.durationNs(), run.repeats());
        active.put(runId, a);
        metrics.started();
        try {
            runRepeats(run, base, a);
        } finally {
            active.remove(runId);
            metrics.stopped();
        }
    }

    private void runRepeats(RunRecord run, Scenario base, Active a) {
        String id = run.id();
        long seed0 = run.seed() != null ? run.seed() : base.seed();
        long wallLimitNs = props.maxWallTime().toNanos();
        for (int i = 0; i < run.repeats(); i++) {
            Scenario s = withSeed(base, seed0 + i);
            long elapsed = System.nanoTime() - a.startNanos;
            GuardedRunControl control = new GuardedRunControl(props.maxEvents() - a.events(), wallLimitNs - elapsed);
            a.repeat = i;
            a.control = control;
            if (shuttingDown) control.stop(GuardedRunControl.Stop.SHUTDOWN);
            String result;
            try {
                result = engine.simulate(s, control);
            } catch (SimulationAbortedException e) {
                finish(id, RunStatus.FAILED, "max events exceeded (" + props.maxEvents() + "): " + e.getMessage(),
                        a.percent(), control.simulatedNs(), a.events(), a.wallMs());
                return;
            } catch (RuntimeException e) {
                log.warn("run {} failed", id, e);
                finish(id, RunStatus.FAILED, "simulation error: " + e, a.percent(), control.simulatedNs(),
                        a.events(), a.wallMs());
                return;
            }
            switch (control.stopReason()) {
                case USER_CANCEL -> {
                    finish(id, RunStatus.CANCELLED, "cancelled by request", a.percent(), control.simulatedNs(),
                            a.events(), a.wallMs());
                    return;
                }
                case WALL_TIME -> {
                    finish(id, RunStatus.FAILED, "max wall time exceeded (" + props.maxWallTime() + ")",
                            a.percent(), control.simulatedNs(), a.events(), a.wallMs());
                    return;
                }
                case SHUTDOWN -> {
                    runs.requeue(id);
                    log.info("run {} re-queued: instance shutting down", id);
                    throw new RequeueException(id);
                }
                case NONE -> runs.saveResult(id, i, result);
            }
            a.eventsBefore += control.events();
        }
        finish(id, RunStatus.DONE, null, 100.0, base.durationNs(), a.events(), a.wallMs());
        try {
            runs.findResult(id, 0).ifPresent(r -> metrics.exportCgroups(id, r));
        } catch (RuntimeException e) {
            log.debug("cgroup counters of run {} not exported: {}", id, e.toString());
        }
    }

    private void finish(String id, RunStatus status, String error, double pct, long simNs, long events, long wallMs) {
        if (runs.finish(id, status, error, pct, simNs, events, wallMs)) {
            metrics.finished(status, events, wallMs);
        }
    }

    /** Writes progress of every executing run and applies cancel requests found in the database. */
    private void tick() {
        for (Map.Entry<String, Active> e : active.entrySet()) {
            Active a = e.getValue();
            GuardedRunControl c = a.control;
            if (c == null) continue;
            try {
                if (runs.progress(e.getKey(), a.percent(), c.simulatedNs(), a.events(), a.wallMs())) {
                    c.stop(GuardedRunControl.Stop.USER_CANCEL);
                }
            } catch (RuntimeException ex) {
                log.debug("progress of run {} not written: {}", e.getKey(), ex.toString());
            }
        }
    }

    /** Stops a run executing on this instance at once. @return false if it does not execute here */
    public boolean cancelLocal(String runId) {
        Active a = active.get(runId);
        if (a == null || a.control == null) return false;
        a.control.stop(GuardedRunControl.Stop.USER_CANCEL);
        return true;
    }

    /** Stops every local run; each goes back to the queue. Called before the queue stops. */
    void shutdown() {
        shuttingDown = true;
        active.values().forEach(a -> {
            GuardedRunControl c = a.control;
            if (c != null) c.stop(GuardedRunControl.Stop.SHUTDOWN);
        });
        ticker.shutdownNow();
    }

    private static Scenario withSeed(Scenario s, long seed) {
        return new Scenario(s.name(), seed, s.durationNs(), s.machine(), s.kernel(), s.cgroups(), s.tasks(),
                s.timeline(), s.record());
    }
}
