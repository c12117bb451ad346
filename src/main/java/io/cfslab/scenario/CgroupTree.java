package io.cfslab.scenario;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * The cgroup hierarchy as the parser builds it: {@code mkdir -p} under the cgroup limit, {@code rmdir}, file
 * writes through {@link CgroupFiles} (the kernel's checks, cgroup v1's over the whole hierarchy), and the rules
 * for where tasks may go. Groups keep creation order.
 */
final class CgroupTree implements CgroupFiles.Hierarchy {
    /** One cgroup directory and its files' current state. */
    static final class Node {
        final String path;
        final int depth;
        final List<Node> children = new ArrayList<>();
        CgroupSpec state;
        Node(String path, int depth, boolean v1) {
            this.path = path;
            this.depth = depth;
            this.state = v1 ? CgroupFiles.newGroupV1(path) : CgroupFiles.newGroup(path);
        }
    }

    private final ParseContext c;
    private final CgroupFiles.Rules rules;
    private final LinkedHashMap<String, Node> nodes = new LinkedHashMap<>();
    private boolean limitHit;
    /** Groups whose timeline rmdir the run decides (they may still hold tasks or children then). */
    private final java.util.Set<String> pendingRmdir = new java.util.HashSet<>();

    /** @param rules the kernel's era and the scenario's cgroup version */
    CgroupTree(ParseContext c, CgroupFiles.Rules rules) {
        this.c = c;
        this.rules = rules;
        nodes.put("/", new Node("/", 0, rules.cgroupVersion() == 1));
    }

    /** @return the kernel's era and the cgroup version the files follow */
    CgroupFiles.Rules rules() { return rules; }

    @Override
    public CgroupSpec state(String path) {
        Node n = nodes.get(path);
        return n == null ? null : n.state;
    }

    @Override
    public List<String> children(String path) {
        Node n = nodes.get(path);
        if (n == null) return List.of();
        List<String> out = new ArrayList<>(n.children.size());
        for (Node ch : n.children) out.add(ch.path);
        return out;
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

    /**
     * Whether every name in path {@code p} can be made on this cgroup version: on v1 each group directory holds a
     * file {@code tasks} (and {@code notify_on_release}; {@code release_agent} in the root), so mkdir of such a name
     * fails with EEXIST, as the API's mkdir answers (problem at {@code ptr} if not).
     */
    boolean namesFree(String p, String ptr) {
        if (rules.cgroupVersion() != 1 || p.equals("/")) return true;
        for (String name : p.substring(1).split("/")) {
            if (CgroupFiles.V1_OTHER_FILES.contains(name)) {
                c.add(ptr, "cgroup name \"" + name + "\" in " + p + " is the name of a cgroup v1 file", "EEXIST");
                return false;
            }
        }
        return true;
    }

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
        Node n = new Node(p, par.depth + 1, rules.cgroupVersion() == 1);
        par.children.add(n);
        nodes.put(p, n);
        return true;
    }

    /** echo value > node/file, problem at ptr if refused (the node's state is then unchanged). */
    void write(Node n, String file, String value, String ptr) {
        try {
            n.state = CgroupFiles.write(n.state, file, value, rules, this);
        } catch (InvalidValueException e) {
            c.add(ptr, e);
        }
    }

    /**
     * A timeline write: as {@link #write}, except that a refusal due only to the state at that moment
     * ({@link StateRefusal}) is no problem: the group keeps its state and the run records the refusal.
     *
     * @return false if the write is refused for its value (problem added at ptr), else true
     */
    boolean writeInTimeline(Node n, String file, String value, String ptr) {
        try {
            n.state = CgroupFiles.write(n.state, file, value, rules, this);
        } catch (StateRefusal e) {
            return true;
        } catch (InvalidValueException e) {
            c.add(ptr, e);
            return false;
        }
        return true;
    }

    /**
     * rmdir of an existing group: refused ({@code EBUSY}) for the root and a group with child groups; whether
     * it still has tasks is decided when the run gets there, and so is whether its children are gone when their
     * own rmdir was left to the run.
     * @param mayHaveTasks a task may still be in the group then: the group stays in this tree (the run decides)
     * @return whether the rmdir is valid (else a problem at ptr)
     */
    boolean rmdir(String p, String ptr, boolean mayHaveTasks) {
        Node n = nodes.get(p);
        if (n == null) {
            c.add(ptr, "cgroup " + p + " does not exist", "ENOENT");
            return false;
        }
        if (p.equals("/")) {
            c.add(ptr, "the root cgroup cannot be removed", "EBUSY");
            return false;
        }
        for (Node child : n.children) {
            if (!pendingRmdir.contains(child.path)) {
                c.add(ptr, "cgroup " + p + " has child groups (" + child.path + "); remove them first", "EBUSY");
                return false;
            }
        }
        // children whose own rmdir the run decides (their tasks may have exited by then, after a kill) leave this
        // rmdir to the run too
        if (mayHaveTasks || !n.children.isEmpty()) {
            pendingRmdir.add(p);
            return true;
        }
        nodes.get(parent(p)).children.remove(n);
        nodes.remove(p);
        return true;
    }

    /**
     * True if tasks may be attached to {@code p}: it exists and, on cgroup v2, is the root or a leaf ("no
     * internal processes": a group with children and controllers enabled for them takes no tasks,
     * {@code cgroup_migrate_vet_dst()}; cgroup v1 has no such rule). Otherwise a problem at ptr: {@code ENOENT}
     * or {@code EBUSY}.
     */
    boolean acceptsTasks(String p, String ptr) {
        if (!nodes.containsKey(p)) {
            c.add(ptr, "cgroup " + p + " does not exist", "ENOENT");
            return false;
        }
        if (!p.equals("/") && rules.cgroupVersion() == 2 && !nodes.get(p).children.isEmpty()) {
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
