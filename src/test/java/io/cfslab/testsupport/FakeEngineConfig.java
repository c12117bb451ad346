package io.cfslab.testsupport;

import io.cfslab.runs.SimulationEngine;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/** TEST-ONLY: makes {@link FakeEngine} the engine of a test context. */
@TestConfiguration(proxyBeanMethods = false)
public class FakeEngineConfig {
    @Bean
    @Primary
    SimulationEngine fakeEngine() { return new FakeEngine(); }
}
