package io.cfslab.store;

import java.util.List;
import java.util.Locale;

/**
 * A run, experiment or scenario id as a person types it: the full id, or a unique prefix of at least
 * {@link #MIN_PREFIX} hex digits (the pages show 8, {@code 94a7cdbf}), resolved the way git resolves an abbreviated
 * commit: one match is that object, none is unknown (404), more than one is ambiguous (409, naming the matches) and
 * never a guess. One resolver for the three kinds ({@link #resolve(String, Store, String)}): the run, experiment and
 * scenario pages take the same forms (breaker 4 F8).
 */
public final class RunIds {
    /** The shortest prefix resolved: the 8 characters the pages show. */
    public static final int MIN_PREFIX = 8;
    /** How many matches an ambiguous prefix names. */
    static final int SHOWN_MATCHES = 5;

    private RunIds() {}

    /**
     * Where ids of one kind are stored: whether an id (in its stored form) exists, and the ids that start with a
     * prefix in its stored form ({@link #canonical}), in id order, at most {@code limit}.
     */
    public interface Store {
        boolean exists(String id);
        List<String> idsStartingWith(String canonicalPrefix, int limit);
    }

    /**
     * The ids of {@code table}'s rows (column {@code id}) that start with {@code prefix} in any form
     * {@link #canonical} takes; anything that is not hex digits and dashes matches nothing (no LIKE patterns).
     */
    public static List<String> idsStartingWith(org.springframework.jdbc.core.simple.JdbcClient jdbc, String table,
                                               String prefix, int limit) {
        if (hexDigits(prefix) == null) return List.of();
        String p = canonical(prefix); // the stored form: lower case, dashes where a UUID has them
        return jdbc.sql("select id from " + table + " where id like ? order by id limit ?").params(p + "%", limit)
                .query(String.class).list();
    }

    /**
     * What {@code typed} names: {@code ids} holds one id (resolved), none, or several (ambiguous); {@code noun} is
     * the kind ({@code run}, {@code experiment}, {@code scenario}).
     */
    public record Resolution(String noun, String typed, List<String> ids) {
        public boolean unique() { return ids.size() == 1; }
        public boolean ambiguous() { return ids.size() > 1; }
        /** The one id, or null. */
        public String id() { return unique() ? ids.get(0) : null; }
        /** The sentence an ambiguous prefix gets: {@code run id 94a7cdbf is ambiguous: it starts 2 runs (94a7cdbf-…, …)}. */
        public String ambiguity() {
            return noun + " id " + typed + " is ambiguous: it starts " + (ids.size() > SHOWN_MATCHES ? "more than " + SHOWN_MATCHES : ids.size())
                    + " " + noun + "s (" + String.join(", ", ids.subList(0, Math.min(ids.size(), SHOWN_MATCHES))) + "); type more of it";
        }
    }

    /**
     * Why no run answers to {@code typed}: a hex id shorter than {@link #MIN_PREFIX} digits is too short to be looked
     * up (it is not a missing run), anything else is deleted or mistyped.
     */
    public static String whyNone(String typed) {
        String hex = hexDigits(typed);
        return hex != null && !hex.isEmpty() && hex.length() < MIN_PREFIX
                ? "a short id needs at least " + MIN_PREFIX + " hex digits, as the pages show it"
                : "deleted, or a mistyped id";
    }

    /**
     * {@code typed} without the ASCII spaces and tabs around it, as a paste brings them (breaker 4 F8b): only those.
     * Java's {@code strip()} also took control characters (U+001F, U+000B) and some Unicode spaces (EM SPACE) but not
     * NBSP; a control character is refused where the path is read ({@code UuidPathFilter}), anything else names no id.
     */
    public static String trim(String typed) {
        int from = 0;
        int to = typed.length();
        while (from < to && (typed.charAt(from) == ' ' || typed.charAt(from) == '\t')) from++;
        while (to > from && (typed.charAt(to - 1) == ' ' || typed.charAt(to - 1) == '\t')) to--;
        return typed.substring(from, to);
    }

    /** Hex digits of a UUID, 32. */
    static final int UUID_DIGITS = 32;

    /**
     * The hex digits of an id as typed, lower case, without its dashes (RFC 9562: a UUID is case-insensitive on input;
     * the dashes are only where its fields end, so a dashless id or one pasted with stray dashes is the same id), white
     * space around it trimmed as a paste brings it; null if it holds anything else ({@code {…}}, spaces inside) or
     * more than 32 digits.
     */
    static String hexDigits(String typed) {
        if (typed == null) return null;
        String t = trim(typed);
        if (t.isEmpty() || !t.matches("[0-9A-Fa-f-]+")) return null;
        String hex = t.replace("-", "").toLowerCase(Locale.ROOT);
        return hex.length() > UUID_DIGITS ? null : hex;
    }

    /**
     * {@code typed} in the stored form of an id: lower case, dashes after hex digits 8, 12, 16 and 20, trimmed; a
     * prefix likewise as far as it goes ({@code E8619716B1EB} is {@code e8619716-b1eb}); anything else is returned
     * trimmed with its ASCII letters in lower case (breaker 5 F12): a ready-made scenario's or experiment's id is its
     * file name, lower case by construction ({@code ReadyMadeIdsTest}), so {@code E1-ONE-HOG-10PCT} names
     * {@code e1-one-hog-10pct} as an upper-case UUID names its run, on every route, page and body alike; an id
     * that names nothing stays one that names nothing.
     */
    public static String canonical(String typed) {
        String hex = hexDigits(typed);
        if (hex == null) return typed == null ? null : asciiLowerCase(trim(typed));
        StringBuilder b = new StringBuilder(36);
        for (int i = 0; i < hex.length(); i++) {
            if (i == 8 || i == 12 || i == 16 || i == 20) b.append('-');
            b.append(hex.charAt(i));
        }
        return b.toString();
    }

    /** {@code s} with A-Z as a-z and nothing else changed (no locale's rules: Turkish I, German sharp s). */
    static String asciiLowerCase(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            b.append(c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c);
        }
        return b.toString();
    }

    /** Whether {@code typed} is a whole UUID in any of the forms {@link #canonical} takes. */
    public static boolean isFullId(String typed) {
        String hex = hexDigits(typed);
        return hex != null && hex.length() == UUID_DIGITS;
    }

    /** Whether {@code typed} is long enough and hex enough to be looked up as a prefix. */
    public static boolean isPrefix(String typed) {
        String hex = hexDigits(typed);
        return hex != null && hex.length() >= MIN_PREFIX;
    }

    /** {@code typed} resolved against {@code runs}: an exact id first, then a prefix (see the class comment). */
    public static Resolution resolve(RunRepository runs, String typed) {
        return resolve("run", new Store() {
            @Override public boolean exists(String id) { return runs.findStatus(id).isPresent(); }
            @Override public List<String> idsStartingWith(String p, int limit) { return runs.idsStartingWith(p, limit); }
        }, typed);
    }

    /**
     * {@code typed} resolved against {@code store}: an exact id first (as typed, trimmed, then in its stored form:
     * a ready-made scenario's id is no UUID), then a prefix (see the class comment).
     */
    public static Resolution resolve(String noun, Store store, String typed) {
        String t = trim(typed);
        if (store.exists(t)) return new Resolution(noun, t, List.of(t));
        String id = canonical(t);
        if (!id.equals(t) && store.exists(id)) return new Resolution(noun, t, List.of(id));
        if (!isPrefix(t)) return new Resolution(noun, t, List.of());
        return new Resolution(noun, t, store.idsStartingWith(canonical(t), SHOWN_MATCHES + 1));
    }
}
