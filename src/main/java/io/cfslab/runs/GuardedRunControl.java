package io.cfslab.runs;

import io.cfslab.sim.RunControl;

/**
 * The {@link RunControl} of one executing repeat: stops the simulation when cancelled (by a user, by a
 * shutdown) or when over the wall-time limit, and keeps the latest progress for the progress writer.
 * Every method is a volatile read or write: cheap and non-blocking on the simulation thread.
 */
final class GuardedRunControl implements RunControl {
    /** Why a run stopped early. */
    enum Stop { NONE, USER_CANCEL, SHUTDOWN, WALL_TIME }

    private final long maxEvents;
    private final long wallDeadlineNanos;
    private volatile Stop stop = Stop.NONE;
    private volatile long simulatedNs;
    private volatile long events;

    /**
     * @param maxEvents    event budget of this repeat
     * @param wallLimitNs  wall-time budget left, ns (from now)
     */
    GuardedRunControl(long maxEvents, long wallLimitNs) {
        this.maxEvents = maxEvents;
        this.wallDeadlineNanos = System.nanoTime() + wallLimitNs;
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
