package io.cfslab.experiment;

import io.cfslab.machine.MachineProfiles;
import io.cfslab.scenario.CgroupSpec;
import io.cfslab.scenario.MachineSpec;
import io.cfslab.sim.Benchmarks;
import io.cfslab.scenario.Problem;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioException;
import io.cfslab.scenario.TaskSpec;
import io.cfslab.scenario.TimelineAction;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * An experiment resolved against its scenario: every arm's scenario document (the base document, the
 * experiment's common {@code set}, then the arm's {@code set}), each validated by the normal scenario parser;
 * the seeds of the repeats ({@link SeedSequence}); the metrics. Problems of an arm's scenario are reported at
 * the override that caused them ({@code /arms/1/set/~1kernel~1hz: must be an integer, not string "fast"}),
 * or in the scenario itself.
 *
 * @param name          the experiment's name
 * @param description   the experiment's description, or null
 * @param scenarioId    the stored or ready-made scenario it came from, or null for an inline one
 * @param scenarioName  the base scenario's {@code name}
 * @param seed          the experiment's seed (its own, else the scenario's)
 * @param seeds         seed of each repeat, the same for every arm
 * @param arms          the arms, base first
 * @param metrics       the metrics named by the experiment, or empty for the default set
 * @param limitedGroups groups that have a quota in some arm (initially or written by the timeline), in creation
 *                      order: the default metrics measure their usage, nr_throttled and throttled_usec
 */
public record ExperimentPlan(String name, String description, String scenarioId, String scenarioName, long seed,
                             long[] seeds, List<ArmPlan> arms, List<String> metrics, List<String> limitedGroups) {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Top-level keys of a run's result that a metric may start with. */
    static final List<String> RESULT_KEYS = List.of("simulated_ns", "cgroups", "tasks", "histograms", "benchmarks",
            "cpus", "machine");

    /**
     * One arm, ready to run.
     *
     * @param index    0 for the base
     * @param name     the arm's name
     * @param set      its own overrides (without the common ones)
     * @param document the scenario document it runs (without the repeat's seed)
     * @param scenario that document, parsed
     */
    public record ArmPlan(int index, String name, Map<String, JsonNode> set, ObjectNode document, Scenario scenario) {
        /** The exact document repeat {@code seed} runs: the arm's document with {@code "seed"} set. */
        public ObjectNode document(long seed) {
            ObjectNode d = document.deepCopy();
            d.put("seed", seed);
            return d;
        }

        /** The parsed scenario with {@code seed}. */
        public Scenario scenario(long seed) { return scenario.withSeed(seed); }
    }

    /** @return repeats per arm */
    public int repeats() { return seeds.length; }

    /**
     * Resolves an experiment.
     *
     * @param e          the parsed experiment
     * @param base       the scenario document ({@code e.scenario()} or the stored one); not changed
     * @param scenarioId the stored scenario's id, or null for an inline scenario
     * @param parser     the scenario parser (JSON text → scenario, or {@link ScenarioException})
     * @throws ExperimentException listing every problem
     */
    public static ExperimentPlan of(Experiment e, ObjectNode base, String scenarioId, Function<String, Scenario> parser) {
        List<Problem> problems = new ArrayList<>();
        List<ArmPlan> arms = new ArrayList<>();
        // the scenario's own faults, to tell them from those the overrides cause
        Set<String> ownFaults = new java.util.HashSet<>();
        Scenario baseScenario = null;
        try {
            baseScenario = parser.apply(JSON.writeValueAsString(base));
        } catch (ScenarioException ex) {
            for (Problem p : ex.problems()) ownFaults.add(p.path() + "\u0000" + p.reason());
            // a fault no override touches is every arm's: reported once, without parsing the scenario once per arm
            // (a large invalid scenario × 10 arms took seconds and a GB of heap to give the same answer)
            boolean overridden = false;
            for (Problem p : ex.problems()) {
                String path = p.path() == null ? "" : p.path();
                for (String ptr : e.set().keySet()) overridden |= related(path, ptr);
                for (Experiment.Arm a : e.arms()) for (String ptr : a.set().keySet()) overridden |= related(path, ptr);
            }
            if (!overridden) {
                for (Problem p : ex.problems()) problems.add(locate(p, e, 0, scenarioId, true));
                throw new ExperimentException(dedupe(problems));
            }
        }
        for (int i = 0; i < e.arms().size(); i++) {
            Experiment.Arm arm = e.arms().get(i);
            ObjectNode doc = base.deepCopy();
            List<Problem> own = new ArrayList<>();
            ScenarioOverrides.apply(doc, e.set(), "/set", own);
            ScenarioOverrides.apply(doc, arm.set(), "/arms/" + i + "/set", own);
            problems.addAll(own);
            if (!own.isEmpty()) continue;
            try {
                // an arm without overrides runs the base as it is: parsed once above
                Scenario s = baseScenario != null && e.set().isEmpty() && arm.set().isEmpty() ? baseScenario
                        : parser.apply(JSON.writeValueAsString(doc));
                arms.add(new ArmPlan(i, arm.name(), arm.set(), doc, s));
            } catch (ScenarioException ex) {
                for (Problem p : ex.problems()) {
                    problems.add(locate(p, e, i, scenarioId, ownFaults.contains(p.path() + "\u0000" + p.reason())));
                }
            }
        }
        if (!problems.isEmpty()) throw new ExperimentException(dedupe(problems));
        long seed = e.seed() != null ? e.seed() : arms.get(0).scenario().seed();
        long[] seeds = SeedSequence.seeds(seed, e.repeats());
        List<String> limited = limitedGroups(arms);
        if (e.metrics().isEmpty() && limited.isEmpty()
                && arms.stream().allMatch(a -> a.scenario().tasks().stream().allMatch(t -> Benchmarks.keys(t.workload()).isEmpty()))) {
            // the default metrics are the limited groups' cpu.stat and the benchmarks' figures: none, an empty table
            throw new ExperimentException(List.of(new Problem("/metrics", "nothing to compare: no arm has a group with a"
                    + " quota (cpu.max) or a benchmark workload (fixed-work, hackbench, netperf-udp-rr), and the experiment"
                    + " names no metrics (give \"metrics\", e.g. [\"tasks/NAME/usage_usec\"])", null)));
        }
        for (int m = 0; m < e.metrics().size(); m++) {
            // every arm must have the number: an arm that renames a task or cgroup would only show n/a after its runs
            String figure = null;
            int armsWithout = 0;
            for (ArmPlan a : arms) {
                String bad = metricProblem(e.metrics().get(m), a.scenario());
                if (bad != null) {
                    problems.add(new Problem("/metrics/" + m, bad + (a.index() == 0 ? "" : " (arm \"" + a.name() + "\")"), null));
                    figure = null;
                    break;
                }
                // a workload's figure or a machine counter: arms that change the workload or the machine (seed 04's
                // hackbench and netperf arms) show n/a where theirs has none; refused only when no arm has it
                String none = figureProblem(e.metrics().get(m), a.scenario());
                if (none != null) {
                    armsWithout++;
                    if (figure == null) figure = none + (a.index() == 0 ? "" : " (arm \"" + a.name() + "\")");
                }
            }
            if (figure != null && armsWithout == arms.size()) problems.add(new Problem("/metrics/" + m, figure, null));
        }
        if (!problems.isEmpty()) throw new ExperimentException(problems);
        String scenarioName = arms.get(0).scenario().name();
        return new ExperimentPlan(e.name(), e.description(), scenarioId, scenarioName, seed, seeds, List.copyOf(arms),
                e.metrics(), limited);
    }

    /**
     * Where a problem of arm {@code i}'s scenario comes from: the override at (or above, or below) its pointer; else,
     * for a problem the scenario alone does not have, the arm's {@code set} (or the common one) as a whole (a shorter
     * {@code /duration} that a timeline entry no longer fits); else the scenario itself.
     */
    private static Problem locate(Problem p, Experiment e, int i, String scenarioId, boolean scenarioHasIt) {
        Experiment.Arm arm = e.arms().get(i);
        String path = p.path() == null ? "" : p.path();
        String reason = p.reason() + " (arm \"" + arm.name() + "\", scenario " + (path.isEmpty() ? "/" : path) + ")";
        for (String ptr : arm.set().keySet()) {
            if (related(path, ptr)) return new Problem("/arms/" + i + "/set/" + ExperimentParser.esc(ptr), reason, p.errno());
        }
        for (String ptr : e.set().keySet()) {
            if (related(path, ptr)) return new Problem("/set/" + ExperimentParser.esc(ptr), reason, p.errno());
        }
        if (!scenarioHasIt && !arm.set().isEmpty()) return new Problem("/arms/" + i + "/set", reason, p.errno());
        if (!scenarioHasIt && !e.set().isEmpty()) return new Problem("/set", reason, p.errno());
        if (scenarioId == null) return new Problem("/scenario" + path, p.reason(), p.errno());
        return new Problem("/scenario_id", "scenario " + scenarioId + (path.isEmpty() ? "" : " at " + path) + ": "
                + p.reason(), p.errno());
    }

    private static boolean related(String problemPath, String pointer) {
        return problemPath.equals(pointer) || problemPath.startsWith(pointer + "/")
                || (!problemPath.isEmpty() && pointer.startsWith(problemPath + "/"));
    }

    /** Problems the arms share (a fault of the scenario itself) are reported once. */
    private static List<Problem> dedupe(List<Problem> problems) {
        return new ArrayList<>(new LinkedHashSet<>(problems));
    }

    private static List<String> limitedGroups(List<ArmPlan> arms) {
        Set<String> out = new LinkedHashSet<>();
        Set<String> limited = new java.util.HashSet<>();
        for (ArmPlan a : arms) {
            for (CgroupSpec c : a.scenario().cgroups()) if (c.cpuMax().limited()) limited.add(c.path());
            for (TimelineAction t : a.scenario().timeline()) {
                if (t instanceof TimelineAction.Write w && w.file().equals("cpu.max")) limited.add(w.cgroup());
            }
        }
        for (ArmPlan a : arms) for (CgroupSpec c : a.scenario().cgroups()) if (limited.contains(c.path())) out.add(c.path());
        return List.copyOf(out);
    }

    /** Checks the names a metric path takes from the scenario: its cgroup, task or task entry must exist. */
    private static String metricProblem(String metric, Scenario s) {
        List<String> steps = MetricPath.steps(metric);
        String top = steps.get(0);
        if (!RESULT_KEYS.contains(top)) {
            return "metric " + metric + " does not start with a part of the result (" + String.join(", ", RESULT_KEYS) + ")";
        }
        if (!top.equals("simulated_ns") && steps.size() < 2) return "metric " + metric + " names no number";
        if (top.equals("simulated_ns") && steps.size() > 1) return "simulated_ns is a number; metric " + metric + " goes past it";
        switch (top) {
            case "cpus" -> {
                int cpu;
                try {
                    cpu = Integer.parseInt(steps.get(1));
                } catch (NumberFormatException notANumber) {
                    return "metric " + metric + ": cpus/ is followed by a CPU number";
                }
                if (s.machine().cpus() > 0 && (cpu < 0 || cpu >= s.machine().cpus())) {
                    return "no CPU " + cpu + " on a machine of " + s.machine().cpus() + " CPUs (metric " + metric + ")";
                }
            }
            case "cgroups" -> {
                if (s.cgroups().stream().noneMatch(c -> c.path().equals(steps.get(1))) && !steps.get(1).equals("/")) {
                    return "no cgroup " + steps.get(1) + " in the scenario (metric " + metric + "; write / inside a name as ~1)";
                }
                if (steps.size() < 4 && !(steps.size() == 3 && steps.get(2).equals("cpuacct.usage"))) {
                    return "metric " + metric + " names a file, not a number (e.g. …/cpu.stat/throttled_usec)";
                }
                // the kernel's own keys first (a v2 scenario's misspelt key is named against v2's), then the result's
                String printed = steps.size() == 4 || steps.get(2).equals("cpuacct.usage") ? cgroupKeyProblem(steps, s) : null;
                if (printed != null) return printed + " (metric " + metric + ")";
            }
            case "tasks" -> {
                boolean found = false;
                for (TaskSpec t : s.tasks()) for (int i = 0; i < t.total(); i++) found |= t.instanceName(i).equals(steps.get(1));
                if (!found) return "no task " + steps.get(1) + " in the scenario (metric " + metric
                        + "; instances of an entry of N tasks are name~10 … name~1N-1)";
            }
            case "benchmarks" -> {
                if (s.tasks().stream().noneMatch(t -> t.name().equals(steps.get(1)))) {
                    return "no task entry " + steps.get(1) + " in the scenario (metric " + metric + ")";
                }
            }
            default -> { }
        }
        return ResultShape.problem(metric); // a key no result has: a misspelt one (cpu.stat/usage_usecs, cpu.stats)
    }

    /**
     * Whether the scenario's workloads and machine give the figure a {@code benchmarks/ENTRY/KEY} or {@code machine/KEY}
     * metric names ({@link Benchmarks#keys}, {@link Benchmarks#absentMachineKeys}): a misspelt figure, another
     * workload's, any of a hog's, power on a machine without a power model would be n/a in every run.
     */
    private static String figureProblem(String metric, Scenario s) {
        List<String> steps = MetricPath.steps(metric);
        if (steps.size() < 2) return null;
        switch (steps.get(0)) {
            case "benchmarks" -> {
                TaskSpec entry = s.tasks().stream().filter(t -> t.name().equals(steps.get(1))).findFirst().orElse(null);
                if (entry == null) return null;
                List<String> keys = Benchmarks.keys(entry.workload());
                String kind = entry.workload().kind();
                if (keys.isEmpty()) {
                    return "task entry " + steps.get(1) + " runs " + kind + ", which has no benchmark figures (metric "
                            + metric + "; fixed-work, hackbench and netperf-udp-rr have them)";
                }
                if (steps.size() == 3 && !keys.contains(steps.get(2))) {
                    return "no figure " + steps.get(2) + " for task entry " + steps.get(1) + " (metric " + metric + "; "
                            + kind + "'s are " + String.join(", ", keys) + ")";
                }
            }
            case "machine" -> {
                MachineSpec m = s.machine();
                List<String> absent = Benchmarks.absentMachineKeys(MachineProfiles.of(m.profile(), m.cpus(), m.smt(), m.sockets()));
                if (steps.size() == 2 && absent.contains(steps.get(1))) {
                    return "machine " + m.profile() + " has no " + steps.get(1) + " (metric " + metric + "; "
                            + (steps.get(1).equals("llc_migrations") && !absent.contains("power_w")
                                    ? "it has one last-level cache" : "no power model: only the named profiles have one") + ")";
                }
            }
            default -> { }
        }
        return null;
    }

    /**
     * Whether the scenario's kernel prints the key a cgroups/ metric names, as {@code Kernel.cgroupStats()} writes a
     * group's files: cgroup v2's {@code cpu.stat} keys or v1's ({@code throttled_time}, {@code burst_time} in ns, and
     * {@code cpuacct.usage}), the burst keys with {@code burst_stats} (5.16+), {@code cpu.stat.local} with
     * {@code cpu_stat_local} (6.6+). A key of the other version would be n/a in every run.
     */
    private static String cgroupKeyProblem(List<String> steps, Scenario s) {
        boolean v1 = s.kernel().cgroupVersion() == 1;
        String file = steps.get(2);
        String kernel = "kernel " + s.kernel().version() + " on cgroup v" + s.kernel().cgroupVersion();
        List<String> keys = new ArrayList<>();
        switch (file) {
            case "cpu.stat" -> {
                keys.addAll(v1 ? List.of("nr_periods", "nr_throttled", "throttled_time")
                        : List.of("usage_usec", "user_usec", "system_usec", "nr_periods", "nr_throttled", "throttled_usec"));
                if (s.kernel().burstStats()) keys.addAll(v1 ? List.of("nr_bursts", "burst_time") : List.of("nr_bursts", "burst_usec"));
            }
            case "cpu.stat.local" -> {
                if (s.kernel().cpuStatLocal()) keys.add(v1 ? "throttled_time" : "throttled_usec");
            }
            case "cpuacct.usage" -> {
                return v1 ? null : kernel + " has no cpuacct.usage (cgroup v1's)";
            }
            default -> {
                return null;
            }
        }
        if (keys.isEmpty()) return kernel + " has no " + file;
        if (!keys.contains(steps.get(3))) {
            return kernel + " prints no " + steps.get(3) + " in " + file + " (its keys: " + String.join(", ", keys) + ")";
        }
        return null;
    }
}
