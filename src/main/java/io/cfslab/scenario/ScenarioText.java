package io.cfslab.scenario;

import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Scenario text to a tree: JSON if it starts with '{' after whitespace, YAML otherwise. Duplicate keys,
 * YAML anchors and aliases, control characters, unpaired surrogates and numbers beyond a double's range ({@code 1e400}, and
 * {@code 1e-400}, which would read as 0)
 * are refused, each as one problem.
 */
public final class ScenarioText {
    private ScenarioText() {}

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    private static final ObjectMapper YAML = YAMLMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    /** The tree, or null with the problem added to {@code c}. */
    static JsonNode read(String text, ParseContext c) {
        String t = text == null ? "" : text.strip();
        if (t.isEmpty()) {
            c.add("", "empty scenario", null);
            return null;
        }
        boolean json = t.charAt(0) == '{';
        try {
            if (!json && usesYamlAliases(t)) {
                c.add("", "YAML anchors and aliases are not supported in a scenario; write the values out", null);
                return null;
            }
            JsonNode n = (json ? JSON : YAML).readTree(t);
            if (n == null || n.isMissingNode() || n.isNull()) {
                c.add("", "empty scenario", null);
                return null;
            }
            if (!cleanText(n, "", c)) return null;
            String underflow = JsonNodeWords.firstUnderflow(json ? JSON : YAML, t, n, "");
            if (underflow != null) {
                c.add(underflow, JsonNodeWords.UNDERFLOW, "ERANGE");
                return null;
            }
            return n;
        } catch (JacksonException e) {
            TokenStreamLocation loc = e.getLocation();
            String where = loc == null || loc.getLineNr() < 0 ? "" : " at line " + loc.getLineNr() + ", column " + loc.getColumnNr();
            String msg = e.getOriginalMessage();
            if (msg != null) msg = String.join("; ", msg.lines().map(String::strip).filter(l -> !l.isEmpty()).limit(3).toList());
            c.add("", "malformed " + (json ? "JSON" : "YAML") + where + ": " + msg, null);
            return null;
        }
    }

    /** True if the YAML text uses an anchor or an alias (Jackson reads an alias as its name, silently). */
    private static boolean usesYamlAliases(String text) {
        try (tools.jackson.core.JsonParser p = YAML.createParser(text)) {
            while (p.nextToken() != null) {
                if (p instanceof tools.jackson.dataformat.yaml.YAMLParser yp && (yp.isCurrentAlias() || yp.getObjectId() != null)) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * Every key and string must be printable text: no control characters, C0 or C1 (a newline in a name would
     * forge lines of output, a U+009B a terminal escape) and no unpaired UTF-16 surrogates (not encodable as UTF-8).
     */
    private static boolean cleanText(JsonNode n, String ptr, ParseContext c) {
        if (JsonNodeWords.outOfRange(n)) {
            c.add(ptr, JsonNodeWords.OUT_OF_RANGE, "ERANGE");
            return false;
        }
        if (n.isString()) {
            String bad = badText(n.stringValue());
            if (bad != null) { c.add(ptr, "string " + bad, null); return false; }
            return true;
        }
        boolean ok = true;
        if (n.isObject()) {
            int i = 0;
            for (var e : n.properties()) {
                String bad = badText(e.getKey());
                if (bad != null) { c.add(ptr, "key number " + i + " " + bad, null); ok = false; }
                else ok &= cleanText(e.getValue(), ptr + "/" + ParseContext.esc(e.getKey()), c);
                i++;
                if (!ok) return false;
            }
        } else if (n.isArray()) {
            for (int i = 0; i < n.size() && ok; i++) ok = cleanText(n.get(i), ptr + "/" + i, c);
        }
        return ok;
    }

    /**
     * What makes a text unprintable, or null if it is clean: a control character of Unicode's Cc category (C0
     * U+0000–U+001F, DEL U+007F, and C1 U+0080–U+009F: a terminal takes U+009B as CSI, so a C1 character in a
     * name can forge output as a newline can), or an unpaired UTF-16 surrogate.
     *
     * @param s any text
     * @return the reason, such as {@code contains a control character (U+009B)}, or null
     */
    public static String badText(String s) {
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (isControl(ch)) return "contains a control character (U+" + String.format("%04X", (int) ch) + ")";
            if (Character.isHighSurrogate(ch)) {
                if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) { i++; continue; }
                return "contains an unpaired surrogate (not valid Unicode)";
            }
            if (Character.isLowSurrogate(ch)) return "contains an unpaired surrogate (not valid Unicode)";
        }
        return null;
    }

    /** @return whether ch is a C0 or C1 control character or DEL (Unicode category Cc) */
    public static boolean isControl(char ch) { return ch < 0x20 || (ch >= 0x7f && ch <= 0x9f); }
}
