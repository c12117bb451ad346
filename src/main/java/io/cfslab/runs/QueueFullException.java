package io.cfslab.runs;

import java.time.Duration;

/**
 * A run refused because the queue already holds {@link QueueProperties#max()} runs, or its client
 * {@link QueueProperties#maxPerClient()}, or (pointer {@code /pace}) because {@link RunsProperties#pacedLimit()} paced
 * runs are queued or executing.
 */
public class QueueFullException extends RuntimeException {
    private final Duration retryAfter;
    private final boolean perClient;

    QueueFullException(String message, Duration retryAfter, boolean perClient) {
        super(message, null, false, false);
        this.retryAfter = retryAfter;
        this.perClient = perClient;
    }

    /** @return how long the client should wait before trying again */
    public Duration retryAfter() { return retryAfter; }

    /** @return true if the client's own share was full (others may still submit) */
    public boolean perClient() { return perClient; }

    /** @return the JSON pointer of the request member at fault ({@code ""}: the request as a whole) */
    public String pointer() { return ""; }
}
