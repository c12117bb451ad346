package io.cfslab.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.cfslab.metrics.SimulationResult.CgroupStats;
import io.cfslab.metrics.SimulationResult.CpuStat;
import io.cfslab.metrics.SimulationResult.CpuStatLocal;
import io.cfslab.metrics.SimulationResult.DistributeCall;
import io.cfslab.metrics.SimulationResult.EngineStats;
import io.cfslab.metrics.SimulationResult.SeriesSample;
import io.cfslab.metrics.SimulationResult.TaskSample;
import io.cfslab.metrics.SimulationResult.TaskStats;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;

class ResultJsonTest {

    /** A result shaped like the contract's example, with two cgroups given in non-alphabetical order. */
    static SimulationResult sample(double cpuPercent, long wallMs) {
        Map<String, CgroupStats> cgroups = new LinkedHashMap<>();
        cgroups.put("/b", new CgroupStats(new CpuStat(7, 6, 1, 0, 0, 0, 0, 0), new CpuStatLocal(0)));
        cgroups.put("/a", new CgroupStats(new CpuStat(500000, 499000, 1000, 50, 49, 4500000, 2, 300),
                new CpuStatLocal(4400000)));
        Map<String, TaskStats> tasks = new LinkedHashMap<>();
        tasks.put("nop", new TaskStats(500000, 499000, 1000, 51, 3));
        tasks.put("hog/0", new TaskStats(1, 1, 0, 1, 0));
        Log2Histogram h = new Log2Histogram();
        h.record(9000);
        h.record(12345);
        h.record(3_000_000);
        Map<String, HistogramSnapshot> histograms = new LinkedHashMap<>();
        histograms.put("distribute_cfs_runtime_ns", h.snapshot());
        List<DistributeCall> calls = new ArrayList<>();
        calls.add(new DistributeCall(100_000_000L, 0, "/a", 9000, 2, 1, 2, 1, false));
        calls.add(new DistributeCall(200_000_000L, 1, "/a", 12345, 3, 2, 5, 4, true));
        Map<String, CgroupStats> sampleCgroups = new LinkedHashMap<>();
        sampleCgroups.put("/a", new CgroupStats(new CpuStat(100000, 100000, 0, 10, 10, 900000, 0, 0),
                new CpuStatLocal(900000)));
        Map<String, TaskSample> sampleTasks = new LinkedHashMap<>();
        sampleTasks.put("nop", new TaskSample(cpuPercent));
        List<SeriesSample> series = List.of(new SeriesSample(1_000_000_000L, sampleCgroups, sampleTasks));
        Map<String, Map<String, Double>> benchmarks = new LinkedHashMap<>();
        benchmarks.put("work", new LinkedHashMap<>(Map.of("completion_s", 2.13)));
        return new SimulationResult("one hog limited to 10%", 1, 5_000_000_000L, cgroups, tasks, histograms, calls,
                series, benchmarks, new EngineStats(123456, wallMs));
    }

    private static List<String> names(JsonNode node) {
        return new ArrayList<>(node.propertyNames());
    }

    @Test
    void roundTrip() {
        SimulationResult r = sample(10.0, 42);
        String json = ResultJson.write(r);
        assertEquals(r, ResultJson.read(json));
        assertEquals(json, ResultJson.write(ResultJson.read(json)));
    }

    @Test
    void exactKeyNamesAndOrder() {
        JsonNode root = ResultJson.mapper().readTree(ResultJson.write(sample(10.0, 42)));
        assertEquals(List.of("scenario", "seed", "simulated_ns", "cgroups", "tasks", "histograms",
                "distribute_calls", "series", "benchmarks", "machine", "cpus", "kernel", "actions", "kernel_log",
                "engine"), names(root));
        assertEquals(List.of("/b", "/a"), names(root.get("cgroups")), "insertion order, not sorted");
        JsonNode a = root.get("cgroups").get("/a");
        assertEquals(List.of("cpu.stat", "cpu.stat.local"), names(a));
        assertEquals(List.of("usage_usec", "user_usec", "system_usec", "nr_periods", "nr_throttled",
                "throttled_usec", "nr_bursts", "burst_usec"), names(a.get("cpu.stat")));
        assertEquals(4500000, a.get("cpu.stat").get("throttled_usec").asLong());
        assertEquals(List.of("throttled_usec"), names(a.get("cpu.stat.local")));
        assertEquals(List.of("usage_usec", "user_usec", "system_usec", "nr_switches", "nr_migrations"),
                names(root.get("tasks").get("nop")));
        JsonNode hist = root.get("histograms").get("distribute_cfs_runtime_ns");
        assertEquals(List.of("count", "sum", "buckets"), names(hist));
        assertEquals(3, hist.get("count").asLong());
        assertEquals(9000 + 12345 + 3_000_000, hist.get("sum").asLong());
        assertEquals(List.of("low", "high", "count"), names(hist.get("buckets").get(0)));
        assertEquals(8192, hist.get("buckets").get(0).get("low").asLong());
        assertEquals(16384, hist.get("buckets").get(0).get("high").asLong());
        assertEquals(2, hist.get("buckets").get(0).get("count").asLong());
        assertEquals(List.of("at_ns", "cpu", "cgroup", "duration_ns", "rqs", "remote_rqs", "cfs_rqs", "tasks",
                "slack"), names(root.get("distribute_calls").get(0)));
        JsonNode sample = root.get("series").get(0);
        assertEquals(List.of("at_ns", "cgroups", "tasks"), names(sample));
        assertEquals(List.of("cpu.stat", "cpu.stat.local"), names(sample.get("cgroups").get("/a")));
        assertEquals(List.of("cpu_percent"), names(sample.get("tasks").get("nop")));
        assertEquals(2.13, root.get("benchmarks").get("work").get("completion_s").asDouble());
        assertEquals(List.of("events", "wall_ms"), names(root.get("engine")));
    }

    @Test
    void deterministicBytes() {
        String first = ResultJson.write(sample(12.5, 42));
        String second = ResultJson.write(sample(12.5, 42));
        assertEquals(first, second);
        assertFalse(first.contains("\r"), "'\\n' line ends on every platform");
        assertTrue(first.contains("\n  \"simulated_ns\": 5000000000,\n"), first);
        assertTrue(first.contains("\"cpu.stat\": {"), first);
        // Only engine may differ between two runs: the bytes before it are identical.
        String otherRun = ResultJson.write(sample(12.5, 99));
        assertNotEquals(first, otherRun);
        assertEquals(first.substring(0, first.indexOf("\"engine\"")), otherRun.substring(0, otherRun.indexOf("\"engine\"")));
    }

    @Test
    void cpuPercentRoundedToTwoDecimals() {
        String json = ResultJson.write(sample(100.0 / 3, 42));
        assertTrue(json.contains("\"cpu_percent\": 33.33\n"), json);
        assertEquals(33.33, ResultJson.read(json).series().get(0).tasks().get("nop").cpuPercent());
        assertEquals(66.67, ResultJson.round2(200.0 / 3));
        assertEquals(10.0, ResultJson.round2(9.999));
        assertEquals(2.67, ResultJson.round2(2.675), "2.675 is 2.67499999... in binary");
    }

    @Test
    void unknownKeyIsAnErrorNamingThePath() {
        String json = ResultJson.write(sample(10.0, 42)).replace("\"nr_bursts\"", "\"nr_burst\"");
        JacksonException e = assertThrows(JacksonException.class, () -> ResultJson.read(json));
        assertTrue(e.getMessage().contains("nr_burst"), e.getMessage());
        assertTrue(e.getMessage().contains("cpu.stat"), e.getMessage());
    }
}
