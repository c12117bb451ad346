package io.cfslab.experiment;

import io.cfslab.scenario.Problem;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.core.JsonPointer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Writes an arm's overrides into a copy of the scenario document, each at its RFC 6901 pointer (parsed by
 * Jackson's {@link JsonPointer}). The rules are JSON Patch's {@code add} (RFC 6902 §4.1), plus one convenience:
 * <ul>
 *   <li>the last token names an object member (created or replaced), an array index below the array's size
 *       (replaced) or {@code -} (appended);</li>
 *   <li>a missing object member on the way is created as an empty object, so {@code /kernel/throttle} works on
 *       a scenario without a {@code kernel} section (a misspelt member then reaches the scenario parser,
 *       which refuses it as an unknown key);</li>
 *   <li>an array index out of range, a token that is not an index of an array, or a path through a number,
 *       string or boolean is an "unknown pointer" problem;</li>
 *   <li>{@code ""} (the whole scenario) and {@code /seed} are refused: every repeat's seed is derived from
 *       the experiment's {@code seed}.</li>
 * </ul>
 * The result is then validated by the scenario parser like any scenario ({@link ExperimentPlan}).
 */
public final class ScenarioOverrides {
    private ScenarioOverrides() {}

    /**
     * @param pointer a key of a {@code set} object
     * @return why it is not an acceptable pointer, or null if it is
     */
    public static String pointerProblem(String pointer) {
        if (pointer.isEmpty()) return "the empty pointer would replace the whole scenario; point into it (e.g. /kernel/throttle)";
        if (!pointer.startsWith("/")) return "not a JSON pointer (RFC 6901): \"" + pointer + "\" must start with /";
        try {
            JsonPointer.compile(pointer);
        } catch (IllegalArgumentException e) {
            return "not a JSON pointer (RFC 6901): \"" + pointer + "\"";
        }
        for (int i = 0; i < pointer.length(); i++) {
            if (pointer.charAt(i) == '~' && (i + 1 >= pointer.length() || "01".indexOf(pointer.charAt(i + 1)) < 0)) {
                return "not a JSON pointer (RFC 6901): ~ must be followed by 0 or 1 (~0 is ~, ~1 is /)";
            }
        }
        if (pointer.equals("/seed")) {
            return "an arm cannot set /seed: every repeat's seed is derived from the experiment's \"seed\"";
        }
        return null;
    }

    /** The reference tokens of a pointer, unescaped ({@code /cgroups/0/cpu.max} → cgroups, 0, cpu.max). */
    public static List<String> tokens(String pointer) {
        List<String> out = new ArrayList<>();
        JsonPointer p = JsonPointer.compile(pointer);
        while (!p.matches()) {
            out.add(p.getMatchingProperty());
            p = p.tail();
        }
        return out;
    }

    /**
     * Applies {@code set} to {@code doc} in order.
     *
     * @param doc    the scenario document; changed in place (pass a copy)
     * @param set    pointer → value
     * @param at     pointer of {@code set} in the experiment ({@code /arms/1/set}), for problems
     * @param problems where a pointer that does not fit the document is reported, at {@code at/<pointer>}
     */
    public static void apply(ObjectNode doc, Map<String, JsonNode> set, String at, List<Problem> problems) {
        for (Map.Entry<String, JsonNode> e : set.entrySet()) {
            String where = at + "/" + ExperimentParser.esc(e.getKey());
            String bad = apply(doc, e.getKey(), e.getValue().deepCopy());
            if (bad != null) problems.add(new Problem(where, "unknown pointer " + e.getKey() + ": " + bad, null));
        }
    }

    /** @return null, or why the pointer does not fit the document */
    static String apply(ObjectNode doc, String pointer, JsonNode value) {
        List<String> tokens = tokens(pointer);
        JsonNode node = doc;
        StringBuilder path = new StringBuilder();
        for (int i = 0; i < tokens.size(); i++) {
            String t = tokens.get(i);
            boolean last = i == tokens.size() - 1;
            if (node instanceof ObjectNode obj) {
                if (last) {
                    obj.set(t, value);
                    return null;
                }
                JsonNode child = obj.get(t);
                if (child == null || child.isNull()) child = obj.putObject(t);
                node = child;
            } else if (node instanceof ArrayNode arr) {
                String here = path.length() == 0 ? "/" : path.toString();
                if (last && t.equals("-")) {
                    arr.add(value);
                    return null;
                }
                int index = index(t);
                if (index < 0) return here + " is an array: \"" + t + "\" is not an index (0, 1, …, or - to append)";
                if (index >= arr.size()) {
                    return here + " has " + arr.size() + (arr.size() == 1 ? " entry" : " entries") + ", no index " + t;
                }
                if (last) {
                    arr.set(index, value);
                    return null;
                }
                node = arr.get(index);
            } else {
                return (path.length() == 0 ? "/" : path.toString()) + " is " + ExperimentParser.type(node)
                        + ", which has no member \"" + t + "\"";
            }
            path.append('/').append(ExperimentParser.esc(t));
        }
        return null;
    }

    /** An RFC 6901 array index: 0, or digits without a leading zero; else -1. */
    private static int index(String t) {
        if (t.isEmpty() || t.length() > 9 || (t.length() > 1 && t.charAt(0) == '0')) return -1;
        for (int i = 0; i < t.length(); i++) if (!Character.isDigit(t.charAt(i))) return -1;
        return Integer.parseInt(t);
    }
}
