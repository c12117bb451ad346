package io.cfslab.scenario;

import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Scenario text to a tree: JSON if it starts with '{' after whitespace, YAML otherwise. Duplicate keys,
 * YAML anchors and aliases, control characters, unpaired surrogates and numbers beyond a double's range ({@code 1e400}, and
 * {@code 1e-400}, which would read as 0)
 * are refused, each as one problem.
 *
 * <p>YAML plain scalars resolve as the YAML 1.2 core schema says (spec 1.2.2, 10.3.2 "Tag Resolution"): {@code null},
 * {@code Null}, {@code NULL}, {@code ~} and an empty value are null (JSON null, so a key set to {@code ~} means "left
 * out" wherever {@code null} does); {@code true|True|TRUE|false|False|FALSE} are booleans; {@code 0x1F}, {@code 0o17} and decimals with a sign or
 * leading zeros ({@code +12}, {@code 017}: 17)
 * integers. Jackson's YAML reader took {@code ~}, {@code Null}, {@code True} and {@code 0x1F} as text. Quoted scalars
 * stay text. Tags: the core schema's ({@code !!str}, {@code !!int}, {@code !!float}, {@code !!bool}, {@code !!null},
 * {@code !!map}, {@code !!seq}) are honoured; any other ({@code !!binary}, {@code !!timestamp}, {@code !!set},
 * {@code !local}) is refused at its JSON pointer rather than silently dropped.
 */
public final class ScenarioText {
    private ScenarioText() {}

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    private static final ObjectMapper YAML = YAMLMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    /**
     * The index of the first character of {@code text} that is not JSON's and YAML's white space (space, tab, line
     * feed, carriage return), {@code text.length()} if there is none. Java's {@code isBlank()} and {@code strip()}
     * also take U+000B, U+000C and U+001C–U+001F, which neither syntax does.
     */
    public static int firstNonBlank(String text) {
        int i = 0;
        while (i < text.length() && " \t\r\n".indexOf(text.charAt(i)) >= 0) i++;
        return i;
    }

    /** Whether {@code text} is null or only JSON's and YAML's white space ({@link #firstNonBlank}): an empty body. */
    public static boolean isBlank(String text) { return text == null || firstNonBlank(text) == text.length(); }

    /** The tree, or null with the problem added to {@code c}; JSON if it starts with '{' or '[', else YAML. */
    static JsonNode read(String text, ParseContext c) { return read(text, c, false); }

    /**
     * The tree, or null with the problem added to {@code c}.
     *
     * @param yaml the text is declared YAML (a body's {@code Content-Type}, a file's {@code .yaml}/{@code .yml}
     *             extension): a text that starts with '{' or '[' is still read as JSON first (JSON is YAML 1.2, and
     *             JSON's reader is the strict one), but if that fails on its syntax it is read as YAML, and a refusal
     *             is YAML's (breaker 9 F15: {@code {name: t}}, {@code {'name': 't'}}, a JSON object with a trailing
     *             comment, all valid YAML, were refused as "malformed JSON" a client that sent YAML never wrote)
     */
    static JsonNode read(String text, ParseContext c, boolean yaml) {
        String t = text == null ? "" : text;
        int first = firstNonBlank(t);
        boolean json = first < t.length() && (t.charAt(first) == '{' || t.charAt(first) == '[');
        if (!yaml || !json) return readAs(text, c, json);
        ParseContext tried = new ParseContext();
        JsonNode n = readAs(text, tried, true);
        if (n != null || !tried.syntaxFailed) {
            if (n == null) c.addAll(tried);
            return n;
        }
        return readAs(text, c, false);
    }

    /** The tree read as JSON ({@code json}) or YAML, or null with the problem added to {@code c}. */
    private static JsonNode readAs(String text, ParseContext c, boolean json) {
        // only JSON's and YAML's own white space (space, tab, line ends) makes a body empty or precedes its first
        // character; the text is read as sent, so that a line and column count from its first line (strip() took
        // leading blank lines off them, and U+000B, U+000C, U+001C–U+001F off its ends unread: breaker 4 F10)
        String t = text == null ? "" : text;
        int first = firstNonBlank(t);
        if (first == t.length()) {
            c.add("", "empty scenario", null);
            return null;
        }
        // '[' too: a JSON array (a scenario or experiment file that is not an object, or cut short as "[1,2") is
        // reported in JSON's words; no YAML flow sequence is a scenario either
        if (!json) {
            String nel = SyntaxWords.nelIn(t);
            if (nel != null) {
                c.add("", nel, null);
                return null;
            }
        }
        try {
            if (!json && usesYamlAliases(t)) {
                c.add("", "YAML anchors and aliases are not supported in a scenario; write the values out", null);
                return null;
            }
            // YAML: the core schema's resolution (and its refusals: tags, .inf, .nan) comes from the tokens, before the
            // tree is built, since building it converts .inf and fails
            java.util.Map<tools.jackson.core.JsonPointer, JsonNode> resolved = json ? null : coreSchema(t, c);
            if (!json && resolved == null) return null;
            JsonNode n = (json ? JSON : YAML).readTree(t);
            if (!json && n != null && !n.isMissingNode() && !n.isNull()) n = apply(n, resolved);
            if (n == null || n.isMissingNode()) {
                c.add("", "empty scenario", null);
                return null;
            }
            if (n.isNull()) { // "null", "~": a document, but not an object
                c.add("", JsonNodeWords.notAnObject(n), "EINVAL");
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
            Problem p = SyntaxWords.of(e, t, json ? JSON : YAML, !json);
            c.add(p.path(), p.reason(), p.errno());
            c.syntaxFailed = true;
            return null;
        }
    }

    /** The core schema's tags (YAML 1.2.2, 10.3 and 10.2 for !!str/!!seq/!!map): the only ones a scenario may carry. */
    private static final java.util.Set<String> CORE_TAGS = java.util.Set.of("tag:yaml.org,2002:str",
            "tag:yaml.org,2002:int", "tag:yaml.org,2002:float", "tag:yaml.org,2002:bool", "tag:yaml.org,2002:null",
            "tag:yaml.org,2002:map", "tag:yaml.org,2002:seq");
    private static final java.util.regex.Pattern CORE_NULL = java.util.regex.Pattern.compile("null|Null|NULL|~");
    private static final java.util.regex.Pattern CORE_BOOL = java.util.regex.Pattern.compile("true|True|TRUE|false|False|FALSE");
    private static final java.util.regex.Pattern CORE_HEX = java.util.regex.Pattern.compile("0x[0-9a-fA-F]+");
    private static final java.util.regex.Pattern CORE_OCT = java.util.regex.Pattern.compile("0o[0-7]+");
    /** Decimal: a sign and leading zeros are allowed; Jackson's YAML 1.1 reader leaves {@code +12}, {@code 017}, {@code 02} as text. */
    private static final java.util.regex.Pattern CORE_DEC = java.util.regex.Pattern.compile("[-+]?[0-9]+");
    private static final java.util.regex.Pattern CORE_INF = java.util.regex.Pattern.compile("[-+]?\\.(inf|Inf|INF)");
    private static final java.util.regex.Pattern CORE_NAN = java.util.regex.Pattern.compile("\\.(nan|NaN|NAN)");

    /**
     * The values of the text's plain scalars that the YAML 1.2 core schema (class comment) resolves differently from
     * Jackson's tree, by pointer; or null with a problem in {@code c} for a tag outside the schema, or for an infinite
     * or not-a-number float ({@code .inf}, {@code -.Inf}, {@code .NaN}: the schema's floats that no field takes), at its
     * pointer. A pass over the text's tokens: Jackson's tree does not say whether a string was plain or quoted, so the
     * character at each scalar's start decides ({@code '} or {@code "}: quoted).
     */
    private static java.util.Map<tools.jackson.core.JsonPointer, JsonNode> coreSchema(String text, ParseContext c) {
        java.util.Map<tools.jackson.core.JsonPointer, JsonNode> replace = new java.util.LinkedHashMap<>();
        var nodes = tools.jackson.databind.node.JsonNodeFactory.instance;
        try (tools.jackson.core.JsonParser p = YAML.createParser(text)) {
            for (tools.jackson.core.JsonToken tok = p.nextToken(); tok != null; tok = p.nextToken()) {
                if (tok.isStructEnd() && p.streamReadContext().inRoot()) break; // the first document's end: a second is refused by the tree
                if (tok == tools.jackson.core.JsonToken.PROPERTY_NAME || tok.isStructEnd()) continue; // a key reports its map's tag
                Object tag = p.getTypeId();
                tools.jackson.core.JsonPointer at = p.streamReadContext().pathAsPointer();
                if (tok.isStructStart()) at = p.streamReadContext().getParent() == null ? at
                        : p.streamReadContext().getParent().pathAsPointer();
                if (tag != null && (tag.toString().isEmpty() || "!".equals(tag.toString()))) continue; // "!": a string (10.3.2)
                if (tag != null && !CORE_TAGS.contains(tag.toString())) {
                    c.add(at.toString(), "YAML tag " + shortTag(tag.toString()) + " is not supported: a scenario takes the"
                            + " core schema's values only (null, booleans, numbers, strings, sequences, maps)", "EINVAL");
                    return null;
                }
                if ("tag:yaml.org,2002:null".equals(tag)) { replace.put(at, nodes.nullNode()); continue; }
                boolean plainOrFloat = tag == null || "tag:yaml.org,2002:float".equals(tag.toString());
                if (plainOrFloat && (tok == tools.jackson.core.JsonToken.VALUE_NUMBER_FLOAT
                        || tok == tools.jackson.core.JsonToken.VALUE_STRING)) {
                    String v = p.getString();
                    boolean inf = CORE_INF.matcher(v).matches(), nan = CORE_NAN.matcher(v).matches();
                    long offset = p.currentTokenLocation().getCharOffset();
                    boolean plain = tok == tools.jackson.core.JsonToken.VALUE_NUMBER_FLOAT || tag != null
                            || (offset >= 0 && offset < text.length() && text.startsWith(v, (int) offset));
                    if ((inf || nan) && plain) {
                        c.add(at.toString(), inf ? "number out of range: " + v + " is infinite; every number field takes"
                                + " a finite number" : "not a number (" + v + "): every number field takes a finite number",
                                inf ? "ERANGE" : "EINVAL");
                        return null;
                    }
                }
                if (tok != tools.jackson.core.JsonToken.VALUE_STRING || tag != null) continue;
                String v = p.getString();
                boolean dec = CORE_DEC.matcher(v).matches();
                if (!CORE_NULL.matcher(v).matches() && !CORE_BOOL.matcher(v).matches() && !CORE_HEX.matcher(v).matches()
                        && !CORE_OCT.matcher(v).matches() && !dec) continue;
                long offset = p.currentTokenLocation().getCharOffset();
                if (offset < 0 || offset >= text.length() || !text.startsWith(v, (int) offset)) continue; // quoted or folded
                replace.put(at, CORE_NULL.matcher(v).matches() ? nodes.nullNode()
                        : CORE_BOOL.matcher(v).matches() ? nodes.booleanNode(v.charAt(0) == 't' || v.charAt(0) == 'T')
                        : dec ? integer(nodes, new java.math.BigInteger(v))
                        : integer(nodes, new java.math.BigInteger(v.substring(2), v.charAt(1) == 'x' ? 16 : 8)));
            }
        }
        return replace;
    }

    /** {@code tree} with the values of {@link #coreSchema} set at their pointers. */
    private static JsonNode apply(JsonNode tree, java.util.Map<tools.jackson.core.JsonPointer, JsonNode> replace) {
        for (var e : replace.entrySet()) {
            tools.jackson.core.JsonPointer ptr = e.getKey();
            if (ptr.matches()) return e.getValue(); // the whole document
            JsonNode parent = tree.at(ptr.head());
            String last = ptr.last().getMatchingProperty();
            if (parent instanceof tools.jackson.databind.node.ObjectNode o) o.set(last, e.getValue());
            else if (parent instanceof tools.jackson.databind.node.ArrayNode a) a.set(ptr.last().getMatchingIndex(), e.getValue());
        }
        return tree;
    }

    /** The node JSON gives the same number: int, long, then BigInteger. */
    private static JsonNode integer(tools.jackson.databind.node.JsonNodeFactory nodes, java.math.BigInteger v) {
        return v.bitLength() < 32 ? nodes.numberNode(v.intValue()) : v.bitLength() < 64 ? nodes.numberNode(v.longValue())
                : nodes.numberNode(v);
    }

    private static String shortTag(String tag) {
        return tag.startsWith("tag:yaml.org,2002:") ? "!!" + tag.substring("tag:yaml.org,2002:".length()) : "!" + tag;
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
     * The ids a body names a scenario by (an experiment's {@code scenario_id}, a run's {@code scenarioId}): their text
     * is checked by the id's own rule ({@link #idFault}) where the id is read, in one wording whatever the body's
     * syntax, and not here (a YAML run body refused the tab its JSON took: breaker 6 F1).
     */
    private static final java.util.Set<String> ID_POINTERS = java.util.Set.of("/scenario_id", "/scenarioId");

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
            // an id's text is checked where the id is read ({@link #idFault}): one rule in JSON and YAML
            String bad = ID_POINTERS.contains(ptr) ? null : badText(n.stringValue());
            if (bad != null) { c.add(ptr, label(ptr) + " " + bad, "EINVAL"); return false; }
            return true;
        }
        boolean ok = true;
        if (n.isObject()) {
            int i = 0;
            for (var e : n.properties()) {
                String bad = badText(e.getKey());
                if (bad != null) { c.add(ptr, "key number " + i + " " + bad, "EINVAL"); ok = false; }
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
     * What a string at {@code ptr} is called in a refusal: its key where that is a word ({@code name},
     * {@code cgroup}, {@code cpu.max}), as the name checks say it ({@code name contains a control character
     * (U+0009)} on every route, breaker 4 F9), else {@code string} (an array item, an odd key).
     */
    private static String label(String ptr) {
        // an arm's set names its key escaped (/arms/0/set/~1name): the key's last segment
        String token = ptr.substring(ptr.lastIndexOf('/') + 1).replace("~1", "/").replace("~0", "~");
        String key = token.substring(token.lastIndexOf('/') + 1);
        return key.matches("[A-Za-z][A-Za-z0-9_.]{0,39}") ? key : "string";
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

    /**
     * The one rule for the text of an id a body names (a run's {@code scenarioId}, an experiment's {@code scenario_id})
     * as for one in a path: ASCII spaces and tabs around it are a paste's and trimmed where it is resolved; any other
     * control character (Unicode Cc) or an unpaired surrogate is refused, in the same words on every route and in
     * every body syntax (breaker 6 F1, F12).
     *
     * @param key the body's key, which the refusal names
     * @param id  the id as typed
     * @return the refusal (errno EINVAL), such as {@code scenarioId holds a control character (U+000B); only ASCII
     *         spaces and tabs around an id are trimmed} or {@code scenarioId must not be empty} (nothing but those
     *         spaces and tabs), or null if the text is clean
     */
    public static String idFault(String key, String id) {
        String bad = idCharacterFault(id);
        if (bad == null) return isBlank(id) ? key + " must not be empty" : null;
        return key + " " + bad + ID_TRIMMED;
    }

    /** What every refusal of an id's character adds: the one leniency. */
    public static final String ID_TRIMMED = "; only ASCII spaces and tabs around an id are trimmed";

    /**
     * The first character no id holds, in an id as typed, once the ASCII spaces and tabs around it are trimmed: a
     * control character (Unicode Cc, a tab inside the id too: breaker 7 N7, it was "no such scenario" where U+000B
     * was EINVAL), an unpaired surrogate, or a character that shows as a space or as nothing (NBSP and the other
     * Unicode spaces, a byte order mark, ZWSP and the other format characters, U+2028, U+2029: breaker 7 N6, they
     * were echoed unnamed in a 404 or 422 ENOENT for an id that looked right). One rule for ids in paths, in bodies
     * and in the compare page's parameters.
     *
     * @return e.g. {@code holds a control character (U+0009)}, {@code holds U+00A0 NO-BREAK SPACE at character 17,
     *         which shows as a space or as nothing and is in no id}; null if there is none
     */
    public static String idCharacterFault(String id) {
        int from = 0;
        int to = id.length();
        while (from < to && (id.charAt(from) == ' ' || id.charAt(from) == '\t')) from++;
        while (to > from && (id.charAt(to - 1) == ' ' || id.charAt(to - 1) == '\t')) to--;
        String s = id.substring(from, to);
        String bad = badText(s);
        if (bad != null) return bad.replace("contains a control character", "holds a control character").replace("contains an", "holds an");
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            int type = Character.getType(cp);
            if ((type == Character.SPACE_SEPARATOR && cp != ' ') || type == Character.FORMAT
                    || type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR) {
                return "holds " + String.format("U+%04X", cp) + " " + Character.getName(cp) + " at character "
                        + (s.codePointCount(0, i) + 1) + ", which shows as a space or as nothing and is in no id";
            }
            i += Character.charCount(cp);
        }
        return null;
    }

    /**
     * An unknown key as a refusal names it: quoted, and, if it holds a character that shows as nothing or as a plain
     * space, which one and what YAML made of it (breaker 5 F13: {@code unknown key " x"} hid a U+2028 that YAML 1.2
     * reads as text, not as the line end it looks like), e.g. {@code " x" (U+2028 LINE SEPARATOR at character 1:
     * YAML 1.2 reads it as text, not as a line end)}.
     */
    public static String unknownKey(String key) {
        String lookAlike = lookAlike(key);
        return "unknown key \"" + key + "\"" + (lookAlike == null ? "" : " (" + lookAlike + ")");
    }

    /**
     * The first character of {@code s} that shows as nothing or as a plain space but is text to YAML 1.2 and JSON
     * (U+2028, U+2029, a byte order mark, NBSP and the other Unicode spaces, format characters), named with its place
     * and what YAML made of it, e.g. {@code U+00A0 NO-BREAK SPACE at character 5: no white space to YAML or JSON (only
     * space and tab are)}; null if there is none. A key, a value or a line that holds one looks right and is not
     * (breaker 5 F13, breaker 6 F2, F3).
     */
    public static String lookAlike(String s) {
        for (int i = 0; i < s.length(); ) {
            int cp = s.codePointAt(i);
            String what = invisibleWords(cp);
            if (what != null) {
                return String.format("U+%04X", cp) + " " + Character.getName(cp) + " at character "
                        + (s.codePointCount(0, i) + 1) + ": " + what;
            }
            i += Character.charCount(cp);
        }
        return null;
    }

    /** What YAML makes of a character that shows as nothing or as a space, or null for any other. */
    static String invisibleWords(int cp) {
        if (cp == 0x2028 || cp == 0x2029) return "YAML 1.2 reads it as text, not as a line end";
        if (cp == 0xFEFF) return "a byte order mark, which YAML takes only at the start of the text";
        if (cp == 0x09) return null;
        int type = Character.getType(cp);
        if (type == Character.SPACE_SEPARATOR && cp != ' ') return "no white space to YAML or JSON (only space and tab are)";
        if (type == Character.FORMAT) return "an invisible format character";
        return null;
    }

    /** @return whether ch is a C0 or C1 control character or DEL (Unicode category Cc) */
    public static boolean isControl(char ch) { return ch < 0x20 || (ch >= 0x7f && ch <= 0x9f); }
}
