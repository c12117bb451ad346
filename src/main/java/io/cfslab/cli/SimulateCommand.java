package io.cfslab.cli;

import io.cfslab.metrics.BpftraceText;
import io.cfslab.metrics.CpuStatText;
import io.cfslab.metrics.ResultJson;
import io.cfslab.metrics.SimulationResult;
import io.cfslab.scenario.Scenario;
import io.cfslab.sim.RunControl;
import io.cfslab.sim.SimulationAbortedException;
import io.cfslab.sim.Simulator;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code simulate SCENARIO [--out RESULT.json]}: runs one scenario, prints the cpu.stat of every cgroup with
 * a quota (as {@code cat} shows it) and each histogram in bpftrace's layout, writes the result JSON if asked.
 * Exit 0, or 2 with one line per problem for a bad scenario, 3 past {@code --max-events}, 74 if the result or the
 * output cannot be written.
 */
@Command(name = "simulate", mixinStandardHelpOptions = true, versionProvider = CliVersion.class, description = "Run one scenario (JSON or YAML) and print cpu.stat and histograms.")
final class SimulateCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SCENARIO", description = "scenario file (contract v1, JSON or YAML)")
    Path scenarioFile;

    @Option(names = "--out", paramLabel = "RESULT.json", description = "write the result JSON here")
    Path out;

    @Option(names = "--seed", description = "override the scenario's seed")
    Long seed;

    @Option(names = "--max-events", defaultValue = "2000000000",
            description = "stop (exit 3) after this many simulated events (default ${DEFAULT-VALUE})")
    long maxEvents;

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter o = spec.commandLine().getOut();
        if (maxEvents < 1) { // a usage error (2), as in experiment: with -1 the run stopped at once (exit 3)
            err.println("--max-events must be at least 1, not " + maxEvents);
            return Cli.EXIT_BAD_INPUT;
        }
        int outStatus = ScenarioFiles.outStatus(out, scenarioFile, err);
        if (outStatus != 0) return outStatus;
        Scenario s = ScenarioFiles.read(scenarioFile, err);
        if (s == null) return Cli.EXIT_BAD_INPUT;
        if (seed != null) s = s.withSeed(seed);
        SimulationResult r;
        try {
            r = Simulator.run(s, new RunControl() {
                @Override public long maxEvents() { return maxEvents; }
            });
        } catch (SimulationAbortedException e) {
            err.println(scenarioFile + ": " + e.getMessage() + " (raise --max-events to go on)");
            return Cli.EXIT_ABORTED;
        }
        for (var c : s.cgroups()) {
            var stats = r.cgroups().get(c.path());
            if (stats != null && (stats.cpuStat().nrPeriods() > 0 || c.cpuMax().limited())) {
                o.print(CpuStatText.format(c.path(), stats));
                o.println();
            }
        }
        // what a script's terminal and dmesg would show: refused timeline actions and the kernel's warnings
        for (var a : r.actions()) {
            if (!a.ok()) o.printf("[%12.6f] %s: %s (%s)%n", a.atNs() / 1e9, a.action(), a.reason(), a.errno());
        }
        for (var line : r.kernelLog()) o.printf("[%12.6f] %s%n", line.atNs() / 1e9, line.message());
        r.histograms().forEach((name, h) -> {
            o.print(BpftraceText.format(name, h));
            o.println();
        });
        r.benchmarks().forEach((name, b) -> o.println("benchmark " + name + ": " + b));
        o.printf("simulated %.3f s in %d ms wall, %d events%n", r.simulatedNs() / 1e9, r.engine().wallMs(),
                r.engine().events());
        if (out != null) {
            if (!CliOutput.writeAtomically(out, ResultJson.write(r), err)) return Cli.EXIT_IO_ERROR;
        }
        o.flush();
        return 0;
    }
}
