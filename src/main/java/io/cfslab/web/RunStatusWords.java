package io.cfslab.web;

import io.cfslab.store.RunStatus;
import java.util.Locale;

/**
 * A finished run's status and its stored reason in one phrase, each said once (the pages' twin of
 * {@code outcome()} in {@code frontend/src/runstatus.ts}). A cancel's reason already names it ("cancelled by
 * request", "cancelled while queued"), so the word is not put before it again; any other reason follows the word
 * ("failed: max events exceeded (…)"); no reason gives the word alone.
 */
public final class RunStatusWords {
    private RunStatusWords() { }

    /** {@code cancelled by request}, {@code failed: max wall time exceeded (PT10M)}, {@code failed}. */
    public static String outcome(RunStatus status, String error) {
        String word = status.word();
        String why = error == null ? "" : error.strip();
        if (why.isEmpty()) return word;
        if (why.toLowerCase(Locale.ROOT).startsWith(word)) return why;
        return word + ": " + why;
    }
}
