package io.cfslab.cli;

import io.cfslab.experiment.Experiment;
import io.cfslab.experiment.ExperimentException;
import io.cfslab.experiment.ExperimentParser;
import io.cfslab.experiment.ExperimentPlan;
import io.cfslab.experiment.ExperimentResult;
import io.cfslab.experiment.ExperimentResultJson;
import io.cfslab.experiment.ExperimentTables;
import io.cfslab.experiment.LocalExperimentRunner;
import io.cfslab.scenario.Problem;
import io.cfslab.scenario.ScenarioParser;
import io.cfslab.sim.SimulationAbortedException;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code experiment EXPERIMENT.json [--repeats N] [--seed S] [--threads T] [--format F] [--out RESULT.json]}:
 * runs every arm × repeat of an experiment on T threads of this machine, prints the table as the seeds do
 * (text; or Markdown, CSV, JSON) and writes the result JSON where asked. A {@code scenario_id} names a ready-made
 * scenario ({@code src/main/resources/scenarios/}; the command line has no database). Progress, one line per
 * finished run, goes to standard error. Exit 0; 2 with one line per problem for a bad experiment (unknown
 * pointer, value of the wrong type, zero repeats, …); 3 if a run exceeds {@code --max-events}; 74 if the result or the table cannot be written.
 */
@Command(name = "experiment", mixinStandardHelpOptions = true, versionProvider = CliVersion.class,
        description = "Run an experiment (scenario × arms × repeats) and print the base-vs-head table.")
final class ExperimentCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "EXPERIMENT", description = "experiment file (JSON or YAML)")
    Path file;

    @Option(names = "--repeats", description = "override the experiment's repeats")
    Integer repeats;

    @Option(names = "--seed", description = "override the experiment's seed")
    Long seed;

    @Option(names = "--threads", description = "simulation threads (default: available processors)")
    Integer threads;

    @Option(names = "--format", defaultValue = "text",
            description = "table format: text, markdown, csv or json (default ${DEFAULT-VALUE})")
    String format;

    @Option(names = "--out", paramLabel = "RESULT.json", description = "write the result JSON here")
    Path out;

    @Option(names = "--max-events", defaultValue = "2000000000",
            description = "stop (exit 3) when a run exceeds this many simulated events (default ${DEFAULT-VALUE})")
    long maxEvents;

    @Option(names = "--quiet", description = "no progress lines on standard error")
    boolean quiet;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter o = spec.commandLine().getOut();
        String fmt = format.toLowerCase(Locale.ROOT);
        if (!List.of("text", "markdown", "csv", "json").contains(fmt)) {
            err.println("--format must be text, markdown, csv or json, not " + format);
            return Cli.EXIT_BAD_INPUT;
        }
        if (maxEvents < 1) {
            err.println("--max-events must be at least 1, not " + maxEvents);
            return Cli.EXIT_BAD_INPUT;
        }
        if (threads != null && threads < 1) {
            err.println("--threads must be at least 1, not " + threads);
            return Cli.EXIT_BAD_INPUT;
        }
        int outStatus = ScenarioFiles.outStatus(out, file, err);
        if (outStatus != 0) return outStatus;
        String text = ScenarioFiles.readText(file, err);
        if (text == null) return Cli.EXIT_BAD_INPUT;
        ExperimentPlan plan;
        try {
            Experiment e = ExperimentParser.parse(text, ScenarioFiles.declaredYaml(file));
            if (repeats != null) {
                // the same checks as the document's "repeats"
                ObjectNode doc = (ObjectNode) ScenarioParser.readTree(text, ScenarioFiles.declaredYaml(file));
                doc.put("repeats", repeats);
                e = ExperimentParser.parse(doc).withRepeats(repeats);
            }
            if (seed != null) e = e.withSeed(seed);
            ObjectNode base = e.scenario();
            if (base == null) {
                base = readyMade(e.scenarioId());
                if (base == null) {
                    err.println(file + ": /scenario_id: no ready-made scenario " + e.scenarioId()
                            + " (the command line knows only the ready-made scenarios; give \"scenario\" inline) (ENOENT)");
                    return Cli.EXIT_BAD_INPUT;
                }
            }
            plan = ExperimentPlan.of(e, base, e.scenario() == null ? io.cfslab.store.RunIds.canonical(e.scenarioId()) : null, ScenarioParser::parse);
        } catch (ExperimentException ex) {
            List<Problem> problems = new java.util.ArrayList<>();
            for (Problem p : ex.problems()) {
                // a fault of --repeats is the option's, not the file's: named as --threads' and --max-events' are
                if (repeats != null && "/repeats".equals(p.path())) {
                    err.println("--repeats " + repeats + ": " + new Problem("", p.reason(), p.errno()).line());
                } else {
                    problems.add(p);
                }
            }
            ScenarioFiles.print(file, problems, err);
            return Cli.EXIT_BAD_INPUT;
        }
        int t = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        ExperimentResult result;
        long t0 = System.nanoTime();
        try {
            result = LocalExperimentRunner.run(plan, t, maxEvents, (arm, repeat, s, wallMs, done, total) -> {
                if (!quiet) {
                    err.printf("[%d/%d] %s run %d (seed %d): %.1f s%n", done, total, arm.name(), repeat + 1, s, wallMs / 1000.0);
                    err.flush();
                }
            });
        } catch (SimulationAbortedException ex) {
            err.println(file + ": " + ex.getMessage() + " (raise --max-events to go on)");
            return Cli.EXIT_ABORTED;
        }
        if (!quiet) {
            err.printf("%d runs on %d threads in %.1f s wall%n", plan.arms().size() * plan.repeats(), t,
                    (System.nanoTime() - t0) / 1e9);
        }
        String json = ExperimentResultJson.write(result);
        switch (fmt) {
            case "markdown" -> o.print(ExperimentTables.markdown(result));
            case "csv" -> o.print(ExperimentTables.csv(result));
            case "json" -> o.println(json);
            default -> o.print(ExperimentTables.text(result));
        }
        o.flush();
        if (out != null) {
            if (!CliOutput.writeAtomically(out, json + "\n", err)) return Cli.EXIT_IO_ERROR;
        }
        return 0;
    }

    /** A ready-made scenario of the classpath ({@code scenarios/ID.json}), its id read as the service reads it, or null. */
    static ObjectNode readyMade(String typed) {
        // the service's rule for an id (RunIds.canonical): white space around it trimmed, any case of its letters
        String id = typed == null ? null : io.cfslab.store.RunIds.canonical(typed);
        if (id == null || !id.matches("[A-Za-z0-9_.-]+")) return null;
        try (InputStream in = ExperimentCommand.class.getResourceAsStream("/scenarios/" + id + ".json")) {
            if (in == null) return null;
            JsonNode n = ScenarioParser.readTree(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            return n instanceof ObjectNode obj ? obj : null;
        } catch (IOException e) {
            return null;
        }
    }
}
