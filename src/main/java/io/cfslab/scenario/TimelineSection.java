package io.cfslab.scenario;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;

/**
 * The scenario's {@code timeline} section: actions at simulated times ({@code write}, {@code move},
 * {@code taskset}, {@code chrt}, {@code kill}, {@code rmdir}). Writes and rmdirs are checked in time order against
 * the hierarchy at that moment, as the kernel would see them; a refused one is a problem. What only the run can
 * decide (a group's tasks at an rmdir, a period the kernel scaled, RT runtime at a chrt) is checked again when
 * the run gets there, and a refusal then goes to the result's {@code actions}.
 */
final class TimelineSection {
    /** The action kinds; an entry has exactly one (what each names: {@link TimelineRefs}). */
    private static final List<String> KINDS = TimelineRefs.KINDS;

    private record Action(int index, long at, TimelineAction action) { }

    private final ParseContext c;
    private final CgroupTree tree;
    private final int checkedCpus;
    private final long durationNs;

    /**
     * @param tree        the groups as created; timeline writes change their state
     * @param checkedCpus the machine's CPU count, or -1 if invalid
     * @param durationNs  the run's duration, or -1 if invalid
     */
    TimelineSection(ParseContext c, CgroupTree tree, int checkedCpus, long durationNs) {
        this.c = c;
        this.tree = tree;
        this.checkedCpus = checkedCpus;
        this.durationNs = durationNs;
    }

    /** @param tasks the valid task entries (entries with other problems still count as names) */
    List<TimelineAction> parse(CheckedObject top, List<TaskSpec> tasks) {
        List<TimelineAction> out = new ArrayList<>();
        JsonNode n = c.array(top, "timeline");
        if (n == null) return out;
        if (n.size() > Limits.MAX_TIMELINE) {
            c.add("/timeline", n.size() + " timeline entries; exceeds the limit of " + Limits.MAX_TIMELINE, null);
            return out;
        }
        Map<String, Integer> taskNames = new HashMap<>(); // entry name → instances, -1 if unknown
        for (TaskSpec t : tasks) taskNames.put(t.name(), t.total());
        JsonNode tn = top.node.get("tasks");
        if (tn != null && tn.isArray()) { // names of entries that had other problems still count as existing
            for (JsonNode t : tn) if (t.get("name") != null && t.get("name").isString()) taskNames.putIfAbsent(t.get("name").stringValue(), -1);
        }
        List<Action> actions = new ArrayList<>();
        Map<Integer, String> valuePtrs = new HashMap<>();
        for (int i = 0; i < n.size(); i++) {
            String ptr = "/timeline/" + i;
            CheckedObject o = c.obj(n.get(i), ptr);
            if (o == null) continue;
            long at = at(o);
            List<String> kinds = new ArrayList<>();
            for (String k : KINDS) if (o.node.has(k)) kinds.add(k);
            TimelineAction a = null;
            if (kinds.size() != 1) {
                c.add(ptr, kinds.isEmpty() ? "no action; give one of " + String.join(", ", KINDS)
                        : "more than one action: " + String.join(", ", kinds), null);
                o.useAll();
            } else {
                long t = Math.max(at, 0);
                a = switch (kinds.get(0)) {
                    case "write" -> write(o, t, i, valuePtrs);
                    case "move" -> move(o, t, taskNames);
                    case "taskset" -> taskset(o, t, taskNames);
                    case "chrt" -> chrt(o, t, taskNames);
                    case "kill" -> {
                        String task = taskRef(o, "kill", taskNames);
                        yield task == null ? null : new TimelineAction.Kill(t, task);
                    }
                    default -> rmdir(o, t);
                };
            }
            o.finish(c);
            if (a != null && at >= 0) actions.add(new Action(i, at, a));
        }
        actions.sort(Comparator.comparingLong(Action::at)); // stable
        // where each entry's tasks may be: an rmdir of a group they may still be in is decided by the run
        Map<String, List<String>> where = new HashMap<>();
        for (TaskSpec t : tasks) where.put(t.name(), t.cgroups());
        for (Action act : actions) {
            String at = "/timeline/" + act.index();
            if (act.action() instanceof TimelineAction.Write w && !apply(w, act.index(), valuePtrs)) continue;
            if (act.action() instanceof TimelineAction.Rmdir r) {
                boolean occupied = where.values().stream().anyMatch(gs -> gs.contains(r.cgroup()));
                if (!tree.rmdir(r.cgroup(), at + "/rmdir", occupied)) continue;
            }
            if (act.action() instanceof TimelineAction.Move m) {
                if (!tree.acceptsTasks(m.to(), at + "/to")) continue;
                int slash = m.task().indexOf('/');
                if (slash < 0) {
                    where.put(m.task(), List.of(m.to()));
                } else { // one instance moved: the entry's others stay where they were
                    List<String> gs = new ArrayList<>(where.getOrDefault(m.task().substring(0, slash), List.of()));
                    if (!gs.contains(m.to())) gs.add(m.to());
                    where.put(m.task().substring(0, slash), gs);
                }
            }
            out.add(act.action());
        }
        return out;
    }

    private TimelineAction rmdir(CheckedObject o, long t) {
        JsonNode n = o.get("rmdir");
        String p = c.cgroupPath(n, o.at("rmdir"), true);
        return p == null ? null : new TimelineAction.Rmdir(t, p);
    }

    /** The entry's time, ns; -1 on a problem. */
    private long at(CheckedObject o) {
        JsonNode an = o.get("at");
        if (an == null) {
            c.add(o.at("at"), "at is required", null);
            return -1;
        }
        long at = c.duration(an, o.at("at"));
        if (at >= 0 && durationNs > 0 && at > durationNs) {
            c.add(o.at("at"), "at " + Durations.format(at) + " is beyond duration " + Durations.format(durationNs), null);
            return -1;
        }
        return at;
    }

    private TimelineAction write(CheckedObject o, long t, int index, Map<Integer, String> valuePtrs) {
        String file = c.string(o, "write", null);
        JsonNode vn = o.get("value");
        int slash = file == null ? -1 : file.lastIndexOf('/');
        if (file != null && (!file.startsWith("/") || slash < 0)) {
            c.add(o.at("write"), "\"" + file + "\" is not a /cgroup/file path", null);
            file = null;
        }
        String f = file == null ? null : file.substring(slash + 1);
        String value = null;
        if (vn == null) c.add(o.at("value"), "value is required", null);
        else if (f != null) value = c.fileValue(f, vn, o.at("value")); // the one parser of every section's file values
        if (file == null || value == null) return null;
        String group = slash == 0 ? "/" : file.substring(0, slash);
        valuePtrs.put(index, o.at("value"));
        return new TimelineAction.Write(t, group, f, value);
    }

    private TimelineAction move(CheckedObject o, long t, Map<String, Integer> taskNames) {
        String task = taskRef(o, "move", taskNames);
        JsonNode to = o.get("to");
        String p = to == null ? null : c.cgroupPath(to, o.at("to"), true);
        if (to == null) c.add(o.at("to"), "to is required", null);
        return task != null && p != null ? new TimelineAction.Move(t, task, p) : null;
    }

    private TimelineAction taskset(CheckedObject o, long t, Map<String, Integer> taskNames) {
        String task = taskRef(o, "taskset", taskNames);
        JsonNode cn = o.get("cpus");
        BitSet set = null;
        if (cn == null) c.add(o.at("cpus"), "cpus is required", null);
        else set = c.cpuList(cn, o.at("cpus"), checkedCpus);
        return task != null && set != null ? new TimelineAction.Taskset(t, task, set) : null;
    }

    private TimelineAction chrt(CheckedObject o, long t, Map<String, Integer> taskNames) {
        String task = taskRef(o, "chrt", taskNames);
        JsonNode pn = o.get("policy");
        TaskSpec.Policy pol = null;
        if (pn == null) c.add(o.at("policy"), "policy is required", null);
        else pol = c.enumValue(pn, o.at("policy"), TaskSpec.Policy.class, null);
        int prio = pol == null ? 0 : TasksSection.priority(c, pol, o.get("priority"), o.at("priority"));
        o.get("priority");
        return task != null && pol != null ? new TimelineAction.Chrt(t, task, pol, prio) : null;
    }

    /**
     * A task reference: an entry's name (every instance) or {@code name/i}, instance i of an entry of several (as
     * the result's {@code tasks} keys them); a problem if there is none such.
     */
    private String taskRef(CheckedObject o, String key, Map<String, Integer> names) {
        String t = c.string(o, key, null);
        if (t == null || names.containsKey(t)) return t;
        int slash = t.lastIndexOf('/');
        Integer total = slash < 0 ? null : names.get(t.substring(0, slash));
        String index = slash < 0 ? "" : t.substring(slash + 1);
        if (total != null && index.matches("0|[1-9][0-9]{0,8}")) {
            int i = Integer.parseInt(index);
            if (total < 0 || (total > 1 && i < total)) return t;
            c.add(o.at(key), total == 1 ? "task entry \"" + t.substring(0, slash) + "\" has one instance, named \""
                    + t.substring(0, slash) + "\" without an index" : "no task instance " + t + " (entry \""
                    + t.substring(0, slash) + "\" has " + total + ": /0 to /" + (total - 1) + ")", "ESRCH");
            return null;
        }
        c.add(o.at(key), "no task named \"" + t + "\" (an entry's name, or name/i for its instance i)", "ENOENT");
        return null;
    }

    /**
     * Writes the file in the group's state at the action's time; false if the value is refused (problem added).
     * A refusal due only to the state then (a burst above the quota, a v1 ratio above the parent's) is left to
     * the run, which records it in the result's actions.
     */
    private boolean apply(TimelineAction.Write w, int index, Map<Integer, String> valuePtrs) {
        String ptr = "/timeline/" + index + "/write";
        try {
            CgroupFiles.checkFile(w.file(), tree.rules());
        } catch (InvalidValueException e) {
            c.add(ptr, e);
            return false;
        }
        if (w.cgroup().equals("/") && tree.rules().cgroupVersion() == 2) {
            c.add(ptr, "the root cgroup has no " + w.file() + " (cgroup v2)", "ENOENT");
            return false;
        }
        CgroupTree.Node node = tree.get(w.cgroup());
        if (node == null) {
            String p = c.cgroupPath(w.cgroup(), ptr, false);
            if (p != null) c.add(ptr, "cgroup " + w.cgroup() + " does not exist", "ENOENT");
            return false;
        }
        return tree.writeInTimeline(node, w.file(), w.value(), valuePtrs.get(index));
    }
}
