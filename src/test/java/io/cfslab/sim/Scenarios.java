package io.cfslab.sim;

import io.cfslab.metrics.SimulationResult;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioParser;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Test helpers: load a scenario from the classpath, run one. */
final class Scenarios {
    private Scenarios() {}

    static String text(String resource) {
        try (InputStream in = Scenarios.class.getResourceAsStream(resource)) {
            if (in == null) throw new IllegalArgumentException("missing resource " + resource);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    static Scenario load(String resource) { return ScenarioParser.parse(text(resource)); }

    static SimulationResult run(String json) { return Simulator.run(ScenarioParser.parse(json), RunControl.NONE); }

    /** Mean of a task's cpu_percent over samples with from &lt; at &lt;= to (seconds). */
    static double meanCpuPercent(SimulationResult r, String task, double fromS, double toS) {
        double sum = 0;
        int n = 0;
        for (var s : r.series()) {
            double at = s.atNs() / 1e9;
            if (at > fromS && at <= toS) {
                sum += s.tasks().get(task).cpuPercent();
                n++;
            }
        }
        if (n == 0) throw new AssertionError("no samples in (" + fromS + ", " + toS + "]");
        return sum / n;
    }
}
