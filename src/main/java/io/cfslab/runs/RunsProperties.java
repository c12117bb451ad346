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
 * @param workerName        this instance's name in the queue (at most 200 characters), unique among the instances
 *                          that share a database and the same across its restarts: an instance re-queues the runs
 *                          that were executing under its name when it starts (they died with its previous process).
 *                          Blank = the host name and {@code server.port} ({@code host:8080}), or, with a random port,
 *                          the host name, pid and a random suffix (then a crash is noticed by the missed heartbeats)
 * @param nice              Linux nice value of the simulation threads (1..19, lower priority than the web server's
 *                          threads at 0), so that requests are answered at once while simulations run; 0 = unchanged
 *                          ({@link ThreadNice})
 * @param maxAttempts       a run whose instance died (crash, kill -9, out of memory) during this many of its attempts
 *                          ends {@code failed} instead of being re-queued again; a graceful stop re-queues it without
 *                          counting (at least 1)
 * @param maxPaced          paced runs (a run request's {@code pace}) queued or executing at once, in all: a paced run
 *                          holds a simulation thread while it mostly waits for the wall clock (up to
 *                          {@code max-wall-time}), so they must not take every thread. Absent or -1: the simulation
 *                          threads less one, at least 1, so that at least one thread is always left to runs at full
 *                          speed when there are two or more; 0: no limit. Beyond it a paced run is refused with 429
 *                          and {@code Retry-After} ({@link #pacedLimit()})
 */
@ConfigurationProperties("cfslab.runs")
public record RunsProperties(int poolSize, Duration maxWallTime, long maxEvents, Duration pollInterval,
                             Duration heartbeatInterval, int missedHeartbeats, Duration progressInterval,
                             Boolean execute, String workerName, Integer nice, Integer maxAttempts, Integer maxPaced) {

    public RunsProperties {
        if (maxWallTime == null) maxWallTime = Duration.ofMinutes(10);
        if (maxEvents <= 0) maxEvents = 2_000_000_000L;
        if (pollInterval == null) pollInterval = Duration.ofSeconds(1);
        if (heartbeatInterval == null) heartbeatInterval = Duration.ofSeconds(5);
        if (missedHeartbeats <= 0) missedHeartbeats = 6;
        if (missedHeartbeats < 4) missedHeartbeats = 4; // db-scheduler's minimum
        if (progressInterval == null) progressInterval = Duration.ofMillis(250);
        if (execute == null) execute = true;
        if (nice == null) nice = DEFAULT_NICE;
        if (nice < 0 || nice > 19) {
            throw new IllegalArgumentException("cfslab.runs.nice is " + nice + "; give 0 (unchanged) to 19");
        }
        if (maxAttempts == null) maxAttempts = DEFAULT_MAX_ATTEMPTS;
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("cfslab.runs.max-attempts is " + maxAttempts + "; at least 1");
        }
        if (maxPaced == null) maxPaced = -1;
        if (maxPaced < -1) {
            throw new IllegalArgumentException("cfslab.runs.max-paced is " + maxPaced + "; give -1 (default), 0 (no limit)"
                    + " or a number of runs");
        }
        if (workerName != null && workerName.length() > 200) { // columns run.worker, scheduled_tasks.picked_by
            throw new IllegalArgumentException("cfslab.runs.worker-name has " + workerName.length()
                    + " characters; at most 200");
        }
    }

    /** Default of {@code cfslab.runs.nice}. */
    public static final int DEFAULT_NICE = 10;
    /** Default of {@code cfslab.runs.max-attempts}. */
    public static final int DEFAULT_MAX_ATTEMPTS = 3;

    /** Paced runs allowed queued or executing at once, or 0 for no limit ({@code maxPaced}). */
    public int pacedLimit() { return maxPaced >= 0 ? maxPaced : Math.max(1, threads() - 1); }

    /** The effective number of simulation threads (&ge; 1). */
    public int threads() { return poolSize > 0 ? poolSize : Runtime.getRuntime().availableProcessors(); }
}
