package io.cfslab.runs;

import io.cfslab.store.RunRepository;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * Applies {@link RetentionProperties} at start-up and every {@code cfslab.retention.interval}: deletes finished
 * standalone runs older than {@code max-age} and those beyond the newest {@code max-runs}, with their results. Every
 * instance sharing a database may do it (the deletes are idempotent and re-check that a run is finished). Runs of an
 * experiment, queued and running runs are never deleted here.
 */
@Component
@EnableConfigurationProperties(RetentionProperties.class)
public class RunRetention implements SmartLifecycle {
    private static final Logger log = LoggerFactory.getLogger(RunRetention.class);
    /** Runs deleted per query, so that one pass never holds a long transaction. */
    private static final int BATCH = 200;

    private final RunRepository runs;
    private final RetentionProperties props;
    private final Clock clock;
    private ScheduledExecutorService timer;

    @Autowired
    public RunRetention(RunRepository runs, RetentionProperties props) {
        this(runs, props, Clock.systemUTC());
    }

    RunRetention(RunRepository runs, RetentionProperties props, Clock clock) {
        this.runs = runs;
        this.props = props;
        this.clock = clock;
    }

    /**
     * One pass of both limits.
     *
     * @return the runs deleted
     */
    public int apply() {
        if (props.keepsEverything()) return 0;
        int deleted = 0;
        if (!props.maxAge().isZero()) {
            Instant before = clock.instant().minus(props.maxAge());
            deleted += deleteAll(() -> runs.finishedStandaloneBefore(before, BATCH));
        }
        if (props.maxRuns() > 0) deleted += deleteAll(() -> runs.finishedStandaloneBeyond(props.maxRuns(), BATCH));
        if (deleted > 0) {
            log.info("retention: deleted {} finished run(s) (cfslab.retention.max-age={}, max-runs={})", deleted,
                    props.maxAge(), props.maxRuns());
        }
        return deleted;
    }

    private int deleteAll(java.util.function.Supplier<List<String>> batch) {
        int n = 0;
        for (List<String> ids = batch.get(); !ids.isEmpty(); ids = batch.get()) {
            int before = n;
            for (String id : ids) if (runs.deleteFinished(id)) n++;
            if (n == before) break; // nothing deletable left in this batch (e.g. deleted meanwhile elsewhere)
        }
        return n;
    }

    @Override
    public void start() {
        if (props.keepsEverything()) return;
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cfslab-retention");
            t.setDaemon(true);
            return t;
        });
        long every = props.interval().toMillis();
        timer.scheduleWithFixedDelay(() -> {
            try {
                apply();
            } catch (RuntimeException e) {
                log.warn("retention pass failed (next in {}): {}", props.interval(), e.toString());
            }
        }, 0, every, TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        if (timer != null) timer.shutdownNow();
        timer = null;
    }

    @Override
    public boolean isRunning() { return timer != null; }
}
