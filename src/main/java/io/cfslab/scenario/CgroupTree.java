package io.cfslab.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The cgroup hierarchy as the parser builds it: {@code mkdir -p} under the cgroup limit, file writes through
 * {@link CgroupFiles} (the kernel's checks), and the rules for where tasks may go. Groups keep creation order.
 */
final class CgroupTree {
    /** One cgroup directory and its files' current state. */
    static final class Node {
        final String path;
        final int depth;
        final List<Node> children = new ArrayList<>();
        CgroupSpec state;
        Node(String path, int depth) { this.path = path; this.depth = depth; this.state = CgroupFiles.newGroup(path); }
    }

    private final ParseContext c;
    private final LinkedHashMap<String, Node> nodes = new LinkedHashMap<>();
    private boolean limitHit;

    CgroupTree(ParseContext c) {
        this.c = c;
        nodes.put("/", new Node("/", 0));
    }

    Node get(String path) { return nodes.get(path); }

    boolean contains(String path) { return nodes.containsKey(path); }

    /** Cgroups below the root. */
    int size() { return nodes.size() - 1; }

    /** True once a mkdir was refused for the cgroup limit (reported once). */
    boolean limitHit() { return limitHit; }

    /** Every group below the root in creation order, in its current state. */
    List<CgroupSpec> groups() {
        List<CgroupSpec> out = new ArrayList<>(size());
        for (Node n : nodes.values()) if (n.depth > 0) out.add(n.state);
        return out;
    }

    static String parent(String p) {
        int i = p.lastIndexOf('/');
        return i == 0 ? "/" : p.substring(0, i);
    }

    static String child(String parent, String name) { return parent.equals("/") ? "/" + name : parent + "/" + name; }

    /** mkdir -p of a checked path; false if the cgroup limit is reached (problem at ptr, once). */
    boolean mkdirP(String p, String ptr) {
        if (nodes.containsKey(p)) return true;
        if (!mkdirP(parent(p), ptr)) return false;
        if (size() >= Limits.MAX_CGROUPS) {
            if (!limitHit) c.add(ptr, "more than " + Limits.MAX_CGROUPS + " cgroups; exceeds the limit of " + Limits.MAX_CGROUPS, null);
            limitHit = true;
            return false;
        }
        Node par = nodes.get(parent(p));
        Node n = new Node(p, par.depth + 1);
        par.children.add(n);
        nodes.put(p, n);
        return true;
    }

    /** echo value > node/file, problem at ptr if refused (the node's state is then unchanged). */
    void write(Node n, String file, String value, String ptr) {
        try {
            n.state = CgroupFiles.write(n.state, file, value);
        } catch (InvalidValueException e) {
            c.add(ptr, e);
        }
    }

    /**
     * True if tasks may be attached to {@code p}: it exists and is the root or a leaf (cgroup v2
     * "no internal processes": a group with children and controllers enabled for them takes no tasks,
     * {@code cgroup_migrate_vet_dst()}). Otherwise a problem at ptr: {@code ENOENT} or {@code EBUSY}.
     */
    boolean acceptsTasks(String p, String ptr) {
        if (!nodes.containsKey(p)) {
            c.add(ptr, "cgroup " + p + " does not exist", "ENOENT");
            return false;
        }
        if (!p.equals("/") && !nodes.get(p).children.isEmpty()) {
            c.add(ptr, "cgroup " + p + " has child groups; tasks go in leaves or the root", "EBUSY");
            return false;
        }
        return true;
    }

    /** Appends the leaves at or below {@code p} (an existing group), in creation order. */
    void leaves(String p, List<String> out) {
        String prefix = p.equals("/") ? "/" : p + "/";
        for (Node node : nodes.values()) {
            if (node.children.isEmpty() && (node.path.equals(p) || node.path.startsWith(prefix))) out.add(node.path);
        }
    }

    /** The simulator's memory bound: (cgroups + root) × CPUs cfs_rqs; checked only if the machine is valid. */
    void checkCfsRqLimit(MachineSpec m, int checkedCpus) {
        long rqs = (long) (nodes.size()) * m.cpus();
        if (checkedCpus > 0 && rqs > Limits.MAX_CFS_RQS) {
            c.add("/machine/cpus", "(" + size() + " cgroups + root) x " + m.cpus() + " CPUs = " + rqs
                    + " cfs_rqs; exceeds the limit of " + Limits.MAX_CFS_RQS, null);
        }
    }
}
