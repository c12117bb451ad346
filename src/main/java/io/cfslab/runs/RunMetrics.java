package io.cfslab.runs;

import io.cfslab.store.RunRepository;
import io.cfslab.store.RunStatus;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.stereotype.Component;

/**
 * Micrometer meters of the run service (Prometheus names in brackets):
 * runs submitted [{@code cfslab_runs_submitted_total}], finished by status
 * [{@code cfslab_runs_finished_total{status}}], failed [{@code cfslab_runs_failed_total}], queue depth in
 * the database [{@code cfslab_runs_queued}], runs executing on this instance [{@code cfslab_runs_running}],
 * simulated events per wall second per run [{@code cfslab_simulation_events_per_second}] and run wall time
 * [{@code cfslab_run_wall_time_seconds}]. The queue depth is refreshed every 2 s off any request thread.
 */
@Component
public class RunMetrics implements DisposableBean {
    private final MeterRegistry registry;
    private final Counter submitted;
    private final Counter failed;
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicLong queued = new AtomicLong();
    private final DistributionSummary eventsPerSecond;
    private final Timer wallTime;
    private final ScheduledExecutorService refresher = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "cfslab-metrics");
        t.setDaemon(true);
        return t;
    });

    public RunMetrics(MeterRegistry registry, RunRepository runs) {
        this.registry = registry;
        submitted = Counter.builder("cfslab.runs.submitted").description("runs accepted").register(registry);
        failed = Counter.builder("cfslab.runs.failed").description("runs ended as failed").register(registry);
        Gauge.builder("cfslab.runs.queued", queued, AtomicLong::get).description("runs waiting in the database")
                .register(registry);
        Gauge.builder("cfslab.runs.running", running, AtomicInteger::get)
                .description("runs executing on this instance").register(registry);
        eventsPerSecond = DistributionSummary.builder("cfslab.simulation.events.per.second")
                .description("simulated events per wall-clock second, per run").register(registry);
        wallTime = Timer.builder("cfslab.run.wall.time").description("wall time of a run's execution")
                .register(registry);
        refresher.scheduleWithFixedDelay(() -> {
            try {
                queued.set(runs.count(RunStatus.QUEUED));
            } catch (RuntimeException e) {
                // database briefly unavailable: keep the last value
            }
        }, 0, 2, TimeUnit.SECONDS);
    }

    void submitted() { submitted.increment(); }

    void started() { running.incrementAndGet(); }

    /** An execution on this instance ended (in any way, including re-queue). */
    void stopped() { running.decrementAndGet(); }

    /** A run reached a final status; {@code events} and {@code wallMs} describe its execution. */
    void finished(RunStatus status, long events, long wallMs) {
        Counter.builder("cfslab.runs.finished").tag("status", status.word()).register(registry).increment();
        if (status == RunStatus.FAILED) failed.increment();
        if (wallMs > 0) {
            wallTime.record(Duration.ofMillis(wallMs));
            eventsPerSecond.record(events * 1000.0 / wallMs);
        }
    }

    /** Runs executing on this instance now. */
    public int running() { return running.get(); }

    @Override
    public void destroy() { refresher.shutdownNow(); }
}
