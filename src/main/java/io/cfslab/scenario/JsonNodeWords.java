package io.cfslab.scenario;

import tools.jackson.databind.JsonNode;
import java.util.Locale;

/**
 * How a problem names a JSON value it refused: its type and, for a scalar, the value itself, as in
 * {@code must be an integer, not string "5"}. Shared by the scenario parser and the experiment parser, so that both
 * documents' problems read alike.
 */
public final class JsonNodeWords {
    private JsonNodeWords() {}

    /** The problem of a number beyond a 64-bit floating-point value's range ({@link #outOfRange}). */
    public static final String OUT_OF_RANGE = "number out of range: beyond ±1.7976931348623157e308, the largest"
            + " 64-bit floating-point value";

    /**
     * True for a number the JSON reader could only read as an infinite double ({@code 1e400}, {@code -1e999}): its
     * value is lost (it would be written back as the string {@code "Infinity"}), so it must be refused where it is
     * read, with its pointer.
     */
    public static boolean outOfRange(JsonNode n) {
        return n != null && n.isFloatingPointNumber() && n.isDouble() && Double.isInfinite(n.doubleValue());
    }

    /**
     * The JSON pointer of the first number in {@code n} that is {@link #outOfRange}, or null if there is none.
     *
     * @param ptr pointer of {@code n} itself
     */
    public static String firstOutOfRange(JsonNode n, String ptr) {
        if (outOfRange(n)) return ptr;
        if (n.isObject()) {
            for (var e : n.properties()) {
                String p = firstOutOfRange(e.getValue(), ptr + "/" + ParseContext.esc(e.getKey()));
                if (p != null) return p;
            }
        } else if (n.isArray()) {
            for (int i = 0; i < n.size(); i++) {
                String p = firstOutOfRange(n.get(i), ptr + "/" + i);
                if (p != null) return p;
            }
        }
        return null;
    }

    /**
     * @param n a value, or {@code null} for an absent member
     * @return {@code string "5"}, {@code number 1.5}, {@code boolean true}, {@code an array}, {@code an object},
     *         {@code null}, or {@code nothing} for an absent member
     */
    public static String describe(JsonNode n) {
        if (n == null) return "nothing";
        return switch (n.getNodeType()) {
            case STRING -> "string " + n;
            case NUMBER -> "number " + n;
            case BOOLEAN -> "boolean " + n;
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            case NULL -> "null";
            default -> n.getNodeType().name().toLowerCase(Locale.ROOT);
        };
    }
}
