package io.cfslab.runs;

import io.cfslab.scenario.EffectiveSettings;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioException;
import io.cfslab.sim.SimulationAbortedException;
import io.cfslab.store.ResultParts;
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
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Executes one run on the calling queue thread: every repeat in turn (seeds {@code seed}, {@code seed+1},
 * …), writing progress every {@code cfslab.runs.progress-interval} and reading the run's cancel flag at the
 * same time, so a cancel from any instance stops the simulation within about that interval.
 *
 * <p>Outcomes: all repeats finish → {@code done}; cancel → {@code cancelled}, keeping the repeats that finished and
 * the one it stopped as a partial result ({@code partial}: where it stopped), stored with the status change in one
 * transaction; wall-time or event guard →
 * {@code failed} with the reason; a scenario the engine rejects or an engine error → {@code failed} with
 * the message; this instance shutting down → the run goes back to {@code queued} and
 * {@link RequeueException} tells the queue to execute it again (from the start). Every end is published as a
 * {@link RunFinished} event.
 */
@Component
public class RunWorker {
    private static final Logger log = LoggerFactory.getLogger(RunWorker.class);

    private final RunRepository runs;
    private final SimulationEngine engine;
    private final RunsProperties props;
    private final RunMetrics metrics;
    private final LiveProperties live;
    private final ApplicationEventPublisher events;
    private final TransactionTemplate tx;
    private final Map<String, LiveRun> active = new ConcurrentHashMap<>();
    private final long tickEveryMs;
    private ScheduledExecutorService ticker; // made at each start: a stopped context may be started again
    private volatile boolean shuttingDown;
    private volatile String workerName = "unnamed";

    public RunWorker(RunRepository runs, SimulationEngine engine, RunsProperties props, RunMetrics metrics,
                     LiveProperties live, ApplicationEventPublisher events, TransactionTemplate tx) {
        this.runs = runs;
        this.tx = tx;
        this.events = events;
        this.live = live;
        this.engine = engine;
        this.props = props;
        this.metrics = metrics;
        this.tickEveryMs = Math.max(10, props.progressInterval().toMillis());
        resume();
    }

    /**
     * Starts the progress ticker and accepts runs again. Called at construction and when the run queue starts
     * again after a stop (Spring's test context cache stops an idle context and restarts it when a test needs it).
     */
    synchronized void resume() {
        if (ticker != null && !ticker.isShutdown()) return;
        ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cfslab-progress");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleWithFixedDelay(this::tick, tickEveryMs, tickEveryMs, TimeUnit.MILLISECONDS);
        shuttingDown = false;
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
        if (run.status() == RunStatus.RUNNING && !recoverInterrupted(run)) return;
        // the queue's threads do nothing but execute runs: lower their priority once, for good (ThreadNice)
        ThreadNice.lowerCurrentThread(props.nice());
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
        if (run.settingsJson() == null) {
            // a run accepted before settings were recorded: record them from its snapshot now
            runs.setSettings(runId, EffectiveSettings.of(base, run.seed() != null ? run.seed() : base.seed()).toString());
        }
        runs.deleteResults(runId);
        LiveRun a = new LiveRun(runId, base.durationNs(), run.repeats(), run.pace());
        active.put(runId, a);
        metrics.started();
        try {
            runRepeats(run, base, a);
        } finally {
            active.remove(runId);
            metrics.stopped();
        }
    }

    private void runRepeats(RunRecord run, Scenario base, LiveRun a) {
        String id = run.id();
        long seed0 = run.seed() != null ? run.seed() : base.seed();
        long wallLimitNs = props.maxWallTime().toNanos();
        String firstCgroups = null;
        boolean cancelLost = false; // a cancel arrived after a repeat had reached its end
        for (int i = 0; i < run.repeats(); i++) {
            Scenario s = base.withSeed(seed0 + i);
            long elapsed = System.nanoTime() - a.startNanos();
            LiveRun.Repeat rep = new LiveRun.Repeat(i);
            GuardedRunControl control = new GuardedRunControl(props.maxEvents() - a.events(), wallLimitNs - elapsed,
                    rep, live.interval().toMillis(), run.pace());
            a.startRepeat(i, control, rep);
            if (shuttingDown) control.stop(GuardedRunControl.Stop.SHUTDOWN);
            else if (cancelLost) control.stop(GuardedRunControl.Stop.USER_CANCEL);
            String result;
            try {
                result = engine.simulate(s, control);
            } catch (SimulationAbortedException e) {
                finish(a, RunStatus.FAILED, "max events exceeded (" + props.maxEvents() + "): " + e.getMessage(),
                        a.percent(), control.simulatedNs(), a.events(), a.wallMs());
                return;
            } catch (RuntimeException e) {
                log.warn("run {} failed", id, e);
                // the cause (a simulator fault, never the scenario's) is in the log; the run's error is read by people
                String at = String.format(java.util.Locale.ROOT, "%.1f", a.percent());
                finish(a, RunStatus.FAILED, "simulation error: the simulator failed at " + at + " % (a fault of the"
                        + " service, logged with the run's id; the scenario it ran: GET /api/runs/" + id + "/scenario)",
                        a.percent(), control.simulatedNs(),
                        a.events(), a.wallMs());
                return;
            }
            GuardedRunControl.Stop stop = control.stopReason();
            // a cancel that lands after the simulation reached its duration (while the result is being built or
            // stored) lost the race: the repeat is whole, so it is kept as one; the run goes on (the cancel flag stops
            // the next repeat at once), and after the last repeat it ends done
            boolean whole = stop == GuardedRunControl.Stop.USER_CANCEL && control.simulatedNs() >= s.durationNs();
            if (whole) cancelLost = true;
            switch (whole ? GuardedRunControl.Stop.NONE : stop) {
                case USER_CANCEL -> {
                    cancelKeepingResult(a, i, result, control.simulatedNs());
                    return;
                }
                case WALL_TIME -> {
                    finish(a, RunStatus.FAILED, "max wall time exceeded (" + props.maxWallTime() + ")",
                            a.percent(), control.simulatedNs(), a.events(), a.wallMs());
                    return;
                }
                case SHUTDOWN -> {
                    runs.requeue(id);
                    log.info("run {} re-queued: instance shutting down", id);
                    throw new RequeueException(id);
                }
                case NONE -> {
                    ResultParts parts = ResultParts.of(result);
                    runs.saveResult(id, i, result, parts);
                    if (i == 0) firstCgroups = parts.cgroups();
                }
            }
            a.repeatDone(control.events());
        }
        finish(a, RunStatus.DONE, null, 100.0, base.durationNs(), a.events(), a.wallMs());
        try {
            if (firstCgroups != null) metrics.exportCgroups(id, firstCgroups);
        } catch (RuntimeException e) {
            log.debug("cgroup counters of run {} not exported: {}", id, e.toString());
        }
    }

    private boolean finish(String id, RunStatus status, String error, double pct, long simNs, long events, long wallMs) {
        if (runs.finish(id, status, error, pct, simNs, events, wallMs)) {
            ended(id, status, events, wallMs);
            return true;
        }
        return false;
    }

    private void ended(String id, RunStatus status, long events, long wallMs) {
        metrics.finished(status, events, wallMs);
        publish(id, status);
    }

    /**
     * A user's cancel: stores the result up to the cancel point (its {@code partial} says where) as repeat
     * {@code repeat} and ends the run {@code cancelled}, both in one transaction, so that a crash or an end by someone
     * else (the run given up as interrupted) leaves neither: no cancelled run without its result, no stored partial
     * result of a run that is not cancelled. The listeners and live streams hear of the end after the commit.
     */
    private void cancelKeepingResult(LiveRun a, int repeat, String result, long simNs) {
        String error = "cancelled by request";
        double pct = a.percent();
        long events = a.events();
        long wallMs = a.wallMs();
        ResultParts parts = ResultParts.of(result);
        Boolean won = tx.execute(s -> {
            runs.saveResult(a.id(), repeat, result, parts);
            if (runs.finish(a.id(), RunStatus.CANCELLED, error, pct, simNs, events, wallMs)) return true;
            s.setRollbackOnly();
            return false;
        });
        if (Boolean.TRUE.equals(won)) {
            ended(a.id(), RunStatus.CANCELLED, events, wallMs);
            a.end(new LiveRun.Terminal(RunStatus.CANCELLED, error, pct, simNs, events, wallMs));
        }
    }

    /** Ends a local run in the database, then tells its live streams (unless someone else ended it first). */
    private void finish(LiveRun a, RunStatus status, String error, double pct, long simNs, long events, long wallMs) {
        if (finish(a.id(), status, error, pct, simNs, events, wallMs)) {
            a.end(new LiveRun.Terminal(status, error, pct, simNs, events, wallMs));
        }
    }

    /**
     * A run still {@code running} in the database when an execution of it is picked (db-scheduler revived it after
     * its instance stopped beating), or found picked under this instance's own name at start-up ({@link RunQueue}):
     * its last attempt died with its instance. Counts the interruption and re-queues the run from the start, or,
     * once {@code cfslab.runs.max-attempts} attempts have died, ends it {@code failed} with a message saying so.
     *
     * @return true if the run is queued again and may execute, false if it was given up (or is not running)
     */
    boolean recoverInterrupted(RunRecord run) {
        String dead = run.worker();
        int died = run.interruptions() + 1;
        if (died >= props.maxAttempts()) {
            String error = "interrupted " + died + " times (its instance stopped: crash, kill or out of memory; last "
                    + (dead == null ? "an unknown instance" : dead) + "); gave up after cfslab.runs.max-attempts="
                    + props.maxAttempts() + " attempts";
            if (runs.failInterrupted(run.id(), dead, error)) {
                log.warn("run {} failed: {}", run.id(), error);
                metrics.finished(RunStatus.FAILED, run.events(), run.wallMs());
                publish(run.id(), RunStatus.FAILED);
            }
            return false;
        }
        boolean requeued = runs.requeueInterrupted(run.id(), dead);
        if (requeued) {
            log.info("run {} re-queued after an interrupted attempt (attempt {} of {} died with instance {})", run.id(),
                    died, props.maxAttempts(), dead);
        }
        return requeued;
    }

    private void publish(String id, RunStatus status) {
        try {
            this.events.publishEvent(new RunFinished(id, status));
        } catch (RuntimeException e) {
            log.warn("a listener of the end of run {} failed", id, e);
        }
    }

    /** Writes progress of every executing run and applies cancel requests found in the database. */
    private void tick() {
        for (Map.Entry<String, LiveRun> e : active.entrySet()) {
            LiveRun a = e.getValue();
            GuardedRunControl c = a.control();
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
        LiveRun a = active.get(runId);
        GuardedRunControl c = a == null ? null : a.control();
        if (c == null) return false;
        c.stop(GuardedRunControl.Stop.USER_CANCEL);
        return true;
    }

    /** The live state of run {@code runId} if it executes on this instance, else null. */
    public LiveRun live(String runId) { return active.get(runId); }

    /** Stops every local run; each goes back to the queue. Called before the queue stops. */
    synchronized void shutdown() {
        shuttingDown = true;
        active.values().forEach(a -> {
            GuardedRunControl c = a.control();
            if (c != null) c.stop(GuardedRunControl.Stop.SHUTDOWN);
        });
        ticker.shutdownNow();
    }
}
