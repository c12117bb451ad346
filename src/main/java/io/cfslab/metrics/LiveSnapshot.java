package io.cfslab.metrics;

import java.util.List;
import java.util.Map;

/**
 * The state of a simulation still running, handed out at a bounded rate for live views (immutable).
 *
 * @param simulatedNs     simulated time reached, ns
 * @param durationNs      the scenario's duration, ns
 * @param events          events processed so far
 * @param histograms      each histogram so far (log2 buckets)
 * @param cgroups         each cgroup's cpu.stat and cpu.stat.local so far
 * @param recentCalls     the latest distribute_cfs_runtime calls (at most 50), oldest first
 * @param slowestCalls    the slowest distribute_cfs_runtime calls so far (at most 20), slowest first
 * @param cpus            per CPU: what it is doing now (0 idle, 1 running a task, 2 running a task of a
 *                        throttled hierarchy in kernel mode, 3 idle while a group has throttled work on it,
 *                        as {@code Kernel.cpuState}); only for machines of at most 64 CPUs, else empty
 */
public record LiveSnapshot(long simulatedNs, long durationNs, long events, Map<String, HistogramSnapshot> histograms,
                           Map<String, SimulationResult.CgroupStats> cgroups,
                           List<SimulationResult.DistributeCall> recentCalls,
                           List<SimulationResult.DistributeCall> slowestCalls, List<Integer> cpus) {
}
