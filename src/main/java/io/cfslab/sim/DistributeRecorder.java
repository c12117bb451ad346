package io.cfslab.sim;

import io.cfslab.kernel.GroupTree;
import io.cfslab.kernel.KernelObserver;
import io.cfslab.metrics.Log2Histogram;
import io.cfslab.metrics.SimulationResult.DistributeCall;

import java.util.ArrayList;
import java.util.List;

/**
 * The run's bpftrace: every {@code distribute_cfs_runtime()} duration goes into a log2 histogram (never
 * capped, as {@code @durations = hist($duration)}), the first {@code maxCalls} calls are kept with their
 * counters (seed 01's trace line), and throttles and parks are counted.
 */
final class DistributeRecorder implements KernelObserver {
    private final GroupTree tree;
    private final int maxCalls;
    final Log2Histogram durations = new Log2Histogram();
    final List<DistributeCall> calls = new ArrayList<>();
    long throttles;
    long parks;
    long distributes;

    DistributeRecorder(GroupTree tree, int maxCalls) {
        this.tree = tree;
        this.maxCalls = maxCalls;
    }

    @Override
    public void distribute(long atNs, int cpu, int group, long durationNs, int rqs, int remoteRqs, int cfsRqs,
                           int tasks, boolean slack) {
        distributes++;
        durations.record(durationNs);
        if (calls.size() < maxCalls) {
            calls.add(new DistributeCall(atNs, cpu, tree.path(group), durationNs, rqs, remoteRqs, cfsRqs, tasks, slack));
        }
    }

    @Override
    public void throttle(long atNs, int cpu, int group) { throttles++; }

    @Override
    public void park(long atNs, int cpu, int task) { parks++; }
}
