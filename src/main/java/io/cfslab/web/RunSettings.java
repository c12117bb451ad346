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
 * their settings, then anything else that differs in the scenario documents they ran (by a readable pointer that
 * names a cgroup by its path and a task by its name, e.g. {@code /cgroups[/web]/cpu.max}; a group or task only one
 * run has is one row).
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
        if (m.has("cpus")) b.append(", ").append(io.cfslab.scenario.Plural.of(m.path("cpus").asInt(), "CPU"));
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
        Map<String, String> ea = new LinkedHashMap<>();
        Map<String, String> eb = new LinkedHashMap<>();
        pointers("", JSON.readTree(a.scenarioJson()), da, ea);
        pointers("", JSON.readTree(b.scenarioJson()), db, eb);
        Set<String> all = new java.util.LinkedHashSet<>(da.keySet());
        all.addAll(db.keySet());
        Set<String> elementsShown = new java.util.HashSet<>();
        for (String p : all) {
            if (p.equals("/name") || p.equals("/seed") || p.equals("/duration") || p.startsWith("/kernel/")
                    || p.startsWith("/machine/")) {
                continue; // shown by the settings
            }
            // a cgroup or task only one side has: one row for the whole entry, not one per key of it
            String only = onlyOneSide(p, ea, eb);
            if (only != null) {
                if (elementsShown.add(only)) {
                    out.add(new Diff(only, ea.getOrDefault(only, "(absent)"), eb.getOrDefault(only, "(absent)"), true));
                }
                continue;
            }
            String va = da.getOrDefault(p, "(absent)");
            String vb = db.getOrDefault(p, "(absent)");
            if (!va.equals(vb)) out.add(new Diff(p, va, vb, true));
        }
        return out;
    }

    /** The keyed entry ({@code /cgroups[/a]}) that leaf {@code p} belongs to when only one side has it, else null. */
    private static String onlyOneSide(String p, Map<String, String> ea, Map<String, String> eb) {
        // the entries on p's way are its prefixes that end at a ']' (outermost first): a map look-up each
        for (int i = p.indexOf(']'); i >= 0; i = p.indexOf(']', i + 1)) {
            String e = p.substring(0, i + 1);
            boolean inA = ea.containsKey(e);
            boolean inB = eb.containsKey(e);
            if (inA != inB) return e;
        }
        return null;
    }

    private static Map<String, String> map(List<Row> rows) {
        Map<String, String> m = new LinkedHashMap<>();
        for (Row r : rows) m.put(r.key(), r.value());
        return m;
    }

    /**
     * Every leaf of a document by a readable pointer: object keys as written (not RFC 6901-escaped: the page shows
     * {@code /cgroups[/a/b]/cpu.max}, never {@code ~1}), array entries by what identifies them rather than by position
     * ({@link #entryId}: a cgroup by its path, a task by its name), so that two scenarios listing the same groups in
     * another order pair each group with itself. Each keyed entry also goes to {@code entries} (its compact JSON), for
     * the row of an entry only one side has.
     */
    private static void pointers(String prefix, JsonNode n, Map<String, String> out, Map<String, String> entries) {
        if (n.isObject()) {
            for (Map.Entry<String, JsonNode> e : n.properties()) {
                pointers(prefix + "/" + e.getKey(), e.getValue(), out, entries);
            }
        } else if (n.isArray()) {
            String idKey = entryId(n);
            for (int i = 0; i < n.size(); i++) {
                if (idKey == null) {
                    pointers(prefix + "/" + i, n.get(i), out, entries);
                } else {
                    String at = prefix + "[" + n.get(i).get(idKey).asString() + "]";
                    entries.put(at, n.get(i).toString());
                    pointers(at, n.get(i), out, entries);
                }
            }
        } else {
            out.put(prefix, n.isString() ? n.asString() : n.toString());
        }
    }

    /**
     * The key that identifies each entry of an array of objects: {@code path} (cgroups) or {@code name} (tasks, arms),
     * when every entry has it as a string and no two share it; null (pair by position) otherwise, e.g. the timeline,
     * whose order is its meaning.
     */
    static String entryId(JsonNode array) {
        for (String key : List.of("path", "name")) {
            Set<String> seen = new java.util.HashSet<>();
            boolean ok = !array.isEmpty();
            for (JsonNode e : array) {
                JsonNode v = e.get(key);
                if (!e.isObject() || v == null || !v.isString() || !seen.add(v.asString())) {
                    ok = false;
                    break;
                }
            }
            if (ok) return key;
        }
        return null;
    }
}
