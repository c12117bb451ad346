package io.cfslab.machine;

import java.util.Arrays;

/**
 * How fast one hardware thread runs, relative to running alone on its core, as a function of how many threads
 * of that core are busy (itself included). A core's throughput with {@code n} busy threads is
 * {@code n × speed(n)}. Sources of each profile's curve: docs/cost-model.md ("Machine profiles").
 */
public final class SmtCurve {
    private final double[] speedByBusy; // index n-1: per-thread speed with n busy threads

    /**
     * @param speedByBusy per-thread speed with 1, 2, …, smt busy threads; the first must be 1.0, each at most the
     *                    one before (a busier core never speeds a thread up), the core's throughput
     *                    {@code n × speed(n)} never below one thread's
     */
    public SmtCurve(double... speedByBusy) {
        if (speedByBusy.length == 0 || speedByBusy[0] != 1.0)
            throw new IllegalArgumentException("an SMT curve starts at 1.0 for one busy thread");
        for (int n = 1; n < speedByBusy.length; n++) {
            if (speedByBusy[n] > speedByBusy[n - 1] || (n + 1) * speedByBusy[n] < 1.0)
                throw new IllegalArgumentException("SMT curve must not rise and must keep core throughput >= 1: "
                        + Arrays.toString(speedByBusy));
        }
        this.speedByBusy = speedByBusy.clone();
    }

    /** A curve with one speed for every count above one (the {@code generic} profile's model). */
    public static SmtCurve twoLevel(int smt, double busySpeed) {
        double[] s = new double[smt];
        Arrays.fill(s, busySpeed);
        s[0] = 1.0;
        return new SmtCurve(s);
    }

    /** Threads per core this curve covers. */
    public int threads() { return speedByBusy.length; }

    /** Per-thread speed with {@code busy} threads of the core busy (1..threads; more is clamped). */
    public double speed(int busy) {
        return speedByBusy[Math.max(0, Math.min(busy, speedByBusy.length) - 1)];
    }

    /** The core's throughput with {@code busy} busy threads, in single-thread units. */
    public double coreThroughput(int busy) { return busy * speed(busy); }
}
