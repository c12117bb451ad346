package io.cfslab.scenario;

/**
 * {@code machine}: a profile name ({@code generic} or a named real machine) and its topology.
 *
 * @param profile  {@code generic} or a named profile
 * @param cpus     logical CPUs (1..{@link Limits#MAX_CPUS})
 * @param smt      hardware threads per core (1, 2, 4 or 8); {@code cpus} must be a multiple of smt × sockets
 * @param sockets  sockets (each is one LLC in the generic profile)
 */
public record MachineSpec(String profile, int cpus, int smt, int sockets) {
}
