package io.cfslab.experiment;

import io.cfslab.scenario.Problem;
import java.util.List;

/**
 * An experiment that cannot run: every {@link Problem} found, each with the RFC 6901 pointer of the offending
 * value in the experiment document ({@code /arms/1/set/~1kernel~1hz}, {@code /repeats}, {@code /scenario/cgroups/0}).
 */
public class ExperimentException extends RuntimeException {
    private final List<Problem> problems;

    /** @param problems at least one, in the order found */
    public ExperimentException(List<Problem> problems) {
        super(problems.isEmpty() ? "invalid experiment" : problems.get(0).line()
                + (problems.size() > 1 ? " (and " + (problems.size() - 1) + " more)" : ""));
        this.problems = List.copyOf(problems);
    }

    /** @return every problem, at least one */
    public List<Problem> problems() { return problems; }
}
