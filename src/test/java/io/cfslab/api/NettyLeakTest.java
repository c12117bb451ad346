package io.cfslab.api;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * No Netty buffer is dropped unreleased on the paths where one was seen ({@code LEAK: ByteBuf.release() was not
 * called} in the service log): event streams closed mid-run, bodies refused at the codec's limit (with and without a
 * length), large bodies refused 429 while both large-body slots are taken, refusals that close their connection,
 * clients that hang up mid-body. Netty's leak detector runs in paranoid mode (every buffer tracked) for this class;
 * afterwards garbage is collected and buffers are allocated so that the detector reports what it found, and any
 * {@code LEAK:} line fails the test.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:leak-${random.uuid};DB_CLOSE_DELAY=-1;WRITE_DELAY=0",
        "cfslab.live.interval=50ms", "cfslab.http.large-body-timeout=30s"})
@org.junit.jupiter.api.TestMethodOrder(org.junit.jupiter.api.MethodOrderer.OrderAnnotation.class)
class NettyLeakTest {
    static ResourceLeakDetector.Level before;
    static final ListAppender<ILoggingEvent> LEAKS = new ListAppender<>();

    @LocalServerPort int port;
    @org.springframework.beans.factory.annotation.Autowired LargeBodyGate gate;

    @BeforeAll
    static void paranoid() {
        before = ResourceLeakDetector.getLevel();
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
        LEAKS.start();
    }

    /** After the application context started: Spring Boot's logging set-up resets Logback's appenders. */
    @org.junit.jupiter.api.BeforeEach
    void listen() {
        Logger detector = (Logger) LoggerFactory.getLogger(ResourceLeakDetector.class);
        if (!detector.isAttached(LEAKS)) detector.addAppender(LEAKS);
    }

    @AfterAll
    static void restore() {
        ((Logger) LoggerFactory.getLogger(ResourceLeakDetector.class)).detachAppender(LEAKS);
        ResourceLeakDetector.setLevel(before);
    }

    private Socket socket() throws Exception {
        Socket s = new Socket("127.0.0.1", port);
        s.setSoTimeout(60_000); // above the 30 s body timeout the 408 waits for
        return s;
    }

    private static String statusLine(Socket s) throws Exception {
        return new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII)).readLine();
    }

    private static byte[] ascii(String s) { return s.getBytes(StandardCharsets.US_ASCII); }

    /** The status line and headers of the answer read from {@code s}, up to the blank line. */
    private static String head(Socket s) throws Exception {
        BufferedReader r = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
        StringBuilder b = new StringBuilder();
        for (String line = r.readLine(); line != null && !line.isEmpty(); line = r.readLine()) b.append(line).append('\n');
        return b.toString();
    }

    private String post(String path, String body) throws Exception {
        HttpResponse<String> r = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(Duration.ofSeconds(30))
                        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        return r.statusCode() + " " + r.body();
    }

    /** The check can fail: a buffer dropped on purpose here is reported, named by where it was allocated. */
    @Test
    @org.junit.jupiter.api.Order(1)
    void theDetectorReportsABufferDroppedOnPurpose() throws Exception {
        dropOne();
        List<String> found = leaks();
        assertThat(found).as("the detector's report of the buffer dropped on purpose").isNotEmpty()
                .anyMatch(m -> m.contains("dropOne"));
        LEAKS.list.clear();
    }

    /** Drops a buffer of the allocator the server's channels use (ByteBufAllocator.DEFAULT: adaptive in Netty 4.2). */
    private static void dropOne() {
        io.netty.buffer.ByteBufAllocator.DEFAULT.directBuffer(128).writeInt(1); // never released
    }

    @Test
    @org.junit.jupiter.api.Order(2)
    void theRefusedAndAbandonedPathsReleaseEveryBuffer() throws Exception {
        // 1. event streams closed mid-run (a paced run, so that it is still running)
        String created = post("/api/runs", "{\"scenarioId\": \"e1-one-hog-10pct\", \"pace\": 1}");
        assertThat(created).startsWith("202");
        String runId = created.replaceAll("(?s).*?\"id\":\"([^\"]+)\".*", "$1");
        for (int i = 0; i < 5; i++) {
            try (Socket s = socket()) {
                s.getOutputStream().write(ascii("GET /api/runs/" + runId + "/events HTTP/1.1\r\nHost: x\r\n"
                        + "Accept: text/event-stream\r\n\r\n"));
                InputStream in = s.getInputStream();
                byte[] buf = new byte[4096];
                assertThat(in.read(buf)).isPositive();
                Thread.sleep(120); // more frames queued for it, then it hangs up
            }
        }
        // 2. bodies over the codec's limit (4 MB): with a length (refused at once, drained), and chunked (cut by the codec)
        String huge = "{\"name\": \"" + "x".repeat(4_300_000) + "\"}";
        assertThat(post("/api/scenarios", huge)).startsWith("413");
        try (Socket s = socket()) {
            OutputStream out = s.getOutputStream();
            out.write(ascii("POST /api/scenarios HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n"));
            byte[] chunk = ascii("x".repeat(64 * 1024));
            try {
                for (int i = 0; i < 80; i++) {
                    out.write(ascii(Integer.toHexString(chunk.length) + "\r\n"));
                    out.write(chunk);
                    out.write(ascii("\r\n"));
                }
                out.write(ascii("0\r\n\r\n"));
            } catch (java.io.IOException closedByServer) {
                // the server answered and closed before the end: fine
            }
            String status = statusLine(s);
            assertThat(status == null || status.startsWith("HTTP/1.1 4")).as(String.valueOf(status)).isTrue();
            // A body of unknown length takes a large-body slot, given back when the exchange ends (LargeBodyGate's
            // doFinally), just after the answer goes out: the status line can reach the client first (a probe of this
            // request, 30 tries at load 4-5 on 2026-12-02: 26 still saw the slot held when the status line arrived, and
            // it came back 1-14 ms later with the connection still open). Step 3 needs both slots free, or its first
            // stalled client takes the last one, the second is refused 429 instead of holding one, and the wait for
            // both held below times out (the intermittent failure under load: steps 2 and 3 alone, 120 times at load
            // 6-10, left the stalled clients without both slots 3 times; with this wait, 0 of 160). So wait for the
            // slot, bounded, while this connection is still open: it must come back without the client hanging up.
            awaitFreeSlots(LargeBodyGate.LARGE_PERMITS, "large-body slots still held after the chunked body's refusal was answered");
        }
        // 3. large bodies refused 429 while both large-body slots are held by clients that stall mid-body
        List<Socket> stalled = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            Socket s = socket();
            s.getOutputStream().write(ascii("POST /api/scenarios HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 400000\r\n\r\n{" + " ".repeat(1023)));
            stalled.add(s);
        }
        // both slots taken before the next requests (waited for, not slept: CI's machine may be slow; the body
        // timeout, 30 s, counts from the taking and must outlast the second taking and the three refusals below even at load 30,
        // where 10 s did not: both slots were never held at once)
        awaitFreeSlots(0, "large-body slots free once both stalled clients hold one");
        for (int i = 0; i < 3; i++) {
            String big = "{" + " ".repeat(300_000) + "\"name\": \"large\", \"duration\": \"100ms\", \"machine\": {\"cpus\": 1}}";
            assertThat(post("/api/scenarios", big)).startsWith("429");
        }
        // the stalled ones: one hangs up mid-body, the other times out (408)
        stalled.get(0).close();
        assertThat(statusLine(stalled.get(1))).startsWith("HTTP/1.1 408");
        stalled.get(1).close();
        // 4. refusals that close their connection (Connection: close), with bodies, and a client gone mid-body
        for (int i = 0; i < 5; i++) {
            assertThat(post("/api/runs", "{\"scenarioId\": 5, \"pad\": \"" + "y".repeat(100_000) + "\"}")).startsWith("422");
            assertThat(post("/api/scenarios", "{not json" + " ".repeat(50_000))).startsWith("400");
            assertThat(post("/api/no-such-thing", "{}")).startsWith("404");
        }
        // the same refusals over a raw connection: each answer says Connection: close (the path above is the closing one)
        for (String[] req : List.of(new String[] {"/api/runs", "{\"scenarioId\": 5, \"pad\": \"" + "y".repeat(100_000) + "\"}", "422"},
                new String[] {"/api/scenarios", "{not json" + " ".repeat(50_000), "400"}, new String[] {"/api/no-such-thing", "{}", "404"})) {
            try (Socket s = socket()) {
                byte[] body = ascii(req[1]);
                s.getOutputStream().write(ascii("POST " + req[0] + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                        + "Content-Length: " + body.length + "\r\n\r\n"));
                s.getOutputStream().write(body);
                String head = head(s);
                assertThat(head).as(req[0]).startsWith("HTTP/1.1 " + req[2]).containsIgnoringCase("\nconnection: close");
            }
        }
        try (Socket s = socket()) {
            s.getOutputStream().write(ascii("POST /api/scenarios HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 200000\r\n\r\n{\"name\": \"" + "z".repeat(100_000)));
        }
        web();
        assertThat(leaks()).as("Netty LEAK reports").isEmpty();
    }

    /** Waits, at most 60 s (CI's loaded machine), until {@code n} large-body slots are free; fails saying {@code why}. */
    private void awaitFreeSlots(int n, String why) throws InterruptedException {
        long deadline = System.nanoTime() + 60_000_000_000L;
        while (gate.freeSlots() != n && System.nanoTime() < deadline) Thread.sleep(5);
        assertThat(gate.freeSlots()).as(why).isEqualTo(n);
    }

    /** The service still answers (every path above left it working). */
    private void web() throws Exception {
        assertThat(post("/api/runs", "{\"scenarioId\": \"e1-one-hog-10pct\"}")).startsWith("202");
    }

    /**
     * Collects garbage and allocates tracked buffers until the detector has had its chance to report: it reports a
     * leaked buffer when it tracks a new one after the leaked one was collected.
     */
    private static List<String> leaks() throws InterruptedException {
        for (int round = 0; round < 6; round++) {
            System.gc();
            Thread.sleep(200);
            for (int i = 0; i < 200; i++) {
                ByteBuf b = (i % 2 == 0 ? PooledByteBufAllocator.DEFAULT : UnpooledByteBufAllocator.DEFAULT).directBuffer(64);
                b.release();
                ByteBuf h = (i % 2 == 0 ? PooledByteBufAllocator.DEFAULT : UnpooledByteBufAllocator.DEFAULT).heapBuffer(64);
                h.release();
            }
        }
        return LEAKS.list.stream().map(ILoggingEvent::getFormattedMessage).filter(m -> m.contains("LEAK")).toList();
    }
}
