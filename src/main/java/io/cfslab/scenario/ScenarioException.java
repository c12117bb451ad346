package io.cfslab.scenario;

import java.util.List;

/** A scenario that cannot run; {@link #problems()} lists every problem found (at least one). */
public class ScenarioException extends RuntimeException {
    private final List<Problem> problems;
    private final int total;

    /** @param problems every problem found, in the order found */
    public ScenarioException(List<Problem> problems) { this(problems, problems.size()); }

    /**
     * @param problems the problems kept, in the order found
     * @param total    how many were found (more than kept when the parser stopped collecting)
     */
    public ScenarioException(List<Problem> problems, int total) {
        super(problems.isEmpty() ? "invalid scenario" : problems.get(0).line()
                + (total > 1 ? " (and " + (total - 1) + " more)" : ""));
        this.problems = List.copyOf(problems);
        this.total = Math.max(total, problems.size());
    }

    /** @return the problems kept (at least one; at most {@link ScenarioParser#MAX_PROBLEMS}) */
    public List<Problem> problems() { return problems; }

    /** @return how many problems were found, including those not kept */
    public int total() { return total; }
}
