package io.cfslab.scenario;

import tools.jackson.databind.JsonNode;

/**
 * The one check of an integer field, for every document (scenario, run request, experiment), so that the same fault
 * gets the same problem wherever it is: a value that is no integer (a string, a fraction, a boolean) is
 * {@code EINVAL}, as kstrtoll() refuses what is not a number; an integer outside the field's range (2^64 as a seed,
 * 0 repeats) is {@code ERANGE}, as kstrtoll() refuses a number its type cannot hold, unless the field is a sysctl,
 * whose handler ({@code proc_dointvec_minmax()}, {@code sched_rt_handler()}) refuses an out-of-range value with
 * {@code EINVAL}.
 */
public final class Integers {
    private Integers() {}

    /** The errno of an integer outside its field's range, for fields that are no sysctl. */
    public static final String RANGE = "ERANGE";

    /**
     * @param n          the value
     * @param ptr        its JSON pointer
     * @param field      its name, as the problem says it ({@code seed}, {@code sched_rt_period_us})
     * @param min        least value
     * @param max        greatest value
     * @param rangeErrno errno of a value outside min..max: {@link #RANGE}, or {@code EINVAL} for a sysctl
     * @return the problem, or null if {@code n} is an integer in min..max
     */
    public static Problem problem(JsonNode n, String ptr, String field, long min, long max, String rangeErrno) {
        if (!n.isIntegralNumber()) {
            return new Problem(ptr, field + " must be an integer, not " + JsonNodeWords.describe(n), "EINVAL");
        }
        if (!n.canConvertToLong() || n.longValue() < min || n.longValue() > max) {
            return new Problem(ptr, field + " " + n + " is outside " + min + ".." + max, rangeErrno);
        }
        return null;
    }
}
