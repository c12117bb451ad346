package io.cfslab.runs;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code cfslab.live.*}: live streaming of runs ({@code GET /api/runs/{id}/events}).
 *
 * @param interval       at most one update of each kind per client this often; also how often an executing
 *                       run publishes a snapshot of its state (histograms, cgroups, distribute calls, CPUs)
 * @param keepAlive      a keep-alive SSE comment after this long without an event
 * @param dbPollInterval how often a stream reads the database for a run that does not execute on this
 *                       instance (queued, or executing on another instance)
 */
@ConfigurationProperties("cfslab.live")
public record LiveProperties(Duration interval, Duration keepAlive, Duration dbPollInterval) {

    public LiveProperties {
        if (interval == null || interval.isZero() || interval.isNegative()) interval = Duration.ofMillis(250);
        if (keepAlive == null || keepAlive.isZero() || keepAlive.isNegative()) keepAlive = Duration.ofSeconds(15);
        if (dbPollInterval == null || dbPollInterval.isZero() || dbPollInterval.isNegative()) {
            dbPollInterval = Duration.ofSeconds(1);
        }
    }
}
