package io.cfslab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.CfsLabApplication;
import io.cfslab.metrics.SimulationResult;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioParser;
import io.cfslab.sim.RunControl;
import io.cfslab.sim.Simulator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.Disposable;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * BENCHMARK, not part of {@code ./mvnw verify} (the class name does not match Surefire's test patterns):
 * what 50 SSE subscribers cost a run. Seed 03's large tree (async, 384 CPUs, 2,202 groups, 20,000 tasks),
 * shortened to 3 s simulated, executed by the real application (H2 in memory, one simulation
 * thread) with 0 and with {@value #SUBSCRIBERS} clients on {@code GET /api/runs/{id}/events}, alternating,
 * {@value #ROUNDS} rounds each after one warm-up round. Every measured run is submitted behind a short "gate"
 * run, so it is still queued when its subscribers connect: they watch it from its first event to
 * {@code done}. The figure is the simulation loop's own wall time ({@code engine.wall_ms} of the result),
 * plus the run's wall time as the service records it (set-up of the 20,000 tasks included). For reference,
 * the same scenario through {@code Simulator.run} without any live hooks.
 *
 * <pre>./mvnw -B -q test -Dtest=SseBench -Dsurefire.failIfNoSpecifiedTests=false</pre>
 *
 * Prints the figures and writes them to {@code target/sse-bench.txt}.
 */
class SseBench {
    static final int SUBSCRIBERS = 50;
    static final int ROUNDS = 20;
    static final JsonMapper JSON = JsonMapper.builder().build();

    record Measured(int subscribers, long engineWallMs, long runWallMs, int completedStreams, long bytes) { }

    @Test
    void fiftySubscribersCostUnderFivePercent() throws Exception {
        String text = Files.readString(Path.of("src/main/resources/scenarios/seed03-large-tree-async.json"));
        String scenario = text.replace("\"duration\": \"10s\"", "\"duration\": \"3s\"");
        String gate = text.replace("\"duration\": \"10s\"", "\"duration\": \"2s\"");
        assertThat(scenario).contains("\"3s\"");
        // in memory: no database file writes competing with the simulation thread
        String db = "jdbc:h2:mem:ssebench-" + UUID.randomUUID().toString().substring(0, 8) + ";DB_CLOSE_DELAY=-1";
        ConfigurableApplicationContext ctx = new SpringApplicationBuilder(CfsLabApplication.class).run(
                "--server.port=0", "--spring.datasource.url=" + db, "--spring.main.banner-mode=off",
                "--cfslab.runs.pool-size=1", "--cfslab.runs.poll-interval=100ms",
                "--logging.level.root=WARN");
        ConnectionProvider pool = ConnectionProvider.builder("bench").maxConnections(4 * SUBSCRIBERS)
                .pendingAcquireMaxCount(-1).build();
        List<Measured> results = new ArrayList<>();
        // the bare loop runs between the service's rounds, in the same JVM with the application up (its heap, its
        // threads, the JIT's state alike): measured after the context closed, it had the warmest JVM and an empty
        // heap to itself, and the service's loop looked 39 % slower than it (2026-11-30 19:30)
        List<Long> plain = new ArrayList<>();
        Scenario parsed = ScenarioParser.parse(scenario);
        try {
            String base = "http://127.0.0.1:" + ctx.getEnvironment().getProperty("local.server.port");
            WebClient web = WebClient.builder().baseUrl(base)
                    .codecs(c -> c.defaultCodecs().maxInMemorySize(64 * 1024 * 1024))
                    .clientConnector(new ReactorClientHttpConnector(HttpClient.create(pool))).build();
            for (int w = 0; w < 2; w++) { // warm-up
                measure(web, scenario, gate, 0);
                measure(web, scenario, gate, SUBSCRIBERS);
            }
            Simulator.run(parsed, RunControl.NONE); // warm-up of the bare loop
            for (int r = 0; r < ROUNDS; r++) {
                results.add(measure(web, scenario, gate, r % 2 == 0 ? 0 : SUBSCRIBERS));
                SimulationResult res = Simulator.run(parsed, RunControl.NONE);
                plain.add(res.engine().wallMs());
                results.add(measure(web, scenario, gate, r % 2 == 0 ? SUBSCRIBERS : 0));
            }
        } finally {
            ctx.close();
            pool.dispose();
        }

        List<Long> e0 = results.stream().filter(m -> m.subscribers() == 0).map(Measured::engineWallMs).toList();
        List<Long> e50 = results.stream().filter(m -> m.subscribers() == SUBSCRIBERS).map(Measured::engineWallMs).toList();
        List<Long> w0 = results.stream().filter(m -> m.subscribers() == 0).map(Measured::runWallMs).toList();
        List<Long> w50 = results.stream().filter(m -> m.subscribers() == SUBSCRIBERS).map(Measured::runWallMs).toList();
        StringBuilder out = new StringBuilder();
        out.append("SSE benchmark ").append(LocalDate.now()).append(", ").append(Runtime.getRuntime().availableProcessors())
                .append(" CPUs, Java ").append(System.getProperty("java.version")).append('\n');
        out.append("seed03-large-tree-async.json shortened to 3 s simulated; ").append(ROUNDS)
                .append(" rounds per setting, alternating\n");
        out.append(String.format("simulation loop wall ms, no live hooks (Simulator.run): %s median %d%n", plain, median(plain)));
        out.append(String.format("simulation loop wall ms,  0 subscribers: %s median %d%n", e0, median(e0)));
        out.append(String.format("simulation loop wall ms, %d subscribers: %s median %d%n", SUBSCRIBERS, e50, median(e50)));
        out.append(String.format("run wall ms (service),    0 subscribers: %s median %d%n", w0, median(w0)));
        out.append(String.format("run wall ms (service),   %d subscribers: %s median %d%n", SUBSCRIBERS, w50, median(w50)));
        List<Double> paired = new ArrayList<>();
        for (int r = 0; r < ROUNDS; r++) paired.add((double) e0.get(r) / plain.get(r) - 1);
        Collections.sort(paired);
        out.append(String.format("service 0 subscribers vs the bare loop of the same round: median %+.1f %% (paired)%n",
                100 * paired.get(paired.size() / 2)));
        out.append(String.format("difference of medians, simulation loop: %+.1f %%; run: %+.1f %%%n",
                100.0 * (median(e50) - median(e0)) / median(e0), 100.0 * (median(w50) - median(w0)) / median(w0)));
        for (Measured m : results) {
            if (m.subscribers() > 0) {
                out.append(String.format("  %d subscribers: %d streams ended with done, %d bytes received in all%n",
                        m.subscribers(), m.completedStreams(), m.bytes()));
            }
        }
        System.out.print(out);
        Files.writeString(Path.of("target/sse-bench.txt"), out.toString());
        for (Measured m : results) assertThat(m.completedStreams()).isEqualTo(m.subscribers());
    }

    /** The simulation loop alone, without and with snapshots every 250 ms (what the live state costs). */
    @Test
    void snapshotCost() throws Exception {
        String text = Files.readString(Path.of("src/main/resources/scenarios/seed03-large-tree-async.json"));
        Scenario parsed = ScenarioParser.parse(text.replace("\"duration\": \"10s\"", "\"duration\": \"3s\""));
        AtomicInteger shots = new AtomicInteger();
        AtomicLong shotNs = new AtomicLong();
        RunControl snapshots = new RunControl() {
            @Override public long snapshotIntervalMs() { return 250; }
            @Override public void snapshot(io.cfslab.metrics.LiveSnapshot s) { shots.incrementAndGet(); }
        };
        List<Long> none = new ArrayList<>();
        List<Long> with = new ArrayList<>();
        for (int r = 0; r < 6; r++) {
            long a = Simulator.run(parsed, RunControl.NONE).engine().wallMs();
            long b = Simulator.run(parsed, snapshots).engine().wallMs();
            if (r >= 1) { none.add(a); with.add(b); }
        }
        System.out.printf("snapshot cost: none %s median %d; every 250 ms %s median %d; %d snapshots%n",
                none, median(none), with, median(with), shots.get());
    }

    static long median(List<Long> values) {
        List<Long> s = new ArrayList<>(values);
        Collections.sort(s);
        return s.get(s.size() / 2);
    }

    Measured measure(WebClient web, String scenario, String gate, int subscribers) throws Exception {
        String id;
        while (true) { // a gate run executes, so the measured one waits in the queue for its subscribers
            String gateId = submit(web, gate);
            if (await(web, gateId, "running", "done").path("status").asString().equals("done")) continue;
            id = submit(web, scenario);
            break;
        }
        CountDownLatch connected = new CountDownLatch(subscribers);
        CountDownLatch ended = new CountDownLatch(subscribers);
        AtomicInteger done = new AtomicInteger();
        AtomicLong bytes = new AtomicLong();
        List<Disposable> streams = new ArrayList<>();
        for (int i = 0; i < subscribers; i++) {
            boolean[] first = {true};
            StringBuilder tail = new StringBuilder();
            streams.add(web.get().uri("/api/runs/" + id + "/events").accept(MediaType.TEXT_EVENT_STREAM).retrieve()
                    .bodyToFlux(DataBuffer.class)
                    .doOnNext(b -> {
                        int n = b.readableByteCount();
                        bytes.addAndGet(n);
                        // only the end of each chunk is decoded: the client should cost the machine little
                        String s = b.toString(b.readPosition() + Math.max(0, n - 100), Math.min(100, n),
                                StandardCharsets.UTF_8);
                        DataBufferUtils.release(b);
                        tail.append(s);
                        if (tail.length() > 200) tail.delete(0, tail.length() - 200);
                        if (first[0]) {
                            first[0] = false;
                            connected.countDown();
                        }
                    })
                    .doFinally(sig -> {
                        if (tail.indexOf("event:done") >= 0) done.incrementAndGet();
                        ended.countDown();
                    })
                    .subscribe(b -> { }, e -> { }));
        }
        assertThat(connected.await(60, TimeUnit.SECONDS)).as("all subscribers connected").isTrue();
        JsonNode queued = get(web, "/api/runs/" + id);
        assertThat(queued.path("status").asString()).as("measured run still queued when all subscribers are on")
                .isEqualTo("queued");
        JsonNode run = await(web, id, "done", "done");
        assertThat(ended.await(60, TimeUnit.SECONDS)).as("all streams ended").isTrue();
        streams.forEach(Disposable::dispose);
        JsonNode result = get(web, "/api/runs/" + id + "/result");
        return new Measured(subscribers, result.path("engine").path("wall_ms").asLong(), run.path("wallMs").asLong(),
                done.get(), bytes.get());
    }

    static String submit(WebClient web, String scenario) {
        JsonNode r = JSON.readTree(web.post().uri("/api/runs").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("scenario", JSON.readTree(scenario))).retrieve().bodyToMono(String.class)
                .block(Duration.ofSeconds(60)));
        return r.path("id").asString();
    }

    static JsonNode get(WebClient web, String path) {
        return JSON.readTree(web.get().uri(path).retrieve().bodyToMono(String.class).block(Duration.ofSeconds(60)));
    }

    /** Waits until the run has status {@code status} or {@code orElse}. */
    static JsonNode await(WebClient web, String id, String status, String orElse) throws InterruptedException, IOException {
        long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        while (true) {
            JsonNode r = get(web, "/api/runs/" + id);
            String s = r.path("status").asString();
            if (s.equals(status) || s.equals(orElse)) return r;
            if (s.equals("failed") || s.equals("cancelled")) throw new IllegalStateException("run " + id + ": " + r);
            if (System.nanoTime() > end) throw new IllegalStateException("run " + id + " never " + status + ": " + r);
            Thread.sleep(s.equals("queued") ? 10 : 50);
        }
    }
}
