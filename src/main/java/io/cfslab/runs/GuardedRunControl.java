package io.cfslab.runs;

import io.cfslab.metrics.LiveSnapshot;
import io.cfslab.metrics.SimulationResult;
import io.cfslab.sim.RunControl;

/**
 * The {@link RunControl} of one executing repeat: stops the simulation when cancelled (by a user, by a
 * shutdown) or when over the wall-time limit, keeps the latest progress for the progress writer, and feeds
 * the run's live state ({@link LiveRun.Repeat}: series samples, snapshots every {@code cfslab.live.interval})
 * for the event streams. Every method is a volatile read or write, or an append to a single-writer log:
 * cheap and non-blocking on the simulation thread, which never waits for a stream.
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
    }

    @Override
    public long maxEvents() { return maxEvents; }

    @Override
    public void sample(SimulationResult.SeriesSample sample) {
        if (live != null) live.sample(sample);
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
