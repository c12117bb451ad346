package io.cfslab.scenario;

import static io.cfslab.scenario.ParseContext.esc;
import static io.cfslab.scenario.ParseContext.type;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The scenario's {@code cgroups} (groups listed one by one) and {@code generate} (trees by fan-out per level)
 * sections: both build the initial {@link CgroupTree}, writing each group's files as the kernel would. cgroup v2
 * files are applied in a fixed order ({@link CgroupFiles#FILES}); cgroup v1 files, which are separate writes
 * whose order matters, in the order the entry gives them.
 */
final class CgroupsSection {
    private final ParseContext c;
    private final CgroupTree tree;
    /** Every cpu controller file name of either version: all are known keys, the wrong version's are refused. */
    private static final List<String> ALL_FILES;
    static {
        List<String> all = new ArrayList<>(CgroupFiles.FILES);
        all.addAll(CgroupFiles.FILES_V1);
        ALL_FILES = List.copyOf(all);
    }

    private CgroupsSection(ParseContext c, CgroupFiles.Rules rules) {
        this.c = c;
        this.tree = new CgroupTree(c, rules);
    }

    /** The tree made by {@code cgroups}, then {@code generate}, with the files and checks of {@code rules}. */
    static CgroupTree parse(CheckedObject top, ParseContext c, CgroupFiles.Rules rules) {
        CgroupsSection s = new CgroupsSection(c, rules);
        s.cgroups(top);
        s.generate(top);
        return s.tree;
    }

    /**
     * The cgroup version of a scenario's files: that of the first cpu controller file it writes, in
     * {@code cgroups}, {@code generate} or a timeline {@code write} (v2 if none). A file of the other version is
     * refused where it is written.
     *
     * @param top the scenario's top-level object (read without marking keys)
     * @return 1 or 2
     */
    static int cgroupVersion(CheckedObject top) {
        int v = declaredCgroupVersion(top.node);
        return v == 0 ? 2 : v;
    }

    /**
     * The cgroup version a scenario document's files declare: its first cgroup file (in {@code cgroups}, then
     * {@code generate}, then a timeline write), or 0 when it writes none.
     */
    static int declaredCgroupVersion(JsonNode doc) {
        for (String section : List.of("cgroups", "generate")) {
            JsonNode arr = doc.get(section);
            if (arr == null || !arr.isArray()) continue;
            for (JsonNode e : arr) {
                if (!(e instanceof ObjectNode o)) continue;
                for (String k : o.propertyNames()) {
                    int v = CgroupFiles.versionOf(k);
                    if (v != 0) return v;
                }
            }
        }
        JsonNode tl = doc.get("timeline");
        if (tl != null && tl.isArray()) {
            for (JsonNode e : tl) {
                JsonNode w = e == null ? null : e.get("write");
                if (w == null || !w.isString()) continue;
                String f = w.stringValue();
                int v = CgroupFiles.versionOf(f.substring(f.lastIndexOf('/') + 1));
                if (v != 0) return v;
            }
        }
        return 0;
    }

    /** The files of an entry in the order they are written: v2's fixed order, v1's as given. */
    private List<String> fileKeys(CheckedObject o) {
        List<String> out = new ArrayList<>();
        if (tree.rules().cgroupVersion() == 1) {
            for (String k : o.node.propertyNames()) if (ALL_FILES.contains(k)) out.add(k);
        } else {
            for (String f : CgroupFiles.FILES) if (o.node.has(f)) out.add(f);
            for (String f : CgroupFiles.FILES_V1) if (o.node.has(f)) out.add(f);
        }
        return out;
    }

    /** A file key the group may not have in this scenario (the other cgroup version, or not in this kernel). */
    private boolean refuse(String file, String ptr) {
        try {
            CgroupFiles.checkFile(file, tree.rules());
            return false;
        } catch (InvalidValueException e) {
            c.add(ptr, e);
            return true;
        }
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
            for (String f : fileKeys(o)) {
                JsonNode v = o.get(f);
                if (v == null || refuse(f, o.at(f))) continue;
                String s = c.fileValue(f, v, o.at(f));
                if (s != null) values.put(f, s);
            }
            o.finish(c);
            if (p == null || !tree.namesFree(p, o.at("path"))) continue;
            if (!listed.add(p)) {
                c.add(o.at("path"), "cgroup " + p + " is listed twice", "EEXIST");
                continue;
            }
            if (tree.limitHit() || !tree.mkdirP(p, "/cgroups")) continue;
            CgroupTree.Node node = tree.get(p);
            values.forEach((f, v) -> tree.write(node, f, v, o.at(f)));
        }
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
            for (String f : fileKeys(o)) {
                JsonNode m = o.get(f);
                if (m == null || refuse(f, o.at(f))) continue;
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
                    String v = c.fileValue(f, e.getValue(), kp);
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
            if (!tree.namesFree(under, o.at("under")) || !tree.mkdirP(under, o.at("under"))) continue;
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
