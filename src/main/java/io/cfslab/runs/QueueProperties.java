package io.cfslab.runs;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code cfslab.runs.queue.*}: how many runs may wait at once, so that nobody can fill the queue (and the
 * database: each queued run holds its scenario) faster than the workers empty it.
 *
 * @param max          queued runs in all (status {@code queued}, every client); more is refused with 429
 * @param maxPerClient queued runs of one client (the token holder with a token, else the whole local service:
 *                     io.cfslab.api.RunClients), so one client cannot take the whole
 *                     queue from the others; 0 or less = only {@code max} applies
 * @param retryAfter   the {@code Retry-After} of a refusal
 */
@ConfigurationProperties("cfslab.runs.queue")
public record QueueProperties(int max, int maxPerClient, Duration retryAfter) {
    public QueueProperties {
        if (max <= 0) max = 200;
        if (retryAfter == null || retryAfter.isNegative() || retryAfter.isZero()) retryAfter = Duration.ofSeconds(30);
    }
}
