package io.cfslab.testsupport;

import io.cfslab.runs.SimulationEngine;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/** TEST-ONLY: makes {@link PacedEngine} the engine of a test context. */
@TestConfiguration(proxyBeanMethods = false)
public class PacedEngineConfig {
    @Bean
    @Primary
    SimulationEngine pacedEngine() { return new PacedEngine(); }
}
