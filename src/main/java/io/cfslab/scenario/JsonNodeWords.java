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
