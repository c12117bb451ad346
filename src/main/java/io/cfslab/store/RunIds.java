package io.cfslab.store;

import java.util.List;
import java.util.Locale;

/**
 * A run id as a person types it: the full id, or a unique prefix of at least {@link #MIN_PREFIX} hex digits (the
 * pages show 8, {@code 94a7cdbf}), resolved the way git resolves an abbreviated commit: one match is that run, none
 * is unknown (404), more than one is ambiguous (409, naming the matches) and never a guess.
 */
public final class RunIds {
    /** The shortest prefix resolved: the 8 characters the pages show. */
    public static final int MIN_PREFIX = 8;
    /** How many matches an ambiguous prefix names. */
    static final int SHOWN_MATCHES = 5;

    private RunIds() {}

    /** What {@code typed} names: {@code ids} holds one id (resolved), none, or several (ambiguous). */
    public record Resolution(String typed, List<String> ids) {
        public boolean unique() { return ids.size() == 1; }
        public boolean ambiguous() { return ids.size() > 1; }
        /** The one id, or null. */
        public String id() { return unique() ? ids.get(0) : null; }
        /** The sentence an ambiguous prefix gets: {@code run id 94a7cdbf is ambiguous: it starts 2 runs (94a7cdbf-…, …)}. */
        public String ambiguity() {
            return "run id " + typed + " is ambiguous: it starts " + (ids.size() > SHOWN_MATCHES ? "more than " + SHOWN_MATCHES : ids.size())
                    + " runs (" + String.join(", ", ids.subList(0, Math.min(ids.size(), SHOWN_MATCHES))) + "); type more of it";
        }
    }

    /**
     * Why no run answers to {@code typed}: a hex id shorter than {@link #MIN_PREFIX} digits is too short to be looked
     * up (it is not a missing run), anything else is deleted or mistyped.
     */
    public static String whyNone(String typed) {
        String hex = typed.trim().replace("-", "");
        return !hex.isEmpty() && hex.length() < MIN_PREFIX && hex.toLowerCase(Locale.ROOT).matches("[0-9a-f]+")
                ? "a short id needs at least " + MIN_PREFIX + " hex digits, as the pages show it"
                : "deleted, or a mistyped id";
    }

    /** Whether {@code typed} is long enough and hex enough to be looked up as a prefix. */
    public static boolean isPrefix(String typed) {
        String hex = typed.replace("-", "");
        return hex.length() >= MIN_PREFIX && hex.toLowerCase(Locale.ROOT).matches("[0-9a-f]+");
    }

    /** {@code typed} resolved against {@code runs}: an exact id first, then a prefix (see the class comment). */
    public static Resolution resolve(RunRepository runs, String typed) {
        String t = typed.trim();
        if (runs.findStatus(t).isPresent()) return new Resolution(t, List.of(t));
        if (!isPrefix(t)) return new Resolution(t, List.of());
        return new Resolution(t, runs.idsStartingWith(t, SHOWN_MATCHES + 1));
    }
}
