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

    /**
     * A scenario resource with {@code kernel} keys set (or replaced), e.g. another {@code version}.
     * @param kernel alternating keys and values: {@code "version", "5.4", "throttle", "cfs_rq"}
     */
    static String withKernel(String resource, Object... kernel) {
        var root = (tools.jackson.databind.node.ObjectNode) ScenarioParser.readTree(text(resource));
        var k = root.has("kernel") ? (tools.jackson.databind.node.ObjectNode) root.get("kernel") : root.putObject("kernel");
        for (int i = 0; i < kernel.length; i += 2) {
            Object v = kernel[i + 1];
            if (v instanceof Boolean b) k.put((String) kernel[i], b);
            else if (v instanceof Number n) k.put((String) kernel[i], n.longValue());
            else k.put((String) kernel[i], (String) v);
        }
        return root.toString();
    }

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
