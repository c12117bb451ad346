package io.cfslab.sim;

import io.cfslab.kernel.GroupTree;
import io.cfslab.kernel.Kernel;
import io.cfslab.metrics.SimulationResult.ActionRecord;
import io.cfslab.metrics.SimulationResult.CgroupStats;
import io.cfslab.scenario.CgroupFiles;
import io.cfslab.scenario.CgroupSpec;
import io.cfslab.scenario.CpuMax;
import io.cfslab.scenario.InvalidValueException;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.TimelineAction;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The run's cgroupfs and shell: the groups' files as the kernel has them at each moment, and the timeline's
 * actions applied to the kernel as a script would run them. A write is checked again when it runs, against the
 * state then (the period timer may have scaled a period, cgroup v1 compares a child with its parent's scaled
 * ratio); a refusal does not stop the run: like a shell script, the run goes on and {@link #actions} records the
 * errno. Each group's bandwidth files read back from the kernel's own values.
 */
final class CgroupFs implements CgroupFiles.Hierarchy {
    private final Kernel kernel;
    private final GroupTree tree;
    private final CgroupFiles.Rules rules;
    /** Each group's files as last written (the bandwidth part is re-read from the kernel when asked). */
    private final Map<String, CgroupSpec> written = new HashMap<>();
    private final Map<String, List<String>> children = new HashMap<>();
    private final Set<String> removed = new HashSet<>();
    private final Map<String, int[]> tasksByEntry;
    /** Per task, the first task of its thread group (filled by the simulation once its tasks exist). */
    private final int[] threadGroupOf;
    /** One entry per timeline action run, in order. */
    final List<ActionRecord> actions = new ArrayList<>();

    CgroupFs(Kernel kernel, GroupTree tree, Scenario scenario, Map<String, int[]> tasksByEntry, int[] threadGroupOf) {
        this.kernel = kernel;
        this.threadGroupOf = threadGroupOf;
        this.tree = tree;
        this.rules = CgroupFiles.Rules.of(scenario.kernel());
        this.tasksByEntry = tasksByEntry;
        children.put("/", new ArrayList<>());
        for (CgroupSpec c : scenario.cgroups()) {
            written.put(c.path(), c);
            children.computeIfAbsent(parentOf(c.path()), k -> new ArrayList<>()).add(c.path());
            children.putIfAbsent(c.path(), new ArrayList<>());
        }
    }

    /** A group's weight at creation: {@code cpu.weight} on cgroup v2, {@code cpu.shares} on v1. */
    void applyWeight(int g, CgroupSpec c) {
        if (rules.cgroupVersion() == 1) kernel.setShares(g, c.cpuShares());
        else kernel.setWeight(g, c.cpuWeight());
    }

    /** tg_set_cfs_bandwidth() with a group's written quota, period and burst (the writing shell's CPU drawn at random). */
    void applyBandwidth(int g, CgroupSpec c) {
        CpuMax m = c.cpuMax();
        long quotaNs = m.limited() ? m.quotaUs() * 1000L : Long.MAX_VALUE;
        kernel.setCfsBandwidth(g, m.periodUs() * 1000L, quotaNs, c.cpuMaxBurstUs() * 1000L, -1);
    }

    /** A group's RT bandwidth at creation, if RT group scheduling is on and the group was given some. */
    void applyRt(int g, CgroupSpec c) {
        if (rules.rtGroupSched() && c.rtRuntimeUs() != 0) {
            kernel.setRtBandwidth(g, c.rtRuntimeUs() < 0 ? -1 : c.rtRuntimeUs() * 1000L, c.rtPeriodUs() * 1000L);
        }
    }

    /**
     * A group's files now: as written, with quota, period and burst as the kernel has them (in µs, as
     * {@code tg_get_cfs_quota()} and friends return them).
     */
    @Override
    public CgroupSpec state(String path) {
        CgroupSpec c = written.get(path);
        if (c == null) return null;
        int g = tree.indexOf(path);
        long q = kernel.cfsQuotaNs(g);
        CpuMax m = new CpuMax(q == Long.MAX_VALUE ? CpuMax.MAX : q / 1000, kernel.cfsPeriodNs(g) / 1000);
        return c.withCpuMax(m).withBurstUs(kernel.cfsBurstNs(g) / 1000);
    }

    @Override
    public List<String> children(String path) {
        return children.getOrDefault(path, List.of());
    }

    @Override
    public boolean hasRtTasks(String path) {
        int g = tree.indexOf(path);
        for (int[] ids : tasksByEntry.values()) {
            for (int t : ids) if (kernel.taskGroup(t) == g && kernel.taskRealtime(t) && kernel.exitTimeNs(t) < 0) return true;
        }
        return false;
    }

    /** @return whether the group was removed by {@code rmdir} */
    boolean removed(String path) { return removed.contains(path); }

    /**
     * The bandwidth files as they read back now: {@code cpu.max} and {@code cpu.max.burst} (5.14+) on cgroup v2,
     * {@code cpu.cfs_quota_us}, {@code cpu.cfs_period_us} and {@code cpu.cfs_burst_us} (5.14+) on v1.
     */
    CgroupStats withFiles(String path, CgroupStats stats) {
        CgroupSpec c = state(path);
        boolean burst = CgroupFiles.files(rules).contains(rules.cgroupVersion() == 1 ? CgroupFiles.CFS_BURST_US
                : CgroupFiles.CPU_MAX_BURST);
        if (rules.cgroupVersion() == 1) {
            return new CgroupStats(stats.cpuStat(), stats.cpuStatLocal(), stats.cpuacctUsage(), null, null,
                    CgroupFiles.read(c, CgroupFiles.CFS_QUOTA_US), CgroupFiles.read(c, CgroupFiles.CFS_PERIOD_US),
                    burst ? CgroupFiles.read(c, CgroupFiles.CFS_BURST_US) : null);
        }
        return new CgroupStats(stats.cpuStat(), stats.cpuStatLocal(), stats.cpuacctUsage(),
                CgroupFiles.read(c, CgroupFiles.CPU_MAX), burst ? CgroupFiles.read(c, CgroupFiles.CPU_MAX_BURST) : null,
                null, null, null);
    }

    /** Runs one timeline action now and records whether the kernel took it. */
    void apply(TimelineAction a, long nowNs) {
        String refusal = null, errno = null;
        try {
            if (a instanceof TimelineAction.Write w) write(w);
            else if (a instanceof TimelineAction.Move mv) move(mv);
            else if (a instanceof TimelineAction.Taskset ts) {
                int[] live = living(ts.task());
                for (int t : live) kernel.setAffinity(t, (BitSet) ts.cpus().clone());
                checkNoneExited(ts.task(), live);
            } else if (a instanceof TimelineAction.Chrt ch) chrt(ch);
            else if (a instanceof TimelineAction.Kill kl) {
                int[] live = living(kl.task());
                for (int t : live) {
                    // SIGKILL ends the thread group: every thread of t's process (kernel/signal.c complete_signal());
                    // a running one exits at once: count from before. A thread group's tasks are numbered in a row from
                    // its first (Simulation builds an instance's tasks together), so the group ends where the leader changes
                    int leader = threadGroupOf[t];
                    for (int u = leader; u < threadGroupOf.length && threadGroupOf[u] == leader; u++) kernel.killTask(u);
                }
                checkNoneExited(kl.task(), live);
            } else if (a instanceof TimelineAction.Rmdir rm) rmdir(rm);
        } catch (InvalidValueException e) {
            refusal = e.reason();
            errno = e.errno();
        }
        actions.add(new ActionRecord(nowNs, a.describe(), refusal == null, errno, refusal));
    }

    /** The task ids of a reference: an entry's name (every instance) or {@code name/i} (one instance). */
    private int[] tasksOf(String ref) {
        int[] ids = tasksByEntry.get(ref);
        if (ids != null) return ids;
        int slash = ref.lastIndexOf('/');
        return new int[] {tasksByEntry.get(ref.substring(0, slash))[Integer.parseInt(ref.substring(slash + 1))]};
    }

    /**
     * The referenced tasks that have not exited; ESRCH if every one has (a pid that is gone: {@code echo PID >
     * cgroup.procs}, {@code taskset -p}, {@code chrt -p} and {@code kill} all fail with "No such process").
     */
    private int[] living(String ref) {
        int[] ids = tasksOf(ref);
        int n = 0;
        for (int t : ids) if (kernel.exitTimeNs(t) < 0) n++;
        if (n == 0) throw new InvalidValueException(exitedReason(ref, ids.length), "ESRCH");
        if (n == ids.length) return ids;
        int[] out = new int[n];
        n = 0;
        for (int t : ids) if (kernel.exitTimeNs(t) < 0) out[n++] = t;
        return out;
    }

    /**
     * After acting on the living instances: ESRCH naming how many had exited before the action, if any.
     * @param live the instances that were alive before the action ({@link #living})
     */
    private void checkNoneExited(String ref, int[] live) {
        int[] ids = tasksOf(ref);
        int exited = ids.length - live.length;
        if (exited > 0) {
            throw new InvalidValueException(exited + " of " + ids.length + " instances of " + ref
                    + " had exited (the others were acted on)", "ESRCH");
        }
    }

    private static String exitedReason(String ref, int instances) {
        return (instances == 1 ? "task " + ref + " has" : "every instance of " + ref + " has") + " exited";
    }

    /** ENOENT for a group an earlier rmdir removed during the run. */
    private void checkExists(String path) {
        if (removed.contains(path)) throw new InvalidValueException("cgroup " + path + " does not exist (removed)", "ENOENT");
    }

    private void write(TimelineAction.Write w) {
        checkExists(w.cgroup());
        CgroupSpec before = state(w.cgroup());
        CgroupSpec after = CgroupFiles.write(before, w.file(), w.value(), rules, this);
        written.put(w.cgroup(), after);
        int g = tree.indexOf(w.cgroup());
        switch (w.file()) {
            case CgroupFiles.CPU_WEIGHT -> kernel.setWeight(g, after.cpuWeight());
            case CgroupFiles.SHARES -> kernel.setShares(g, after.cpuShares());
            case CgroupFiles.RT_RUNTIME_US, CgroupFiles.RT_PERIOD_US ->
                    kernel.setRtBandwidth(g, after.rtRuntimeUs() < 0 ? -1 : after.rtRuntimeUs() * 1000L,
                            after.rtPeriodUs() * 1000L);
            default -> applyBandwidth(g, after);
        }
    }

    /**
     * Writing the tasks to a group's cgroup.procs; with RT group scheduling an RT task may only join a group with
     * RT runtime (cpu_cgroup_can_attach() → sched_rt_can_attach(): {@code EINVAL}).
     */
    private void move(TimelineAction.Move mv) {
        checkExists(mv.to());
        int g = tree.indexOf(mv.to());
        int[] ids = living(mv.task());
        if (rules.rtGroupSched() && !mv.to().equals("/") && written.get(mv.to()).rtRuntimeUs() == 0) {
            for (int t : ids) {
                if (kernel.taskRealtime(t) && kernel.exitTimeNs(t) < 0) {
                    throw new InvalidValueException("an RT task cannot join " + mv.to()
                            + ", which has no RT runtime (RT group scheduling)", "EINVAL");
                }
            }
        }
        for (int t : ids) kernel.moveTask(t, g);
        checkNoneExited(mv.task(), ids);
    }

    /** sched_setscheduler(): with RT group scheduling an RT policy needs RT runtime in the task's group ({@code EPERM}). */
    private void chrt(TimelineAction.Chrt ch) {
        String refusedIn = null;
        int[] live = living(ch.task());
        for (int t : live) {
            String group = tree.path(kernel.taskGroup(t));
            if (rules.rtGroupSched() && ch.policy().realtime() && !group.equals("/")
                    && written.get(group).rtRuntimeUs() == 0) {
                if (refusedIn == null) refusedIn = group;
                continue; // chrt fails for this task; it keeps its policy
            }
            kernel.setPolicy(t, ch.policy(), ch.priority());
        }
        if (refusedIn != null) throw new InvalidValueException(CgroupFiles.rtRefusal(refusedIn, rules), "EPERM");
        checkNoneExited(ch.task(), live);
    }

    /**
     * rmdir: refused while any task or child group is in the group ({@code EBUSY}); a child group that was never
     * removed was refused when parsing, one whose own rmdir failed in the run is refused here.
     */
    private void rmdir(TimelineAction.Rmdir rm) {
        checkExists(rm.cgroup());
        List<String> kids = children.getOrDefault(rm.cgroup(), List.of());
        if (!kids.isEmpty()) {
            throw new InvalidValueException("cgroup " + rm.cgroup() + " has child groups (" + kids.get(0) + ")", "EBUSY");
        }
        int g = tree.indexOf(rm.cgroup());
        if (kernel.groupHasTasks(g)) {
            throw new InvalidValueException("cgroup " + rm.cgroup() + " still has tasks", "EBUSY");
        }
        kernel.removeGroup(g);
        removed.add(rm.cgroup());
        children.get(parentOf(rm.cgroup())).remove(rm.cgroup());
    }

    private static String parentOf(String p) {
        int i = p.lastIndexOf('/');
        return i <= 0 ? "/" : p.substring(0, i);
    }

    /** @return whether the group has a quota now (cheap: no copy of its state) */
    boolean limited(String path) {
        return kernel.cfsQuotaNs(tree.indexOf(path)) != Long.MAX_VALUE;
    }
}
