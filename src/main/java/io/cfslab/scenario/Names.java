package io.cfslab.scenario;

import java.nio.charset.StandardCharsets;
import java.text.Normalizer;

/**
 * Rules shared by the names people give (scenario, task, experiment and arm names): what makes two names look the
 * same, and how long a name is for each limit.
 *
 * <p>Look-alikes are refused by Unicode property, not by a list of examples (ICU's Default_Ignorable_Code_Point is
 * not available here, so it is rebuilt from {@link Character}'s properties): a format character (category Cf: zero
 * width space/joiners, bidi controls, the BOM, soft hyphen, word joiner, invisible operators, tag characters), the
 * other default-ignorable code points (combining grapheme joiner U+034F, Hangul fillers U+115F, U+1160, U+3164, U+FFA0,
 * Khmer U+17B4/U+17B5, Mongolian U+180B–U+180F, variation selectors U+FE00–U+FE0F and U+E0100–U+E01EF), a private-use
 * character (Co: no agreed glyph), and white space other than the plain space (Zs, Zl, Zp: a no-break space looks
 * like a space). {@code "web\u200B"} and {@code "web"} would be two tasks that print alike. A word mixing Latin, Greek
 * and Cyrillic letters ({@code "wеb"} with a Cyrillic {@code е}) is refused too ({@link #mixedScriptWord}).
 *
 * <p>Lengths count what each limit is about: bytes of UTF-8 for the kernel's names (NAME_MAX, 255 bytes: a cgroup
 * directory; the API's task names follow it), characters (Unicode code points) for stored texts, whose columns are
 * wide enough for that many characters in both databases (H2 counts UTF-16 units, PostgreSQL code points: Flyway V10).
 */
public final class Names {
    private Names() {}

    /** The kernel's NAME_MAX, bytes. */
    public static final int NAME_MAX_BYTES = 255;

    /** @return the length of {@code s} in UTF-8 bytes */
    public static int bytes(String s) { return s.getBytes(StandardCharsets.UTF_8).length; }

    /** @return the length of {@code s} in characters (Unicode code points, what a person counts) */
    public static int characters(String s) { return s.codePointCount(0, s.length()); }

    /**
     * Why {@code name} has a character that is invisible or looks like another, or null if it has none.
     *
     * @param name a name (control characters are refused before, {@link ScenarioText#badText})
     * @return e.g. {@code contains an invisible character U+200B (format character, Cf)}
     */
    public static String invisible(String name) {
        // a control character (a tab too) in the words every text check uses, whichever check meets it first:
        // the scenario body's own check (ScenarioText) or this one (breaker 4 F9: a tab was "white space other than a
        // plain space" in a JSON body and "a control character" in YAML)
        String control = ScenarioText.badText(name);
        if (control != null) return control;
        for (int i = 0; i < name.length(); ) {
            int cp = name.codePointAt(i);
            String why = invisibleKind(cp);
            if (why != null) {
                // the code point in parentheses, named (breaker 7 N13: "a plain space U+00A0" read as if U+00A0 were it)
                return "contains " + why + " (U+" + String.format("%04X", cp) + " " + Character.getName(cp)
                        + "): two names that look the same would name different things";
            }
            i += Character.charCount(cp);
        }
        String mixed = mixedScriptWord(name);
        if (mixed != null) {
            return "contains the word \"" + mixed + "\", which mixes " + scriptsOf(mixed) + " letters (Latin, Greek and"
                    + " Cyrillic have letters that look alike: write each word in one script): two names that look the"
                    + " same would name different things";
        }
        return null;
    }

    /**
     * The first word of {@code name} (a run of letters and marks) with letters of more than one of Latin, Greek and
     * Cyrillic, or null: {@code "wеb"} with a Cyrillic {@code е} (U+0435) prints as {@code "web"}. The three scripts
     * that share look-alike letters (UTS #39's confusables between them); a word of one script is allowed, whichever
     * (so {@code "веб"}, {@code "αβ"}), and so are words of different scripts side by side ({@code "web сервер"}), as
     * is any other script with Latin ({@code "web日本"}). A word written wholly in another script that happens to look
     * Latin ({@code "асе"}, all Cyrillic) is not refused: telling it from {@code "ace"} needs Unicode's confusables
     * table.
     */
    public static String mixedScriptWord(String name) {
        int start = 0;
        int scripts = 0;
        for (int i = 0; i <= name.length(); ) {
            int cp = i < name.length() ? name.codePointAt(i) : ' ';
            if (Character.isLetter(cp) || Character.getType(cp) == Character.NON_SPACING_MARK) {
                Character.UnicodeScript s = Character.UnicodeScript.of(cp);
                if (s == Character.UnicodeScript.LATIN) scripts |= 1;
                else if (s == Character.UnicodeScript.GREEK) scripts |= 2;
                else if (s == Character.UnicodeScript.CYRILLIC) scripts |= 4;
            } else {
                if (Integer.bitCount(scripts) > 1) return name.substring(start, i);
                scripts = 0;
                start = i + Character.charCount(cp);
            }
            i += Character.charCount(cp);
        }
        return null;
    }

    /** The scripts of a mixed word's letters, as {@code Latin and Cyrillic}. */
    private static String scriptsOf(String word) {
        java.util.List<String> names = new java.util.ArrayList<>();
        for (Character.UnicodeScript s : new Character.UnicodeScript[] {Character.UnicodeScript.LATIN,
                Character.UnicodeScript.GREEK, Character.UnicodeScript.CYRILLIC}) {
            if (word.codePoints().anyMatch(cp -> Character.isLetter(cp) && Character.UnicodeScript.of(cp) == s)) {
                names.add(s.name().charAt(0) + s.name().substring(1).toLowerCase(java.util.Locale.ROOT));
            }
        }
        return String.join(" and ", names);
    }

    /** The kind of an invisible or look-alike code point, or null. */
    public static String invisibleKind(int cp) {
        int type = Character.getType(cp);
        if (type == Character.FORMAT) return "an invisible format character (Cf)";
        if (type == Character.PRIVATE_USE) return "a private-use character (Co)";
        if (cp == 0x034F || cp == 0x115F || cp == 0x1160 || cp == 0x17B4 || cp == 0x17B5 || (cp >= 0x180B && cp <= 0x180F)
                || cp == 0x3164 || cp == 0xFFA0 || (cp >= 0xFE00 && cp <= 0xFE0F) || (cp >= 0xE0100 && cp <= 0xE01EF)) {
            return "a default-ignorable character";
        }
        if (cp != ' ' && (type == Character.SPACE_SEPARATOR || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR || Character.isWhitespace(cp))) {
            return "white space other than a plain space";
        }
        return null;
    }

    /**
     * Why a scenario's, experiment's or arm's name cannot be a name by its ends, or null: empty or only white space
     * (a list showing it has nothing to click), or white space at either end (two names that look the same). The
     * default name applies only where the key is absent.
     */
    public static String blankOrPadded(String name) {
        if (name.isBlank()) return "must not be empty";
        if (!name.equals(name.strip())) return "must not begin or end with white space";
        return null;
    }

    /**
     * Longest scenario name, characters (Unicode code points; columns {@code scenario.name}, {@code run.scenario_name},
     * wide enough for it in H2's UTF-16 units since Flyway V10).
     */
    public static final int MAX_NAME_CHARS = 500;

    /**
     * Why a scenario's {@code name} cannot be one, as a problem at {@code pointer}, or null: the one rule of the
     * parser ({@code ScenarioParser}), so the API and the CLI ({@code simulate}, {@code bench}, an experiment's
     * inline scenario) refuse the same names with the same pointer and errno (breaker 5 F4). A control character
     * first (as the body's text check, {@link ScenarioText#badText}, meets it), then empty or padded
     * ({@link #blankOrPadded}), longer than {@value #MAX_NAME_CHARS} characters ({@code ENAMETOOLONG}), invisible
     * characters ({@link #invisible}).
     */
    public static Problem scenarioNameProblem(String pointer, String name) {
        String bad = ScenarioText.badText(name);
        if (bad == null) bad = blankOrPadded(name);
        if (bad == null && characters(name) > MAX_NAME_CHARS) {
            return new Problem(pointer, "name of " + characters(name) + " characters (Unicode code points) exceeds the"
                    + " limit of " + MAX_NAME_CHARS, "ENAMETOOLONG");
        }
        if (bad == null) bad = invisible(name);
        return bad == null ? null : new Problem(pointer, "name " + bad, "EINVAL");
    }

    /**
     * Why an identifier (a task name: it is looked up and put in URLs) is not in Unicode NFC, or null: {@code "é"} as
     * e + U+0301 and as U+00E9 look the same and would be two tasks.
     */
    public static String notNfc(String name) {
        return Normalizer.isNormalized(name, Normalizer.Form.NFC) ? null
                : "is not in Unicode NFC (write it as " + Normalizer.normalize(name, Normalizer.Form.NFC)
                        + " composed: two spellings that look the same would name different tasks)";
    }
}
