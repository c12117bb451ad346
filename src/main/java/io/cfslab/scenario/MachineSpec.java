package io.cfslab.scenario;

/**
 * {@code machine}: a profile name ({@code generic} or a named real machine) and its topology.
 *
 * @param profile  {@code generic} or a named profile
 * @param cpus     logical CPUs (1..{@link Limits#MAX_CPUS})
 * @param smt      hardware threads per core (1, 2, 4 or 8); {@code cpus} must be a multiple of smt × sockets
 * @param sockets  sockets (each is one LLC in the generic profile)
 * @param exactTime {@code exact_time}: timers fire exactly on time, sleeps last exactly as asked and a stretch of
 *                  work takes exactly its nominal CPU time (for hand-computed cases); default false: time is as
 *                  inexact as on a real machine, drawn from the run's seed (docs/cost-model.md, "Inexact time")
 */
public record MachineSpec(String profile, int cpus, int smt, int sockets, boolean exactTime) {
    /** Inexact time (the default). */
    public MachineSpec(String profile, int cpus, int smt, int sockets) {
        this(profile, cpus, smt, sockets, false);
    }
}
