package io.cfslab.testsupport;

import io.cfslab.runs.SimulationEngine;
import io.cfslab.scenario.CgroupSpec;
import io.cfslab.scenario.CpuMax;
import io.cfslab.scenario.MachineSpec;
import io.cfslab.scenario.Problem;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioException;
import io.cfslab.scenario.TaskSpec;
import io.cfslab.scenario.WorkloadSpec;
import io.cfslab.sim.RunControl;
import io.cfslab.sim.SimulationAbortedException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * TEST-ONLY stand-in for the core while {@code ScenarioParser}/{@code Simulator}/{@code ResultJson} are
 * stubs on this branch: a small parser of the contract subset the service tests use (checks cgroups'
 * cpu.max/burst/weight with the kernel's errno, task cgroups, unknown top-level keys; expands generate), and
 * a "simulator" that takes {@link #wallMsPerSimulatedSecond} wall ms per simulated second, honours
 * cancellation and the event budget, and records concurrency and executions for the tests.
 */
public class FakeEngine implements SimulationEngine {
    public static volatile long wallMsPerSimulatedSecond = 1000;
    /** events the fake "processes" per simulated ms */
    public static final long EVENTS_PER_MS = 10;
    public static final AtomicInteger current = new AtomicInteger();
    public static final AtomicInteger maxConcurrent = new AtomicInteger();
    /** executions started, by scenario name + seed */
    public static final Map<String, AtomicInteger> executions = new ConcurrentHashMap<>();

    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final Set<String> TOP = Set.of("name", "seed", "duration", "machine", "kernel", "cgroups",
            "generate", "tasks", "timeline", "record");

    public static void reset() {
        current.set(0);
        maxConcurrent.set(0);
        executions.clear();
        wallMsPerSimulatedSecond = 1000;
    }

    @Override
    public Scenario parse(String text) {
        List<Problem> problems = new ArrayList<>();
        JsonNode doc;
        try {
            doc = JSON.readTree(text);
        } catch (RuntimeException e) {
            throw new ScenarioException(List.of(new Problem("", "not JSON", null)));
        }
        for (String k : doc.propertyNames()) if (!TOP.contains(k)) problems.add(new Problem("/" + k, "unknown key", null));
        String name = doc.path("name").asString("unnamed");
        long seed = doc.path("seed").asLong(1);
        long duration = parseNs(doc.path("duration").asString("1s"));
        if (duration <= 0) problems.add(new Problem("/duration", "duration must be > 0", null));
        int cpus = doc.path("machine").path("cpus").asInt(1);
        Map<String, CgroupSpec> groups = new LinkedHashMap<>();
        JsonNode cg = doc.path("cgroups");
        for (int i = 0; i < cg.size(); i++) {
            JsonNode c = cg.get(i);
            String path = c.path("path").asString("");
            String base = "/cgroups/" + i;
            if (!path.startsWith("/") || path.equals("/")) {
                problems.add(new Problem(base + "/path", "path must be absolute and not /", "EINVAL"));
                continue;
            }
            addParents(groups, path);
            CpuMax max = CpuMax.DEFAULT;
            if (c.has("cpu.max")) {
                String v = c.get("cpu.max").asString("");
                String[] t = v.trim().split("\\s+");
                try {
                    long quota = t[0].equals("max") ? CpuMax.MAX : Long.parseLong(t[0]);
                    long period = t.length > 1 ? Long.parseLong(t[1]) : 100_000;
                    if (t.length > 2) throw new NumberFormatException();
                    if ((quota != CpuMax.MAX && quota < 1000) || period < 1000 || period > 1_000_000) {
                        problems.add(new Problem(base + "/cpu.max", "quota and period must be >= 1000 us, period <= 1 s", "EINVAL"));
                    }
                    max = new CpuMax(quota, period);
                } catch (NumberFormatException e) {
                    problems.add(new Problem(base + "/cpu.max", "expected '<quota|max> [period]'", "EINVAL"));
                }
            }
            long burst = 0;
            if (c.has("cpu.max.burst")) {
                try {
                    burst = Long.parseLong(c.get("cpu.max.burst").asString(""));
                } catch (NumberFormatException e) {
                    problems.add(new Problem(base + "/cpu.max.burst", "expected microseconds", "EINVAL"));
                }
            }
            int weight = 100;
            if (c.has("cpu.weight")) {
                JsonNode w = c.get("cpu.weight");
                if (!w.isIntegralNumber()) problems.add(new Problem(base + "/cpu.weight", "expected an integer", "EINVAL"));
                else if (w.asLong() < 1 || w.asLong() > 10000) problems.add(new Problem(base + "/cpu.weight", "1..10000", "ERANGE"));
                else weight = w.asInt();
            }
            groups.put(path, new CgroupSpec(path, max, burst, weight));
        }
        JsonNode gens = doc.path("generate");
        for (int i = 0; i < gens.size(); i++) {
            JsonNode g = gens.get(i);
            List<String> level = new ArrayList<>(List.of(""));
            JsonNode levels = g.path("levels");
            for (int d = 0; d < levels.size(); d++) {
                List<String> next = new ArrayList<>();
                for (String parent : level) {
                    String prefix = parent.isEmpty() ? "" : parent.substring(parent.lastIndexOf('/') + 1) + "_";
                    for (int k = 1; k <= levels.get(d).asInt(); k++) {
                        String p = parent + "/" + prefix + k;
                        String q = g.path("cpu.max").path(Integer.toString(d + 1)).asString(null);
                        CpuMax m = CpuMax.DEFAULT;
                        if (q != null) {
                            String[] t = q.split(" ");
                            m = new CpuMax(t[0].equals("max") ? CpuMax.MAX : Long.parseLong(t[0]), Long.parseLong(t[1]));
                        }
                        groups.put(p, new CgroupSpec(p, m, 0, 100));
                        next.add(p);
                    }
                }
                level = next;
            }
        }
        List<TaskSpec> tasks = new ArrayList<>();
        JsonNode ts = doc.path("tasks");
        for (int i = 0; i < ts.size(); i++) {
            JsonNode t = ts.get(i);
            String g = t.path("cgroup").asString("/");
            List<String> where = new ArrayList<>();
            if (g.startsWith("leaves:")) {
                String under = g.substring(7);
                for (String p : groups.keySet()) {
                    boolean inside = under.equals("/") || p.startsWith(under + "/");
                    boolean leaf = groups.keySet().stream().noneMatch(o -> o.startsWith(p + "/"));
                    if (inside && leaf) where.add(p);
                }
            } else if (g.equals("/") || groups.containsKey(g)) {
                where.add(g);
            } else {
                problems.add(new Problem("/tasks/" + i + "/cgroup", "no cgroup " + g, "ENOENT"));
            }
            tasks.add(new TaskSpec(t.path("name").asString("t" + i), where, t.path("count").asInt(1),
                    new WorkloadSpec.Hog(), null, TaskSpec.Policy.NORMAL, 0));
        }
        if (!problems.isEmpty()) throw new ScenarioException(problems);
        return new Scenario(name, seed, duration, new MachineSpec("generic", cpus, 1, 1), null,
                new ArrayList<>(groups.values()), tasks, List.of(), null);
    }

    private static void addParents(Map<String, CgroupSpec> groups, String path) {
        int i = 0;
        while ((i = path.indexOf('/', i + 1)) > 0) {
            String p = path.substring(0, i);
            groups.putIfAbsent(p, new CgroupSpec(p, CpuMax.DEFAULT, 0, 100));
        }
    }

    static long parseNs(String s) {
        if (s.endsWith("ms")) return (long) (Double.parseDouble(s.substring(0, s.length() - 2)) * 1e6);
        if (s.endsWith("us")) return (long) (Double.parseDouble(s.substring(0, s.length() - 2)) * 1e3);
        if (s.endsWith("ns")) return Long.parseLong(s.substring(0, s.length() - 2));
        if (s.endsWith("s")) return (long) (Double.parseDouble(s.substring(0, s.length() - 1)) * 1e9);
        return Long.parseLong(s);
    }

    @Override
    public String simulate(Scenario s, RunControl control) {
        executions.computeIfAbsent(s.name() + "#" + s.seed(), k -> new AtomicInteger()).incrementAndGet();
        int now = current.incrementAndGet();
        maxConcurrent.accumulateAndGet(now, Math::max);
        long t = 0;
        long events = 0;
        try {
            long stepNs = 10_000_000; // 10 ms simulated per step
            while (t < s.durationNs()) {
                if (control.cancelled()) break;
                long sleepMs = wallMsPerSimulatedSecond * stepNs / 1_000_000_000L;
                if (sleepMs > 0) Thread.sleep(sleepMs);
                t = Math.min(s.durationNs(), t + stepNs);
                events += EVENTS_PER_MS * stepNs / 1_000_000;
                if (events > control.maxEvents()) throw new SimulationAbortedException("over " + control.maxEvents() + " events");
                control.progress(t, events);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            current.decrementAndGet();
        }
        ObjectNode r = JSON.createObjectNode();
        r.put("scenario", s.name()).put("seed", s.seed()).put("simulated_ns", t);
        ObjectNode groups = r.putObject("cgroups");
        for (CgroupSpec c : s.cgroups()) {
            ObjectNode st = groups.putObject(c.path()).putObject("cpu.stat");
            long periods = c.cpuMax().limited() ? t / (c.cpuMax().periodUs() * 1000) : 0;
            st.put("usage_usec", t / 1000).put("user_usec", t / 1000).put("system_usec", 0)
                    .put("nr_periods", periods).put("nr_throttled", periods).put("throttled_usec", 0)
                    .put("nr_bursts", 0).put("burst_usec", 0);
        }
        r.putObject("tasks");
        ObjectNode h = r.putObject("histograms").putObject("distribute_cfs_runtime_ns");
        h.put("count", 3).put("sum", 40000);
        h.putArray("buckets").add(JSON.createObjectNode().put("low", 8192).put("high", 16384).put("count", 2))
                .add(JSON.createObjectNode().put("low", 16384).put("high", 32768).put("count", 1));
        r.putArray("distribute_calls");
        r.putArray("series");
        r.putObject("benchmarks");
        r.putObject("engine").put("events", events).put("wall_ms", 0);
        return JSON.writeValueAsString(r);
    }
}
