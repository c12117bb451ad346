package io.cfslab.metrics;

import java.util.List;
import java.util.Map;

/**
 * The contract's result ({@code shared/design/contract.md}, "Result"). Serialised by {@link ResultJson}
 * with snake_case keys and every map in a deterministic order, so two runs of one scenario and seed give
 * identical bytes outside {@link #engine()}.
 *
 * @param scenario        scenario name
 * @param seed            seed used
 * @param simulatedNs     simulated time reached, ns
 * @param cgroups         per cgroup path (creation order): its {@code cpu.stat} and {@code cpu.stat.local}
 * @param tasks           per task instance name: usage
 * @param histograms      per histogram name (e.g. {@code distribute_cfs_runtime_ns}): log2 buckets
 * @param distributeCalls each {@code distribute_cfs_runtime} call, capped by {@code record.max_distribute_calls}
 * @param series          samples every {@code record.interval}
 * @param benchmarks      per task entry name: the workload's own figures (e.g. {@code completion_s})
 * @param machine         machine-wide counters ({@code __schedule()} calls, context switches)
 * @param cpus            per CPU: time running tasks and time in interrupts and scheduler overhead
 * @param engine          wall-clock facts about the run; the only part allowed to differ between runs
 */
public record SimulationResult(String scenario, long seed, long simulatedNs,
                               Map<String, CgroupStats> cgroups, Map<String, TaskStats> tasks,
                               Map<String, HistogramSnapshot> histograms, List<DistributeCall> distributeCalls,
                               List<SeriesSample> series, Map<String, Map<String, Double>> benchmarks,
                               MachineStats machine, List<CpuStats> cpus, EngineStats engine) {

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
     *                        task work when it parks (task-based throttling dequeues a throttled cfs_rq's tasks one by
     *                        one this way: seed 00's explanation of head's hackbench slowdown)
     * @param contextSwitches switches of a CPU to a task other than the one it ran last (or after idle), parked
     *                        tasks included
     */
    public record MachineStats(long schedCalls, long contextSwitches) { }

    /**
     * One CPU's time (extension of the contract).
     *
     * @param cpu        CPU number
     * @param busyUsec   time running tasks, µs
     * @param irqUsec    time in the period/slack timer and async-unthrottle IPI handlers, µs: who pays for
     *                   distributing runtime and unthrottling
     * @param schedUsec  scheduler overhead: context switches, throttle walks, task parking, µs
     */
    public record CpuStats(int cpu, long busyUsec, long irqUsec, long schedUsec) { }

    /** A cgroup's files: {@code cpu.stat} and {@code cpu.stat.local} (also their JSON keys, see {@link ResultJson}). */
    public record CgroupStats(CpuStat cpuStat, CpuStatLocal cpuStatLocal) { }

    /**
     * cgroup v2 {@code cpu.stat} keys, print order of {@code cpu_extra_stat_show} (kernel/sched/core.c).
     * All times µs (truncated from ns), counts as the kernel counts them (kernel-model.md §5.1).
     */
    public record CpuStat(long usageUsec, long userUsec, long systemUsec, long nrPeriods, long nrThrottled,
                          long throttledUsec, long nrBursts, long burstUsec) { }

    /** {@code cpu.stat.local} (v6.6+): time this group's cfs_rqs spent in a throttled hierarchy, µs. */
    public record CpuStatLocal(long throttledUsec) { }

    /** Per task instance: CPU time in µs, context switches. */
    public record TaskStats(long usageUsec, long userUsec, long systemUsec, long nrSwitches, long nrMigrations) { }

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

    /** CPU % of one task over the last interval (100 = one whole CPU), as {@code pidstat 1}. */
    public record TaskSample(double cpuPercent) { }

    /** Wall-clock facts: events processed, wall time, peak heap. */
    public record EngineStats(long events, long wallMs) { }
}
