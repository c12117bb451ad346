package io.cfslab.runs;

import io.cfslab.metrics.LiveSnapshot;
import io.cfslab.metrics.SimulationResult;
import io.cfslab.sim.RunControl;
import java.util.concurrent.locks.LockSupport;

/**
 * The {@link RunControl} of one executing repeat: stops the simulation when cancelled (by a user, by a
 * shutdown) or when over the wall-time limit, keeps the latest progress for the progress writer, and feeds
 * the run's live state ({@link LiveRun.Repeat}: series samples, snapshots every {@code cfslab.live.interval})
 * for the event streams. Every method is a volatile read or write, or an append to a single-writer log:
 * cheap and non-blocking on the simulation thread, which never waits for a stream.
 *
 * <p>Pace: a run given a pace (simulated seconds per wall second, {@code RunRecord#pace}) is held back here, in
 * the runner's hook, never in the core: at each progress report and series sample the simulation thread waits
 * until the wall clock has caught up with {@code simulated time / pace} since the repeat started. The simulation
 * itself does not see the wait, so a paced run gives the unpaced run's result (outside {@code engine}, whose wall
 * times include the waits).
 */
final class GuardedRunControl implements RunControl {
    /** Why a run stopped early. */
    enum Stop { NONE, USER_CANCEL, SHUTDOWN, WALL_TIME }

    private final long maxEvents;
    private final long wallDeadlineNanos;
    private volatile Stop stop = Stop.NONE;
    private volatile long simulatedNs;
    private volatile long events;
    private final LiveRun.Repeat live;
    private final long snapshotIntervalMs;
    /** Simulated ns per wall ns, or 0: as fast as possible. */
    private final double pace;
    private final long startNanos = System.nanoTime();
    /** Longest single wait of a paced run: a cancel (which does not wake it) is seen within this. */
    private static final long MAX_WAIT_NS = 20_000_000L;

    /**
     * @param maxEvents    event budget of this repeat
     * @param wallLimitNs  wall-time budget left, ns (from now)
     */
    GuardedRunControl(long maxEvents, long wallLimitNs) {
        this(maxEvents, wallLimitNs, null, 0);
    }

    /**
     * @param live               where samples and snapshots go, or null for none
     * @param snapshotIntervalMs wall ms between snapshots (with {@code live})
     */
    GuardedRunControl(long maxEvents, long wallLimitNs, LiveRun.Repeat live, long snapshotIntervalMs) {
        this(maxEvents, wallLimitNs, live, snapshotIntervalMs, null);
    }

    /**
     * @param pace simulated seconds per wall-clock second to hold the simulation to, or null (or &le; 0) for as fast
     *             as possible
     */
    GuardedRunControl(long maxEvents, long wallLimitNs, LiveRun.Repeat live, long snapshotIntervalMs, Double pace) {
        this.pace = pace == null || !(pace > 0) ? 0 : pace;
        this.maxEvents = maxEvents;
        this.wallDeadlineNanos = System.nanoTime() + wallLimitNs;
        this.live = live;
        this.snapshotIntervalMs = live == null ? 0 : Math.max(1, snapshotIntervalMs);
    }

    @Override
    public boolean cancelled() {
        if (stop != Stop.NONE) return true;
        if (System.nanoTime() - wallDeadlineNanos > 0) {
            stop = Stop.WALL_TIME;
            return true;
        }
        return false;
    }

    @Override
    public void progress(long simulatedNs, long events) {
        this.simulatedNs = simulatedNs;
        this.events = events;
        keepPace(simulatedNs);
    }

    /**
     * Paced runs: waits until {@code simulatedNs / pace} of wall time has passed since the repeat started, or until
     * the run is stopped (seen within {@link #MAX_WAIT_NS}) or over its wall-time budget.
     */
    private void keepPace(long simulatedNs) {
        if (pace == 0) return;
        long due = startNanos + (long) (simulatedNs / pace);
        for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
            if (cancelled()) return;
            LockSupport.parkNanos(Math.min(wait, MAX_WAIT_NS));
        }
    }

    @Override
    public long maxEvents() { return maxEvents; }

    @Override
    public void sample(SimulationResult.SeriesSample sample) {
        if (live != null) live.sample(sample);
        if (pace != 0) {
            // at every record.interval: a paced run's charts grow in small steps, not in 1 % jumps
            if (sample.atNs() > simulatedNs) simulatedNs = sample.atNs();
            keepPace(sample.atNs());
        }
    }

    @Override
    public long snapshotIntervalMs() { return snapshotIntervalMs; }

    @Override
    public void snapshot(LiveSnapshot snapshot) {
        if (live == null) return;
        live.publish(snapshot);
        if (snapshot.simulatedNs() > simulatedNs) simulatedNs = snapshot.simulatedNs();
        if (snapshot.events() > events) events = snapshot.events();
    }

    /** Asks the simulation to stop; the first reason wins. */
    void stop(Stop reason) {
        if (stop == Stop.NONE) stop = reason;
    }

    Stop stopReason() {
        cancelled();
        return stop;
    }

    long simulatedNs() { return simulatedNs; }

    long events() { return events; }
}
