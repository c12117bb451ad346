package io.cfslab.metrics;

import java.util.List;
import java.util.Map;

/**
 * The state of a simulation still running, handed out at a bounded rate for live views (immutable, but for
 * {@link CpuColumns}' shared array, of which only columns already final are exposed).
 *
 * @param simulatedNs     simulated time reached, ns
 * @param durationNs      the scenario's duration, ns
 * @param events          events processed so far
 * @param histograms      each histogram so far (log2 buckets)
 * @param cgroups         cpu.stat and cpu.stat.local so far of every cgroup, or, when the tree has more than
 *                        {@code record.max_series_cgroups} groups, of those with a quota (as {@code series})
 * @param recentCalls     the latest distribute_cfs_runtime calls (at most 50), oldest first
 * @param slowestCalls    the slowest distribute_cfs_runtime calls so far (at most 20), slowest first
 * @param cpus            the CPU timeline recorded so far ({@link SimulationResult.CpuTimeline}), or null
 */
public record LiveSnapshot(long simulatedNs, long durationNs, long events, Map<String, HistogramSnapshot> histograms,
                           Map<String, SimulationResult.CgroupStats> cgroups,
                           List<SimulationResult.DistributeCall> recentCalls,
                           List<SimulationResult.DistributeCall> slowestCalls, CpuColumns cpus) {

    /**
     * The first {@code columns} columns of a CPU timeline: {@code cells[k * cpus + c]} is CPU c's state code in
     * column k. The array may be longer (and still filling, beyond {@code columns}): never modify it.
     *
     * @param intervalNs column width, simulated ns
     * @param cpus       CPUs
     * @param columns    columns recorded
     * @param cells      the states, column after column
     */
    public record CpuColumns(long intervalNs, int cpus, int columns, byte[] cells) {
        /** From a stored result's timeline. */
        public static CpuColumns of(SimulationResult.CpuTimeline t) {
            if (t == null || t.cpus() == null || t.cpus().isEmpty()) return null;
            int n = t.cpus().size();
            int cols = t.cpus().get(0).length();
            byte[] cells = new byte[cols * n];
            for (int c = 0; c < n; c++) {
                String s = t.cpus().get(c);
                for (int k = 0; k < cols && k < s.length(); k++) cells[k * n + c] = (byte) (s.charAt(k) - '0');
            }
            return new CpuColumns(t.intervalNs(), n, cols, cells);
        }

        /** CPU c's states in columns [from, to) as the result writes them ('0'..'3'). */
        public String row(int c, int from, int to) {
            char[] out = new char[Math.max(0, to - from)];
            for (int k = from; k < to; k++) out[k - from] = (char) ('0' + cells[k * cpus + c]);
            return new String(out);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof CpuColumns x && x.cells == cells && x.columns == columns;
        }

        @Override
        public int hashCode() { return System.identityHashCode(cells) * 31 + columns; }

        @Override
        public String toString() { return "CpuColumns[" + cpus + " cpus, " + columns + " columns of " + intervalNs + " ns]"; }
    }
}
