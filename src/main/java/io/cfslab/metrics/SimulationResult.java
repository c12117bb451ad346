package io.cfslab.metrics;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;
import java.util.Map;

/**
 * The contract's result ({@code docs/contract.md}, "Result"). Serialised by {@link ResultJson}
 * with snake_case keys and every map in a deterministic order, so two runs of one scenario and seed give
 * identical bytes outside {@link #engine()}.
 *
 * @param scenario        scenario name
 * @param seed            seed used
 * @param simulatedNs     simulated time reached, ns
 * @param partial         where a run stopped before its {@code duration} (it was cancelled), or null for a whole run
 *                        (left out of the JSON, so a whole run's bytes are as before)
 * @param cgroups         per cgroup path (creation order; a group removed by {@code rmdir} is left out): its
 *                        {@code cpu.stat}, {@code cpu.stat.local} (6.6+), and the bandwidth files as they read back
 * @param tasks           per task instance name: usage
 * @param histograms      per histogram name (e.g. {@code distribute_cfs_runtime_ns}): log2 buckets
 * @param distributeCalls each {@code distribute_cfs_runtime} call, capped by {@code record.max_distribute_calls}
 * @param series          samples every {@code record.interval}
 * @param benchmarks      per task entry name: the workload's own figures (e.g. {@code completion_s})
 * @param machine         machine-wide counters ({@code __schedule()} calls, context switches)
 * @param cpus            per CPU: time running tasks and time in interrupts and scheduler overhead
 * @param cpuTimeline     each CPU's state over simulated time, a bounded number of columns ({@link CpuTimeline})
 * @param kernel          the effective kernel switches the run used ({@code KernelSpec.switches()}: version, throttle
 *                        model, every version switch, HZ, ...)
 * @param actions         one entry per timeline action, in the order they ran: whether the kernel took it, else
 *                        its errno (contract v1.1)
 * @param kernelLog       what the kernel logged (dmesg), e.g. the period timer's scaling warning; capped at
 *                        {@link #MAX_KERNEL_LOG} lines
 * @param engine          wall-clock facts about the run; the only part allowed to differ between runs
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SimulationResult(String scenario, long seed, long simulatedNs, Partial partial,
                               Map<String, CgroupStats> cgroups, Map<String, TaskStats> tasks,
                               Map<String, HistogramSnapshot> histograms, List<DistributeCall> distributeCalls,
                               List<SeriesSample> series, Map<String, Map<String, Double>> benchmarks,
                               MachineStats machine, List<CpuStats> cpus, CpuTimeline cpuTimeline, Map<String, Object> kernel,
                               List<ActionRecord> actions, List<KernelLogLine> kernelLog, EngineStats engine) {

    /** Most {@code kernel_log} lines a result keeps (the kernel's own ratelimit keeps a run far below). */
    public static final int MAX_KERNEL_LOG = 1000;

    /** A whole run: every field but {@link #partial()}. */
    public SimulationResult(String scenario, long seed, long simulatedNs, Map<String, CgroupStats> cgroups,
                            Map<String, TaskStats> tasks, Map<String, HistogramSnapshot> histograms,
                            List<DistributeCall> distributeCalls, List<SeriesSample> series,
                            Map<String, Map<String, Double>> benchmarks, MachineStats machine, List<CpuStats> cpus,
                            CpuTimeline cpuTimeline, Map<String, Object> kernel, List<ActionRecord> actions,
                            List<KernelLogLine> kernelLog, EngineStats engine) {
        this(scenario, seed, simulatedNs, null, cgroups, tasks, histograms, distributeCalls, series, benchmarks, machine,
                cpus, cpuTimeline, kernel, actions, kernelLog, engine);
    }

    /**
     * Where a run that stopped early stopped (contract v1.2 {@code partial}): every counter, histogram and series
     * of the result covers simulated time 0 to {@code stoppedAtNs} only. The stop point of a cancel depends on wall
     * time, so a partial result is not byte-comparable between two runs of the same scenario and seed.
     *
     * @param stoppedAtNs simulated time reached when it stopped, ns (equal to the result's {@code simulated_ns}),
     *                    below {@code durationNs}
     * @param durationNs  the scenario's {@code duration}, ns
     */
    public record Partial(long stoppedAtNs, long durationNs) { }

    /** The fields before the CPU timeline. */
    public SimulationResult(String scenario, long seed, long simulatedNs, Map<String, CgroupStats> cgroups,
                            Map<String, TaskStats> tasks, Map<String, HistogramSnapshot> histograms,
                            List<DistributeCall> distributeCalls, List<SeriesSample> series,
                            Map<String, Map<String, Double>> benchmarks, MachineStats machine, List<CpuStats> cpus,
                            Map<String, Object> kernel, List<ActionRecord> actions, List<KernelLogLine> kernelLog,
                            EngineStats engine) {
        this(scenario, seed, simulatedNs, cgroups, tasks, histograms, distributeCalls, series, benchmarks, machine, cpus,
                null, kernel, actions, kernelLog, engine);
    }

    /** The fields before kernel versions: no kernel switches, actions or kernel log. */
    public SimulationResult(String scenario, long seed, long simulatedNs, Map<String, CgroupStats> cgroups,
                            Map<String, TaskStats> tasks, Map<String, HistogramSnapshot> histograms,
                            List<DistributeCall> distributeCalls, List<SeriesSample> series,
                            Map<String, Map<String, Double>> benchmarks, MachineStats machine, List<CpuStats> cpus,
                            EngineStats engine) {
        this(scenario, seed, simulatedNs, cgroups, tasks, histograms, distributeCalls, series, benchmarks, machine,
                cpus, null, Map.of(), List.of(), List.of(), engine);
    }

    /** The contract's fields without the machine counters and the per-CPU extension. */
    public SimulationResult(String scenario, long seed, long simulatedNs, Map<String, CgroupStats> cgroups,
                            Map<String, TaskStats> tasks, Map<String, HistogramSnapshot> histograms,
                            List<DistributeCall> distributeCalls, List<SeriesSample> series,
                            Map<String, Map<String, Double>> benchmarks, EngineStats engine) {
        this(scenario, seed, simulatedNs, cgroups, tasks, histograms, distributeCalls, series, benchmarks,
                new MachineStats(0, 0), List.of(), engine);
    }

    /**
     * Machine-wide counters of the run (contract v1.1 {@code machine}).
     *
     * @param schedCalls      {@code __schedule()} calls on all CPUs, counting the one a task makes from its throttle
     *                        task work each time it parks, the running task's own included (task-based throttling
     *                        dequeues a throttled cfs_rq's tasks one by one this way: seed 00's explanation of head's
     *                        hackbench slowdown), and an idle CPU's empty {@code __schedule(SM_IDLE)} when a wake-up
     *                        asked it to reschedule but left it nothing to run (a wakee of a throttled cfs_rq that is
     *                        off the rq, per-cfs_rq throttling)
     * @param contextSwitches switches of a CPU to a task other than the one it ran last (or after idle), parked
     *                        tasks included
     * @param powerW          mean power over the run, W, by the machine profile's power model; null on a machine
     *                        without one ({@code generic})
     * @param energyJ         energy over the run, J ({@code powerW} × simulated seconds); null with it
     * @param llcMigrations   moves of a task to a CPU of another last-level cache (wake-up placement and load
     *                        balancing; the kernel's count of the kind is new-idle {@code lb_gained} above the LLC
     *                        domain, which seed 00's fix 0d4eaf8caf8c reports); null on a named profile with one LLC
     *                        and on {@code generic}
     * @param parks           task-based throttling: tasks that dequeued themselves from their throttle task work on
     *                        the way back to user mode ({@code throttle_cfs_rq_work()}); 0 under per-cfs_rq throttling
     * @param throttledWakeups wake-ups that enqueued a task into a throttled hierarchy: under per-cfs_rq throttling
     *                        it waits there for the unthrottle, under task-based throttling it runs on in kernel
     *                        mode and parks at its return to user mode
     * @param pullsIntoThrottled load-balancer pulls of a task into a throttled hierarchy of the pulling CPU (only
     *                        {@code throttled_lb none}, the series seed 00 measured, allows them; the task parks where
     *                        it lands)
     * @param schedGoidle     {@code __schedule()} calls whose pick switched the CPU to idle (schedstat
     *                        {@code sched_goidle}): with the wake-ups that end those idle stretches, the calls that
     *                        per-cfs_rq throttling makes more of than task-based throttling in seed 00's hackbench
     *                        (docs/seed-reproductions.md, branch {@code seeds18})
     * @param newidleLbGained tasks pulled by new-idle balances, every domain level (schedstat
     *                        {@code lb_gained[CPU_NEWLY_IDLE]} summed over CPUs and domains)
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record MachineStats(long schedCalls, long contextSwitches, Double powerW, Double energyJ,
                               Long llcMigrations, long parks, long throttledWakeups, long pullsIntoThrottled,
                               long schedGoidle, long newidleLbGained) {
        /** Counters without a power model, the throttle and balance counters 0. */
        public MachineStats(long schedCalls, long contextSwitches) {
            this(schedCalls, contextSwitches, null, null, null, 0, 0, 0, 0, 0);
        }
    }

    /**
     * One timeline action as the run applied it.
     *
     * @param atNs   simulated time, ns
     * @param action the action in the scenario's words ({@code write /a/cpu.max 50000 100000}, {@code kill nop})
     * @param ok     whether the kernel took it
     * @param errno  when refused: the errno the kernel returned ({@code EINVAL}, {@code EBUSY}, {@code EPERM})
     * @param reason when refused: why, in kernel-developer words
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ActionRecord(long atNs, String action, boolean ok, String errno, String reason) { }

    /**
     * One line the kernel logged.
     *
     * @param atNs    simulated time, ns
     * @param message the line as dmesg shows it, without the timestamp
     */
    public record KernelLogLine(long atNs, String message) { }

    /**
     * One CPU's time (extension of the contract).
     *
     * @param cpu        CPU number
     * @param busyUsec   time running tasks, µs, including the task-based throttle's parks (charged to the parking
     *                   task, docs/cost-model.md)
     * @param irqUsec    time in the period/slack timer and async-unthrottle IPI handlers, µs: who pays for
     *                   distributing runtime and unthrottling
     * @param schedUsec  scheduler overhead charged to no task: context switches, throttle walks, µs
     */
    public record CpuStats(int cpu, long busyUsec, long irqUsec, long schedUsec) { }

    /**
     * Each CPU's state over simulated time (extension of the contract), drawn as the run page's CPU timeline.
     * Column {@code k} covers simulated time {@code [k × intervalNs, (k + 1) × intervalNs)} and holds each CPU's
     * state at one instant inside it (an instant chosen by a fixed hash of {@code k}, so that behaviour periodic in
     * the column width does not alias into stripes; the fraction of columns in a state estimates the fraction of
     * time in it). The number of columns is bounded: at most {@value #MAX_COLUMNS}, and at most
     * {@value #MAX_CELLS} cells over all CPUs; {@code intervalNs} is the smallest 1, 2 or 5 × 10^k ns that keeps
     * within both. A cancelled run's columns end where it stopped.
     *
     * @param intervalNs column width, simulated ns
     * @param states     the state of each code: {@code idle} (0), {@code running} (1), {@code running_throttled}
     *                   (2: a fair task whose hierarchy is throttled still runs, in kernel mode, in the task-based
     *                   models), {@code idle_throttled} (3: idle while one of its cfs_rqs is throttled)
     * @param cpus       per CPU, one character per column, {@code '0'}..{@code '3'}
     */
    public record CpuTimeline(long intervalNs, List<String> states, List<String> cpus) {
        public static final int MAX_COLUMNS = 1000;
        public static final int MAX_CELLS = 262_144;
        public static final List<String> STATES = List.of("idle", "running", "running_throttled", "idle_throttled");
    }

    /**
     * A cgroup's files (their JSON keys are the file names, see {@link ResultJson}): {@code cpu.stat},
     * {@code cpu.stat.local} (only on kernels that have it, 6.6+), cgroup v1's {@code cpuacct.usage} (ns), and
     * at the end of a run the bandwidth files as they read back then (a period timer may have scaled them):
     * {@code cpu.max} and {@code cpu.max.burst} (v2; burst 5.14+), or {@code cpu.cfs_quota_us},
     * {@code cpu.cfs_period_us} and {@code cpu.cfs_burst_us} (v1). Absent parts are null and not written.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record CgroupStats(CpuStat cpuStat, CpuStatLocal cpuStatLocal, Long cpuacctUsage, String cpuMax,
                              String cpuMaxBurst, String cpuCfsQuotaUs, String cpuCfsPeriodUs, String cpuCfsBurstUs) {
        /** {@code cpu.stat} and {@code cpu.stat.local} only (series samples, live views). */
        public CgroupStats(CpuStat cpuStat, CpuStatLocal cpuStatLocal) {
            this(cpuStat, cpuStatLocal, null, null, null, null, null, null);
        }
    }

    /**
     * {@code cpu.stat} in the print order of {@code cpu_extra_stat_show} (kernel/sched/core.c): cgroup v2's keys
     * ({@code usage_usec} … {@code burst_usec}, µs truncated from ns) or cgroup v1's ({@code nr_periods},
     * {@code nr_throttled}, {@code throttled_time} in ns, {@code nr_bursts}, {@code burst_time} in ns); the burst
     * keys only from 5.16 (bcb1704a1ed2). Keys a kernel does not print are null. Counts as the kernel counts
     * them (kernel-model.md §5.1).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record CpuStat(Long usageUsec, Long userUsec, Long systemUsec, Long nrPeriods, Long nrThrottled,
                          Long throttledUsec, Long throttledTime, Long nrBursts, Long burstUsec, Long burstTime) {
        /** A cgroup v2 {@code cpu.stat} with every key. */
        public CpuStat(long usageUsec, long userUsec, long systemUsec, long nrPeriods, long nrThrottled,
                       long throttledUsec, long nrBursts, long burstUsec) {
            this(usageUsec, userUsec, systemUsec, nrPeriods, nrThrottled, throttledUsec, null, nrBursts, burstUsec, null);
        }
    }

    /**
     * {@code cpu.stat.local} (6.6+, 677ea015f231): time this group's cfs_rqs spent in a throttled hierarchy:
     * {@code throttled_usec} (v2) or {@code throttled_time} in ns (v1).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record CpuStatLocal(Long throttledUsec, Long throttledTime) {
        /** cgroup v2's {@code cpu.stat.local}. */
        public CpuStatLocal(long throttledUsec) { this(throttledUsec, null); }
    }

    /**
     * Per task instance (contract v1.1): CPU time in µs, context switches, migrations, when it exited (s), if it
     * did, and its latencies as schedstat, runqlat and an application's own timing see them.
     *
     * @param usageUsec        CPU time, µs
     * @param userUsec         of which in user mode, µs
     * @param systemUsec       of which in kernel mode, µs
     * @param nrSwitches       times switched in ({@code /proc/PID/schedstat}'s third field, pcount)
     * @param nrMigrations     CPU changes
     * @param exitS            when it exited, s; null while it lives
     * @param runDelayUsec     time runnable but not running, µs ({@code /proc/PID/schedstat}'s second field,
     *                         {@code sched_info.run_delay}): waiting on a runqueue, and in the task-based models
     *                         parked in a throttled hierarchy's limbo list (state R, counted from its switch-out)
     * @param wakeupLatencyUs  from each wake-up (enqueue by try_to_wake_up) to the moment the task runs its own
     *                         work again; with the cfs_rq model this is runqlat's and {@code perf sched latency}'s
     *                         wake-to-switch-in; in the task-based models a task picked in a throttled hierarchy
     *                         parks before reaching user mode, so its latency runs until it is unthrottled and runs
     *                         (what the application's own timing measures)
     * @param iterationWallUs  {@code periodic} tasks only: the wall time of each run stretch (user and kernel part)
     *                         from the moment it starts running to its end, throttle stalls and preemptions
     *                         included; null for other workloads
     * @param cpu              the CPU it last ran on; null if it never ran
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record TaskStats(long usageUsec, long userUsec, long systemUsec, long nrSwitches, long nrMigrations,
                            Double exitS, Long runDelayUsec, LatencyHistogram.LatencySummary wakeupLatencyUs,
                            LatencyHistogram.LatencySummary iterationWallUs, Integer cpu) {
        /** A task that has not exited, without latencies. */
        public TaskStats(long usageUsec, long userUsec, long systemUsec, long nrSwitches, long nrMigrations) {
            this(usageUsec, userUsec, systemUsec, nrSwitches, nrMigrations, null, null, null, null, null);
        }
    }

    /**
     * One {@code distribute_cfs_runtime()} call and the counters of seed 01's trace line.
     *
     * @param atNs       simulated time the call started
     * @param cpu        CPU that ran it (the period or slack timer's CPU)
     * @param cgroup     the group whose pool was distributed
     * @param durationNs modelled duration (cost model, docs/cost-model.md)
     * @param rqs        runqueues whose cfs_rqs were unthrottled or signalled
     * @param remoteRqs  of those, runqueues signalled by IPI (async) — 0 in sync mode
     * @param cfsRqs     cfs_rqs walked by this CPU inside the call ({@code tg_unthrottle_up} visits)
     * @param tasks      tasks enqueued back by this CPU inside the call
     * @param slack      true if run by the slack timer rather than the period timer
     */
    public record DistributeCall(long atNs, int cpu, String cgroup, long durationNs, int rqs, int remoteRqs,
                                 int cfsRqs, int tasks, boolean slack) { }

    /** One sample of {@code series}: cumulative cpu.stat per cgroup, CPU % per task over the last interval. */
    public record SeriesSample(long atNs, Map<String, CgroupStats> cgroups, Map<String, TaskSample> tasks) { }

    /**
     * One task over the last interval, as {@code pidstat 1} shows it.
     *
     * @param cpuPercent CPU % (100 = one whole CPU)
     * @param cpu        the CPU it last ran on (pidstat's {@code CPU} column); null if it never ran
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record TaskSample(double cpuPercent, Integer cpu) {
        /** Without the CPU. */
        public TaskSample(double cpuPercent) { this(cpuPercent, null); }
    }

    /** Wall-clock facts: events processed, wall time, peak heap. */
    public record EngineStats(long events, long wallMs) { }
}
