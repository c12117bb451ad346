package io.cfslab.sim;

/**
 * How a caller watches and stops a running simulation. Called from the simulation thread; implementations
 * must be cheap and must not block.
 */
public interface RunControl {
    /** Polled every few thousand events; true stops the run at the next poll (result has the time reached). */
    default boolean cancelled() { return false; }

    /** Called about every 1 % of simulated time with the simulated time reached (ns) and events so far. */
    default void progress(long simulatedNs, long events) { }

    /** A run that processes more events than this stops with {@link SimulationAbortedException}. */
    default long maxEvents() { return Long.MAX_VALUE; }

    RunControl NONE = new RunControl() { };
}
