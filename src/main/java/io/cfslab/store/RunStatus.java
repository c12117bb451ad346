package io.cfslab.store;

import java.util.Locale;

/** Lifecycle of a run: {@code queued → running → done | failed | cancelled} (running → queued on re-queue). */
public enum RunStatus {
    QUEUED, RUNNING, DONE, FAILED, CANCELLED;

    /** The lower-case word used in JSON and in the database. */
    public String word() { return name().toLowerCase(Locale.ROOT); }

    public boolean finished() { return this == DONE || this == FAILED || this == CANCELLED; }

    /** @throws IllegalArgumentException for an unknown word */
    public static RunStatus of(String word) { return valueOf(word.toUpperCase(Locale.ROOT)); }
}
