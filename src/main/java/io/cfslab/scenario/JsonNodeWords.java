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

    /** The problem of a non-zero number too small for a 64-bit floating-point value ({@link #firstUnderflow}). */
    public static final String UNDERFLOW = "number out of range: a non-zero number closer to 0 than ±4.9e-324, the"
            + " smallest 64-bit floating-point value, would be read as 0";

    /**
     * The JSON pointer of the first number in {@code text} that is not zero but reads as the double 0.0
     * ({@code 1e-400}): the reader turns it into 0 silently, so it must be refused, as {@code 1e400} is
     * ({@link #outOfRange}). The tree alone cannot tell {@code 0.0} from {@code 1e-400}, so the text is scanned again,
     * but only when the tree holds a floating-point zero at all (rare: most documents cost nothing more).
     *
     * @param reader the mapper {@code tree} was read with (JSON or YAML: the same tokens)
     * @param text   the text {@code tree} was read from
     * @param tree   its tree
     * @param ptr    pointer of the text's root in the request ({@code ""}, {@code /scenario})
     * @return the pointer, or null if there is none
     */
    public static String firstUnderflow(tools.jackson.databind.ObjectMapper reader, String text, JsonNode tree, String ptr) {
        if (!hasFloatingZero(tree)) return null;
        try (tools.jackson.core.JsonParser p = reader.createParser(text)) {
            for (tools.jackson.core.JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (t == tools.jackson.core.JsonToken.VALUE_NUMBER_FLOAT && underflows(p.getString())) {
                    return ptr + p.streamReadContext().pathAsPointer().toString();
                }
            }
        }
        return null;
    }

    /** True for the text of a number that is not zero but whose nearest double is 0 ({@code 1e-400}, {@code -2e-324}). */
    static boolean underflows(String number) {
        double d;
        try {
            d = Double.parseDouble(number);
        } catch (NumberFormatException e) {
            return false;
        }
        if (d != 0.0) return false;
        int e = Math.max(number.indexOf('e'), number.indexOf('E'));
        String mantissa = e < 0 ? number : number.substring(0, e);
        return mantissa.chars().anyMatch(ch -> ch >= '1' && ch <= '9');
    }

    private static boolean hasFloatingZero(JsonNode n) {
        if (n.isFloatingPointNumber()) return n.doubleValue() == 0.0;
        if (n.isContainer()) {
            for (JsonNode child : n.values()) if (hasFloatingZero(child)) return true;
        }
        return false;
    }

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
    /**
     * A whole document (a scenario, an experiment, a request body) that is not an object, in the same words on every
     * route: {@code must be a JSON object, not an array}, {@code … not null}, {@code … not number 3} (EINVAL).
     */
    public static String notAnObject(JsonNode n) {
        return "must be a JSON object, not " + describe(n);
    }

    /**
     * A number as its words: an integer as written; a floating-point one whose value is whole ({@code 1e3},
     * {@code 1000.0}, which the tree keeps only as the double 1000.0) as that whole number and what makes it no
     * integer, so that the detail does not show a spelling the client never wrote ("not number 1000.0" for
     * {@code 1e3}, breaker 4 F9); any other as Jackson prints it ({@code 1.5}).
     */
    private static String number(JsonNode n) {
        if (n.isFloatingPointNumber() && Double.isFinite(n.doubleValue()) && n.doubleValue() == Math.rint(n.doubleValue())
                && Math.abs(n.doubleValue()) < 1e18) {
            return "number " + java.math.BigDecimal.valueOf(n.doubleValue()).toBigInteger()
                    + " written with a fraction or an exponent (as 1e3 or 1000.0: a floating-point number, no integer)";
        }
        return "number " + n;
    }

    /**
     * @return the words for a value given where a value of another type belongs (below)
     */
    public static String describe(JsonNode n) {
        if (n == null) return "nothing";
        return switch (n.getNodeType()) {
            case STRING -> "string " + n;
            case NUMBER -> number(n);
            case BOOLEAN -> "boolean " + n;
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            case NULL -> "null";
            default -> n.getNodeType().name().toLowerCase(Locale.ROOT);
        };
    }
}
