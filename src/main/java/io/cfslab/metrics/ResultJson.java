package io.cfslab.metrics;

/** Writes and reads {@link SimulationResult} as the contract's JSON (snake_case, deterministic order). */
public final class ResultJson {
    private ResultJson() {}

    public static String write(SimulationResult result) {
        throw new UnsupportedOperationException("not yet implemented");
    }

    public static SimulationResult read(String json) {
        throw new UnsupportedOperationException("not yet implemented");
    }
}
