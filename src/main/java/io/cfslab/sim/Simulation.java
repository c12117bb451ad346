package io.cfslab.sim;

import io.cfslab.event.EventQueue;
import io.cfslab.kernel.GroupTree;
import io.cfslab.kernel.Kernel;
import io.cfslab.machine.MachineProfile;
import io.cfslab.machine.MachineProfiles;
import io.cfslab.metrics.HistogramSnapshot;
import io.cfslab.metrics.SimulationResult;
import io.cfslab.metrics.SimulationResult.CgroupStats;
import io.cfslab.metrics.SimulationResult.EngineStats;
import io.cfslab.metrics.SimulationResult.MachineStats;
import io.cfslab.metrics.SimulationResult.SeriesSample;
import io.cfslab.metrics.SimulationResult.TaskSample;
import io.cfslab.metrics.SimulationResult.TaskStats;
import io.cfslab.scenario.CgroupSpec;
import io.cfslab.scenario.KernelSpec;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.TaskSpec;
import io.cfslab.scenario.TimelineAction;
import io.cfslab.workload.WorkloadInstance;
import io.cfslab.workload.Workloads;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * One run of one scenario: builds the machine, the task-group tree and the tasks, applies the cgroup
 * settings as writes at time 0, plays the timeline, samples {@code series}, and turns the kernel's counters
 * into the contract's result. Single-threaded; all randomness comes from one {@link SplittableRandom}
 * seeded with the scenario's seed, so a run is a pure function of (scenario, seed).
 */
public final class Simulation {
    /** Simulation-level events (the kernel has its own types below these). */
    private static final int EV_TIMELINE = Kernel.EV_TIMELINE;
    private static final int EV_SAMPLE = Kernel.EV_SAMPLE;
    private static final int POLL_EVENTS = 4096;
    /** Targets of EV_SAMPLE: a series sample, a column of the CPU timeline. */
    private static final int SAMPLE_SERIES = 0, SAMPLE_CPUS = 1;
    private static final int CPU_SAMPLE_PRIORITY = 255;
    private static final long PROGRESS_WALL_NS = 250_000_000L;

    private final Scenario scenario;
    private final EventQueue events = new EventQueue();
    private final GroupTree tree;
    private final Kernel kernel;
    private final DistributeRecorder recorder;
    private final int[] groupIndexOfCgroup;      // scenario order -> tree index
    private final CgroupFs cgroupFs;
    private final String[] taskNames;
    private final Map<String, int[]> tasksByEntry = new LinkedHashMap<>();
    /** Per task, the first task of its thread group (itself unless its instance is one process of several threads). */
    private final int[] threadGroupOf;
    private final Map<String, List<WorkloadInstance>> instancesByEntry = new LinkedHashMap<>();
    private final List<SeriesSample> series = new ArrayList<>();
    private final CpuTimelineRecorder cpuTimeline;
    private final long[] lastSampleUsageNs;
    private long lastSampleNs;
    private long eventCount;
    private RunControl control = RunControl.NONE;

    /** @param scenario a validated scenario (see {@link io.cfslab.scenario.ScenarioParser}) */
    public Simulation(Scenario scenario) {
        this.scenario = scenario;
        var m = scenario.machine();
        MachineProfile machine = MachineProfiles.of(m.profile(), m.cpus(), m.smt(), m.sockets());
        tree = new GroupTree(scenario.cgroups());
        int ntasks = 0;
        for (TaskSpec ts : scenario.tasks()) ntasks += ts.total();
        recorder = new DistributeRecorder(tree, scenario.record().maxDistributeCalls());
        kernel = new Kernel(machine, scenario.kernel(), tree, ntasks, events,
                new SplittableRandom(scenario.seed()), recorder);
        kernel.setTimerPlacement(scenario.kernel().timerPlacement());
        if (!scenario.kernel().tickAligned()) kernel.bootTickPhase(scenario.seed());
        cpuTimeline = new CpuTimelineRecorder(m.cpus(), scenario.durationNs());
        if (!m.exactTime()) kernel.setTimeJitter(scenario.seed());

        threadGroupOf = new int[ntasks];
        cgroupFs = new CgroupFs(kernel, tree, scenario, tasksByEntry, threadGroupOf);
        groupIndexOfCgroup = new int[scenario.cgroups().size()];
        int limitedCount = 0;
        for (CgroupSpec c : scenario.cgroups()) if (c.cpuMax().limited()) limitedCount++;
        int limitedIndex = 0;
        for (int i = 0; i < scenario.cgroups().size(); i++) {
            CgroupSpec c = scenario.cgroups().get(i);
            int g = tree.indexOf(c.path());
            groupIndexOfCgroup[i] = g;
            cgroupFs.applyWeight(g, c);
            kernel.initTimerPhase(g, scenario.kernel().timerPlacement(),
                    c.cpuMax().limited() ? limitedIndex++ : 0, limitedCount, c.cpuMax().periodUs() * 1000L);
        }

        taskNames = new String[ntasks];
        lastSampleUsageNs = new long[ntasks];
        int t = 0;
        BitSet all = new BitSet();
        all.set(0, m.cpus());
        for (TaskSpec ts : scenario.tasks()) {
            int[] ids = new int[ts.total()];
            List<WorkloadInstance> instances = new ArrayList<>(ts.instances());
            int i = 0;
            for (String path : ts.cgroups()) {
                int g = tree.indexOf(path);
                for (int k = 0; k < ts.countPerCgroup(); k++) {
                    WorkloadInstance inst = Workloads.instance(ts.workload(), machine.ipc(), t);
                    instances.add(inst);
                    int leader = t;
                    for (int j = 0; j < inst.tasks(); j++, i++, t++) {
                        ids[i] = t;
                        threadGroupOf[t] = inst.oneProcess() ? leader : t;
                        taskNames[t] = ts.instanceName(i);
                        BitSet allowed = ts.cpusAllowed() == null ? all : (BitSet) ts.cpusAllowed().clone();
                        kernel.initTask(t, g, ts.policy(), ts.rtPriority(), allowed, inst.task(j));
                    }
                }
            }
            tasksByEntry.put(ts.name(), ids);
            instancesByEntry.put(ts.name(), instances);
        }
    }

    /**
     * Runs to {@code duration} (or until cancelled).
     *
     * @throws SimulationAbortedException when the event budget of {@code control} is exceeded
     */
    public SimulationResult run(RunControl control) {
        this.control = control;
        long wallStart = System.nanoTime();
        long duration = scenario.durationNs();
        long snapshotEveryNs = control.snapshotIntervalMs() * 1_000_000L;
        long nextSnapshotWall = wallStart + snapshotEveryNs;
        // cgroup settings are writes at time 0, in creation order (like the seeds' set-up scripts)
        for (int i = 0; i < scenario.cgroups().size(); i++) {
            CgroupSpec c = scenario.cgroups().get(i);
            if (c.cpuMax().limited() || c.cpuMaxBurstUs() != 0) cgroupFs.applyBandwidth(groupIndexOfCgroup[i], c);
            cgroupFs.applyRt(groupIndexOfCgroup[i], c);
        }
        kernel.startTasks(taskNames.length);
        for (int i = 0; i < scenario.timeline().size(); i++) {
            events.push(scenario.timeline().get(i).atNs(), EV_TIMELINE, EV_TIMELINE, i, 0);
        }
        long interval = scenario.record().intervalNs();
        if (interval > 0) events.push(interval, EV_SAMPLE, EV_SAMPLE, SAMPLE_SERIES, 0);
        long firstColumn = cpuTimeline.instant(0);
        // last among the events of its instant: the timeline sees the state those events leave
        if (firstColumn >= 0) events.push(firstColumn, CPU_SAMPLE_PRIORITY, EV_SAMPLE, SAMPLE_CPUS, 0);
        if (scenario.kernel().schedRtRuntimeUs() >= 0) {
            events.push(scenario.kernel().schedRtPeriodUs() * 1000L, Kernel.EV_RT_PERIOD_PRIORITY, Kernel.EV_RT_PERIOD, 0, 0);
        }
        kernel.startBalancer();

        long maxEvents = control.maxEvents();
        long progressStep = Math.max(1, duration / 100);
        long nextProgress = progressStep;
        long nextProgressWall = wallStart + PROGRESS_WALL_NS;
        long reached = 0;
        boolean cancelled = false;
        while (!events.isEmpty() && events.peekTime() <= duration) {
            events.pop();
            long time = events.time();
            kernel.setNow(time);
            reached = time;
            int type = events.type();
            if (type == EV_SAMPLE && events.target() == SAMPLE_CPUS) {
                // an observation, not a simulated event: engine.events and the event budget stay the simulation's
                sampleCpus((int) events.arg());
                continue;
            }
            if (type == EV_TIMELINE) apply(scenario.timeline().get(events.target()));
            else if (type == EV_SAMPLE) {
                sample(interval);
                // a paced run waits in the sample hook; a cancel during that wait must stop it here, not let it run
                // unpaced to the next poll (which a small scenario may never reach before its end)
                if (control.cancelled()) { cancelled = true; break; }
            }
            else kernel.handle(type, events.target(), events.arg());
            if (++eventCount > maxEvents) {
                throw new SimulationAbortedException("event budget of " + maxEvents + " events exceeded at "
                        + time + " ns simulated");
            }
            // every POLL_EVENTS events, and at each 1 % of simulated time: a small run (a few thousand events in
            // all) would otherwise be polled only at its end, and a paced run (held back in progress()) would show
            // 100 % at once and then wait
            if ((eventCount & (POLL_EVENTS - 1)) == 0 || time >= nextProgress) {
                if (control.cancelled()) { cancelled = true; break; }
                long wallNow = System.nanoTime();
                if (time >= nextProgress || wallNow >= nextProgressWall) {
                    // every 1 % of simulated time, and at least every 250 ms of wall time for slow runs
                    control.progress(time, eventCount);
                    nextProgress = (time / progressStep + 1) * progressStep;
                    nextProgressWall = wallNow + PROGRESS_WALL_NS;
                    if (control.cancelled()) { cancelled = true; break; } // cancelled during a paced wait
                }
                if (snapshotEveryNs > 0 && System.nanoTime() >= nextSnapshotWall) {
                    control.snapshot(snapshot(time));
                    nextSnapshotWall = System.nanoTime() + snapshotEveryNs;
                }
            }
        }
        long end = cancelled ? reached : duration;
        kernel.setNow(end);
        kernel.flushAllStats();
        control.progress(end, eventCount);
        if (snapshotEveryNs > 0) control.snapshot(snapshot(end));
        long wallMs = (System.nanoTime() - wallStart) / 1_000_000;
        return result(end, cancelled && end < duration ? new SimulationResult.Partial(end, duration) : null, wallMs);
    }

    // ---- timeline ----

    private void apply(TimelineAction a) {
        cgroupFs.apply(a, kernel.now());
    }

    // ---- series ----

    private void sample(long interval) {
        kernel.flushAllStats();
        long now = kernel.now();
        Map<String, CgroupStats> groups = new LinkedHashMap<>();
        boolean allGroups = scenario.cgroups().size() <= scenario.record().maxSeriesCgroups();
        for (int i = 0; i < scenario.cgroups().size(); i++) {
            CgroupSpec c = scenario.cgroups().get(i);
            if (cgroupFs.removed(c.path())) continue;
            if (allGroups || cgroupFs.limited(c.path())) {
                groups.put(c.path(), stats(groupIndexOfCgroup[i]));
            }
        }
        Map<String, TaskSample> tasks = new LinkedHashMap<>();
        long span = now - lastSampleNs;
        if (taskNames.length <= scenario.record().maxSeriesTasks() && span > 0) {
            for (int t = 0; t < taskNames.length; t++) {
                long used = kernel.taskUsageNs(t) - lastSampleUsageNs[t];
                tasks.put(taskNames[t], new TaskSample(used * 100.0 / span, kernel.lastCpu(t)));
            }
        }
        for (int t = 0; t < taskNames.length; t++) lastSampleUsageNs[t] = kernel.taskUsageNs(t);
        lastSampleNs = now;
        SeriesSample sample = new SeriesSample(now, groups, tasks);
        series.add(sample);
        control.sample(sample);
        events.push(now + interval, EV_SAMPLE, EV_SAMPLE, SAMPLE_SERIES, 0);
    }

    /** Column {@code k} of the CPU timeline: every CPU's state now; then the next column's sample. */
    private void sampleCpus(int k) {
        cpuTimeline.record(k, kernel);
        long next = cpuTimeline.instant(k + 1);
        if (next >= 0) events.push(next, CPU_SAMPLE_PRIORITY, EV_SAMPLE, SAMPLE_CPUS, k + 1);
    }

    // ---- live snapshot ----

    private io.cfslab.metrics.LiveSnapshot snapshot(long now) {
        kernel.flushAllStats();
        Map<String, CgroupStats> cgroups = new LinkedHashMap<>();
        // as in series: every cgroup of a small tree, only the limited ones of a large one (a live view
        // redraws these a few times a second; 2,202 groups would be half a megabyte each time)
        boolean allGroups = scenario.cgroups().size() <= scenario.record().maxSeriesCgroups();
        for (int i = 0; i < scenario.cgroups().size(); i++) {
            CgroupSpec c = scenario.cgroups().get(i);
            if (cgroupFs.removed(c.path())) continue;
            if (allGroups || cgroupFs.limited(c.path())) {
                cgroups.put(c.path(), stats(groupIndexOfCgroup[i]));
            }
        }
        Map<String, HistogramSnapshot> histograms = new LinkedHashMap<>();
        histograms.put("distribute_cfs_runtime_ns", recorder.durations.snapshot());
        return new io.cfslab.metrics.LiveSnapshot(now, scenario.durationNs(), eventCount, histograms, cgroups,
                recorder.recent(), recorder.slowest(), cpuTimeline.live());
    }

    // ---- result ----

    private CgroupStats stats(int g) {
        return kernel.cgroupStats(g);
    }

    private SimulationResult result(long end, SimulationResult.Partial partial, long wallMs) {
        Map<String, CgroupStats> cgroups = new LinkedHashMap<>();
        for (int i = 0; i < scenario.cgroups().size(); i++) {
            String path = scenario.cgroups().get(i).path();
            if (cgroupFs.removed(path)) continue; // rmdir: the files are gone
            cgroups.put(path, cgroupFs.withFiles(path, stats(groupIndexOfCgroup[i])));
        }
        Map<String, TaskStats> tasks = new LinkedHashMap<>();
        for (int t = 0; t < taskNames.length; t++) tasks.put(taskNames[t], kernel.taskStats(t));
        Map<String, HistogramSnapshot> histograms = new LinkedHashMap<>();
        histograms.put("distribute_cfs_runtime_ns", recorder.durations.snapshot());
        Map<String, Map<String, Double>> benchmarks = new LinkedHashMap<>();
        for (TaskSpec ts : scenario.tasks()) {
            Map<String, Double> b = Benchmarks.of(ts, tasksByEntry.get(ts.name()), instancesByEntry.get(ts.name()),
                    kernel, end);
            if (b != null) benchmarks.put(ts.name(), b);
        }
        return new SimulationResult(scenario.name(), scenario.seed(), end, partial, cgroups, tasks, histograms,
                List.copyOf(recorder.calls), List.copyOf(series), benchmarks,
                machineStats(end), kernel.cpuStats(), cpuTimeline.result(),
                scenario.kernel().switches(), List.copyOf(cgroupFs.actions), List.copyOf(recorder.kernelLog),
                new EngineStats(eventCount, wallMs));
    }

    /** Counters, and with a power model the mean power and the energy over {@code end} ns (rounded to mW, mJ). */
    private MachineStats machineStats(long end) {
        double w = kernel.meanPowerW();
        boolean powered = !Double.isNaN(w);
        return new MachineStats(kernel.schedCalls(), kernel.contextSwitches(),
                powered ? Math.round(w * 1000) / 1000.0 : null, powered ? Math.round(w * end / 1e6) / 1000.0 : null,
                powered && kernel.llcs() > 1 ? kernel.llcMigrations() : null,
                kernel.parks(), kernel.throttledWakeups(), kernel.pullsIntoThrottled(), kernel.schedGoidle(),
                kernel.newidleLbGained());
    }
}
