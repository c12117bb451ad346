package io.cfslab.scenario;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What each key of a scenario means when it is left out, for one {@code kernel.version}: the editor's forms
 * label their empty fields with it, and a test holds docs/scenarios.md to it. Nothing here is a second table:
 * every value is read back from what {@link ScenarioParser} makes of a document that leaves the key out (the
 * kernel's switches from the version's {@link KernelVersions} entry as the parser applies it, a workload's
 * parameters from the parsed {@link WorkloadSpec}, the required keys from the parser's own "is required"
 * problems), so a default changed in the parser changes here without more code.
 *
 * <p>Shape: {@code {"version", "versions": {"default", "releases": [...], "distributions": {"rhel8": "4.18", ...},
 * "mainline": "4.14", "latest": "6.18"}, "choices": {@link #choices()}, "name", "seed", "required": ["duration"], "machine": {...},
 * "kernel": {...every KernelSpec switch...}, "record": {"interval": "1s", ...}, "task": {"count", "policy",
 * "cpus_allowed"}, "workloads": {kind: {"required": [keys], "defaults": {key: value}}}}}: durations as scenario
 * strings ({@code "1s"}), enum values in the scenario's words.
 */
public final class ScenarioDefaults {
    private ScenarioDefaults() {}

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The workload kinds, in the contract's order ({@link WorkloadSection#KINDS}). */
    public static final List<String> KINDS = List.of(WorkloadSection.KINDS.split(", "));

    /**
     * @param version a {@code kernel.version} (a release, {@code x.y.0}, {@code tip-2026} or a distribution
     *                alias), or null for the default version
     * @return the defaults (see the class comment)
     * @throws ScenarioException at {@code /kernel/version} when the parser refuses the version
     */
    public static ObjectNode of(String version) {
        ObjectNode kernelIn = JSON.createObjectNode();
        if (version != null) kernelIn.put("version", version);
        ObjectNode doc = JSON.createObjectNode();
        doc.put("duration", "1s");
        doc.set("kernel", kernelIn);
        doc.putArray("cgroups").addObject().put("path", "/d");
        ArrayNode tasks = doc.putArray("tasks");
        for (String kind : KINDS) {
            ObjectNode t = tasks.addObject();
            t.put("name", kind);
            t.put("cgroup", "/d");
            ObjectNode w = t.putObject("workload");
            w.put("kind", kind);
            // the required keys get a value (their own default is what "required" means); the rest is left out
            for (String key : required(kind)) w.put(key, "1ms");
        }
        Scenario s = ScenarioParser.parse(JSON.writeValueAsString(doc));
        // the same document without a version and without tasks: the name, seed, machine and record defaults
        ObjectNode out = JSON.createObjectNode();
        String effective = version == null ? KernelVersions.DEFAULT : KernelVersions.normalise(version);
        out.put("version", effective);
        out.set("versions", versions());
        out.set("choices", JSON.valueToTree(choices()));
        out.put("name", ScenarioParser.parse("{\"duration\": \"1s\"}").name());
        out.put("seed", s.seed());
        out.set("required", JSON.valueToTree(requiredTop()));
        out.set("machine", EffectiveSettings.of(s).get("machine"));
        ObjectNode kernel = JSON.valueToTree(s.kernel().switches());
        kernel.remove("cgroup_version"); // decided by the files a document writes, never a key (breaker 5 F11)
        out.set("kernel", kernel);
        ObjectNode record = out.putObject("record");
        // the interval left out depends on the duration (RecordSection.withDefaultInterval): its rule, not one value
        record.put("interval", RecordSection.DEFAULT_INTERVAL_RULE);
        record.put("max_distribute_calls", s.record().maxDistributeCalls());
        record.put("max_series_tasks", s.record().maxSeriesTasks());
        record.put("max_series_cgroups", s.record().maxSeriesCgroups());
        TaskSpec first = s.tasks().get(0);
        ObjectNode task = out.putObject("task");
        task.put("count", first.countPerCgroup());
        task.put("policy", ScenarioParser.jsonName(first.policy()));
        task.put("cpus_allowed", first.cpusAllowed() == null || first.cpusAllowed().cardinality() == s.machine().cpus()
                ? "all" : first.cpusAllowed().toString());
        ObjectNode workloads = out.putObject("workloads");
        for (int i = 0; i < KINDS.size(); i++) {
            String kind = KINDS.get(i);
            List<String> req = required(kind);
            ObjectNode k = workloads.putObject(kind);
            k.set("required", JSON.valueToTree(req));
            ObjectNode d = k.putObject("defaults");
            WorkloadSpec w = s.tasks().get(i).workload();
            for (Map.Entry<String, Object> e : components(w).entrySet()) {
                if (!req.contains(e.getKey())) d.set(e.getKey(), JSON.valueToTree(e.getValue()));
            }
        }
        return out;
    }

    /**
     * The values the parser accepts for the keys a form offers as a list, in the scenario's words: {@code
     * machine.profile}, {@code kernel.throttle}, {@code kernel.unthrottle}, {@code kernel.timer_placement},
     * {@code kernel.hz}, a task's {@code policy}, a workload's {@code kind} and hackbench's {@code mode}. The editor's
     * selects are rendered from it, so a value added to the parser is offered without more code.
     *
     * @return key → accepted values
     */
    public static Map<String, List<String>> choices() {
        Map<String, List<String>> out = new LinkedHashMap<>();
        out.put("machine.profile", List.copyOf(ScenarioParser.PROFILES));
        out.put("kernel.throttle", words(KernelSpec.Throttle.values()));
        out.put("kernel.unthrottle", words(KernelSpec.Unthrottle.values()));
        out.put("kernel.hz", KernelSection.HZ.stream().map(String::valueOf).toList());
        out.put("kernel.timer_placement", words(KernelSpec.TimerPlacement.values()));
        // breaker 9 F24: the newer switch had no choice, so no select offered it
        out.put("kernel.periodic_balance", words(KernelSpec.PeriodicBalance.values()));
        out.put("kind", KINDS);
        out.put("policy", words(TaskSpec.Policy.values()));
        out.put("mode", words(WorkloadSpec.Hackbench.Mode.values()));
        return out;
    }

    private static List<String> words(Enum<?>[] values) {
        List<String> out = new ArrayList<>();
        for (Enum<?> e : values) out.add(ScenarioParser.jsonName(e));
        return out;
    }

    /** The versions the parser accepts: the contract's releases, the distributions with their base release. */
    private static ObjectNode versions() {
        ObjectNode v = JSON.createObjectNode();
        v.put("default", KernelVersions.DEFAULT);
        v.set("releases", JSON.valueToTree(KernelVersions.RELEASES));
        ObjectNode d = v.putObject("distributions");
        for (String alias : KernelVersions.distributions()) d.put(alias, KernelVersions.baseOf(alias));
        v.put("mainline", "4.14");
        v.put("latest", KernelVersions.DEFAULT);
        return v;
    }

    /** The top-level keys the parser says are required in an empty document. */
    private static List<String> requiredTop() {
        List<String> out = new ArrayList<>();
        try {
            ScenarioParser.parse("{}");
        } catch (ScenarioException e) {
            for (Problem p : e.problems()) {
                if (p.reason().endsWith(" is required") && p.path().lastIndexOf('/') == 0) out.add(p.path().substring(1));
            }
        }
        return out;
    }

    /** The keys of workload {@code kind} that the parser refuses to leave out ("run is required"). */
    static List<String> required(String kind) {
        String prefix = "/tasks/0/workload/";
        List<String> out = new ArrayList<>();
        try {
            ScenarioParser.parse("{\"duration\": \"1s\", \"cgroups\": [{\"path\": \"/d\"}], \"tasks\": [{\"name\": \"t\","
                    + " \"cgroup\": \"/d\", \"workload\": {\"kind\": \"" + kind + "\"}}]}");
        } catch (ScenarioException e) {
            for (Problem p : e.problems()) {
                if (p.path().startsWith(prefix) && p.reason().endsWith(" is required")) out.add(p.path().substring(prefix.length()));
            }
        }
        return out;
    }

    /**
     * A workload's parameters under the scenario's keys: {@code runNs} → {@code run} as a duration string,
     * {@code requestSize} → {@code request_size}, enum values in the scenario's words.
     */
    private static Map<String, Object> components(WorkloadSpec w) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (RecordComponent c : w.getClass().getRecordComponents()) {
            Object v;
            try {
                v = c.getAccessor().invoke(w);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("cannot read " + c.getName() + " of " + w, e);
            }
            String name = c.getName();
            if (name.endsWith("Ns") && v instanceof Long ns) {
                name = name.substring(0, name.length() - 2);
                v = Durations.format(ns);
            } else if (v instanceof Enum<?> e) {
                v = ScenarioParser.jsonName(e);
            }
            out.put(KernelSpec.snake(name), v);
        }
        return out;
    }
}
