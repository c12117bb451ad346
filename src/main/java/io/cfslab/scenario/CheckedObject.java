package io.cfslab.scenario;

import java.util.HashSet;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A scenario object whose keys are checked: every key a section reads is marked, and {@link #finish}
 * reports each key not read as unknown (the contract's rule). A JSON {@code null} reads as absent.
 */
final class CheckedObject {
    final ObjectNode node;
    /** JSON pointer of the object itself. */
    final String ptr;
    private final Set<String> used = new HashSet<>();

    CheckedObject(ObjectNode node, String ptr) { this.node = node; this.ptr = ptr; }

    /** The value of {@code k} (null if absent or JSON null), marking the key as known. */
    JsonNode get(String k) {
        used.add(k);
        JsonNode v = node.get(k);
        return v == null || v.isNull() ? null : v;
    }

    boolean has(String k) { JsonNode v = node.get(k); return v != null && !v.isNull(); }

    /** JSON pointer of key {@code k}. */
    String at(String k) { return ptr + "/" + ParseContext.esc(k); }

    /** Marks every key as known: for an object already reported as a whole. */
    void useAll() { used.addAll(node.propertyNames()); }

    /** Reports every key not read as {@code unknown key "k"}. */
    void finish(ParseContext c) {
        for (String k : node.propertyNames()) if (!used.contains(k)) c.add(at(k), ScenarioText.unknownKey(k), null);
    }
}
