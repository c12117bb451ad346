package io.cfslab.scenario;

import java.util.List;

/** A scenario that cannot run; {@link #problems()} lists every problem found (at least one). */
public class ScenarioException extends RuntimeException {
    private final List<Problem> problems;

    /** @param problems every problem found, in the order found */
    public ScenarioException(List<Problem> problems) {
        super(problems.isEmpty() ? "invalid scenario" : problems.get(0).line()
                + (problems.size() > 1 ? " (and " + (problems.size() - 1) + " more)" : ""));
        this.problems = List.copyOf(problems);
    }

    /** @return every problem found (at least one) */
    public List<Problem> problems() { return problems; }
}
