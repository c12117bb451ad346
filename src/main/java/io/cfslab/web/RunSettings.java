package io.cfslab.web;

import io.cfslab.store.RunRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A run's provenance for the pages: its effective settings ({@code io.cfslab.scenario.EffectiveSettings}) as
 * rows ({@code kernel.throttle = task}, every kernel switch, whatever {@code KernelSpec} holds), the five that
 * the lists show (throttle model, unthrottle mode, version, HZ, machine), and the differences between two runs:
 * their settings, then anything else that differs in the scenario documents they ran (by JSON pointer, e.g.
 * {@code /cgroups/0/cpu.max}).
 */
public final class RunSettings {
    private RunSettings() {}

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** Shown for a run stored before settings were recorded, or a switch a run does not have. */
    public static final String UNKNOWN = "–";

    /** One setting. */
    public record Row(String key, String value) { }

    /** One setting of two runs. */
    public record Diff(String key, String a, String b, boolean differs) { }

    /** The five settings of the lists. */
    public record Summary(String throttle, String unthrottle, String version, String hz, String machine) { }

    /** Every setting, flattened: {@code seed}, {@code duration}, {@code machine.cpus}, {@code kernel.throttle}, … */
    public static List<Row> rows(String settingsJson) {
        List<Row> out = new ArrayList<>();
        if (settingsJson == null) return out;
        flatten("", JSON.readTree(settingsJson), out);
        return out;
    }

    private static void flatten(String prefix, JsonNode n, List<Row> out) {
        if (n.isObject()) {
            for (Map.Entry<String, JsonNode> e : n.properties()) {
                flatten(prefix.isEmpty() ? e.getKey() : prefix + "." + e.getKey(), e.getValue(), out);
            }
        } else {
            out.add(new Row(prefix, n.isString() ? n.asString() : n.isNull() ? UNKNOWN : n.toString()));
        }
    }

    /** Throttle model, unthrottle mode, version ({@code kernel.version} once the kernel has it), HZ, machine. */
    public static Summary summary(String settingsJson) {
        if (settingsJson == null) return new Summary(UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN);
        JsonNode s = JSON.readTree(settingsJson);
        JsonNode k = s.path("kernel");
        return new Summary(text(k, "throttle"), text(k, "unthrottle"), text(k, "version"), text(k, "hz"), machine(s.path("machine")));
    }

    /** {@code generic, 384 CPUs (2 sockets, SMT 2)}, or a named profile. */
    public static String machine(JsonNode m) {
        if (m.isMissingNode()) return UNKNOWN;
        StringBuilder b = new StringBuilder(m.path("profile").asString("?"));
        if (m.has("cpus")) b.append(", ").append(m.path("cpus").asInt()).append(" CPUs");
        List<String> extra = new ArrayList<>();
        if (m.path("sockets").asInt(1) > 1) extra.add(m.path("sockets").asInt() + " sockets");
        if (m.path("smt").asInt(1) > 1) extra.add("SMT " + m.path("smt").asInt());
        if (!extra.isEmpty()) b.append(" (").append(String.join(", ", extra)).append(')');
        return b.toString();
    }

    private static String text(JsonNode o, String key) {
        JsonNode v = o.get(key);
        return v == null || v.isNull() ? UNKNOWN : v.isString() ? v.asString() : v.toString();
    }

    /**
     * Settings of two runs side by side (every key of either), then every other JSON pointer at which the scenario
     * documents they ran differ (name and seed excluded: the settings show the seed).
     */
    public static List<Diff> diff(RunRecord a, RunRecord b) {
        Map<String, String> sa = map(rows(a.settingsJson()));
        Map<String, String> sb = map(rows(b.settingsJson()));
        List<Diff> out = new ArrayList<>();
        Set<String> keys = new java.util.LinkedHashSet<>(sa.keySet());
        keys.addAll(sb.keySet());
        for (String k : keys) {
            String va = sa.getOrDefault(k, UNKNOWN);
            String vb = sb.getOrDefault(k, UNKNOWN);
            out.add(new Diff(k, va, vb, !va.equals(vb)));
        }
        Map<String, String> da = new LinkedHashMap<>();
        Map<String, String> db = new LinkedHashMap<>();
        pointers("", JSON.readTree(a.scenarioJson()), da);
        pointers("", JSON.readTree(b.scenarioJson()), db);
        Set<String> all = new java.util.LinkedHashSet<>(da.keySet());
        all.addAll(db.keySet());
        for (String p : all) {
            if (p.equals("/name") || p.equals("/seed") || p.equals("/duration") || p.startsWith("/kernel/")
                    || p.startsWith("/machine/")) {
                continue; // shown by the settings
            }
            String va = da.getOrDefault(p, "(absent)");
            String vb = db.getOrDefault(p, "(absent)");
            if (!va.equals(vb)) out.add(new Diff(p, va, vb, true));
        }
        return out;
    }

    private static Map<String, String> map(List<Row> rows) {
        Map<String, String> m = new LinkedHashMap<>();
        for (Row r : rows) m.put(r.key(), r.value());
        return m;
    }

    /** Every leaf of a document by its RFC 6901 pointer. */
    private static void pointers(String prefix, JsonNode n, Map<String, String> out) {
        if (n.isObject()) {
            for (Map.Entry<String, JsonNode> e : n.properties()) {
                pointers(prefix + "/" + e.getKey().replace("~", "~0").replace("/", "~1"), e.getValue(), out);
            }
        } else if (n.isArray()) {
            for (int i = 0; i < n.size(); i++) pointers(prefix + "/" + i, n.get(i), out);
        } else {
            out.put(prefix, n.isString() ? n.asString() : n.toString());
        }
    }
}
