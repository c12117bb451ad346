package io.cfslab.sim;

/** A run stopped by a guard (event budget) rather than finishing or being cancelled. */
public class SimulationAbortedException extends RuntimeException {
    public SimulationAbortedException(String reason) { super(reason); }
}
