package io.cfslab.bench;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * BENCHMARK, not part of {@code ./mvnw verify} (the class name does not match Surefire's test patterns):
 * large request bodies against the packaged service in a process of its own (default JVM settings), as the
 * reliability run of issue 13 sent them: {@value #CLIENTS} concurrent {@code POST /api/scenarios} of 15 MB,
 * once with a {@code Content-Length} and once chunked (no length), then {@value #CLIENTS} concurrent bodies of
 * 3.9 MB, under the 4 MB limit, that the service reads and parses (a scenario with 60,000 task entries). For
 * each round: the answers by status, the slowest answer, and the service's resident memory (VmRSS of
 * {@code /proc/PID/status}, sampled every 20 ms) before and at its highest during the round.
 *
 * <pre>./mvnw -B -q -DskipTests package
 * ./mvnw -B -q test -Dtest=RequestSizeBench -Dsurefire.failIfNoSpecifiedTests=false [-Dbench.jar=target/cfslab.jar]</pre>
 *
 * Prints the figures and writes them to {@code target/request-size-bench.txt}.
 */
class RequestSizeBench {
    static final int CLIENTS = Integer.getInteger("bench.clients", 48);
    static final int LARGE = 15_000_000;

    record Round(String name, Map<String, Integer> answers, long slowestMs, long rssBeforeMb, long rssPeakMb) {
        String row() {
            return String.format("| %s | %s | %d ms | %d MB | %d MB |", name, answers, slowestMs, rssBeforeMb, rssPeakMb);
        }
    }

    @Test
    void largeBodies() throws Exception {
        String jar = System.getProperty("bench.jar", "target/cfslab.jar");
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path data = Files.createTempDirectory("cfslab-bench-db");
        Process server = new ProcessBuilder("java", "-jar", jar, "--server.port=" + port,
                "--spring.datasource.url=jdbc:h2:file:" + data.resolve("db").toAbsolutePath() + ";WRITE_DELAY=0",
                "--cfslab.runs.execute=false", "--logging.level.root=WARN")
                .redirectErrorStream(true).redirectOutput(data.resolve("server.log").toFile()).start();
        try {
            String base = "http://127.0.0.1:" + port;
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(10)).build();
            waitUp(http, base);
            byte[] large = padded(LARGE);
            byte[] accepted = manyTasks(3_900_000);
            List<Round> rounds = new ArrayList<>();
            round(http, base, server, "warm-up: 48 small scenarios", () -> "{\"duration\": \"1s\"}".getBytes(), false);
            rounds.add(round(http, base, server, CLIENTS + " x 15 MB, Content-Length", () -> large, false));
            rounds.add(round(http, base, server, CLIENTS + " x 15 MB, chunked", () -> large, true));
            rounds.add(round(http, base, server, CLIENTS + " x 3.9 MB read and parsed (60,000 tasks)", () -> accepted, false));
            StringBuilder out = new StringBuilder("RequestSizeBench " + LocalDateTime.now() + ", jar " + jar + ", load "
                    + Files.readString(Path.of("/proc/loadavg")).strip() + "\n| round | answers | slowest | RSS before | RSS peak |\n");
            for (Round r : rounds) out.append(r.row()).append('\n');
            System.out.print(out);
            Files.writeString(Path.of("target/request-size-bench.txt"), out);
        } finally {
            server.destroy();
            server.waitFor();
        }
    }

    static Round round(HttpClient http, String base, Process server, String name, Supplier<byte[]> body, boolean chunked)
            throws Exception {
        long before = rssMb(server.pid());
        AtomicLong peak = new AtomicLong(before);
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                try {
                    peak.accumulateAndGet(rssMb(server.pid()), Math::max);
                    Thread.sleep(20);
                } catch (Exception e) {
                    return;
                }
            }
        });
        sampler.start();
        List<CompletableFuture<long[]>> calls = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            byte[] b = body.get();
            HttpRequest.BodyPublisher publisher = chunked
                    ? HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(b)) // no length: chunked
                    : HttpRequest.BodyPublishers.ofByteArray(b);
            HttpRequest req = HttpRequest.newBuilder(URI.create(base + "/api/scenarios")).timeout(Duration.ofSeconds(60))
                    .header("Content-Type", "application/json").POST(publisher).build();
            long t0 = System.nanoTime();
            calls.add(http.sendAsync(req, HttpResponse.BodyHandlers.discarding())
                    .handle((r, e) -> new long[] {r == null ? -1 : r.statusCode(), (System.nanoTime() - t0) / 1_000_000}));
        }
        Map<String, Integer> answers = new TreeMap<>();
        long slowest = 0;
        for (CompletableFuture<long[]> c : calls) {
            long[] r = c.get();
            answers.merge(r[0] < 0 ? "reset" : Long.toString(r[0]), 1, Integer::sum);
            slowest = Math.max(slowest, r[1]);
        }
        sampling.set(false);
        sampler.join();
        return new Round(name, answers, slowest, before, peak.get());
    }

    static long rssMb(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmRSS:")) return Long.parseLong(line.replaceAll("\\D", "")) / 1024;
        }
        return -1;
    }

    static void waitUp(HttpClient http, String base) throws Exception {
        long end = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        while (System.nanoTime() < end) {
            try {
                if (http.send(HttpRequest.newBuilder(URI.create(base + "/actuator/health")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) return;
            } catch (IOException notYet) {
                // starting
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the service did not start");
    }

    /** A JSON scenario padded with spaces to {@code size} bytes. */
    static byte[] padded(int size) {
        byte[] doc = "{\"duration\": \"1s\", \"name\": \"large\"}".getBytes(StandardCharsets.UTF_8);
        byte[] b = new byte[size];
        java.util.Arrays.fill(b, (byte) ' ');
        System.arraycopy(doc, 0, b, 0, doc.length);
        return b;
    }

    /** A valid scenario of about {@code size} bytes: many task entries. */
    static byte[] manyTasks(int size) {
        StringBuilder sb = new StringBuilder("{\"name\": \"many tasks\", \"duration\": \"1s\", \"machine\": {\"cpus\": 4}, \"tasks\": [");
        int i = 0;
        while (sb.length() < size - 100) {
            if (i > 0) sb.append(',');
            sb.append("{\"name\": \"t").append(i++).append("\", \"cgroup\": \"/\", \"workload\": {\"kind\": \"hog\"}}");
        }
        return sb.append("]}").toString().getBytes(StandardCharsets.UTF_8);
    }
}
