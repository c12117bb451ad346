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
import org.junit.jupiter.api.Test;

/**
 * BENCHMARK, not part of {@code ./mvnw verify} (the class name does not match Surefire's test patterns):
 * large request bodies against the packaged service in a process of its own (default JVM settings), as the
 * reliability run of issue 13 sent them: {@code bench.clients} (48) concurrent {@code POST /api/scenarios} of
 * 15 MB (a scenario with some 300,000 explicit cgroups),
 * with a {@code Content-Length} (also with {@code Expect: 100-continue}) and chunked (no length), then {@value #CLIENTS} concurrent bodies of
 * 3.9 MB, under the 4 MB limit, that the service reads and parses (a scenario with 60,000 task entries). For
 * each round: the answers by status, the slowest time to an answer (its status line) and to the client's end
 * (its upload done or cut), and the service's resident memory (VmRSS of
 * {@code /proc/PID/status}, sampled every 20 ms) before and at its highest during the round.
 *
 * <pre>./mvnw -B -q -DskipTests package
 * ./mvnw -B -q test -Dtest=RequestSizeBench -Dsurefire.failIfNoSpecifiedTests=false [-Dbench.jar=target/cfslab.jar]
 *     [-Dbench.clients=48] [-Dbench.valid=false]</pre>
 *
 * Prints the figures and writes them to {@code target/request-size-bench.txt}.
 */
class RequestSizeBench {
    static final int CLIENTS = Integer.getInteger("bench.clients", 48);
    static final int LARGE = 15_000_000;

    record Round(String name, Map<String, Integer> answers, long slowestAnswerMs, long slowestDoneMs, long rssBeforeMb,
                 long rssPeakMb) {
        String row() {
            return String.format("| %s | %s | %d ms | %d ms | %d MB | %d MB |", name, answers, slowestAnswerMs,
                    slowestDoneMs, rssBeforeMb, rssPeakMb);
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
            waitUp(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build(), base);
            byte[] large = largeDocument(LARGE);
            byte[] accepted = manyTasks(3_900_000);
            List<Round> rounds = new ArrayList<>();
            round(base, server, "warm-up", "{\"duration\": \"1s\"}".getBytes(), false, false);
            rounds.add(round(base, server, CLIENTS + " x 15 MB, Content-Length", large, false, false));
            rounds.add(round(base, server, CLIENTS + " x 15 MB, Content-Length, Expect: 100-continue", large, false, true));
            rounds.add(round(base, server, CLIENTS + " x 15 MB, chunked", large, true, false));
            if (Boolean.parseBoolean(System.getProperty("bench.valid", "true"))) { // -Dbench.valid=false: only the 15 MB rounds
                rounds.add(round(base, server, CLIENTS + " x 3.9 MB valid scenario (60,000 tasks)", accepted, false, false));
            }
            StringBuilder out = new StringBuilder("RequestSizeBench " + LocalDateTime.now() + ", jar " + jar + ", load "
                    + Files.readString(Path.of("/proc/loadavg")).strip()
                    + "\n| round | answers | slowest answer | slowest client end | RSS before | RSS peak |\n");
            for (Round r : rounds) out.append(r.row()).append('\n');
            System.out.print(out);
            Files.writeString(Path.of("target/request-size-bench.txt"), out);
        } finally {
            server.destroy();
            server.waitFor();
        }
    }

    /**
     * {@value #CLIENTS} clients at once, each on its own socket: the request head, then the body in 64 KB
     * writes (or chunks) while the answer is read. "answered" is the time from the first byte sent to the
     * answer's status line; "done" until the client finished (its upload ended, or the server closed).
     */
    static Round round(String base, Process server, String name, byte[] body, boolean chunked, boolean expectContinue)
            throws Exception {
        int port = URI.create(base).getPort();
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
            calls.add(CompletableFuture.supplyAsync(() -> send(port, body, chunked, expectContinue),
                    java.util.concurrent.Executors.newSingleThreadExecutor()));
        }
        Map<String, Integer> answers = new TreeMap<>();
        long slowestAnswer = 0;
        long slowestDone = 0;
        for (CompletableFuture<long[]> c : calls) {
            long[] r = c.get();
            answers.merge(r[0] < 0 ? "no answer" : Long.toString(r[0]), 1, Integer::sum);
            slowestAnswer = Math.max(slowestAnswer, r[1]);
            slowestDone = Math.max(slowestDone, r[2]);
        }
        sampling.set(false);
        sampler.join();
        return new Round(name, answers, slowestAnswer, slowestDone, before, peak.get());
    }

    /** @return {status or -1, ms to the status line, ms to the end} */
    static long[] send(int port, byte[] body, boolean chunked, boolean expectContinue) {
        long t0 = System.nanoTime();
        long[] out = {-1, -1, -1};
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
            s.setSoTimeout(60_000);
            java.io.OutputStream os = s.getOutputStream();
            String head = "POST /api/scenarios HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    + (chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + body.length + "\r\n")
                    + (expectContinue ? "Expect: 100-continue\r\n" : "") + "\r\n";
            os.write(head.getBytes(StandardCharsets.ISO_8859_1));
            os.flush();
            java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(s.getInputStream(),
                    StandardCharsets.ISO_8859_1));
            Runnable sendBody = () -> {
                try {
                    for (int off = 0; off < body.length; off += 65536) {
                        int n = Math.min(65536, body.length - off);
                        if (chunked) os.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
                        os.write(body, off, n);
                        if (chunked) os.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
                    }
                    if (chunked) os.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
                    os.flush();
                } catch (IOException closedByServer) {
                    // the server answered and stopped reading
                }
            };
            // with Expect: 100-continue the body goes only after a 100 Continue (a refusal comes instead of it)
            CompletableFuture<Void> upload = expectContinue ? CompletableFuture.completedFuture(null)
                    : CompletableFuture.runAsync(sendBody);
            String status = in.readLine();
            while (status != null && status.startsWith("HTTP/1.1 100")) { // a 100 Continue: send, then read on
                in.readLine();
                sendBody.run();
                status = in.readLine();
            }
            out[1] = (System.nanoTime() - t0) / 1_000_000;
            if (status != null) out[0] = Integer.parseInt(status.split(" ")[1]);
            upload.get();
        } catch (Exception e) {
            // reset: no status
        }
        out[2] = (System.nanoTime() - t0) / 1_000_000;
        return out;
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

    /** A JSON scenario of about {@code size} bytes: an array of explicit cgroups (far more than the 20,000 allowed). */
    static byte[] largeDocument(int size) {
        StringBuilder sb = new StringBuilder("{\"name\": \"large\", \"duration\": \"1s\", \"cgroups\": [");
        int i = 0;
        while (sb.length() < size - 100) {
            if (i > 0) sb.append(',');
            sb.append("{\"path\": \"/g").append(i++).append("\", \"cpu.max\": \"50000 100000\"}");
        }
        return sb.append("]}").toString().getBytes(StandardCharsets.UTF_8);
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
