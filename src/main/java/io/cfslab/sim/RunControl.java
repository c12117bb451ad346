package io.cfslab.sim;

/**
 * How a caller watches and stops a running simulation. Called from the simulation thread; implementations
 * must be cheap and must not block.
 */
public interface RunControl {
    /** Polled every few thousand events; true stops the run at the next poll (result has the time reached). */
    default boolean cancelled() { return false; }

    /**
     * Called about every 1 % of simulated time, and at least every 250 ms of wall time, with the simulated
     * time reached (ns) and the events so far.
     */
    default void progress(long simulatedNs, long events) { }

    /**
     * Called at every {@code record.interval} sample with the new {@code series} entry (for live charts).
     */
    default void sample(io.cfslab.metrics.SimulationResult.SeriesSample sample) { }

    /**
     * Wall-clock milliseconds between {@link #snapshot} calls; 0 (the default) takes none. Snapshots cost a
     * copy of every cgroup's counters, so live views ask for a few per second at most.
     */
    default long snapshotIntervalMs() { return 0; }

    /** A snapshot of the running simulation, at most every {@link #snapshotIntervalMs()} of wall time. */
    default void snapshot(io.cfslab.metrics.LiveSnapshot snapshot) { }

    /** A run that processes more events than this stops with {@link SimulationAbortedException}. */
    default long maxEvents() { return Long.MAX_VALUE; }

    RunControl NONE = new RunControl() { };
}
