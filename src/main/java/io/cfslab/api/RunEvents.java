package io.cfslab.api;

import io.cfslab.metrics.ResultJson;
import io.cfslab.metrics.SimulationResult;
import io.cfslab.runs.LiveJson;
import io.cfslab.runs.LiveProperties;
import io.cfslab.runs.LiveRun;
import io.cfslab.runs.RunService;
import io.cfslab.runs.SampleLog;
import io.cfslab.store.Jdbc;
import io.cfslab.store.RunRecord;
import io.cfslab.store.RunRepository;
import io.cfslab.store.RunStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code GET /api/runs/{id}/events}: a run's live stream (docs/api.md, "Live events").
 *
 * <p>Each client has its own cursor ({@link Client}) and is driven by a timer of period
 * {@code cfslab.live.interval}: at each tick it sends what changed since its last tick, read from the run's
 * latest immutable state. A tick that comes while the client still has unsent events is dropped, so a slow
 * client gets only the latest state and nothing queues up for it; the simulation thread never sees the
 * clients; a tick is also skipped while the connection cannot take more (its outbound buffer is full). The
 * messages are pre-encoded SSE frames ({@code event:…\ndata:…\n\n}, as Spring's
 * {@code ServerSentEvent} writer would print them): a snapshot's frames are encoded once and the same bytes
 * go to every client, so 50 clients do not make 50 copies of a large tree's cgroup totals. Where the state
 * comes from:
 * <ul>
 *   <li>a run executing on this instance: its {@link LiveRun} (progress, snapshots, samples), memory only;</li>
 *   <li>otherwise (queued, executing on another instance, finished): the database, read every
 *       {@code cfslab.live.db-poll-interval} off the event loop: progress only until the run finishes, then
 *       the final state from the stored result (the last repeat's) and {@code done} or {@code failed}.</li>
 * </ul>
 */
@Component
public class RunEvents {
    private final RunService runService;
    private final RunRepository runs;
    private final Jdbc jdbc;
    private final LiveProperties props;

    public RunEvents(RunService runService, RunRepository runs, Jdbc jdbc, LiveProperties props) {
        this.runService = runService;
        this.runs = runs;
        this.jdbc = jdbc;
        this.props = props;
    }

    /** Fails with a 404 problem if there is no run {@code id} (blocking: call on the JDBC scheduler). */
    public Mono<RunRecord> require(String id) {
        return jdbc.call(() -> runs.findStatus(id).orElseThrow(() -> ApiException.notFound("run " + id, "/id")));
    }

    /**
     * The messages of run {@code id}'s stream, ending after {@code done} or {@code failed}. Reactor Netty
     * flushes whenever no further message is ready, i.e. after each tick's batch.
     *
     * @param writable false while the connection's outbound buffer is full (a slow client): ticks are then
     *                 skipped, so nothing more queues up for it, and the next batch it gets is the latest state
     */
    public Flux<DataBuffer> stream(String id, DataBufferFactory buffers, BooleanSupplier writable) {
        Client c = new Client(id);
        return Flux.interval(java.time.Duration.ZERO, props.interval())
                .onBackpressureDrop()
                .concatMap(tick -> writable.getAsBoolean() ? c.step() : Mono.just(new Step(List.of(), false)), 1)
                .takeUntil(Step::last)
                .concatMapIterable(Step::events, 1)
                .map(buffers::wrap);
    }

    /** What one tick sends (SSE frames); {@code last} ends the stream. */
    record Step(List<byte[]> events, boolean last) { }

    private static byte[] event(String name, String data) {
        return LiveJson.frame(name, data);
    }

    /** One client's cursor: what it was sent last, to send only what changed. Used by one tick at a time. */
    private final class Client {
        private final String runId;
        private LiveRun held;
        private LiveRun.Repeat repeat;
        private long sampleCursor;
        private LiveRun.Shot lastShot;
        private LiveJson.Progress lastProgress;
        private final Map<String, Object> lastHistograms = new HashMap<>();
        private Object lastDistribute;
        private Object lastCgroups;
        private int cpuColumns;
        private long lastSentNanos = System.nanoTime();
        private long nextDbPollNanos = System.nanoTime();
        private long lastTickNanos;
        private boolean ticked;

        Client(String runId) { this.runId = runId; }

        Mono<Step> step() {
            // the timer catches up after a stall (fixed rate): never two updates closer than ~ the interval
            long t = System.nanoTime();
            if (ticked && t - lastTickNanos < props.interval().toNanos() * 9 / 10) {
                return Mono.just(new Step(List.of(), false));
            }
            ticked = true;
            lastTickNanos = t;
            LiveRun local = runService.live(runId);
            if (local != null) held = local;
            if (held != null) {
                LiveRun.Terminal end = held.terminal();
                LiveRun run = held;
                if (end != null || local != null) return Mono.fromSupplier(() -> live(run, end));
                held = null; // gone without an end: re-queued (this instance stopping); follow the database
            }
            long now = System.nanoTime();
            if (now - nextDbPollNanos < 0) return Mono.just(finish(new ArrayList<>(), false));
            nextDbPollNanos = now + props.dbPollInterval().toNanos();
            return jdbc.call(this::fromDatabase);
        }

        /** From the local live state; {@code end} read before the data, so with an end the data is final. */
        private Step live(LiveRun run, LiveRun.Terminal end) {
            List<byte[]> out = new ArrayList<>();
            progress(out, run.progress());
            state(out, run.current());
            if (end == null) return finish(out, false);
            terminal(out, end.status(), end.error());
            return finish(out, true);
        }

        private Step fromDatabase() {
            List<byte[]> out = new ArrayList<>();
            Optional<RunRecord> found = runs.findStatus(runId); // every db-poll-interval: not the scenario snapshot
            if (found.isEmpty()) {
                out.add(event("failed", LiveJson.write(new LiveJson.Failed(runId, RunStatus.FAILED.word(), "run deleted"))));
                return finish(out, true);
            }
            RunRecord r = found.get();
            progress(out, LiveJson.Progress.of(runId, r.status().word(), r.progress(), r.simulatedNs(), r.durationNs(),
                    r.events(), r.wallMs(), r.repeats(), r.pace()));
            if (!r.status().finished()) return finish(out, false);
            if (r.status() == RunStatus.DONE || r.status() == RunStatus.CANCELLED) {
                // a done run's last repeat; a cancelled one's last it reached (its partial result), if any
                int last = Math.max(0, r.repeats() - 1);
                Optional<String> text = runs.findResult(runId, last);
                while (text.isEmpty() && r.status() == RunStatus.CANCELLED && last > 0) text = runs.findResult(runId, --last);
                if (text.isPresent()) {
                    SimulationResult result = ResultJson.read(text.get());
                    state(out, LiveRun.Repeat.fromResult(last, result, r.durationNs()));
                }
            }
            terminal(out, r.status(), r.error());
            return finish(out, true);
        }

        private void progress(List<byte[]> out, LiveJson.Progress p) {
            if (p.sameAs(lastProgress)) return;
            lastProgress = p;
            out.add(event("progress", LiveJson.write(p)));
        }

        /** Histograms, new samples, distribute calls, CPU states, cgroup totals: whatever changed. */
        private void state(List<byte[]> out, LiveRun.Repeat rep) {
            if (rep == null) return;
            if (rep != repeat) { // a new repeat (or a new attempt): start over
                repeat = rep;
                sampleCursor = 0;
                lastShot = null;
                lastHistograms.clear();
                lastDistribute = lastCgroups = null;
                cpuColumns = 0;
            }
            LiveRun.Shot shot = rep.shot();
            boolean newShot = shot != null && shot != lastShot;
            if (newShot) {
                var s = shot.snapshot();
                Map<String, byte[]> frames = shot.histogramFrames();
                s.histograms().forEach((name, h) -> {
                    if (!h.equals(lastHistograms.get(name))) {
                        lastHistograms.put(name, h);
                        out.add(frames.get(name));
                    }
                });
            }
            SampleLog.Batch batch = rep.samples().since(sampleCursor, SampleLog.MAX_REPLAY);
            sampleCursor = batch.next();
            if (!batch.entries().isEmpty()) out.add(LiveJson.cpustatFrame(batch.entries()));
            if (newShot) {
                var s = shot.snapshot();
                List<Object> calls = List.of(s.recentCalls(), s.slowestCalls());
                if (!calls.equals(lastDistribute)) {
                    lastDistribute = calls;
                    out.add(shot.distributeFrame());
                }
                byte[] cpus = shot.cpusFrame(cpuColumns);
                if (cpus != null) {
                    out.add(cpus);
                    cpuColumns = s.cpus().columns();
                }
                if (!Objects.equals(s.cgroups(), lastCgroups)) {
                    lastCgroups = s.cgroups();
                    out.add(shot.cgroupsFrame());
                }
                lastShot = shot;
            }
        }

        private void terminal(List<byte[]> out, RunStatus status, String error) {
            if (status == RunStatus.DONE) {
                out.add(event("done", LiveJson.write(new LiveJson.Done(runId, status.word()))));
            } else {
                out.add(event("failed", LiveJson.write(new LiveJson.Failed(runId, status.word(), error))));
            }
        }

        /** Adds a keep-alive comment if nothing was sent for {@code cfslab.live.keep-alive}. */
        private Step finish(List<byte[]> out, boolean last) {
            long now = System.nanoTime();
            if (!out.isEmpty()) {
                lastSentNanos = now;
            } else if (now - lastSentNanos >= props.keepAlive().toNanos()) {
                out.add(LiveJson.KEEP_ALIVE);
                lastSentNanos = now;
            }
            return new Step(out, last);
        }
    }
}
