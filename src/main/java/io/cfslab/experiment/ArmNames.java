package io.cfslab.experiment;

import java.text.Normalizer;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Arm names as a reader of the experiment's tables tells them apart. An arm name heads a column of every table, names
 * a histogram series and is how a script picks an arm from the result, so two arms must not look alike:
 * <ul>
 *   <li>a name is kept in Unicode normalisation form C (NFC): {@code "é"} typed as e + U+0301 and as U+00E9 are one
 *       name, stored one way;</li>
 *   <li>invisible characters are refused: format characters (Unicode category Cf: U+200B zero-width space, U+200D
 *       joiner, U+FEFF, the bidirectional controls U+202A–U+202E and U+2066–U+2069, soft hyphen U+00AD, …), and
 *       whitespace other than the plain space, and leading or trailing spaces (control characters are refused before,
 *       as in every name: {@code ScenarioText.badText});</li>
 *   <li>a word that mixes Latin, Greek and Cyrillic letters is refused ({@code "bаse"} with a Cyrillic а): the
 *       common confusables, as Unicode's mixed-script check of identifiers (UTS #39, section 5) does; words in one
 *       script each, as in {@code "base β"}, are fine;</li>
 *   <li>two names are the same arm when they differ only by case, compatibility forms (NFKC: full-width letters,
 *       ligatures like {@code "ﬁ"}, superscripts) or runs of spaces: {@link #key}.</li>
 * </ul>
 */
public final class ArmNames {
    private ArmNames() {}

    /** @return the name in NFC, as it is stored and shown */
    public static String normalise(String name) {
        return Normalizer.normalize(name, Normalizer.Form.NFC);
    }

    /**
     * Why {@code name} (already free of control characters) cannot be an arm's name, or null if it can.
     *
     * @param name an arm name, in NFC ({@link #normalise})
     */
    public static String refusal(String name) {
        String ends = io.cfslab.scenario.Names.blankOrPadded(name);
        if (ends != null) return ends;
        for (int i = 0; i < name.length(); ) {
            int cp = name.codePointAt(i);
            if (io.cfslab.scenario.Names.invisibleKind(cp) != null) {
                // the names' one rule (format, default-ignorable, private-use, white space other than a space)
                return "contains " + io.cfslab.scenario.Names.invisibleKind(cp) + " (U+" + hex(cp) + " " + Character.getName(cp)
                        + "): two names that look the same would name different arms";
            }
            i += Character.charCount(cp);
        }
        String mixed = io.cfslab.scenario.Names.mixedScriptWord(name);
        if (mixed != null) {
            return "the word \"" + mixed + "\" mixes Latin, Greek and Cyrillic letters, which look alike; write each"
                    + " word in one script";
        }
        return null;
    }

    /**
     * The key under which two arm names are one: NFKC, case folded (upper then lower case, so that {@code "ß"} and
     * {@code "SS"} meet), runs of spaces as one.
     */
    public static String key(String name) {
        String k = Normalizer.normalize(name, Normalizer.Form.NFKC);
        k = k.toUpperCase(Locale.ROOT).toLowerCase(Locale.ROOT);
        k = Normalizer.normalize(k, Normalizer.Form.NFKC);
        return k.strip().replaceAll(" +", " ");
    }

    /** A name that says it is the base: the word "base" in it, in any case ("base", "Base", "base (cfs_rq)"; not "baseline"). */
    private static final Pattern SAYS_BASE = Pattern.compile("(?i)(?<![A-Za-z0-9_])base(?![A-Za-z0-9_])");

    /**
     * An arm's name as the tables label it (Markdown's arm list, the dashboard's arms: {@code armLabel} in
     * {@code frontend/src/pages/experiment.ts} is the same rule, and {@code ArmLabelsTest} holds both to it): the first
     * arm, the one every other arm is compared with, is marked {@code " (base)"}, unless its name already says base
     * ({@code "base (cfs_rq)"} is not "base (cfs_rq) (base)"); when another arm's name says base (arms {@code head},
     * {@code base}), the first is marked {@code " (the first arm)"}, as the text table's verdict line says it, so that
     * no table calls two arms base. Other arms are their names.
     *
     * @param arms the experiment's arm names, base first
     * @param index the arm's position in {@code arms}
     */
    public static String label(List<String> arms, int index) {
        String name = arms.get(index);
        if (index != 0 || saysBase(name)) return name;
        return name + (arms.stream().anyMatch(ArmNames::saysBase) ? " (the first arm)" : " (base)");
    }

    static boolean saysBase(String name) { return SAYS_BASE.matcher(name).find(); }

    private static String hex(int cp) { return String.format("%04X", cp); }
}
