package io.cfslab.api;

import java.time.Duration;
import org.springframework.http.HttpStatus;
import tools.jackson.databind.JsonNode;

/**
 * The {@code "pace"} of a run request: simulated seconds per wall-clock second (10 = ten times real time, 0.5 = half
 * real time), so that a person can watch a short simulation's histogram grow. Absent or null: as fast as possible.
 * The runner holds the simulation back to it (io.cfslab.runs.GuardedRunControl); it never changes the result.
 */
final class RunPace {
    /** Slowest pace: a hundredth of real time. */
    static final double MIN = 0.01;
    /** Fastest pace that still paces anything; beyond it the simulator itself is the limit. */
    static final double MAX = 10_000;

    private RunPace() { }

    /**
     * @param node        the request's {@code pace}, or null
     * @param durationNs  the scenario's simulated duration, ns, or -1 if unknown (an invalid scenario): no wall-time check
     * @param repeats     how many times it runs
     * @param maxWallTime {@code cfslab.runs.max-wall-time}: a paced run that could not finish within it is refused
     * @return the pace, or null for as fast as possible
     * @throws ApiException 422 naming {@code /pace}: not a number (EINVAL), out of range or too slow for the
     *                      wall-time limit (ERANGE)
     */
    static Double parse(JsonNode node, long durationNs, int repeats, Duration maxWallTime) {
        if (node == null || node.isNull()) return null;
        if (!node.isNumber()) {
            throw ApiException.of(HttpStatus.UNPROCESSABLE_CONTENT, "Invalid run request", "/pace",
                    "pace must be a number: simulated seconds per wall-clock second (10 = ten times real time),"
                            + " or absent for as fast as possible", "EINVAL");
        }
        double pace = node.asDouble();
        if (!(pace >= MIN && pace <= MAX)) {
            throw ApiException.of(HttpStatus.UNPROCESSABLE_CONTENT, "Invalid run request", "/pace",
                    "pace must be in " + MIN + ".." + (long) MAX + " (simulated seconds per wall-clock second), not "
                            + node, "ERANGE");
        }
        double wallNs = (double) durationNs * repeats / pace;
        if (durationNs >= 0 && wallNs > maxWallTime.toNanos()) {
            throw ApiException.of(HttpStatus.UNPROCESSABLE_CONTENT, "Invalid run request", "/pace",
                    String.format(java.util.Locale.ROOT, "at pace %s the run would take at least %.0f s of wall time"
                                    + " (%d × %.3f s simulated), more than cfslab.runs.max-wall-time (%d s); use a pace"
                                    + " of at least %.3g", node, wallNs / 1e9, repeats, durationNs / 1e9,
                            maxWallTime.toSeconds(), (double) durationNs * repeats / maxWallTime.toNanos()),
                    "ERANGE");
        }
        return pace;
    }
}
