package io.cfslab.runs;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code cfslab.retention.*}: how long finished runs are kept (issues 12 and 13: a 384-CPU run stores some 3.7 MB per
 * repeat, so the database grew to 242 MB after about 80 large runs). {@link RunRetention} deletes the finished runs
 * ({@code done}, {@code failed}, {@code cancelled}) that belong to no experiment and are older than {@code maxAge} or
 * beyond the newest {@code maxRuns}, with their results. A queued or running run and every run of an experiment are
 * never deleted by it (an experiment's runs go when the experiment is deleted).
 *
 * @param maxAge   finished runs whose end is older than this are deleted; 0 = no age limit (default 30 days)
 * @param maxRuns  at most this many finished standalone runs are kept, the newest by end; 0 = no count limit
 *                 (default 1000)
 * @param interval how often the limits are applied (also once at start-up); default 1 hour
 */
@ConfigurationProperties("cfslab.retention")
public record RetentionProperties(Duration maxAge, Integer maxRuns, Duration interval) {
    /** Default of {@code cfslab.retention.max-age}. */
    public static final Duration DEFAULT_MAX_AGE = Duration.ofDays(30);
    /** Default of {@code cfslab.retention.max-runs}. */
    public static final int DEFAULT_MAX_RUNS = 1000;

    public RetentionProperties {
        if (maxAge == null) maxAge = DEFAULT_MAX_AGE;
        if (maxAge.isNegative()) throw new IllegalArgumentException("cfslab.retention.max-age is negative: " + maxAge);
        if (maxRuns == null) maxRuns = DEFAULT_MAX_RUNS;
        if (maxRuns < 0) throw new IllegalArgumentException("cfslab.retention.max-runs is " + maxRuns + "; 0 or more");
        if (interval == null || interval.isZero() || interval.isNegative()) interval = Duration.ofHours(1);
    }

    /** True if neither limit applies. */
    public boolean keepsEverything() { return maxAge.isZero() && maxRuns == 0; }
}
