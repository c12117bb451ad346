package io.cfslab.scenario;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Reads a contract v1 scenario from JSON or YAML text, checks every field (unknown keys are errors),
 * fills defaults, expands {@code generate} and {@code leaves:} and returns a {@link Scenario}.
 * Every problem found is collected (the parser does not stop at the first), each with the RFC 6901
 * JSON pointer of the offending value. cgroupfs writes are validated as kernel v6.18 would
 * ({@link CgroupFiles}); timeline writes against the group's state at that simulated time.
 * A JSON {@code null} is treated as an absent key (so the default applies).
 */
public final class ScenarioParser {
    private ScenarioParser() {}

    /** Most samples a {@code record.interval} may produce over the run's duration. */
    public static final long MAX_SERIES_SAMPLES = 100_000;
    /** Most {@code distribute_calls} that {@code record.max_distribute_calls} may keep. */
    public static final int MAX_DISTRIBUTE_CALLS = 100_000;
    /** Series entries (samples × (cgroups + tasks) per sample) a result may hold: bounds its memory and size. */
    public static final long MAX_SERIES_ENTRIES = 500_000;
    /** Shortest stretch of a periodic workload: 1 us. */
    static final long MIN_STRETCH_NS = 1_000;
    /** The {@code machine.profile} values implemented. */
    public static final List<String> PROFILES = List.of("generic");

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    private static final ObjectMapper YAML = YAMLMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9_.-]+");
    private static final String LEAVES = "leaves:";

    /**
     * @param text JSON or YAML text (YAML if it does not start with '{' after whitespace)
     * @return the validated scenario
     * @throws ScenarioException listing every problem, each with its JSON pointer
     */
    public static Scenario parse(String text) {
        Ctx c = new Ctx();
        JsonNode root = read(text, c);
        if (root == null) throw c.failure();
        Scenario s = new Run(c).scenario(root);
        if (!c.problems.isEmpty()) throw c.failure();
        return s;
    }

    /**
     * Parses JSON or YAML text into a tree, without checking it against the contract.
     * @param text scenario text
     * @return the tree
     * @throws ScenarioException with one problem at pointer {@code ""} when the text is malformed
     */
    public static JsonNode readTree(String text) {
        Ctx c = new Ctx();
        JsonNode n = read(text, c);
        if (n == null) throw c.failure();
        return n;
    }

    private static JsonNode read(String text, Ctx c) {
        String t = text == null ? "" : text.strip();
        if (t.isEmpty()) {
            c.add("", "empty scenario", null);
            return null;
        }
        boolean json = t.charAt(0) == '{';
        try {
            if (!json && usesYamlAliases(t)) {
                c.add("", "YAML anchors and aliases are not supported in a scenario; write the values out", null);
                return null;
            }
            JsonNode n = (json ? JSON : YAML).readTree(t);
            if (n == null || n.isMissingNode() || n.isNull()) {
                c.add("", "empty scenario", null);
                return null;
            }
            if (!cleanText(n, "", c)) return null;
            return n;
        } catch (JacksonException e) {
            TokenStreamLocation loc = e.getLocation();
            String where = loc == null || loc.getLineNr() < 0 ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
            String msg = e.getOriginalMessage();
            if (msg != null) msg = String.join("; ", msg.lines().map(String::strip).filter(l -> !l.isEmpty()).limit(3).toList());
            c.add("", "malformed " + (json ? "JSON" : "YAML") + where + ": " + msg, null);
            return null;
        }
    }

    /** True if the YAML text uses an anchor or an alias (Jackson reads an alias as its name, silently). */
    private static boolean usesYamlAliases(String text) {
        try (tools.jackson.core.JsonParser p = YAML.createParser(text)) {
            while (p.nextToken() != null) {
                if (p instanceof tools.jackson.dataformat.yaml.YAMLParser yp && (yp.isCurrentAlias() || yp.getObjectId() != null)) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * Every key and string must be printable text: no control characters (a newline in a name would forge
     * lines of output) and no unpaired UTF-16 surrogates (not encodable as UTF-8).
     */
    private static boolean cleanText(JsonNode n, String ptr, Ctx c) {
        if (n.isString()) {
            String bad = badText(n.stringValue());
            if (bad != null) { c.add(ptr, "string " + bad, null); return false; }
            return true;
        }
        boolean ok = true;
        if (n.isObject()) {
            int i = 0;
            for (var e : n.properties()) {
                String bad = badText(e.getKey());
                if (bad != null) { c.add(ptr, "key number " + i + " " + bad, null); ok = false; }
                else ok &= cleanText(e.getValue(), ptr + "/" + esc(e.getKey()), c);
                i++;
                if (!ok) return false;
            }
        } else if (n.isArray()) {
            for (int i = 0; i < n.size() && ok; i++) ok = cleanText(n.get(i), ptr + "/" + i, c);
        }
        return ok;
    }

    private static String badText(String s) {
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (ch < 0x20 || ch == 0x7f) return "contains a control character (U+" + String.format("%04X", (int) ch) + ")";
            if (Character.isHighSurrogate(ch)) {
                if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) { i++; continue; }
                return "contains an unpaired surrogate (not valid Unicode)";
            }
            if (Character.isLowSurrogate(ch)) return "contains an unpaired surrogate (not valid Unicode)";
        }
        return null;
    }

    /** RFC 6901 escaping of one reference token. */
    static String esc(String key) { return key.replace("~", "~0").replace("/", "~1"); }

    // ------------------------------------------------------------------------------------------

    /** Problems kept per parse; beyond this only counted (a document with a million bad keys costs no more). */
    public static final int MAX_PROBLEMS = 1000;

    private static final class Ctx {
        final LinkedHashSet<Problem> problems = new LinkedHashSet<>();
        int dropped;
        void add(String path, String reason, String errno) {
            if (problems.size() >= MAX_PROBLEMS) dropped++;
            else problems.add(new Problem(path, reason, errno));
        }
        void add(String path, InvalidValueException e) {
            if (problems.size() >= MAX_PROBLEMS) dropped++;
            else problems.add(e.toProblem(path));
        }
        ScenarioException failure() { return new ScenarioException(new ArrayList<>(problems), problems.size() + dropped); }
        List<Problem> list() { return new ArrayList<>(problems); }
    }

    /** An object whose keys are checked: every key not asked for is "unknown". */
    private static final class Obj {
        final ObjectNode node;
        final String ptr;
        final Set<String> used = new HashSet<>();
        Obj(ObjectNode node, String ptr) { this.node = node; this.ptr = ptr; }
        JsonNode get(String k) {
            used.add(k);
            JsonNode v = node.get(k);
            return v == null || v.isNull() ? null : v;
        }
        boolean has(String k) { JsonNode v = node.get(k); return v != null && !v.isNull(); }
        String at(String k) { return ptr + "/" + esc(k); }
        void finish(Ctx c) {
            for (String k : node.propertyNames()) if (!used.contains(k)) c.add(at(k), "unknown key \"" + k + "\"", null);
        }
    }

    private static final class Node {
        final String path;
        final int depth;
        final List<Node> children = new ArrayList<>();
        CgroupSpec state;
        Node(String path, int depth) { this.path = path; this.depth = depth; this.state = CgroupFiles.newGroup(path); }
    }

    private record Action(int index, long at, TimelineAction action) { }

    /** One parse run. */
    private static final class Run {
        final Ctx c;
        final LinkedHashMap<String, Node> tree = new LinkedHashMap<>();
        int cpus = -1; // -1: machine invalid, CPU lists are checked only for syntax
        long durationNs = -1;
        boolean cgroupLimitHit;

        Run(Ctx c) { this.c = c; tree.put("/", new Node("/", 0)); }

        Scenario scenario(JsonNode rootNode) {
            Obj o = obj(rootNode, "");
            if (o == null) return null;
            String name = string(o, "name", "unnamed");
            if (name != null && name.isEmpty()) name = "unnamed";
            long seed = integer(o, "seed", 1, Long.MIN_VALUE, Long.MAX_VALUE);
            durationNs = duration(o);
            MachineSpec machine = machine(o);
            KernelSpec kernel = kernel(o);
            RecordSpec record = record(o);
            cgroups(o);
            generate(o);
            List<CgroupSpec> groups = new ArrayList<>(tree.size() - 1); // initial state, before timeline writes
            for (Node n : tree.values()) if (n.depth > 0) groups.add(n.state);
            List<TaskSpec> tasks = tasks(o);
            List<TimelineAction> timeline = timeline(o, tasks);
            o.finish(c);
            limits(machine);
            seriesBudget(record, groups, tasks);
            return new Scenario(name, seed, Math.max(durationNs, 0), machine, kernel, List.copyOf(groups),
                    List.copyOf(tasks), List.copyOf(timeline), record);
        }

        /** The series' size: samples × (cgroups + tasks recorded per sample) must fit MAX_SERIES_ENTRIES. */
        void seriesBudget(RecordSpec record, List<CgroupSpec> groups, List<TaskSpec> tasks) {
            if (record.intervalNs() <= 0 || durationNs <= 0) return;
            long samples = durationNs / record.intervalNs();
            long perGroup = groups.size() <= record.maxSeriesCgroups() ? groups.size()
                    : groups.stream().filter(g -> g.cpuMax().limited()).count();
            long taskCount = 0;
            for (TaskSpec t : tasks) taskCount += t.total();
            long perTask = taskCount <= record.maxSeriesTasks() ? taskCount : 0;
            long entries = samples * (perGroup + perTask + 1);
            if (entries > MAX_SERIES_ENTRIES) {
                c.add("/record/interval", "series would hold " + entries + " entries (" + samples + " samples of "
                        + (perGroup + perTask) + " cgroups and tasks); exceeds the limit of " + MAX_SERIES_ENTRIES
                        + ": raise record.interval or lower record.max_series_cgroups / max_series_tasks", null);
            }
        }

        // --- scalar helpers ---

        Obj obj(JsonNode n, String ptr) {
            if (n instanceof ObjectNode on) return new Obj(on, ptr);
            c.add(ptr, "must be an object, not " + type(n), null);
            return null;
        }

        String string(Obj o, String key, String dflt) {
            JsonNode n = o.get(key);
            if (n == null) return dflt;
            if (!n.isString()) {
                c.add(o.at(key), "must be a string, not " + type(n), null);
                return null;
            }
            return n.stringValue();
        }

        /** A string, or an integer written as the shell would echo it (cgroupfs values). */
        String stringOrInt(JsonNode n, String ptr) {
            if (n.isString()) return n.stringValue();
            if (n.isIntegralNumber()) return n.bigIntegerValue().toString();
            c.add(ptr, "must be a string or an integer, not " + type(n), null);
            return null;
        }

        long integer(Obj o, String key, long dflt, long min, long max) {
            JsonNode n = o.get(key);
            if (n == null) return dflt;
            return integer(n, o.at(key), dflt, min, max);
        }

        long integer(JsonNode n, String ptr, long dflt, long min, long max) {
            if (!n.isIntegralNumber()) {
                c.add(ptr, "must be an integer, not " + type(n), null);
                return dflt;
            }
            if (!n.canConvertToLong() || n.longValue() < min || n.longValue() > max) {
                c.add(ptr, n + " is outside " + min + ".." + max, null);
                return dflt;
            }
            return n.longValue();
        }

        boolean bool(Obj o, String key, boolean dflt) {
            JsonNode n = o.get(key);
            if (n == null) return dflt;
            if (!n.isBoolean()) {
                c.add(o.at(key), "must be true or false, not " + type(n), null);
                return dflt;
            }
            return n.booleanValue();
        }

        <E extends Enum<E>> E enumValue(Obj o, String key, Class<E> type, E dflt) {
            JsonNode n = o.get(key);
            if (n == null) return dflt;
            return enumValue(n, o.at(key), type, dflt);
        }

        <E extends Enum<E>> E enumValue(JsonNode n, String ptr, Class<E> type, E dflt) {
            List<String> names = new ArrayList<>();
            for (E e : type.getEnumConstants()) names.add(jsonName(e));
            if (n.isString()) {
                for (E e : type.getEnumConstants()) if (jsonName(e).equals(n.stringValue())) return e;
                c.add(ptr, "unknown value \"" + n.stringValue() + "\"; one of " + String.join(", ", names), null);
            } else {
                c.add(ptr, "must be one of " + String.join(", ", names) + ", not " + type(n), null);
            }
            return dflt;
        }

        long durationAt(JsonNode n, String ptr) {
            try {
                return Durations.parseNs(n);
            } catch (InvalidValueException e) {
                c.add(ptr, e);
                return -1;
            }
        }

        // --- sections ---

        long duration(Obj o) {
            JsonNode n = o.get("duration");
            if (n == null) {
                c.add("/duration", "duration is required", null);
                return -1;
            }
            long d = durationAt(n, "/duration");
            if (d == 0) {
                c.add("/duration", "duration must be above 0", null);
                return -1;
            }
            if (d > Limits.MAX_DURATION_NS) {
                c.add("/duration", "duration " + Durations.format(d) + " exceeds the limit of "
                        + Durations.format(Limits.MAX_DURATION_NS), null);
                return -1;
            }
            return d;
        }

        MachineSpec machine(Obj top) {
            MachineSpec dflt = new MachineSpec("generic", 2, 1, 1);
            JsonNode n = top.get("machine");
            if (n == null) {
                cpus = 2;
                return dflt;
            }
            Obj o = obj(n, "/machine");
            if (o == null) return dflt;
            String profile = string(o, "profile", "generic");
            if (profile != null && !PROFILES.contains(profile)) {
                c.add(o.at("profile"), "unknown profile \"" + profile + "\"; implemented: " + String.join(", ", PROFILES), null);
            }
            boolean ok = true;
            JsonNode cn = o.get("cpus");
            long cpusV = 2;
            if (cn != null) {
                if (!cn.isIntegralNumber()) {
                    c.add(o.at("cpus"), "must be an integer, not " + type(cn), null);
                    ok = false;
                } else if (!cn.canConvertToLong() || cn.longValue() < 1 || cn.longValue() > Limits.MAX_CPUS) {
                    c.add(o.at("cpus"), cn.canConvertToLong() && cn.longValue() < 1 ? "cpus " + cn + " is below 1"
                            : "cpus " + cn + " exceeds the limit of " + Limits.MAX_CPUS, null);
                    ok = false;
                } else {
                    cpusV = cn.longValue();
                }
            }
            long smt = 1;
            JsonNode sn = o.get("smt");
            if (sn != null) {
                smt = integer(sn, o.at("smt"), -1, 1, 8);
                if (smt != 1 && smt != 2 && smt != 4 && smt != 8) {
                    if (smt != -1) c.add(o.at("smt"), "smt must be 1, 2, 4 or 8, not " + smt, null);
                    ok = false;
                    smt = 1;
                }
            }
            long sockets = integer(o, "sockets", 1, 1, Limits.MAX_CPUS);
            if (ok && cpusV % (smt * sockets) != 0) {
                c.add(o.at("cpus"), "cpus " + cpusV + " is not a multiple of smt " + smt + " x sockets " + sockets, null);
            }
            o.finish(c);
            cpus = ok ? (int) cpusV : -1;
            return new MachineSpec(profile == null ? "generic" : profile, (int) cpusV, (int) smt, (int) sockets);
        }

        KernelSpec kernel(Obj top) {
            JsonNode n = top.get("kernel");
            Obj o = n == null ? null : obj(n, "/kernel");
            if (o == null) o = new Obj(JSON.createObjectNode(), "/kernel");
            KernelSpec.Throttle throttle = enumValue(o, "throttle", KernelSpec.Throttle.class, KernelSpec.Throttle.TASK);
            KernelSpec.Unthrottle unthrottle = enumValue(o, "unthrottle", KernelSpec.Unthrottle.class, KernelSpec.Unthrottle.ASYNC);
            long hz = integer(o, "hz", 1000, 1, 100_000);
            if (hz != 100 && hz != 250 && hz != 300 && hz != 1000) {
                c.add(o.at("hz"), "hz must be 100, 250, 300 or 1000 (CONFIG_HZ), not " + hz, null);
                hz = 1000;
            }
            JsonNode sl = o.get("bandwidth_slice_us");
            long slice = 5000;
            if (sl != null) {
                if (!sl.isIntegralNumber()) {
                    c.add(o.at("bandwidth_slice_us"), "must be an integer, not " + type(sl), null);
                } else if (!sl.canConvertToLong() || sl.longValue() < 1 || sl.longValue() > Integer.MAX_VALUE) {
                    c.add(o.at("bandwidth_slice_us"), "sched_cfs_bandwidth_slice_us " + sl + " is outside 1.."
                            + Integer.MAX_VALUE, "EINVAL");
                } else {
                    slice = sl.longValue();
                }
            }
            KernelSpec.TimerPlacement tp = enumValue(o, "timer_placement", KernelSpec.TimerPlacement.class,
                    KernelSpec.TimerPlacement.RANDOM);
            KernelSpec.Preempt preempt = enumValue(o, "preempt", KernelSpec.Preempt.class, KernelSpec.Preempt.VOLUNTARY);
            KernelSpec.ListInsert li = enumValue(o, "throttled_list_insert", KernelSpec.ListInsert.class, KernelSpec.ListInsert.TAIL);
            boolean expiry = bool(o, "slice_expiry", false);
            KernelSpec.ThrottledClockStart tcs = enumValue(o, "throttled_clock_start", KernelSpec.ThrottledClockStart.class,
                    throttle == KernelSpec.Throttle.CFS_RQ ? KernelSpec.ThrottledClockStart.NONEMPTY
                            : KernelSpec.ThrottledClockStart.FIRST_PARK);
            long rtPeriod = integer(o, "sched_rt_period_us", 1_000_000, 1, Integer.MAX_VALUE);
            long rtRuntime = integer(o, "sched_rt_runtime_us", 950_000, -1, Integer.MAX_VALUE);
            if (rtRuntime > rtPeriod) {
                c.add(o.at("sched_rt_runtime_us"), "sched_rt_runtime_us " + rtRuntime + " exceeds sched_rt_period_us "
                        + rtPeriod, "EINVAL");
            }
            o.finish(c);
            return new KernelSpec(throttle, unthrottle, (int) hz, slice, tp, preempt, li, expiry, tcs, rtRuntime, rtPeriod);
        }

        RecordSpec record(Obj top) {
            JsonNode n = top.get("record");
            if (n == null) return RecordSpec.DEFAULT;
            Obj o = obj(n, "/record");
            if (o == null) return RecordSpec.DEFAULT;
            RecordSpec d = RecordSpec.DEFAULT;
            long interval = d.intervalNs();
            JsonNode in = o.get("interval");
            if (in != null) {
                long v = durationAt(in, o.at("interval"));
                if (v >= 0) {
                    if (v > 0 && durationNs > 0 && durationNs / v > MAX_SERIES_SAMPLES) {
                        c.add(o.at("interval"), "interval " + Durations.format(v) + " makes " + (durationNs / v)
                                + " samples; exceeds the limit of " + MAX_SERIES_SAMPLES, null);
                    } else {
                        interval = v;
                    }
                }
            }
            int calls = (int) integer(o, "max_distribute_calls", d.maxDistributeCalls(), 0, MAX_DISTRIBUTE_CALLS);
            int tasks = (int) integer(o, "max_series_tasks", d.maxSeriesTasks(), 0, Limits.MAX_TASKS);
            int groups = (int) integer(o, "max_series_cgroups", d.maxSeriesCgroups(), 0, Limits.MAX_CGROUPS);
            o.finish(c);
            return new RecordSpec(interval, calls, tasks, groups);
        }

        // --- cgroups ---

        /** Checks a path; null if bad (problem added). Root allowed only if {@code rootOk}. */
        String path(JsonNode n, String ptr, boolean rootOk) {
            if (n == null) {
                c.add(ptr, "path is required", null);
                return null;
            }
            if (!n.isString()) {
                c.add(ptr, "must be a string, not " + type(n), null);
                return null;
            }
            return path(n.stringValue(), ptr, rootOk);
        }

        String path(String p, String ptr, boolean rootOk) {
            if (p.equals("/")) {
                if (!rootOk) c.add(ptr, "the root cgroup / always exists and cannot be created", "EEXIST");
                return rootOk ? p : null;
            }
            if (!p.startsWith("/")) {
                c.add(ptr, "cgroup path \"" + p + "\" is not absolute", null);
                return null;
            }
            String[] seg = p.substring(1).split("/", -1);
            if (seg.length > Limits.MAX_DEPTH) {
                c.add(ptr, "cgroup path \"" + p + "\" is " + seg.length + " levels deep; exceeds the limit of " + Limits.MAX_DEPTH, null);
                return null;
            }
            for (String s : seg) {
                if (s.isEmpty() || s.equals(".") || s.equals("..") || !SEGMENT.matcher(s).matches()) {
                    c.add(ptr, "cgroup path \"" + p + "\" has a bad name \"" + s + "\"; names are [A-Za-z0-9_.-]+, not . or ..", null);
                    return null;
                }
                if (s.length() > 255) {
                    c.add(ptr, "cgroup name \"" + s.substring(0, 16) + "...\" is longer than 255 bytes", "ENAMETOOLONG");
                    return null;
                }
                if (s.startsWith("cgroup.") || s.startsWith("cpu.")) {
                    // a cgroup directory holds files of these names: mkdir fails as the name exists
                    c.add(ptr, "cgroup name \"" + s + "\" is the name of a cgroup file", "EEXIST");
                    return null;
                }
            }
            return p;
        }

        static String parent(String p) {
            int i = p.lastIndexOf('/');
            return i == 0 ? "/" : p.substring(0, i);
        }

        static String child(String parent, String name) { return parent.equals("/") ? "/" + name : parent + "/" + name; }

        /** mkdir -p; false if the cgroup limit is reached. */
        boolean mkdirP(String p, String ptr) {
            if (tree.containsKey(p)) return true;
            if (!mkdirP(parent(p), ptr)) return false;
            if (tree.size() - 1 >= Limits.MAX_CGROUPS) {
                if (!cgroupLimitHit) c.add(ptr, "more than " + Limits.MAX_CGROUPS + " cgroups; exceeds the limit of " + Limits.MAX_CGROUPS, null);
                cgroupLimitHit = true;
                return false;
            }
            Node par = tree.get(parent(p));
            Node n = new Node(p, par.depth + 1);
            par.children.add(n);
            tree.put(p, n);
            return true;
        }

        /** echo value > node/file, problem at ptr if refused. */
        void write(Node n, String file, String value, String ptr) {
            try {
                n.state = CgroupFiles.write(n.state, file, value);
            } catch (InvalidValueException e) {
                c.add(ptr, e);
            }
        }

        void cgroups(Obj top) {
            JsonNode n = top.get("cgroups");
            if (n == null) return;
            if (!n.isArray()) {
                c.add("/cgroups", "must be an array, not " + type(n), null);
                return;
            }
            Set<String> listed = new HashSet<>();
            for (int i = 0; i < n.size(); i++) {
                String ptr = "/cgroups/" + i;
                Obj o = obj(n.get(i), ptr);
                if (o == null) continue;
                String p = path(o.get("path"), o.at("path"), false);
                Map<String, String> values = new LinkedHashMap<>();
                for (String f : CgroupFiles.FILES) {
                    JsonNode v = o.get(f);
                    if (v == null) continue;
                    String s = f.equals(CgroupFiles.CPU_MAX) ? strOnly(v, o.at(f)) : stringOrInt(v, o.at(f));
                    if (s != null) values.put(f, s);
                }
                o.finish(c);
                if (p == null) continue;
                if (!listed.add(p)) {
                    c.add(o.at("path"), "cgroup " + p + " is listed twice", "EEXIST");
                    continue;
                }
                if (cgroupLimitHit || !mkdirP(p, "/cgroups")) continue;
                Node node = tree.get(p);
                values.forEach((f, v) -> write(node, f, v, o.at(f)));
            }
        }

        String strOnly(JsonNode v, String ptr) {
            if (v.isString()) return v.stringValue();
            c.add(ptr, "must be a string such as \"50000 100000\", not " + type(v), null);
            return null;
        }

        void generate(Obj top) {
            JsonNode n = top.get("generate");
            if (n == null) return;
            if (!n.isArray()) {
                c.add("/generate", "must be an array, not " + type(n), null);
                return;
            }
            for (int i = 0; i < n.size(); i++) {
                String ptr = "/generate/" + i;
                Obj o = obj(n.get(i), ptr);
                if (o == null) continue;
                JsonNode un = o.get("under");
                String under = un == null ? "/" : path(un, o.at("under"), true);
                int[] levels = levels(o);
                Map<Integer, Map<String, String>> writes = new HashMap<>();
                for (String f : CgroupFiles.FILES) {
                    JsonNode m = o.get(f);
                    if (m == null) continue;
                    if (!(m instanceof ObjectNode mo)) {
                        c.add(o.at(f), "must be an object mapping a depth (\"1\" = first level) to a value, not " + type(m), null);
                        continue;
                    }
                    for (Map.Entry<String, JsonNode> e : mo.properties()) {
                        String kp = o.at(f) + "/" + esc(e.getKey());
                        int depth = -1;
                        if (e.getKey().matches("[0-9]{1,3}")) depth = Integer.parseInt(e.getKey());
                        if (levels != null && (depth < 1 || depth > levels.length)) {
                            c.add(kp, "depth \"" + e.getKey() + "\" is not a level 1.." + levels.length, null);
                            continue;
                        }
                        String v = f.equals(CgroupFiles.CPU_MAX) ? strOnly(e.getValue(), kp) : stringOrInt(e.getValue(), kp);
                        if (v != null) writes.computeIfAbsent(depth, k -> new LinkedHashMap<>()).put(f, v);
                    }
                }
                o.finish(c);
                if (under == null || levels == null || cgroupLimitHit) continue;
                int underDepth = under.equals("/") ? 0 : under.split("/").length - 1;
                if (underDepth + levels.length > Limits.MAX_DEPTH) {
                    c.add(o.at("levels"), "generate reaches depth " + (underDepth + levels.length) + "; exceeds the limit of "
                            + Limits.MAX_DEPTH, null);
                    continue;
                }
                java.math.BigInteger total = java.math.BigInteger.ZERO, prod = java.math.BigInteger.ONE;
                for (int l : levels) {
                    prod = prod.multiply(java.math.BigInteger.valueOf(l));
                    total = total.add(prod);
                }
                java.math.BigInteger all = total.add(java.math.BigInteger.valueOf(tree.size() - 1));
                if (all.compareTo(java.math.BigInteger.valueOf(Limits.MAX_CGROUPS)) > 0) {
                    c.add(o.at("levels"), "generate makes " + total + " cgroups (" + all
                            + " in all); exceeds the limit of " + Limits.MAX_CGROUPS, null);
                    continue;
                }
                if (!mkdirP(under, o.at("under"))) continue;
                expand(tree.get(under), null, 1, levels, writes, o);
            }
        }

        void expand(Node parent, String parentName, int depth, int[] levels, Map<Integer, Map<String, String>> writes, Obj o) {
            for (int i = 1; i <= levels[depth - 1]; i++) {
                String name = parentName == null ? Integer.toString(i) : parentName + "_" + i;
                String p = child(parent.path, name);
                if (!mkdirP(p, o.at("levels"))) return;
                Node node = tree.get(p);
                Map<String, String> w = writes.get(depth);
                if (w != null) w.forEach((f, v) -> write(node, f, v, o.at(f) + "/" + depth));
                if (depth < levels.length) expand(node, name, depth + 1, levels, writes, o);
            }
        }

        int[] levels(Obj o) {
            JsonNode n = o.get("levels");
            if (n == null) {
                c.add(o.at("levels"), "levels is required, e.g. [2, 100, 10]", null);
                return null;
            }
            if (!n.isArray() || n.isEmpty()) {
                c.add(o.at("levels"), "must be a non-empty array of fan-outs, not " + type(n), null);
                return null;
            }
            if (n.size() > Limits.MAX_DEPTH) {
                c.add(o.at("levels"), n.size() + " levels; exceeds the depth limit of " + Limits.MAX_DEPTH, null);
                return null;
            }
            int[] out = new int[n.size()];
            boolean ok = true;
            for (int i = 0; i < n.size(); i++) {
                long v = integer(n.get(i), o.at("levels") + "/" + i, -1, 1, Integer.MAX_VALUE);
                if (v < 1) ok = false;
                else out[i] = (int) v;
            }
            return ok ? out : null;
        }

        // --- tasks ---

        List<TaskSpec> tasks(Obj top) {
            List<TaskSpec> out = new ArrayList<>();
            JsonNode n = top.get("tasks");
            if (n == null) return out;
            if (!n.isArray()) {
                c.add("/tasks", "must be an array, not " + type(n), null);
                return out;
            }
            Set<String> names = new HashSet<>();
            long total = 0;
            for (int i = 0; i < n.size(); i++) {
                String ptr = "/tasks/" + i;
                Obj o = obj(n.get(i), ptr);
                if (o == null) continue;
                boolean ok = true;
                String name = string(o, "name", null);
                if (name == null) {
                    if (!o.has("name")) c.add(o.at("name"), "task name is required", null);
                    ok = false;
                } else if (name.isEmpty() || name.contains("/")) {
                    c.add(o.at("name"), "task name \"" + name + "\" must be non-empty and without '/'", null);
                    ok = false;
                } else if (!names.add(name)) {
                    c.add(o.at("name"), "task name \"" + name + "\" is used twice", null);
                    ok = false;
                }
                List<String> groups = new ArrayList<>();
                if (o.has("cgroup") && o.has("cgroups")) {
                    c.add(o.at("cgroups"), "give either cgroup or cgroups, not both", null);
                    ok = false;
                }
                JsonNode cg = o.get("cgroup");
                JsonNode cgs = o.get("cgroups");
                if (cgs != null) {
                    if (!cgs.isArray() || cgs.isEmpty()) {
                        c.add(o.at("cgroups"), "must be a non-empty array of cgroup paths", null);
                        ok = false;
                    } else {
                        for (int j = 0; j < cgs.size(); j++) ok &= resolve(cgs.get(j), o.at("cgroups") + "/" + j, groups);
                    }
                } else if (cg != null) {
                    ok &= resolve(cg, o.at("cgroup"), groups);
                } else {
                    groups.add("/");
                }
                JsonNode cnt = o.get("count");
                long count = 1;
                if (cnt != null && cnt.isIntegralNumber() && (!cnt.canConvertToLong() || cnt.longValue() > Limits.MAX_TASKS)) {
                    c.add(o.at("count"), "count " + cnt + " exceeds the limit of " + Limits.MAX_TASKS + " tasks", null);
                    ok = false;
                } else if (cnt != null) {
                    count = integer(cnt, o.at("count"), 1, 1, Limits.MAX_TASKS);
                }
                JsonNode wn = o.get("workload");
                WorkloadSpec w = wn == null ? new WorkloadSpec.Hog() : workload(wn, o.at("workload"));
                BitSet allowed = null;
                JsonNode an = o.get("cpus_allowed");
                if (an != null) allowed = cpuList(an, o.at("cpus_allowed"));
                TaskSpec.Policy policy = enumValue(o, "policy", TaskSpec.Policy.class, TaskSpec.Policy.NORMAL);
                JsonNode pn = o.get("priority");
                int prio = priority(policy, pn, o.at("priority"));
                o.finish(c);
                if (!ok || w == null || (an != null && allowed == null)) continue;
                total += count * groups.size();
                out.add(new TaskSpec(name, List.copyOf(groups), (int) count, w, allowed, policy, prio));
            }
            if (total > Limits.MAX_TASKS) {
                c.add("/tasks", total + " task instances; exceeds the limit of " + Limits.MAX_TASKS, null);
            }
            return out;
        }

        /** Appends the cgroups named by {@code "/x"} or {@code "leaves:/x"}; false on a problem. */
        boolean resolve(JsonNode n, String ptr, List<String> out) {
            if (!n.isString()) {
                c.add(ptr, "must be a cgroup path or \"leaves:/path\", not " + type(n), null);
                return false;
            }
            String s = n.stringValue();
            boolean leaves = s.startsWith(LEAVES);
            String p = path(leaves ? s.substring(LEAVES.length()) : s, ptr, true);
            if (p == null) return false;
            if (!tree.containsKey(p)) {
                c.add(ptr, "cgroup " + p + " does not exist", "ENOENT");
                return false;
            }
            if (!leaves) {
                if (!p.equals("/") && !tree.get(p).children.isEmpty()) {
                    // cgroup v2 "no internal processes": a group with children and controllers enabled
                    // for them takes no tasks (cgroup_migrate_vet_dst())
                    c.add(ptr, "cgroup " + p + " has child groups; tasks go in leaves or the root", "EBUSY");
                    return false;
                }
                out.add(p);
                return true;
            }
            String prefix = p.equals("/") ? "/" : p + "/";
            for (Node node : tree.values()) {
                if (node.children.isEmpty() && (node.path.equals(p) || node.path.startsWith(prefix))) out.add(node.path);
            }
            return true;
        }

        BitSet cpuList(JsonNode n, String ptr) {
            String s;
            if (n.isString()) s = n.stringValue();
            else if (n.isIntegralNumber()) s = n.toString();
            else {
                c.add(ptr, "must be a CPU list string such as \"0-3,8\", not " + type(n), null);
                return null;
            }
            try {
                return cpus > 0 ? CpuLists.parse(s, cpus) : CpuLists.parse(s);
            } catch (InvalidValueException e) {
                c.add(ptr, e);
                return null;
            }
        }

        /** sched_setscheduler() rules: rr/fifo need 1..99, others 0 (kernel/sched/syscalls.c). */
        int priority(TaskSpec.Policy policy, JsonNode pn, String prioPtr) {
            if (pn == null) {
                if (policy.realtime()) {
                    c.add(prioPtr, "policy " + jsonName(policy) + " needs a priority 1..99", "EINVAL");
                }
                return 0;
            }
            if (!pn.isIntegralNumber()) {
                c.add(prioPtr, "must be an integer, not " + type(pn), null);
                return 0;
            }
            long p = pn.canConvertToLong() ? pn.longValue() : Long.MAX_VALUE;
            if (policy.realtime() && (p < 1 || p > 99)) {
                c.add(prioPtr, "priority " + pn + " is outside 1..99 for policy " + jsonName(policy), "EINVAL");
                return 0;
            }
            if (!policy.realtime() && p != 0) {
                c.add(prioPtr, "policy " + jsonName(policy) + " takes priority 0, not " + pn, "EINVAL");
                return 0;
            }
            return (int) p;
        }

        WorkloadSpec workload(JsonNode n, String ptr) {
            Obj o = obj(n, ptr);
            if (o == null) return null;
            JsonNode kn = o.get("kind");
            WorkloadSpec w = null;
            if (kn == null) {
                c.add(o.at("kind"), "workload kind is required: hog, periodic or fixed-work", null);
            } else if (!kn.isString()) {
                c.add(o.at("kind"), "must be a string, not " + type(kn), null);
            } else {
                switch (kn.stringValue()) {
                    case "hog" -> w = new WorkloadSpec.Hog();
                    case "periodic" -> {
                        long run = requiredDuration(o, "run", true);
                        long sleep = requiredDuration(o, "sleep", false);
                        JsonNode kk = o.get("kernel");
                        long kernel = kk == null ? 0 : durationAt(kk, o.at("kernel"));
                        long loops = integer(o, "loops", 0, 0, Long.MAX_VALUE);
                        // below 1 us a stretch is shorter than the context switch around it: not a workload
                        if (run > 0 && run < MIN_STRETCH_NS) c.add(o.at("run"), "run below 1us", null);
                        else if (sleep > 0 && sleep < MIN_STRETCH_NS) c.add(o.at("sleep"), "sleep below 1us (0 for none)", null);
                        else if (kernel > 0 && kernel < MIN_STRETCH_NS) c.add(o.at("kernel"), "kernel below 1us (0 for none)", null);
                        else if (run > 0 && sleep >= 0 && kernel >= 0) w = new WorkloadSpec.Periodic(run, kernel, sleep, loops);
                    }
                    case "fixed-work" -> {
                        long work = requiredDuration(o, "work", true);
                        if (work > 0) w = new WorkloadSpec.FixedWork(work);
                    }
                    default -> c.add(o.at("kind"), "unknown workload kind \"" + kn.stringValue()
                            + "\"; one of hog, periodic, fixed-work", null);
                }
            }
            o.finish(c);
            return w;
        }

        long requiredDuration(Obj o, String key, boolean positive) {
            JsonNode n = o.get(key);
            if (n == null) {
                c.add(o.at(key), key + " is required", null);
                return -1;
            }
            long v = durationAt(n, o.at(key));
            if (positive && v == 0) {
                c.add(o.at(key), key + " must be above 0", null);
                return -1;
            }
            return v;
        }

        // --- timeline ---

        List<TimelineAction> timeline(Obj top, List<TaskSpec> tasks) {
            List<TimelineAction> out = new ArrayList<>();
            JsonNode n = top.get("timeline");
            if (n == null) return out;
            if (!n.isArray()) {
                c.add("/timeline", "must be an array, not " + type(n), null);
                return out;
            }
            if (n.size() > Limits.MAX_TIMELINE) {
                c.add("/timeline", n.size() + " timeline entries; exceeds the limit of " + Limits.MAX_TIMELINE, null);
                return out;
            }
            Set<String> taskNames = new HashSet<>();
            for (TaskSpec t : tasks) taskNames.add(t.name());
            JsonNode tn = top.node.get("tasks");
            if (tn != null && tn.isArray()) { // names of entries that had other problems still count as existing
                for (JsonNode t : tn) if (t.get("name") != null && t.get("name").isString()) taskNames.add(t.get("name").stringValue());
            }
            List<Action> actions = new ArrayList<>();
            Map<Integer, String> valuePtrs = new HashMap<>();
            for (int i = 0; i < n.size(); i++) {
                String ptr = "/timeline/" + i;
                Obj o = obj(n.get(i), ptr);
                if (o == null) continue;
                JsonNode an = o.get("at");
                long at = -1;
                if (an == null) c.add(o.at("at"), "at is required", null);
                else {
                    at = durationAt(an, o.at("at"));
                    if (at >= 0 && durationNs > 0 && at > durationNs) {
                        c.add(o.at("at"), "at " + Durations.format(at) + " is beyond duration " + Durations.format(durationNs), null);
                        at = -1;
                    }
                }
                List<String> kinds = new ArrayList<>();
                for (String k : List.of("write", "move", "taskset", "chrt")) if (o.node.has(k)) kinds.add(k);
                TimelineAction a = null;
                if (kinds.size() != 1) {
                    c.add(ptr, kinds.isEmpty() ? "no action; give one of write, move, taskset, chrt"
                            : "more than one action: " + String.join(", ", kinds), null);
                    for (String k : List.of("write", "move", "taskset", "chrt")) o.get(k);
                    o.used.addAll(o.node.propertyNames());
                } else {
                    long t = Math.max(at, 0);
                    switch (kinds.get(0)) {
                        case "write" -> {
                            String file = string(o, "write", null);
                            JsonNode vn = o.get("value");
                            String value = null;
                            if (vn == null) c.add(o.at("value"), "value is required", null);
                            else value = stringOrInt(vn, o.at("value"));
                            if (file != null && value != null) {
                                int slash = file.lastIndexOf('/');
                                if (!file.startsWith("/") || slash < 0) {
                                    c.add(o.at("write"), "\"" + file + "\" is not a /cgroup/file path", null);
                                } else {
                                    String group = slash == 0 ? "/" : file.substring(0, slash);
                                    String f = file.substring(slash + 1);
                                    a = new TimelineAction.Write(t, group, f, value);
                                    valuePtrs.put(i, o.at("value"));
                                }
                            }
                        }
                        case "move" -> {
                            String task = taskRef(o, "move", taskNames);
                            JsonNode to = o.get("to");
                            String p = to == null ? null : path(to, o.at("to"), true);
                            if (to == null) c.add(o.at("to"), "to is required", null);
                            else if (p != null && !tree.containsKey(p)) {
                                c.add(o.at("to"), "cgroup " + p + " does not exist", "ENOENT");
                                p = null;
                            } else if (p != null && !p.equals("/") && !tree.get(p).children.isEmpty()) {
                                c.add(o.at("to"), "cgroup " + p + " has child groups; tasks go in leaves or the root", "EBUSY");
                                p = null;
                            }
                            if (task != null && p != null) a = new TimelineAction.Move(t, task, p);
                        }
                        case "taskset" -> {
                            String task = taskRef(o, "taskset", taskNames);
                            JsonNode cn = o.get("cpus");
                            BitSet set = null;
                            if (cn == null) c.add(o.at("cpus"), "cpus is required", null);
                            else set = cpuList(cn, o.at("cpus"));
                            if (task != null && set != null) a = new TimelineAction.Taskset(t, task, set);
                        }
                        default -> {
                            String task = taskRef(o, "chrt", taskNames);
                            JsonNode pn = o.get("policy");
                            TaskSpec.Policy pol = null;
                            if (pn == null) c.add(o.at("policy"), "policy is required", null);
                            else pol = enumValue(pn, o.at("policy"), TaskSpec.Policy.class, null);
                            int prio = pol == null ? 0 : priority(pol, o.get("priority"), o.at("priority"));
                            o.get("priority");
                            if (task != null && pol != null) a = new TimelineAction.Chrt(t, task, pol, prio);
                        }
                    }
                }
                o.finish(c);
                if (a != null && at >= 0) actions.add(new Action(i, at, a));
            }
            actions.sort(Comparator.comparingLong(Action::at)); // stable
            for (Action act : actions) {
                if (act.action() instanceof TimelineAction.Write w) {
                    String ptr = "/timeline/" + act.index() + "/write";
                    if (!CgroupFiles.FILES.contains(w.file())) {
                        c.add(ptr, "no file " + w.file() + " in a cgroup; writable are cpu.max, cpu.max.burst, cpu.weight", "ENOENT");
                        continue;
                    }
                    if (w.cgroup().equals("/")) {
                        c.add(ptr, "the root cgroup has no " + w.file() + " (cgroup v2)", "ENOENT");
                        continue;
                    }
                    Node node = tree.get(w.cgroup());
                    if (node == null) {
                        String p = path(w.cgroup(), ptr, false);
                        if (p != null) c.add(ptr, "cgroup " + w.cgroup() + " does not exist", "ENOENT");
                        continue;
                    }
                    CgroupSpec before = node.state;
                    write(node, w.file(), w.value(), valuePtrs.get(act.index()));
                    if (node.state == before) continue; // refused
                }
                out.add(act.action());
            }
            return out;
        }

        String taskRef(Obj o, String key, Set<String> names) {
            String t = string(o, key, null);
            if (t != null && !names.contains(t)) {
                c.add(o.at(key), "no task named \"" + t + "\"", "ENOENT");
                return null;
            }
            return t;
        }

        void limits(MachineSpec m) {
            long rqs = (long) (tree.size()) * m.cpus();
            if (cpus > 0 && rqs > Limits.MAX_CFS_RQS) {
                c.add("/machine/cpus", "(" + (tree.size() - 1) + " cgroups + root) x " + m.cpus() + " CPUs = " + rqs
                        + " cfs_rqs; exceeds the limit of " + Limits.MAX_CFS_RQS, null);
            }
        }
    }

    /**
     * The contract's spelling of an enum constant of {@link KernelSpec} or {@link TaskSpec.Policy}:
     * lower case with '-' for '_', except {@code cfs_rq}; e.g. {@code first-park}, {@code task-account}.
     * @param e an enum constant
     * @return its JSON value
     */
    public static String jsonName(Enum<?> e) {
        if (e == KernelSpec.Throttle.CFS_RQ) return "cfs_rq";
        return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static String type(JsonNode n) {
        if (n == null) return "nothing";
        return switch (n.getNodeType()) {
            case STRING -> "string " + n;
            case NUMBER -> "number " + n;
            case BOOLEAN -> "boolean " + n;
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            case NULL -> "null";
            default -> n.getNodeType().name().toLowerCase(Locale.ROOT);
        };
    }
}
