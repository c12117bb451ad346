package io.cfslab.security;

import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * With a token configured, actuator {@code health} shows its details (database, disk) only to an
 * authenticated caller ({@code management.endpoint.health.show-details=when-authorized}); without one,
 * to everyone, as before (the service then listens on 127.0.0.1 by default). An explicit
 * {@code management.endpoint.health.show-details} elsewhere still wins: this source comes last.
 */
public class HealthDetailsEnvironment implements EnvironmentPostProcessor {
    static final String SHOW_DETAILS = "management.endpoint.health.show-details";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment env, SpringApplication application) {
        String value = SecurityProperties.enabled(env.getProperty("cfslab.security.token")) ? "when-authorized" : "always";
        env.getPropertySources().addLast(new MapPropertySource("cfslab-health-details", Map.of(SHOW_DETAILS, value)));
    }
}
