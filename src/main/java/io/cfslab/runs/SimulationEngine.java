package io.cfslab.runs;

import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioException;
import io.cfslab.sim.RunControl;
import io.cfslab.sim.SimulationAbortedException;

/**
 * What the service needs from the core: validate a scenario document and simulate it. The default bean
 * ({@link KernelSimulatorEngine}) uses {@code ScenarioParser}, {@code Simulator} and {@code ResultJson}.
 */
public interface SimulationEngine {

    /**
     * @param text a contract scenario, JSON (or YAML)
     * @return the validated scenario, defaults filled in, {@code generate} expanded
     * @throws ScenarioException with every problem (JSON pointer, reason, errno)
     */
    Scenario parse(String text);

    /**
     * Runs one scenario on the calling thread.
     *
     * @return the contract's result as JSON text
     * @throws SimulationAbortedException when {@link RunControl#maxEvents()} is exceeded
     */
    String simulate(Scenario scenario, RunControl control);
}
