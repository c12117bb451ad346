package io.cfslab.kernel;

/**
 * The ratelimit of one {@code pr_warn_ratelimited()} call site (lib/ratelimit.c {@code ___ratelimit()} with
 * {@code DEFAULT_RATELIMIT_INTERVAL} = 5 s and {@code DEFAULT_RATELIMIT_BURST} = 10): at most 10 lines per 5 s,
 * and once the interval has passed, a line saying how many were suppressed.
 */
final class Ratelimit {
    static final long INTERVAL_NS = 5_000_000_000L;
    static final int BURST = 10;

    private final String function;
    private boolean started;
    private long beginNs;
    private int printed;
    private int missed;

    /** @param function the calling function's name, which the "callbacks suppressed" line names */
    Ratelimit(String function) { this.function = function; }

    /**
     * ___ratelimit() at {@code nowNs}: whether to print, after logging the "callbacks suppressed" line if an
     * interval ended with some missed.
     */
    boolean allow(long nowNs, KernelObserver log) {
        if (!started) {
            started = true;
            beginNs = nowNs;
        }
        if (nowNs - beginNs >= INTERVAL_NS) {
            if (missed > 0) {
                log.log(nowNs, function + ": " + missed + " callbacks suppressed");
                missed = 0;
            }
            beginNs = nowNs;
            printed = 0;
        }
        if (printed < BURST) {
            printed++;
            return true;
        }
        missed++;
        return false;
    }
}
