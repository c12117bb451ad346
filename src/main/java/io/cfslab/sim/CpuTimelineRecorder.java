package io.cfslab.sim;

import io.cfslab.kernel.Kernel;
import io.cfslab.metrics.LiveSnapshot;
import io.cfslab.metrics.SimulationResult.CpuTimeline;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Records {@link CpuTimeline}: once per column, every CPU's state ({@link Kernel#cpuState}) at an
 * instant inside the column chosen by a fixed hash of the column index (not the run's random stream, so the
 * simulation itself is unchanged). The cells are one preallocated array, column after column; a sample
 * allocates nothing. Columns once written never change, so a live view may read the first {@code recorded}
 * columns of the shared array after a volatile read of that count.
 */
final class CpuTimelineRecorder {
    private final int ncpu;
    private final long durationNs;
    final long intervalNs;
    final int columns;
    private final byte[] cells;
    private volatile int recorded;

    CpuTimelineRecorder(int ncpu, long durationNs) {
        this.ncpu = ncpu;
        this.durationNs = durationNs;
        this.intervalNs = intervalFor(durationNs, ncpu);
        this.columns = durationNs <= 0 ? 0 : (int) ((durationNs + intervalNs - 1) / intervalNs);
        this.cells = new byte[columns * ncpu];
    }

    /** The smallest 1, 2 or 5 × 10^k ns that keeps a run of {@code durationNs} within the column bounds. */
    static long intervalFor(long durationNs, int ncpu) {
        int maxColumns = Math.max(1, Math.min(CpuTimeline.MAX_COLUMNS, CpuTimeline.MAX_CELLS / Math.max(1, ncpu)));
        long least = Math.max(1, (durationNs + maxColumns - 1) / maxColumns);
        for (long decade = 1; ; decade *= 10) {
            for (long m : new long[] {1, 2, 5}) {
                if (m * decade >= least) return m * decade;
            }
        }
    }

    /** When column {@code k} is sampled (simulated ns), or -1 if the run ends before it. */
    long instant(int k) {
        if (k >= columns) return -1;
        long start = k * intervalNs;
        long span = Math.min(intervalNs, durationNs - start);
        if (span <= 0) return -1;
        return start + Math.floorMod(mix(k), span);
    }

    /** Records column {@code k}: the state of every CPU now. */
    void record(int k, Kernel kernel) {
        int base = k * ncpu;
        for (int c = 0; c < ncpu; c++) cells[base + c] = (byte) kernel.cpuState(c);
        recorded = k + 1;
    }

    /** The columns so far, for live views (shares the array: see the class comment). */
    LiveSnapshot.CpuColumns live() {
        return new LiveSnapshot.CpuColumns(intervalNs, ncpu, recorded, cells);
    }

    /** The result's timeline: one string per CPU of the columns recorded. */
    CpuTimeline result() {
        int n = recorded;
        List<String> perCpu = new ArrayList<>(ncpu);
        byte[] row = new byte[n];
        for (int c = 0; c < ncpu; c++) {
            for (int k = 0; k < n; k++) row[k] = (byte) ('0' + cells[k * ncpu + c]);
            perCpu.add(new String(row, StandardCharsets.US_ASCII));
        }
        return new CpuTimeline(intervalNs, CpuTimeline.STATES, List.copyOf(perCpu));
    }

    /** SplitMix64's finaliser: a fixed, well-spread hash of the column index. */
    private static long mix(long z) {
        z = (z + 0x9E3779B97F4A7C15L) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
