package io.cfslab.runs;

import io.cfslab.store.RunRepository;
import io.cfslab.store.RunStatus;
import io.cfslab.metrics.ResultJson;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
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
 *
 * <p>The simulated cgroup counters of the last {@value #EXPORTED_RUNS} finished runs (first
 * {@value #EXPORTED_CGROUPS} cgroups of each) are exported under cAdvisor's names so operators can reuse
 * their PromQL: {@code cfslab_cpu_cfs_periods_total{run,cgroup}} ({@code nr_periods}),
 * {@code cfslab_cpu_cfs_throttled_periods_total} ({@code nr_throttled}) and
 * {@code cfslab_cpu_cfs_throttled_seconds_total} ({@code throttled_usec} / 1e6).
 */
@Component
public class RunMetrics implements DisposableBean {
    /** Finished runs whose cgroup counters stay exported. */
    public static final int EXPORTED_RUNS = 20;
    /** Cgroups per run exported. */
    public static final int EXPORTED_CGROUPS = 256;
    private final Deque<List<Meter>> exported = new ArrayDeque<>();
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

    /**
     * Exports the cgroup counters of a finished run under cAdvisor-shaped names, dropping those of the
     * oldest exported run beyond {@value #EXPORTED_RUNS}.
     *
     * @param runId       the run
     * @param cgroupsJson the result's {@code cgroups} member ({@code {path: {"cpu.stat": {...}, ...}}},
     *                    {@link io.cfslab.store.ResultParts#cgroups()})
     */
    synchronized void exportCgroups(String runId, String cgroupsJson) {
        List<Meter> meters = new ArrayList<>();
        JsonNode groups = ResultJson.mapper().readTree(cgroupsJson);
        int n = 0;
        for (Map.Entry<String, JsonNode> e : groups.properties()) {
            if (n++ >= EXPORTED_CGROUPS) break;
            JsonNode st = e.getValue().path("cpu.stat");
            Tags tags = Tags.of("run", runId, "cgroup", e.getKey());
            meters.add(counter("cfslab.cpu.cfs.periods", "simulated nr_periods", tags, st.path("nr_periods").asDouble()));
            meters.add(counter("cfslab.cpu.cfs.throttled.periods", "simulated nr_throttled", tags,
                    st.path("nr_throttled").asDouble()));
            meters.add(counter("cfslab.cpu.cfs.throttled.seconds", "simulated throttled_usec / 1e6", tags,
                    st.path("throttled_usec").asDouble() / 1e6));
        }
        exported.addLast(meters);
        while (exported.size() > EXPORTED_RUNS) exported.removeFirst().forEach(registry::remove);
    }

    private Meter counter(String name, String description, Tags tags, double value) {
        Counter c = Counter.builder(name).description(description).tags(tags).register(registry);
        c.increment(value);
        return c;
    }

    /** Runs executing on this instance now. */
    public int running() { return running.get(); }

    @Override
    public void destroy() { refresher.shutdownNow(); }
}
