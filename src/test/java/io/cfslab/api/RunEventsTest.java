package io.cfslab.api;

import static io.cfslab.api.ApiTestSupport.JSON;
import static io.cfslab.api.ApiTestSupport.awaitStatus;
import static io.cfslab.api.ApiTestSupport.json;
import static io.cfslab.api.ApiTestSupport.run;
import static io.cfslab.api.ApiTestSupport.submitRun;
import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.testsupport.EventLoopGuard;
import io.cfslab.testsupport.PacedEngine;
import io.cfslab.testsupport.PacedEngineConfig;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.annotation.Import;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.core.publisher.Flux;
import tools.jackson.databind.JsonNode;

/**
 * {@code GET /api/runs/{id}/events} through WebTestClient on a real context (H2), read as raw bytes and parsed
 * here, so the wire format itself is checked. One simulation thread: a run submitted while another executes
 * stays queued. Keep-alive 400 ms, updates every 250 ms (the default).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:eventstest-${random.uuid};DB_CLOSE_DELAY=-1",
        "cfslab.runs.pool-size=1", "cfslab.runs.poll-interval=100ms", "cfslab.runs.progress-interval=50ms",
        "cfslab.live.interval=250ms", "cfslab.live.keep-alive=400ms", "cfslab.live.db-poll-interval=100ms"})
@AutoConfigureWebTestClient(timeout = "30s") // a loaded 2-core CI machine can take more than the default 5 s
@Import({PacedEngineConfig.class, EventLoopGuard.class})
class RunEventsTest {
    @Autowired WebTestClient webClient;
    WebTestClient web;

    /** One SSE message as received: event name (null for a comment), data, comment, arrival (ms since connect). */
    record Sse(String event, String data, String comment, long atMs) {
        JsonNode json() { return JSON.readTree(data); }
    }

    /** A tiny run: 1 CPU, 200 ms simulated, a sample every 10 ms. */
    static String tiny(String name) {
        return """
                {"name": "%s", "seed": 7, "duration": "200ms", "machine": {"profile": "generic", "cpus": 1},
                 "cgroups": [{"path": "/a", "cpu.max": "20000 100000"}],
                 "tasks": [{"name": "nop", "cgroup": "/a", "count": 2, "workload": {"kind": "hog"}}],
                 "record": {"interval": "10ms"}}
                """.formatted(name);
    }

    /**
     * A run of several seconds of wall time in the real simulator (a few on an idle machine, more on a loaded
     * one): 16 CPUs, HZ 1000, a sample every simulated second.
     */
    static String longRun(String name, String duration) {
        return """
                {"name": "%s", "seed": 7, "duration": "%s", "machine": {"profile": "generic", "cpus": 16},
                 "kernel": {"hz": 1000},
                 "cgroups": [{"path": "/a", "cpu.max": "900000 100000"}, {"path": "/a/b", "cpu.max": "20000 10000"},
                             {"path": "/c", "cpu.max": "200000 100000"}],
                 "tasks": [{"name": "nop", "cgroup": "/a/b", "count": 16, "workload": {"kind": "hog"}},
                           {"name": "hog", "cgroup": "/c", "count": 16, "workload": {"kind": "hog"}}],
                 "record": {"interval": "1s"}}
                """.formatted(name, duration);
    }

    static final String LONG = "3600s";
    static final long LONG_NS = 3_600_000_000_000L;

    @BeforeEach
    void setUp() {
        PacedEngine.reset(); // the real engine, unpaced
        web = webClient.mutate().responseTimeout(Duration.ofSeconds(120))
                .codecs(c -> c.defaultCodecs().maxInMemorySize(64 << 20)).build(); // a result with every distribute call
    }

    @AfterEach
    void nothingBlockedTheEventLoop() {
        assertThat(EventLoopGuard.violations).isEmpty();
    }

    /** Connects and reads messages until {@code stop} holds for one (included) or the stream ends. */
    List<Sse> stream(String runId, Predicate<Sse> stop, Duration timeout) {
        return stream(web, runId, stop, timeout);
    }

    static List<Sse> stream(WebTestClient web, String runId, Predicate<Sse> stop, Duration timeout) {
        Flux<DataBuffer> body = web.get().uri("/api/runs/" + runId + "/events").accept(MediaType.TEXT_EVENT_STREAM)
                .exchange().expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith(MediaType.TEXT_EVENT_STREAM)
                .returnResult(DataBuffer.class).getResponseBody();
        long t0 = System.nanoTime();
        StringBuilder pending = new StringBuilder();
        List<Sse> out = new ArrayList<>();
        body.map(b -> {
                    String s = b.toString(StandardCharsets.UTF_8);
                    DataBufferUtils.release(b);
                    return s;
                })
                .concatMapIterable(chunk -> {
                    pending.append(chunk);
                    List<Sse> msgs = new ArrayList<>();
                    int end;
                    while ((end = pending.indexOf("\n\n")) >= 0) {
                        String raw = pending.substring(0, end);
                        pending.delete(0, end + 2);
                        msgs.add(parse(raw, (System.nanoTime() - t0) / 1_000_000));
                    }
                    return msgs;
                })
                .doOnNext(out::add)
                .takeUntil(stop)
                .blockLast(timeout);
        return out;
    }

    List<Sse> streamToEnd(String runId) {
        List<Sse> all = stream(runId, m -> false, Duration.ofSeconds(90));
        assertThat(all).as("stream of %s", runId).isNotEmpty();
        return all;
    }

    static Sse parse(String raw, long atMs) {
        String event = null, comment = null;
        StringBuilder data = null;
        for (String line : raw.split("\n")) {
            if (line.startsWith(":")) comment = line.substring(1);
            else if (line.startsWith("event:")) event = line.substring(6).trim();
            else if (line.startsWith("data:")) {
                if (data == null) data = new StringBuilder();
                else data.append('\n');
                data.append(line.substring(5).startsWith(" ") ? line.substring(6) : line.substring(5));
            }
        }
        return new Sse(event, data == null ? null : data.toString(), comment, atMs);
    }

    static List<Sse> events(List<Sse> all) { return all.stream().filter(m -> m.event() != null).toList(); }

    static List<String> names(List<Sse> all) { return events(all).stream().map(Sse::event).toList(); }

    static List<Sse> named(List<Sse> all, String name) {
        return all.stream().filter(m -> name.equals(m.event())).toList();
    }

    String submit(String scenario) {
        return submitRun(web, Map.of("scenario", JSON.readTree(scenario)));
    }

    @Test
    void unknownRunIs404() {
        web.get().uri("/api/runs/nope/events").accept(MediaType.TEXT_EVENT_STREAM).exchange()
                .expectStatus().isEqualTo(HttpStatus.NOT_FOUND);
    }

    @Test
    void eventOrderProgressFirstStateThenDoneLast() {
        String id = submit(tiny("order"));
        List<Sse> all = streamToEnd(id);
        List<String> names = names(all);
        assertThat(names.get(0)).isEqualTo("progress");
        assertThat(names.get(names.size() - 1)).isEqualTo("done");
        assertThat(names).containsOnlyOnce("done").doesNotContain("failed");
        int done = names.indexOf("done");
        assertThat(names.indexOf("histogram")).isBetween(1, done - 1);
        assertThat(names.indexOf("cpustat")).isBetween(1, done - 1);
        assertThat(names.indexOf("cgroups")).isBetween(1, done - 1);
        assertThat(names.indexOf("distribute")).isBetween(1, done - 1);

        JsonNode first = named(all, "progress").get(0).json();
        assertThat(first.propertyNames()).containsExactly("run_id", "status", "progress", "simulated_ns",
                "duration_ns", "events", "wall_ms", "eta_ms");
        assertThat(first.path("run_id").asString()).isEqualTo(id);
        assertThat(first.path("status").asString()).isIn("queued", "running", "done");
        List<Sse> progress = named(all, "progress");
        JsonNode lastProgress = progress.get(progress.size() - 1).json();
        assertThat(lastProgress.path("status").asString()).isEqualTo("done");
        assertThat(lastProgress.path("progress").asDouble()).isEqualTo(100.0);
        assertThat(lastProgress.path("simulated_ns").asLong()).isEqualTo(200_000_000L);
        assertThat(lastProgress.path("duration_ns").asLong()).isEqualTo(200_000_000L);

        JsonNode doneEvent = named(all, "done").get(0).json();
        assertThat(doneEvent.path("run_id").asString()).isEqualTo(id);
        assertThat(doneEvent.path("status").asString()).isEqualTo("done");

        // every sample exactly once, in order, whatever the path (live or stored result)
        List<Long> at = new ArrayList<>();
        named(all, "cpustat").forEach(m -> m.json().path("samples").forEach(s -> at.add(s.path("at_ns").asLong())));
        assertThat(at).hasSize(20).isSorted().doesNotHaveDuplicates();
        JsonNode sample = named(all, "cpustat").get(0).json().path("samples").get(0);
        assertThat(sample.path("cgroups").path("/a").path("cpu.stat").has("nr_throttled")).isTrue();
        assertThat(sample.path("cgroups").path("/a").path("cpu.stat.local").has("throttled_usec")).isTrue();
        assertThat(sample.path("tasks").path("nop/1").has("cpu_percent")).isTrue();

        JsonNode hist = named(all, "histogram").get(named(all, "histogram").size() - 1).json();
        assertThat(hist.path("name").asString()).isEqualTo("distribute_cfs_runtime_ns");
        assertThat(hist.path("count").asLong()).isPositive();
        assertThat(hist.path("buckets").get(0).propertyNames()).containsExactly("low", "high", "count");
    }

    @Test
    void lateJoinAfterFinishGetsTheFinalStateThenDone() throws Exception {
        String id = submit(tiny("late"));
        awaitStatus(web, id, "done", Duration.ofSeconds(30));
        JsonNode result = json(web.get().uri("/api/runs/" + id + "/result").exchange().expectStatus().isOk());

        List<Sse> all = streamToEnd(id);
        assertThat(names(all)).containsExactly("progress", "histogram", "cpustat", "distribute", "cpus", "cgroups", "done");
        assertThat(all.get(0).json().path("status").asString()).isEqualTo("done");
        assertThat(all.get(0).json().path("progress").asDouble()).isEqualTo(100.0);
        JsonNode hist = named(all, "histogram").get(0).json();
        JsonNode expected = result.path("histograms").path("distribute_cfs_runtime_ns");
        assertThat(hist.path("count")).isEqualTo(expected.path("count"));
        assertThat(hist.path("buckets")).isEqualTo(expected.path("buckets"));
        assertThat(named(all, "cpustat").get(0).json().path("samples")).isEqualTo(result.path("series"));
        JsonNode calls = result.path("distribute_calls");
        JsonNode recent = named(all, "distribute").get(0).json().path("recent");
        assertThat(recent.size()).isEqualTo(Math.min(50, calls.size())).isPositive();
        assertThat(recent.get(recent.size() - 1)).isEqualTo(calls.get(calls.size() - 1));
        JsonNode cgroups = named(all, "cgroups").get(0).json();
        assertThat(cgroups.path("cgroups")).isEqualTo(result.path("cgroups"));
        assertThat(cgroups.path("at_ns").asLong()).isEqualTo(200_000_000L);
        JsonNode cpus = named(all, "cpus").get(0).json();
        assertThat(cpus.path("from").asInt()).isZero();
        assertThat(cpus.path("interval_ns")).isEqualTo(result.path("cpu_timeline").path("interval_ns"));
        assertThat(cpus.path("cpus")).as("the stored timeline, whole").isEqualTo(result.path("cpu_timeline").path("cpus"));
    }

    @Test
    void lateJoinMidRunGetsTheCurrentStateFirstThenUpdatesAtABoundedRateThenDone() throws Exception {
        String id = submit(longRun("mid", LONG));
        awaitStatus(web, id, "running", Duration.ofSeconds(30));
        Thread.sleep(700); // a few snapshots and samples exist
        assertThat(run(web, id).path("status").asString()).as("long run still running (else: make it longer)")
                .isEqualTo("running");
        List<Sse> all = streamToEnd(id);
        List<Sse> events = events(all);
        assertThat(events.get(0).event()).isEqualTo("progress");
        JsonNode p0 = events.get(0).json();
        assertThat(p0.path("status").asString()).as("joined mid-run").isEqualTo("running");
        assertThat(p0.path("progress").asDouble()).isPositive().isLessThan(100.0);
        assertThat(p0.path("eta_ms").isNumber()).isTrue();
        // the first batch (before the next progress) is the whole current state
        int next = 1;
        while (next < events.size() && !events.get(next).event().equals("progress")) next++;
        List<String> firstBatch = events.subList(0, next).stream().map(Sse::event).toList();
        assertThat(firstBatch).contains("histogram", "cpustat", "distribute", "cpus", "cgroups");
        JsonNode firstSamples = named(all, "cpustat").get(0).json().path("samples");
        assertThat(firstSamples.size()).as("all samples so far").isGreaterThanOrEqualTo(2);
        assertThat(firstSamples.get(0).path("at_ns").asLong()).isEqualTo(1_000_000_000L);
        JsonNode cpus = named(all, "cpus").get(0).json();
        assertThat(cpus.path("from").asInt()).as("a late joiner gets the timeline from its start").isZero();
        assertThat(cpus.path("cpus").size()).isEqualTo(16);
        cpus.path("cpus").forEach(s -> assertThat(s.asString()).isNotEmpty().matches("[0-3]+"));
        // the columns streamed, appended in order, are the stored result's CPU timeline
        StringBuilder[] rows = new StringBuilder[16];
        for (int c = 0; c < 16; c++) rows[c] = new StringBuilder();
        for (Sse m : named(all, "cpus")) {
            assertThat(m.json().path("from").asInt()).as("no gap, no repeat").isEqualTo(rows[0].length());
            for (int c = 0; c < 16; c++) rows[c].append(m.json().path("cpus").get(c).asString());
        }
        JsonNode timeline = json(web.get().uri("/api/runs/" + id + "/result").exchange().expectStatus().isOk())
                .path("cpu_timeline");
        assertThat(cpus.path("interval_ns").asLong()).isEqualTo(timeline.path("interval_ns").asLong());
        for (int c = 0; c < 16; c++) assertThat(rows[c].toString()).isEqualTo(timeline.path("cpus").get(c).asString());

        assertThat(events.get(events.size() - 1).event()).isEqualTo("done");
        assertThat(named(all, "histogram").size()).as("histogram updates while running").isGreaterThanOrEqualTo(2);
        // every sample once, in order, across the live batches
        List<Long> at = new ArrayList<>();
        named(all, "cpustat").forEach(m -> m.json().path("samples").forEach(s -> at.add(s.path("at_ns").asLong())));
        assertThat(at).isSorted().doesNotHaveDuplicates().hasSize(3600);
        assertRateBound(all);
    }

    /**
     * At most one event of a kind per 250 ms tick, i.e. 4 a second: no more than 10 in any 2 s window as they
     * arrive (5 a second, leaving room for arrival jitter on a loaded machine).
     */
    static void assertRateBound(List<Sse> all) {
        for (String kind : List.of("progress", "histogram", "cpustat", "distribute", "cpus", "cgroups")) {
            List<Long> at = named(all, kind).stream().map(Sse::atMs).toList();
            for (int i = 0; i < at.size(); i++) {
                int j = i;
                while (j + 1 < at.size() && at.get(j + 1) - at.get(i) < 2000) j++;
                assertThat(j - i + 1).as("%s events within 2 s from %d ms", kind, at.get(i)).isLessThanOrEqualTo(10);
            }
        }
    }

    @Test
    void aFastRunIsStreamedAtABoundedRateFromTheStart() {
        String id = submit(longRun("rate", LONG));
        List<Sse> all = streamToEnd(id);
        List<Sse> events = events(all);
        long span = events.get(events.size() - 1).atMs() - events.get(0).atMs();
        assertThat(span).as("the run lasts long enough to measure a rate").isGreaterThan(1000);
        System.out.println("rate test: stream of " + span + " ms, " + events.size() + " events");
        assertRateBound(all);
        // per kind: at most one per tick over the whole stream (+2 for the first and last)
        for (String kind : List.of("progress", "histogram", "cgroups", "distribute")) {
            assertThat(named(all, kind).size()).as(kind).isLessThanOrEqualTo((int) (span / 250) + 2)
                    .isGreaterThanOrEqualTo(2);
        }
        assertThat(named(all, "progress").get(0).json().path("status").asString()).isIn("queued", "running");
        assertThat(names(all).get(names(all).size() - 1)).isEqualTo("done");
    }

    /**
     * Breaker 7 N2: a conditional GET of a live stream was drained until the run ended, then answered 412/304. The
     * conditions are decided on the run's answer before its first event (no ETag: a tag list is false, {@code *}
     * holds): each answer arrives while the run is still running, and a holding condition streams at once.
     */
    @Test
    void aConditionalGetOfALiveStreamIsDecidedBeforeTheStreamNotAfterTheRun() throws Exception {
        PacedEngine.wallMsPerSimulatedSecond = 10; // 3600 s simulated = 36 s of paced wall time
        String id = submit(longRun("conditional", LONG));
        awaitStatus(web, id, "running", Duration.ofSeconds(30));
        try {
            web.get().uri("/api/runs/" + id + "/events").accept(MediaType.TEXT_EVENT_STREAM).header("If-Match", "\"x\"")
                    .exchange().expectStatus().isEqualTo(HttpStatus.PRECONDITION_FAILED);
            assertThat(run(web, id).path("status").asString()).as("412 answered while the run runs").isEqualTo("running");
            web.get().uri("/api/runs/" + id + "/events").accept(MediaType.TEXT_EVENT_STREAM).header("If-None-Match", "*")
                    .exchange().expectStatus().isNotModified().expectBody().isEmpty();
            assertThat(run(web, id).path("status").asString()).as("304 answered while the run runs").isEqualTo("running");
            for (String[] header : List.of(new String[] {"If-Match", "*"}, new String[] {"If-None-Match", "\"abc\""})) {
                String first = web.get().uri("/api/runs/" + id + "/events").accept(MediaType.TEXT_EVENT_STREAM)
                        .header(header[0], header[1]).exchange().expectStatus().isOk()
                        .returnResult(DataBuffer.class).getResponseBody()
                        .map(b -> {
                            String t = b.toString(StandardCharsets.UTF_8);
                            DataBufferUtils.release(b);
                            return t;
                        })
                        .scan(new StringBuilder(), StringBuilder::append).map(StringBuilder::toString)
                        .filter(t -> t.contains("\n\n")).blockFirst(Duration.ofSeconds(30));
                Sse event = parse(first.substring(0, first.indexOf("\n\n")), 0);
                assertThat(event.event()).as(header[0]).isEqualTo("progress");
                assertThat(event.json().path("status").asString()).as("first event of a running run").isEqualTo("running");
            }
            // a HEAD answers its headers at once too (breaker 8 F1: Spring's HEAD handling read the stream to its end)
            web.head().uri("/api/runs/" + id + "/events").accept(MediaType.TEXT_EVENT_STREAM).exchange()
                    .expectStatus().isOk().expectHeader().contentTypeCompatibleWith(MediaType.TEXT_EVENT_STREAM)
                    .expectBody().isEmpty();
            web.head().uri("/api/runs/" + id + "/events").header("If-Match", "\"x\"").exchange()
                    .expectStatus().isEqualTo(HttpStatus.PRECONDITION_FAILED);
            web.head().uri("/api/runs/" + id + "/events").header("If-None-Match", "*").exchange().expectStatus().isNotModified();
            assertThat(run(web, id).path("status").asString()).as("HEAD answered while the run runs").isEqualTo("running");
        } finally {
            web.post().uri("/api/runs/" + id + "/cancel").exchange().expectStatus().isAccepted();
        }
    }

    @Test
    void aCancelledRunEndsItsStreamWithFailedCancelled() throws Exception {
        PacedEngine.wallMsPerSimulatedSecond = 10; // 3600 s simulated = 36 s of paced wall time
        String id = submit(longRun("cancel", LONG));
        awaitStatus(web, id, "running", Duration.ofSeconds(30));
        Thread.sleep(300);
        Thread canceller = new Thread(() -> {
            try {
                Thread.sleep(700);
            } catch (InterruptedException e) {
                return;
            }
            web.post().uri("/api/runs/" + id + "/cancel").exchange().expectStatus().isAccepted();
        });
        canceller.start();
        List<Sse> all = streamToEnd(id);
        canceller.join();
        List<Sse> events = events(all);
        Sse last = events.get(events.size() - 1);
        assertThat(last.event()).isEqualTo("failed");
        assertThat(last.json().path("run_id").asString()).isEqualTo(id);
        assertThat(last.json().path("status").asString()).isEqualTo("cancelled");
        assertThat(last.json().path("error").asString()).contains("cancel");
        assertThat(names(all)).doesNotContain("done");
        List<Sse> progress = named(all, "progress");
        assertThat(progress.get(progress.size() - 1).json().path("status").asString()).isEqualTo("cancelled");
        assertThat(progress.get(0).json().path("status").asString()).isEqualTo("running");
    }

    @Test
    void aQueuedRunStreamsProgressAndKeepAlivesUntilItStarts() throws Exception {
        PacedEngine.wallMsPerSimulatedSecond = 10; // the blocker: 36 s paced, cancelled after 1.5 s
        String blocker = submit(longRun("blocker", LONG));
        awaitStatus(web, blocker, "running", Duration.ofSeconds(30));
        String queued = submit(tiny("queued"));
        Thread canceller = new Thread(() -> {
            try {
                Thread.sleep(1500);
            } catch (InterruptedException e) {
                return;
            }
            web.post().uri("/api/runs/" + blocker + "/cancel").exchange().expectStatus().isAccepted();
        });
        canceller.start();
        List<Sse> all = streamToEnd(queued);
        canceller.join();
        List<Sse> events = events(all);
        assertThat(events.get(0).event()).isEqualTo("progress");
        assertThat(events.get(0).json().path("status").asString()).isEqualTo("queued");
        // while queued (1.5 s, nothing changes): keep-alive comments, no other event
        List<Sse> beforeStart = new ArrayList<>();
        for (Sse m : all.subList(1, all.size())) {
            if (m.event() != null) break;
            beforeStart.add(m);
        }
        assertThat(beforeStart).as("keep-alive comments while queued").hasSizeGreaterThanOrEqualTo(2)
                .allSatisfy(m -> assertThat(m.comment()).isEqualTo("keep-alive"));
        assertThat(beforeStart.get(0).atMs() - events.get(0).atMs()).as("after the keep-alive interval")
                .isGreaterThanOrEqualTo(350);
        assertThat(names(all).get(names(all).size() - 1)).isEqualTo("done");
    }
}
