package io.cfslab.runs;

import io.cfslab.metrics.ResultJson;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioParser;
import io.cfslab.sim.RunControl;
import io.cfslab.sim.Simulator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The real engine: {@link ScenarioParser}, {@link Simulator} and {@link ResultJson}. */
public final class KernelSimulatorEngine implements SimulationEngine {

    @Override
    public Scenario parse(String text) { return ScenarioParser.parse(text); }

    @Override
    public String simulate(Scenario scenario, RunControl control) {
        return ResultJson.write(Simulator.run(scenario, control));
    }

    /** Registers the engine (tests may add a {@code @Primary} one). */
    @Configuration(proxyBeanMethods = false)
    static class Config {
        @Bean
        SimulationEngine simulationEngine() { return new KernelSimulatorEngine(); }
    }
}
