package io.cfslab.cli;

import io.cfslab.metrics.SimulationResult;
import io.cfslab.scenario.Scenario;
import io.cfslab.sim.RunControl;
import io.cfslab.sim.Simulator;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code bench SCENARIO [--runs N]}: runs a scenario N times and prints simulated seconds per wall second,
 * events per second and the JVM's peak heap — the figures docs/benchmarks.md records. It also prints simulated
 * seconds per CPU second of the simulating thread: on a machine shared with other work, wall time includes
 * the time the thread waited for a core, CPU time does not. With more than one run it ends with the medians
 * (the first runs include the JIT's warm-up).
 */
@Command(name = "bench", mixinStandardHelpOptions = true, versionProvider = CliVersion.class, description = "Measure simulation speed: simulated s per wall s, events/s, peak heap.")
final class BenchCommand implements Callable<Integer> {
    @Spec CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SCENARIO")
    Path scenarioFile;

    @Option(names = "--runs", defaultValue = "1", description = "repetitions (default ${DEFAULT-VALUE})")
    int runs;

    @Override
    public Integer call() {
        var o = spec.commandLine().getOut();
        if (runs < 1) {
            spec.commandLine().getErr().println("--runs must be at least 1, not " + runs);
            return Cli.EXIT_BAD_INPUT;
        }
        Scenario s = ScenarioFiles.read(scenarioFile, spec.commandLine().getErr());
        if (s == null) return Cli.EXIT_BAD_INPUT;
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        DescriptiveStatistics perWall = new DescriptiveStatistics(), perCpu = new DescriptiveStatistics();
        for (int i = 1; i <= runs; i++) {
            long t0 = System.nanoTime();
            long cpu0 = threads.getCurrentThreadCpuTime();
            SimulationResult r = Simulator.run(s, RunControl.NONE);
            double wallS = (System.nanoTime() - t0) / 1e9;
            double cpuS = (threads.getCurrentThreadCpuTime() - cpu0) / 1e9;
            double simS = r.simulatedNs() / 1e9;
            o.printf("run %d: %.2f simulated s in %.2f wall s = %.2f simulated s per wall s (%.2f per CPU s of the"
                            + " simulating thread); %d events, %.2f M events/s; distribute calls %d; peak heap %d MiB%n",
                    i, simS, wallS, simS / wallS, simS / cpuS, r.engine().events(), r.engine().events() / wallS / 1e6,
                    r.histograms().get("distribute_cfs_runtime_ns").count(), peakHeapMiB());
            o.flush();
            perWall.addValue(simS / wallS);
            perCpu.addValue(simS / cpuS);
        }
        if (runs > 1) {
            o.printf("median of %d runs: %.2f simulated s per wall s (%.2f per CPU s); peak heap %d MiB%n", runs,
                    perWall.getPercentile(50), perCpu.getPercentile(50), peakHeapMiB());
        }
        return 0;
    }

    static long peakHeapMiB() {
        long peak = 0;
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP && p.getPeakUsage() != null) peak += p.getPeakUsage().getUsed();
        }
        return peak / (1024 * 1024);
    }
}
