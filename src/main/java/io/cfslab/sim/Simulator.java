package io.cfslab.sim;

import io.cfslab.metrics.SimulationResult;
import io.cfslab.scenario.Scenario;

/** Runs one scenario to its end (or until cancelled) and returns the contract's result. */
public final class Simulator {
    private Simulator() {}

    /**
     * @param scenario a validated scenario
     * @param control  progress, cancellation and guards
     * @return the result; if cancelled, the result up to the simulated time reached
     * @throws SimulationAbortedException if {@link RunControl#maxEvents()} is exceeded
     */
    public static SimulationResult run(Scenario scenario, RunControl control) {
        return new Simulation(scenario).run(control);
    }
}
