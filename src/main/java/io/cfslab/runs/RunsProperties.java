package io.cfslab.runs;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code cfslab.runs.*}: the worker pool and the per-run guards.
 *
 * @param poolSize          simulation threads of this instance; 0 or less = available processors
 * @param maxWallTime       a run executing longer than this ends {@code failed}
 * @param maxEvents         a run processing more simulated events than this ends {@code failed}
 * @param pollInterval      how often this instance looks for due runs in the database
 * @param heartbeatInterval heartbeat of executing runs; a run whose instance stops beating is re-queued
 * @param missedHeartbeats  heartbeats missed before a run counts as dead and is executed again (at least 4)
 * @param progressInterval  how often a running run writes progress and reads its cancel flag
 * @param execute           false = this instance accepts runs but executes none (API-only instance)
 * @param workerName        this instance's name in the queue (at most 200 characters); blank = host name, pid and
 *                          a random suffix
 */
@ConfigurationProperties("cfslab.runs")
public record RunsProperties(int poolSize, Duration maxWallTime, long maxEvents, Duration pollInterval,
                             Duration heartbeatInterval, int missedHeartbeats, Duration progressInterval,
                             Boolean execute, String workerName) {

    public RunsProperties {
        if (maxWallTime == null) maxWallTime = Duration.ofMinutes(10);
        if (maxEvents <= 0) maxEvents = 2_000_000_000L;
        if (pollInterval == null) pollInterval = Duration.ofSeconds(1);
        if (heartbeatInterval == null) heartbeatInterval = Duration.ofSeconds(5);
        if (missedHeartbeats <= 0) missedHeartbeats = 6;
        if (missedHeartbeats < 4) missedHeartbeats = 4; // db-scheduler's minimum
        if (progressInterval == null) progressInterval = Duration.ofMillis(250);
        if (execute == null) execute = true;
        if (workerName != null && workerName.length() > 200) { // columns run.worker, scheduled_tasks.picked_by
            throw new IllegalArgumentException("cfslab.runs.worker-name has " + workerName.length()
                    + " characters; at most 200");
        }
    }

    /** The effective number of simulation threads (&ge; 1). */
    public int threads() { return poolSize > 0 ? poolSize : Runtime.getRuntime().availableProcessors(); }
}
