package io.cfslab.scenario;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.TokenStreamLocation;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.exc.UnexpectedEndOfInputException;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.exc.MismatchedInputException;

/**
 * A JSON or YAML reader's refusal of a text, in the words of the person who wrote the text: where (line and column, 1
 * based) and what is wrong, e.g. {@code malformed YAML at line 4, column 1: a second document starts here ("---"): a
 * scenario is one document}.
 *
 * <p>The reason is always one of the sentences written here, filled in with positions and the writer's own characters;
 * no text of Jackson's, SnakeYAML's or the JDK's (an exception's message names Java classes and reader switches, e.g.
 * {@code DeserializationFeature.FAIL_ON_TRAILING_TOKENS}) is ever copied into it. The reader's message is only
 * inspected to choose the sentence; a refusal this class does not know gets the general one ({@code not valid JSON
 * here}). This is the only class outside the command line that reads a library exception's message
 * ({@code ArchitectureTest}), so no problem detail can carry one.
 *
 * <p>A number of more digits than the reader takes ({@value #MAX_DIGITS}) is a value problem, not a syntax one: the
 * problem names its JSON pointer with {@code ERANGE}, as a number beyond a double's range does.
 */
public final class SyntaxWords {
    private SyntaxWords() {}

    /** The most digits a number may have (Jackson's default {@code maxNumberLength}). */
    public static final int MAX_DIGITS = StreamReadConstraints.DEFAULT_MAX_NUM_LEN;
    /** The deepest nesting of arrays and objects (Jackson's default {@code maxNestingDepth}). */
    public static final int MAX_DEPTH = StreamReadConstraints.DEFAULT_MAX_DEPTH;
    /** The longest key, characters (Jackson's default {@code maxNameLength}). */
    public static final int MAX_KEY_CHARS = StreamReadConstraints.DEFAULT_MAX_NAME_LEN;

    /** The reason for a number of more than {@link #MAX_DIGITS} digits (at its pointer, {@code ERANGE}). */
    public static final String TOO_MANY_DIGITS = "number out of range: more than " + MAX_DIGITS
            + " digits, beyond every field's range (64-bit integers, 64-bit floating point)";

    /**
     * The problem {@code e} stands for.
     *
     * @param e      what the reader of {@code mapper} threw while reading {@code text}
     * @param text   the text read
     * @param mapper the reader (its format names the syntax: JSON or YAML)
     * @param yaml   true if {@code text} was read as YAML
     * @return a problem at pointer {@code ""} (the text is malformed; errno null), or at the pointer of a number of too
     *         many digits ({@code ERANGE})
     */
    public static Problem of(JacksonException e, String text, ObjectMapper mapper, boolean yaml) {
        String syntax = yaml ? "YAML" : "JSON";
        if (e instanceof StreamConstraintsException limit) {
            String m = message(limit);
            if (m.startsWith("Number value length")) {
                // a value out of range if the text is well-formed whatever its digits, else the text is malformed
                ObjectMapper anyDigits = yaml ? ANY_DIGITS_YAML : ANY_DIGITS_JSON;
                String at;
                try {
                    at = firstLongNumber(text, anyDigits);
                } catch (JacksonException malformed) {
                    return of(malformed, text, anyDigits, yaml);
                }
                if (at != null) return new Problem(at, TOO_MANY_DIGITS, "ERANGE");
            }
            // thrown without a location: read again, token by token, to where the reader stops
            Where w = whereLimitHit(text, mapper);
            return new Problem("", "malformed " + syntax + at(w == null ? null : w.line(), w == null ? null : w.column())
                    + ": " + limitWords(m), null);
        }
        Integer line = null, column = null;
        TokenStreamLocation loc = e.getLocation();
        if (loc != null && loc.getLineNr() > 0) { line = loc.getLineNr(); column = loc.getColumnNr(); }
        String what;
        int[] unprintable = yaml && e.getCause() instanceof org.snakeyaml.engine.v2.exceptions.ReaderException
                ? firstUnprintable(text) : null;
        if (unprintable != null) {
            // SnakeYAML's reader refuses the character before any token, with no mark (it was "line 1, column 1: not
            // valid YAML here" wherever the byte was, breaker 4 F10): where it is and which, as JSON's reader says
            line = unprintable[0];
            column = unprintable[1];
            what = character("code " + unprintable[2] + ")") + ", which YAML text cannot hold (its only control"
                    + " characters are tab and the line ends)";
        } else if (e.getCause() instanceof MarkedYamlEngineException y) {
            if (y.getProblemMark().isPresent()) {
                line = y.getProblemMark().get().getLine() + 1;
                column = y.getProblemMark().get().getColumn() + 1;
            }
            what = yamlWords(y);
        } else if (e instanceof UnexpectedEndOfInputException) {
            what = "the text ends before the value is complete (an object, array or string is not closed)";
        } else if (e instanceof MismatchedInputException && message(e).startsWith("Trailing token")) {
            what = yaml ? "a second document starts here (\"---\" or \"...\"): a body holds one document"
                    : "more text after the JSON value: a body holds one value";
        } else {
            what = yaml ? jacksonYamlWords(e) : jsonWords(e, text);
        }
        int[] lookAlike = yaml && unprintable == null ? firstLookAlike(text) : null;
        if (lookAlike != null && (line == null || lookAlike[0] < line || (lookAlike[0] == line && lookAlike[1] <= column))) {
            // a line holding U+2028, NBSP or an inner BOM looks right, and YAML 1.2 reads it as text: the reader stops
            // further on (the next line, the end), where nothing is wrong; name the character where it is
            // (breaker 6 F2: "line 3, column 1: a key without a ':' after it" for an NBSP alone on line 2)
            boolean here = line != null && lookAlike[0] == line && lookAlike[1] == column;
            return new Problem("", "malformed YAML" + at(lookAlike[0], lookAlike[1]) + ": "
                    + String.format(Locale.ROOT, "U+%04X", lookAlike[2]) + " " + Character.getName(lookAlike[2]) + ", "
                    + ScenarioText.invisibleWords(lookAlike[2]) + "; " + (here ? "here " : "")
                    + "the reader stopped" + (here || line == null ? "" : at(line, column)) + ": " + what, null);
        }
        return new Problem("", "malformed " + syntax + at(line, column) + ": " + what, null);
    }

    /**
     * The first character of {@code text} that shows as nothing or as a space but is text to YAML 1.2
     * ({@link ScenarioText#lookAlike}; a byte order mark at the very start is the encoding's, not text), as {line,
     * column, code point}, counted as {@link #firstUnprintable} counts; null if there is none.
     */
    static int[] firstLookAlike(String text) {
        int line = 1, column = 1;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (ScenarioText.invisibleWords(cp) != null && !(i == 0 && cp == 0xFEFF)) return new int[] {line, column, cp};
            i += Character.charCount(cp);
            if (cp == '\n' || (cp == '\r' && (i >= text.length() || text.charAt(i) != '\n'))) { line++; column = 1; }
            else column++;
        }
        return null;
    }

    /**
     * The first character of {@code text} outside YAML 1.2's {@code c-printable} set (5.1: tab, line feed, carriage
     * return, U+0020–U+007E, U+0085, U+00A0–U+D7FF, U+E000–U+FFFD, U+10000 up; an unpaired surrogate is none), as
     * {line, column, code point}, 1-based, the column counted in characters (code points) as the readers count;
     * null if there is none.
     */
    static int[] firstUnprintable(String text) {
        int line = 1, column = 1;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            boolean printable = cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0x7E) || cp == 0x85
                    || (cp >= 0xA0 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) || cp >= 0x10000;
            if (!printable) return new int[] {line, column, cp};
            i += Character.charCount(cp);
            if (cp == '\n' || (cp == '\r' && (i >= text.length() || text.charAt(i) != '\n'))) { line++; column = 1; }
            else column++;
        }
        return null;
    }

    /**
     * The refusal of a NEL (U+0085) in a YAML text, or null if it holds none (breaker 5 F13: at a line's start it was
     * "a ':' where no key can start"; after a value the text was read as if the line ended there). YAML 1.1 made NEL
     * a line break; YAML 1.2, which bodies follow, reads it as an ordinary printable character, and SnakeYAML's reader
     * takes it as a break in some places and as text in others. A scenario holds no control character (Cc) in any
     * string either ({@link ScenarioText#badText}), so it is refused wherever it is, named at its line and column
     * (lines end at line feeds and carriage returns only, as YAML 1.2 counts them), before anything is read.
     */
    public static String nelIn(String text) {
        int line = 1, column = 1;
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            if (cp == 0x85) {
                return "malformed YAML" + at(line, column) + ": a NEL character (U+0085), a control character: YAML 1.2"
                        + " reads it as text, not as the line end YAML 1.1 made it, and no key or value here may hold"
                        + " it; end the line with a line feed";
            }
            i += Character.charCount(cp);
            if (cp == '\n' || (cp == '\r' && (i >= text.length() || text.charAt(i) != '\n'))) { line++; column = 1; }
            else column++;
        }
        return null;
    }

    private static String at(Integer line, Integer column) {
        return line == null ? "" : " at line " + line + ", column " + column;
    }

    /** Jackson's own message, only ever inspected (never shown); "" if there is none. */
    private static String message(JacksonException e) {
        return e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
    }

    private static final StreamReadConstraints ANY_LENGTH = StreamReadConstraints.builder()
            .maxNumberLength(Integer.MAX_VALUE).build();
    /** Readers that take numbers of any length (tokenizing, never converting them: linear time). */
    private static final ObjectMapper ANY_DIGITS_JSON = tools.jackson.databind.json.JsonMapper.builder(
            tools.jackson.core.json.JsonFactory.builder().streamReadConstraints(ANY_LENGTH).build())
            .enable(tools.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    private static final ObjectMapper ANY_DIGITS_YAML = tools.jackson.dataformat.yaml.YAMLMapper.builder(
            tools.jackson.dataformat.yaml.YAMLFactory.builder().streamReadConstraints(ANY_LENGTH).build())
            .enable(tools.jackson.core.StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    /**
     * The pointer of the first number of more than {@link #MAX_DIGITS} digits, or null.
     *
     * @throws JacksonException if the text is malformed for another reason
     */
    private static String firstLongNumber(String text, ObjectMapper anyDigits) {
        String first = null;
        try (JsonParser p = anyDigits.createParser(text)) {
            for (var t = p.nextToken(); t != null; t = p.nextToken()) {
                if (first == null && t.isNumeric() && p.getString().length() > MAX_DIGITS) {
                    first = p.streamReadContext().pathAsPointer().toString();
                }
            }
        }
        return first;
    }

    private record Where(int line, int column, String pointer) {}

    /** Where a streaming read of {@code text} stops on a reader limit; null if it does not stop there. */
    private static Where whereLimitHit(String text, ObjectMapper mapper) {
        try (JsonParser p = mapper.createParser(text)) {
            try {
                while (p.nextToken() != null) {
                    if (p.currentToken().isNumeric()) p.getNumberValue(); // the digits' limit is checked on conversion
                }
                return null;
            } catch (StreamConstraintsException hit) {
                TokenStreamLocation l = p.currentLocation();
                return new Where(l.getLineNr(), l.getColumnNr(), p.streamReadContext().pathAsPointer().toString());
            } catch (JacksonException other) {
                return null;
            }
        }
    }

    private static String limitWords(String m) {
        if (m.startsWith("Document nesting depth")) {
            return "arrays and objects nested more than " + MAX_DEPTH + " levels deep";
        }
        if (m.startsWith("Number value length")) return "a number of more than " + MAX_DIGITS + " digits";
        if (m.startsWith("Name length")) return "a key longer than " + MAX_KEY_CHARS + " characters";
        if (m.startsWith("String value length")) return "a string longer than the reader takes";
        return "the text exceeds a limit of the reader (size, nesting or length of a value)";
    }

    private static final Pattern CODE = Pattern.compile("code (\\d+)(?: / 0x[0-9a-fA-F]+)?\\)");
    private static final Pattern TOKEN = Pattern.compile("token '([^']{0,40})'");
    private static final Pattern PROPERTY = Pattern.compile("^Duplicate Object property \"");

    /** JSON's refusals (Jackson's {@code ReaderBasedJsonParser}), by kind. */
    private static String jsonWords(JacksonException e, String text) {
        String m = message(e);
        if (PROPERTY.matcher(m).find()) return duplicate(e);
        if (m.startsWith("Non-standard token")) {
            return "NaN and Infinity are not JSON numbers (every number field takes a finite number)";
        }
        if (m.startsWith("Unrecognized token")) {
            Matcher t = TOKEN.matcher(m);
            return (t.find() ? "unknown word '" + printable(t.group(1)) + "'" : "an unknown word")
                    + ": a value is a string in double quotes, a number, an object, an array, true, false or null";
        }
        if (m.contains("Leading zeroes")) return "a number starts with 0 (write 7, not 07)";
        if (m.startsWith("Unrecognized character escape")) {
            return "unknown escape in a string (JSON's escapes: \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX)";
        }
        if (m.startsWith("Unexpected close marker")) return "a closing bracket with nothing open to close";
        if (m.startsWith("Illegal unquoted character")) {
            return character(m) + " inside a string: write it escaped (\\n, \\t, \\uXXXX)";
        }
        if (m.startsWith("Illegal character")) {
            return character(m) + " between values: only spaces, tabs and line ends may separate them";
        }
        if (m.startsWith("Unexpected character")) {
            String c = character(m);
            if (m.contains("comment")) return "comments are not allowed in JSON";
            if (m.contains("plus sign")) return "a number starts with '+' (JSON numbers have no plus sign)";
            if (m.contains("in numeric value")) return c + " in a number: not a JSON number";
            if (m.contains("hex-digit")) return c + " in a \\u escape: it takes four hex digits";
            if (m.contains("double-quote to start property name")) {
                return c + " where a key should start: keys are strings in double quotes";
            }
            if (m.contains("colon")) return c + " where a ':' should follow the key";
            if (m.contains("comma")) return c + " where a ',' or the closing bracket should be";
            if (m.contains("valid value")) {
                return c + " where a value should start (a string in double quotes, a number, an object, an array,"
                        + " true, false or null)";
            }
            return c + " where it cannot be";
        }
        if (m.contains("surrogate") || m.contains("Invalid UTF")) return "a character that is not valid Unicode";
        return "not valid JSON here";
    }

    /** What Jackson's YAML layer refuses itself (not SnakeYAML): duplicate keys, keys that are not scalars. */
    private static String jacksonYamlWords(JacksonException e) {
        String m = message(e);
        if (PROPERTY.matcher(m).find()) return duplicate(e);
        if (m.startsWith("Expected a property name")) return "a key that is a list or a map: keys are plain values";
        if (m.startsWith("Malformed numeric value") || m.contains("numeric value")) {
            return "a value that looks like a number but is not one";
        }
        return "not valid YAML here";
    }

    /** SnakeYAML Engine's refusals, by kind (its {@code problem} and {@code context} texts). */
    private static String yamlWords(MarkedYamlEngineException y) {
        String problem = y.getProblem() == null ? "" : y.getProblem();
        String context = y.getContext() == null ? "" : y.getContext();
        String opened = y.getContextMark().map(k -> " (opened at line " + (k.getLine() + 1) + ", column "
                + (k.getColumn() + 1) + ")").orElse("");
        if (problem.startsWith("found character '\\t")) return "a tab where YAML takes spaces (indent with spaces)";
        if (problem.startsWith("found character")) {
            return "a character that cannot start a plain value ('@' and '`' are reserved): quote the value";
        }
        if (problem.startsWith("mapping values are not allowed")) {
            return "a ':' where no key can start: quote a value that holds \": \", or check the indentation";
        }
        if (problem.startsWith("could not find expected ':'")) return "a key without a ':' after it";
        if (problem.startsWith("found unexpected end of stream") && context.contains("quoted scalar")) {
            return "a quoted string that is never closed" + opened;
        }
        if (problem.startsWith("found unknown escape character") || problem.startsWith("expected escape sequence")) {
            return "unknown escape in a double-quoted string (YAML's escapes: \\\" \\\\ \\n \\t \\xXX \\uXXXX …)";
        }
        if (context.contains("flow sequence")) return "a '[' that is not closed by ']', or items not separated by ','"
                + opened;
        if (context.contains("flow mapping")) return "a '{' that is not closed by '}', or entries not separated by ','"
                + opened;
        if (context.contains("block collection") || context.contains("block mapping")
                || problem.startsWith("sequence entries are not allowed") || problem.startsWith("did not find expected")) {
            return "the indentation does not match: a list item and a key at one level, or a line indented"
                    + " differently from its siblings" + opened;
        }
        if (problem.startsWith("expected '<document start>'")) {
            return "more text after the end of the document: a body holds one document";
        }
        if (problem.startsWith("expected a single document") || problem.contains("another document")) {
            return "a second document starts here (\"---\"): a body holds one document";
        }
        if (problem.contains("directive") || context.contains("directive")) return "a %YAML or %TAG directive that is"
                + " repeated or not valid";
        if (context.contains("block scalar")) return "a block scalar ('|' or '>') with an indicator that is not valid";
        if (context.contains("tag") || context.contains("anchor") || context.contains("alias")) {
            return "a tag, anchor or alias that is not valid";
        }
        if (problem.contains("limit")) return "the text exceeds a limit of the reader";
        return "not valid YAML here";
    }

    private static String duplicate(JacksonException e) {
        String key = e.processor() instanceof JsonParser p ? p.currentName() : null;
        return key == null ? "a key given twice in one object"
                : "key \"" + printable(key) + "\" given twice in one object";
    }

    /** The character a message's {@code (code N)} names, as {@code 'x' (U+0078)}. */
    private static String character(String m) {
        Matcher c = CODE.matcher(m);
        if (!c.find()) return "a character";
        int cp = Integer.parseInt(c.group(1));
        String hex = String.format(Locale.ROOT, "U+%04X", cp);
        if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return "a control character (" + hex + ")";
        // a character that shows as nothing or as a space is named, not only shown (breaker 6 F3)
        return "'" + new String(Character.toChars(cp)) + "' (" + hex
                + (ScenarioText.invisibleWords(cp) != null ? " " + Character.getName(cp) : "") + ")";
    }

    /** At most 40 characters of the writer's own text, control characters escaped. */
    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().limit(40).forEach(cp -> {
            if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) b.append(String.format(Locale.ROOT, "\\u%04x", cp));
            else b.appendCodePoint(cp);
        });
        return b.toString();
    }
}
