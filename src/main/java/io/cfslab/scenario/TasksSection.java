package io.cfslab.scenario;

import static io.cfslab.scenario.ParseContext.type;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import tools.jackson.databind.JsonNode;

/**
 * The scenario's {@code tasks} section: names, the cgroups each entry's instances go in ({@code "/x"} or
 * {@code "leaves:/x"}), count, workload ({@link WorkloadSection}), CPU affinity and scheduling policy.
 */
final class TasksSection {
    /** Longest task name, UTF-8 bytes: the kernel's NAME_MAX, as for a cgroup name (a task's URL stays short). */
    public static final int MAX_NAME_BYTES = 255;

    private static final String LEAVES = "leaves:";

    private final ParseContext c;
    private final CgroupTree tree;
    private final int checkedCpus;

    /** @param checkedCpus the machine's CPU count, or -1 if invalid (CPU lists are then checked for syntax only) */
    TasksSection(ParseContext c, CgroupTree tree, int checkedCpus) {
        this.c = c;
        this.tree = tree;
        this.checkedCpus = checkedCpus;
    }

    /** The valid entries; invalid ones are left out, each with its problems. */
    List<TaskSpec> parse(CheckedObject top) {
        List<TaskSpec> out = new ArrayList<>();
        JsonNode n = c.array(top, "tasks");
        if (n == null) return out;
        Set<String> names = new HashSet<>();
        long total = 0;
        for (int i = 0; i < n.size(); i++) {
            String ptr = "/tasks/" + i;
            CheckedObject o = c.obj(n.get(i), ptr);
            if (o == null) continue;
            boolean ok = true;
            String name = c.string(o, "name", null);
            if (name == null) {
                if (!o.has("name")) c.add(o.at("name"), "task name is required", null);
                ok = false;
            } else if (name.isEmpty() || name.contains("/") || name.equals(".") || name.equals("..")) {
                // no kernel call refuses a comm, but the name is a path segment (t/1 names instance 1, and
                // …/tasks/{name} the entry): refused as mkdir refuses such a cgroup name, EINVAL
                c.add(o.at("name"), "task name \"" + name + "\" must be non-empty, without '/' and not . or .."
                        + " (as a cgroup name)", "EINVAL");
                ok = false;
            } else if (name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME_BYTES) {
                c.add(o.at("name"), "task name of " + name.getBytes(StandardCharsets.UTF_8).length + " bytes of UTF-8 ("
                        + Names.characters(name) + " characters) exceeds the limit of " + MAX_NAME_BYTES
                        + " bytes (NAME_MAX)", "ENAMETOOLONG");
                ok = false;
            } else if (Names.invisible(name) != null || Names.notNfc(name) != null) {
                c.add(o.at("name"), "task name " + (Names.invisible(name) != null ? Names.invisible(name) : Names.notNfc(name)),
                        "EINVAL");
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
                c.add(o.at("count"), "count " + cnt + " exceeds the limit of " + Limits.MAX_TASKS + " tasks", Integers.RANGE);
                ok = false;
            } else if (cnt != null) {
                count = c.integer(cnt, o.at("count"), 1, 1, Limits.MAX_TASKS);
            }
            JsonNode wn = o.get("workload");
            WorkloadSpec w = wn == null ? new WorkloadSpec.Hog() : WorkloadSection.parse(wn, o.at("workload"), c);
            BitSet allowed = null;
            JsonNode an = o.get("cpus_allowed");
            if (an != null) allowed = c.cpuList(an, o.at("cpus_allowed"), checkedCpus);
            TaskSpec.Policy policy = c.enumValue(o, "policy", TaskSpec.Policy.class, TaskSpec.Policy.NORMAL);
            JsonNode pn = o.get("priority");
            int prio = priority(c, policy, pn, o.at("priority"));
            if (policy.realtime() && ok) ok = rtAllowed(groups, o.at("policy"));
            o.finish(c);
            if (!ok || w == null || (an != null && allowed == null)) continue;
            long entryTasks = count * groups.size() * w.tasksPerInstance();
            total += entryTasks;
            // an entry above the limit alone is refused by the total below; it is never built
            if (entryTasks <= Limits.MAX_TASKS) {
                out.add(new TaskSpec(name, List.copyOf(groups), (int) count, w, allowed, policy, prio));
            }
        }
        if (total > Limits.MAX_TASKS) {
            c.add("/tasks", total + " task instances; exceeds the limit of " + Limits.MAX_TASKS, Integers.RANGE);
        }
        return out;
    }

    /**
     * With RT group scheduling, {@code sched_setscheduler()} refuses an RT policy for a task whose group has no RT
     * runtime ({@code EPERM}, kernel/sched/syscalls.c): a new group's is 0, and cgroup v2 has no file to give it one.
     * @return false if some group refuses (problem at ptr)
     */
    private boolean rtAllowed(List<String> groups, String ptr) {
        if (!tree.rules().rtGroupSched()) return true;
        for (String g : groups) {
            if (g.equals("/") || tree.state(g) == null || tree.state(g).rtRuntimeUs() != 0) continue;
            c.add(ptr, CgroupFiles.rtRefusal(g, tree.rules()), "EPERM");
            return false;
        }
        return true;
    }

    /** Appends the cgroups named by {@code "/x"} or {@code "leaves:/x"}; false on a problem. */
    private boolean resolve(JsonNode n, String ptr, List<String> out) {
        if (!n.isString()) {
            c.add(ptr, "must be a cgroup path or \"leaves:/path\", not " + type(n), null);
            return false;
        }
        String s = n.stringValue();
        boolean leaves = s.startsWith(LEAVES);
        String p = c.cgroupPath(leaves ? s.substring(LEAVES.length()) : s, ptr, true);
        if (p == null) return false;
        if (leaves) {
            if (!tree.contains(p)) {
                c.add(ptr, "cgroup " + p + " does not exist", "ENOENT");
                return false;
            }
            tree.leaves(p, out);
            return true;
        }
        if (!tree.acceptsTasks(p, ptr)) return false;
        out.add(p);
        return true;
    }

    /**
     * A policy's priority as {@code sched_setscheduler()} checks it: rr/fifo need 1..99, others 0
     * (kernel/sched/syscalls.c); problems are {@code EINVAL}.
     * @param pn the priority given, or null
     * @return the priority, 0 on a problem
     */
    static int priority(ParseContext c, TaskSpec.Policy policy, JsonNode pn, String prioPtr) {
        if (pn == null) {
            if (policy.realtime()) {
                c.add(prioPtr, "policy " + ScenarioParser.jsonName(policy) + " needs a priority 1..99", "EINVAL");
            }
            return 0;
        }
        if (!pn.isIntegralNumber()) {
            c.add(prioPtr, "must be an integer, not " + type(pn), "EINVAL"); // as every integer (Integers)
            return 0;
        }
        long p = pn.canConvertToLong() ? pn.longValue() : Long.MAX_VALUE;
        if (policy.realtime() && (p < 1 || p > 99)) {
            c.add(prioPtr, "priority " + pn + " is outside 1..99 for policy " + ScenarioParser.jsonName(policy), "EINVAL");
            return 0;
        }
        if (!policy.realtime() && p != 0) {
            c.add(prioPtr, "policy " + ScenarioParser.jsonName(policy) + " takes priority 0, not " + pn, "EINVAL");
            return 0;
        }
        return (int) p;
    }
}
