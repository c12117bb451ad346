package io.cfslab.cli;

import io.cfslab.scenario.Problem;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioException;
import io.cfslab.scenario.ScenarioParser;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Reads a scenario file for a command, printing one line per problem. */
final class ScenarioFiles {
    private ScenarioFiles() {}

    /** @return the scenario, or null after printing every problem to {@code err} */
    static Scenario read(Path file, PrintWriter err) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            err.println(file + ": cannot read: " + e.getMessage());
            return null;
        }
        try {
            return ScenarioParser.parse(text);
        } catch (ScenarioException e) {
            List<Problem> problems = e.problems();
            for (Problem p : problems) err.println(file + ": " + p.line());
            return null;
        }
    }
}
