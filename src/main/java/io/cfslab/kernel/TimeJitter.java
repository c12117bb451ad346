package io.cfslab.kernel;

import java.util.SplittableRandom;

/**
 * Inexact time, as on a real machine (docs/cost-model.md, "Inexact time"): hrtimers fire late (the period and slack
 * timers, the scheduler tick), a sleep ends after its timer slack, and a stretch of work does not take exactly its
 * nominal CPU time. Each is drawn from a random source of its own, seeded from the run's seed, so the same scenario
 * and seed give the same result and the kernel's other draws (timer phases, writer CPUs, cost jitter) are the ones
 * they were without it. {@link #EXACT} draws nothing ({@code machine.exact_time}).
 *
 * <p>The expiry grid is not moved: a late timer is forwarded from its programmed expiry (hrtimer_forward()), so the
 * lateness does not accumulate; a sleep loop does drift, by the slack and lateness of each sleep.
 */
final class TimeJitter {
    /** Least hrtimer expiry latency (interrupt entry and hrtimer_interrupt() until the callback), ns. */
    static final long TIMER_LATENCY_MIN_NS = 1_000;
    /** Mean of the exponential part of the expiry latency above the minimum, ns. */
    static final long TIMER_LATENCY_MEAN_EXTRA_NS = 3_000;
    /** Largest expiry latency drawn, ns (a longer one would be an interrupts-off section, not modelled). */
    static final long TIMER_LATENCY_MAX_NS = 50_000;
    /** Default timer slack of a SCHED_OTHER task (prctl(2) PR_SET_TIMERSLACK: 50 µs), ns. */
    static final long TIMER_SLACK_NS = 50_000;
    /** Relative spread of a stretch's CPU time: uniform in [1 − v, 1 + v] of the nominal. */
    static final double RUN_VARIATION = 0.002;

    static final TimeJitter EXACT = new TimeJitter(null);

    private final SplittableRandom random;

    private TimeJitter(SplittableRandom random) { this.random = random; }

    /** Inexact time drawn from a source seeded by {@code seed} (the run's seed, mixed so it is not the kernel's). */
    static TimeJitter seeded(long seed) {
        return new TimeJitter(new SplittableRandom(seed * 0x9E3779B97F4A7C15L + 0x7F4A7C15L));
    }

    boolean exact() { return random == null; }

    /** How late an hrtimer callback runs after its expiry, ns: 1 µs plus an exponential tail of mean 3 µs, at most 50 µs. */
    long timerLatencyNs() {
        if (random == null) return 0;
        double extra = -Math.log(1.0 - random.nextDouble()) * TIMER_LATENCY_MEAN_EXTRA_NS;
        return Math.min(TIMER_LATENCY_MAX_NS, TIMER_LATENCY_MIN_NS + (long) extra);
    }

    /**
     * How much longer than asked a sleep lasts, ns: hrtimer_nanosleep() arms a range timer of [expiry, expiry + slack]
     * that fires at the hard end unless another interrupt of that CPU expires timers inside the range, so by a
     * uniform share of the slack, plus the expiry latency.
     */
    long sleepLatenessNs() {
        if (random == null) return 0;
        return (long) (random.nextDouble() * TIMER_SLACK_NS) + timerLatencyNs();
    }

    /** The CPU time a stretch of nominal {@code ns} of work takes, ns. */
    long workNs(long ns) {
        if (random == null || ns <= 0 || ns == Long.MAX_VALUE) return ns;
        return Math.max(1, ns + (long) (ns * RUN_VARIATION * (2 * random.nextDouble() - 1)));
    }
}
