package io.cfslab.scenario;

import static io.cfslab.scenario.ParseContext.esc;
import static io.cfslab.scenario.ParseContext.type;

import java.math.BigInteger;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The scenario's {@code cgroups} (groups listed one by one) and {@code generate} (trees by fan-out per level)
 * sections: both build the initial {@link CgroupTree}, writing each group's files as the kernel would.
 */
final class CgroupsSection {
    private final ParseContext c;
    private final CgroupTree tree;

    private CgroupsSection(ParseContext c) {
        this.c = c;
        this.tree = new CgroupTree(c);
    }

    /** The tree made by {@code cgroups}, then {@code generate}. */
    static CgroupTree parse(CheckedObject top, ParseContext c) {
        CgroupsSection s = new CgroupsSection(c);
        s.cgroups(top);
        s.generate(top);
        return s.tree;
    }

    private void cgroups(CheckedObject top) {
        JsonNode n = c.array(top, "cgroups");
        if (n == null) return;
        Set<String> listed = new HashSet<>();
        for (int i = 0; i < n.size(); i++) {
            String ptr = "/cgroups/" + i;
            CheckedObject o = c.obj(n.get(i), ptr);
            if (o == null) continue;
            String p = c.cgroupPath(o.get("path"), o.at("path"), false);
            Map<String, String> values = new LinkedHashMap<>();
            for (String f : CgroupFiles.FILES) {
                JsonNode v = o.get(f);
                if (v == null) continue;
                String s = fileValue(f, v, o.at(f));
                if (s != null) values.put(f, s);
            }
            o.finish(c);
            if (p == null) continue;
            if (!listed.add(p)) {
                c.add(o.at("path"), "cgroup " + p + " is listed twice", "EEXIST");
                continue;
            }
            if (tree.limitHit() || !tree.mkdirP(p, "/cgroups")) continue;
            CgroupTree.Node node = tree.get(p);
            values.forEach((f, v) -> tree.write(node, f, v, o.at(f)));
        }
    }

    /** The text to write to {@code file}: {@code cpu.max} takes only a string, the others also an integer. */
    private String fileValue(String file, JsonNode v, String ptr) {
        if (!file.equals(CgroupFiles.CPU_MAX)) return c.stringOrInt(v, ptr);
        if (v.isString()) return v.stringValue();
        c.add(ptr, "must be a string such as \"50000 100000\", not " + type(v), null);
        return null;
    }

    private void generate(CheckedObject top) {
        JsonNode n = c.array(top, "generate");
        if (n == null) return;
        for (int i = 0; i < n.size(); i++) {
            String ptr = "/generate/" + i;
            CheckedObject o = c.obj(n.get(i), ptr);
            if (o == null) continue;
            JsonNode un = o.get("under");
            String under = un == null ? "/" : c.cgroupPath(un, o.at("under"), true);
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
                    String v = fileValue(f, e.getValue(), kp);
                    if (v != null) writes.computeIfAbsent(depth, k -> new LinkedHashMap<>()).put(f, v);
                }
            }
            o.finish(c);
            if (under == null || levels == null || tree.limitHit()) continue;
            int underDepth = under.equals("/") ? 0 : under.split("/").length - 1;
            if (underDepth + levels.length > Limits.MAX_DEPTH) {
                c.add(o.at("levels"), "generate reaches depth " + (underDepth + levels.length) + "; exceeds the limit of "
                        + Limits.MAX_DEPTH, null);
                continue;
            }
            // exact count (a product of fan-outs overflows a long before it is refused)
            BigInteger total = BigInteger.ZERO, prod = BigInteger.ONE;
            for (int l : levels) {
                prod = prod.multiply(BigInteger.valueOf(l));
                total = total.add(prod);
            }
            BigInteger all = total.add(BigInteger.valueOf(tree.size()));
            if (all.compareTo(BigInteger.valueOf(Limits.MAX_CGROUPS)) > 0) {
                c.add(o.at("levels"), "generate makes " + total + " cgroups (" + all
                        + " in all); exceeds the limit of " + Limits.MAX_CGROUPS, null);
                continue;
            }
            if (!tree.mkdirP(under, o.at("under"))) continue;
            expand(tree.get(under), null, 1, levels, writes, o);
        }
    }

    /** Makes level {@code depth} below {@code parent}: children named 1, 2, … (then 1_1, 1_2, …). */
    private void expand(CgroupTree.Node parent, String parentName, int depth, int[] levels,
                        Map<Integer, Map<String, String>> writes, CheckedObject o) {
        for (int i = 1; i <= levels[depth - 1]; i++) {
            String name = parentName == null ? Integer.toString(i) : parentName + "_" + i;
            String p = CgroupTree.child(parent.path, name);
            if (!tree.mkdirP(p, o.at("levels"))) return;
            CgroupTree.Node node = tree.get(p);
            Map<String, String> w = writes.get(depth);
            if (w != null) w.forEach((f, v) -> tree.write(node, f, v, o.at(f) + "/" + depth));
            if (depth < levels.length) expand(node, name, depth + 1, levels, writes, o);
        }
    }

    private int[] levels(CheckedObject o) {
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
            long v = c.integer(n.get(i), o.at("levels") + "/" + i, -1, 1, Integer.MAX_VALUE);
            if (v < 1) ok = false;
            else out[i] = (int) v;
        }
        return ok ? out : null;
    }
}
