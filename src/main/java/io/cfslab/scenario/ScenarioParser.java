package io.cfslab.scenario;

/**
 * Reads a contract v1 scenario from JSON or YAML text, checks every field (unknown keys are errors),
 * fills defaults, expands {@code generate} and {@code leaves:} and returns a {@link Scenario}.
 */
public final class ScenarioParser {
    private ScenarioParser() {}

    /**
     * @param text JSON or YAML text (YAML if it does not start with '{' after whitespace)
     * @return the validated scenario
     * @throws ScenarioException listing every problem, each with its JSON pointer
     */
    public static Scenario parse(String text) {
        throw new UnsupportedOperationException("not yet implemented");
    }
}
