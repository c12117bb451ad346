package io.cfslab.scenario;

import java.math.BigDecimal;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * Contract durations: a string with a unit {@code ns}, {@code us}, {@code ms} or {@code s}
 * ({@code "100ms"}, {@code "2.5s"}, {@code "0.2ms"}), or a bare JSON integer meaning nanoseconds.
 * A string without a unit is an error (it is ambiguous), so is a negative value, a fraction of a
 * nanosecond, or a value that does not fit a signed 64-bit count of nanoseconds ({@code ERANGE}, as every integer
 * beyond its field's range: {@link Integers#RANGE}; the other faults have no errno).
 */
public final class Durations {
    private Durations() {}

    /** Sign (only to say "negative"), digits with an optional fraction, then the unit, with nothing between. */
    private static final Pattern FORM = Pattern.compile("(-?)([0-9]+(?:\\.[0-9]+)?)([A-Za-z]*)");
    /** Longer strings are not durations (and are not parsed: a million digits would take seconds). */
    private static final int MAX_LENGTH = 40;
    private static final Map<String, Long> UNITS = Map.of("ns", 1L, "us", 1_000L, "ms", 1_000_000L, "s", 1_000_000_000L);
    private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    /**
     * @param text e.g. {@code "100ms"}, {@code "2.5s"}
     * @return nanoseconds, &ge; 0
     * @throws InvalidValueException (errno null) if malformed, unit-less or fractional ns; ERANGE if negative or too large (out of
     *         range, as every number below or above its field's range)
     */
    public static long parseNs(String text) {
        if (text == null) throw new InvalidValueException("duration is missing", null);
        String t = text;
        if (t.isEmpty()) throw new InvalidValueException("empty duration; expected a number with a unit ns, us, ms or s", null);
        if (t.length() > MAX_LENGTH) {
            throw new InvalidValueException("\"" + t.substring(0, 20) + "…\" (" + t.length() + " characters) is not a duration", null);
        }
        Matcher m = FORM.matcher(t);
        if (!m.matches()) throw new InvalidValueException("\"" + text + "\" is not a duration; expected e.g. \"100ms\" or \"2.5s\"", null);
        String unit = m.group(3);
        if (unit.isEmpty()) {
            throw new InvalidValueException("duration \"" + text + "\" has no unit; write ns, us, ms or s (a bare JSON integer is ns)", null);
        }
        Long scale = UNITS.get(unit);
        if (scale == null) throw new InvalidValueException("unknown unit \"" + unit + "\" in duration \"" + text + "\"; use ns, us, ms or s", null);
        BigDecimal ns = new BigDecimal(m.group(2)).multiply(BigDecimal.valueOf(scale));
        if ("-".equals(m.group(1)) && ns.signum() != 0) throw new InvalidValueException("negative duration \"" + text + "\"", Integers.RANGE);
        if (ns.compareTo(LONG_MAX) > 0) {
            throw new InvalidValueException("duration \"" + text + "\" is too large (beyond 2^63-1 ns)", Integers.RANGE);
        }
        try {
            return ns.longValueExact();
        } catch (ArithmeticException e) {
            throw new InvalidValueException("duration \"" + text + "\" is not a whole number of nanoseconds", null);
        }
    }

    /**
     * @param node a JSON string (see {@link #parseNs(String)}) or a JSON integer of nanoseconds
     * @return nanoseconds, &ge; 0
     * @throws InvalidValueException (errno null) on a wrong type or a bad value; ERANGE beyond 2^63-1 ns
     */
    public static long parseNs(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) throw new InvalidValueException("duration is missing", null);
        if (node.isString()) return parseNs(node.stringValue());
        if (node.isIntegralNumber()) {
            if (!node.canConvertToLong()) {
                throw new InvalidValueException("duration " + node + " ns is too large (beyond 2^63-1 ns)", Integers.RANGE);
            }
            long v = node.longValue();
            if (v < 0) throw new InvalidValueException("negative duration " + v + " ns", Integers.RANGE);
            return v;
        }
        if (node.isNumber()) throw new InvalidValueException("a bare number is nanoseconds and must be an integer, not " + node, null);
        throw new InvalidValueException("duration must be a string with a unit or an integer of ns, not " + node.getNodeType().name().toLowerCase(), null);
    }

    /**
     * The exact canonical form: the largest unit that divides {@code ns}, e.g. {@code "5s"},
     * {@code "100ms"}, {@code "1500us"}, {@code "7ns"}; {@code parseNs(format(x)) == x}.
     * @param ns nanoseconds, &ge; 0
     * @return the duration string
     */
    public static String format(long ns) {
        if (ns == 0) return "0s";
        if (ns % 1_000_000_000L == 0) return ns / 1_000_000_000L + "s";
        if (ns % 1_000_000L == 0) return ns / 1_000_000L + "ms";
        if (ns % 1_000L == 0) return ns / 1_000L + "us";
        return ns + "ns";
    }
}
