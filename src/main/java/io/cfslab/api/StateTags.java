package io.cfslab.api;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The strong {@code ETag} of a run or an experiment (breaker5 F2 follow-up): the first 20 hex digits of the SHA-256
 * of its JSON representation as {@code GET} answers it, quoted. That representation is a function of the stored
 * state alone (no clock is read: {@code etaMs} comes from the stored progress and wall time), so the tag is the same
 * for the same stored state, on every instance, and changes whenever anything the client sees changes (status,
 * progress, a run of an experiment ending). A scenario's tag is its version instead ({@link ScenarioService#etag}).
 */
final class StateTags {
    private StateTags() {}

    /** @return the quoted tag of {@code representation} (a view map, written as {@code GET} writes it) */
    static String of(Object representation) {
        byte[] json = ScenarioDocs.JSON.writeValueAsString(representation).getBytes(StandardCharsets.UTF_8);
        try {
            return "\"" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(json)).substring(0, 20) + "\"";
        } catch (NoSuchAlgorithmException impossible) {
            throw new IllegalStateException("every JDK has SHA-256", impossible); // Java SE requires it
        }
    }
}
