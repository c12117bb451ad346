package io.cfslab.sim;

import io.cfslab.kernel.GroupTree;
import io.cfslab.kernel.KernelObserver;
import io.cfslab.metrics.Log2Histogram;
import io.cfslab.metrics.SimulationResult;
import io.cfslab.metrics.SimulationResult.DistributeCall;
import io.cfslab.metrics.SimulationResult.KernelLogLine;

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
    /** The latest {@link #RECENT} calls, a ring; and the slowest {@link #SLOWEST}, for live views. */
    static final int RECENT = 50, SLOWEST = 20;
    private final DistributeCall[] recent = new DistributeCall[RECENT];
    private final java.util.PriorityQueue<DistributeCall> slowest =
            new java.util.PriorityQueue<>(java.util.Comparator.comparingLong(DistributeCall::durationNs)
                    .thenComparing(DistributeCall::atNs, java.util.Comparator.reverseOrder()));
    long throttles;
    long parks;
    long distributes;
    /** The kernel's log lines, the first {@link SimulationResult#MAX_KERNEL_LOG}. */
    final List<KernelLogLine> kernelLog = new ArrayList<>();

    DistributeRecorder(GroupTree tree, int maxCalls) {
        this.tree = tree;
        this.maxCalls = maxCalls;
    }

    @Override
    public void distribute(long atNs, int cpu, int group, long durationNs, int rqs, int remoteRqs, int cfsRqs,
                           int tasks, boolean slack) {
        DistributeCall call = new DistributeCall(atNs, cpu, tree.path(group), durationNs, rqs, remoteRqs, cfsRqs,
                tasks, slack);
        recent[(int) (distributes % RECENT)] = call;
        distributes++;
        durations.record(durationNs);
        if (calls.size() < maxCalls) calls.add(call);
        if (slowest.size() < SLOWEST) slowest.add(call);
        else if (durationNs > slowest.peek().durationNs()) { slowest.poll(); slowest.add(call); }
    }

    /** The latest calls, oldest first. */
    List<DistributeCall> recent() {
        List<DistributeCall> out = new ArrayList<>(RECENT);
        long n = Math.min(distributes, RECENT);
        for (long i = distributes - n; i < distributes; i++) out.add(recent[(int) (i % RECENT)]);
        return out;
    }

    /** The slowest calls so far, slowest first (ties: earliest first). */
    List<DistributeCall> slowest() {
        List<DistributeCall> out = new ArrayList<>(slowest);
        out.sort(java.util.Comparator.comparingLong(DistributeCall::durationNs).reversed()
                .thenComparingLong(DistributeCall::atNs));
        return out;
    }

    @Override
    public void throttle(long atNs, int cpu, int group) { throttles++; }

    @Override
    public void park(long atNs, int cpu, int task) { parks++; }

    @Override
    public void log(long atNs, String message) {
        if (kernelLog.size() < SimulationResult.MAX_KERNEL_LOG) kernelLog.add(new KernelLogLine(atNs, message));
    }
}
