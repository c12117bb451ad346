package io.cfslab.api;

import static io.cfslab.api.KeepAliveAfterUnreadBodyTest.READ_TIMEOUT_MS;
import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.cfslab.api.KeepAliveAfterUnreadBodyTest.Response;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Connection-level kinds of fault a breaker run found (issue 13), each sent as raw bytes on a socket. No wall time
 * is asserted: a hang fails on the socket's generous read timeout, and every wait polls for its condition.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:connkinds-${random.uuid};DB_CLOSE_DELAY=-1", "cfslab.runs.execute=false"})
class ConnectionKindsTest {
    @LocalServerPort int port;
    @Autowired MeterRegistry meters;

    static String get(String path, String extra) {
        return "GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + extra + "\r\n";
    }

    /** Reads answers until the server closes the connection (or {@code max} answers came). */
    static List<Response> answers(Socket s, int max) throws IOException {
        List<Response> out = new ArrayList<>();
        InputStream in = s.getInputStream();
        while (out.size() < max) {
            in.mark(1);
            try {
                out.add(Response.read(in, false));
            } catch (IOException closed) {
                break;
            }
        }
        return out;
    }

    static Socket open(int port) throws IOException {
        Socket s = new Socket("127.0.0.1", port);
        s.setSoTimeout(READ_TIMEOUT_MS);
        return s;
    }

    static void send(Socket s, String bytes) throws IOException {
        s.getOutputStream().write(bytes.getBytes(StandardCharsets.ISO_8859_1));
        s.getOutputStream().flush();
    }

    /**
     * Pipelined requests, the last saying {@code Connection: close}: every one is answered, in order, and only the
     * last answer closes the connection (Reactor Netty answered the first and closed: {@link PipelinedClose}). Mixed
     * kinds: a JDBC read, an answer made on the event loop, a 404 (a refusal, which otherwise closes), an HTTP/1.0
     * request without keep-alive (a close as well).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"Connection: close", "HTTP/1.0"})
    void pipelinedRequestsBeforeACloseAreAllAnswered(String how) throws Exception {
        String last = how.equals("HTTP/1.0") ? "GET /api/scenarios/e1-one-hog-10pct/cgroups HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n"
                : get("/api/scenarios/e1-one-hog-10pct/cgroups", "Connection: close\r\n");
        try (Socket s = open(port)) {
            send(s, get("/api/scenarios/e1-one-hog-10pct", "") + get("/api/runs/nope", "")
                    + "OPTIONS /api/scenarios HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" + get("/api/experiments/ready-made", "")
                    + last);
            List<Response> got = answers(s, 10);
            assertThat(got).extracting(Response::status).containsExactly(200, 404, 200, 200, 200);
            for (Response r : got.subList(0, 4)) assertThat(r.headers().get("connection")).isNotEqualToIgnoringCase("close");
            // the last says close (HTTP/1.0: no keep-alive), and the connection closed after it (answers() read to the end)
            assertThat(got.get(4).headers().get("connection")).isIn("close", null);
        }
    }

    /** A request sent after the one that said close is not answered (RFC 9112 9.6), and the earlier ones are. */
    @Test
    void nothingAfterACloseIsAnsweredButEverythingBeforeIt() throws Exception {
        try (Socket s = open(port)) {
            send(s, get("/api/scenarios", "") + get("/api/scenarios/e1-one-hog-10pct", "Connection: close\r\n")
                    + get("/api/scenarios", ""));
            assertThat(answers(s, 10)).extracting(Response::status).containsExactly(200, 200);
        }
    }

    /** A refusal does not close a connection on which pipelined requests already wait: they are all answered. */
    @Test
    void aRefusalDoesNotDropThePipelinedRequestsBehindIt() throws Exception {
        try (Socket s = open(port)) {
            send(s, get("/api/runs/nope", "") + get("/api/nope", "") + get("/api/scenarios", ""));
            List<Response> got = answers(s, 3);
            assertThat(got).extracting(Response::status).containsExactly(404, 404, 200);
        }
        try (Socket s = open(port)) { // alone, a refusal still closes (CloseAfterErrorFilter)
            send(s, get("/api/runs/nope", ""));
            assertThat(answers(s, 2)).singleElement().satisfies(r ->
                    assertThat(r.headers().get("connection")).isEqualToIgnoringCase("close"));
        }
    }

    /**
     * A malformed chunk size in a request body is the client's error: Netty answers 400, and the service neither logs
     * an ERROR nor counts a 5xx in {@code http.server.requests} (it logged "500 Server Error" and counted a 500 when
     * its own answer to the cut-short body found the response already sent).
     */
    @Test
    void aMalformedChunkIsAClientErrorInLogsAndMetrics() throws Exception {
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        Logger client = (Logger) LoggerFactory.getLogger("io.cfslab.api.disconnected");
        Level was = client.getLevel();
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        root.addAppender(logged);
        client.setLevel(Level.DEBUG);
        try {
            List<String> bodies = List.of("zz\r\nabc\r\n0\r\n\r\n", "5\r\n{\"a\":\r\nzz\r\nabc\r\n0\r\n\r\n");
            for (String body : bodies) {
                try (Socket s = open(port)) {
                    send(s, "POST /api/scenarios HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                            + "Transfer-Encoding: chunked\r\n\r\n" + body);
                    List<Response> got = answers(s, 2);
                    assertThat(got).extracting(Response::status).containsExactly(400);
                }
            }
            // the exchanges that Netty cut short finish after its answer: wait until the service has dropped its own
            // answer to each (a generous deadline), then nothing may have been logged as an error or counted as a 5xx
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (dropped(logged) < bodies.size() && System.nanoTime() < deadline) Thread.sleep(50);
            assertThat(dropped(logged)).as(logged.list.toString()).isEqualTo(bodies.size());
            assertThat(logged.list).filteredOn(e -> e.getLevel().isGreaterOrEqual(Level.ERROR)).isEmpty();
            assertThat(meters.find("http.server.requests").timers()).noneSatisfy(t ->
                    assertThat(t.getId().getTag("status")).startsWith("5"));
        } finally {
            root.detachAppender(logged);
            client.setLevel(was);
        }
    }

    private static long dropped(ListAppender<ILoggingEvent> logged) {
        return List.copyOf(logged.list).stream().filter(e -> e.getFormattedMessage().contains("Netty answered 400 itself")).count();
    }

    /** {@code %ff} (not UTF-8) in a path or query is 400 at /path or /query, never a U+FFFD in a name. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"/api/scenarios/e1-one-hog-10pct/tasks/a%ffb", "/api/scenarios/e1-one-hog-10pct/tasks/%80",
            "/api/scenarios/e1-one-hog-10pct/tasks/%c0%af", "/api/scenarios/e1-one-hog-10pct/tasks/%ed%a0%80",
            "/api/scenarios?x=%ff"})
    void invalidPercentEncodedUtf8IsRefused(String target) throws Exception {
        try (Socket s = open(port)) {
            send(s, get(target, ""));
            Response r = answers(s, 1).get(0);
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.headers().get("content-type")).startsWith("application/problem+json");
            var p = ApiTestSupport.JSON.readTree(r.body());
            assertThat(p.path("pointer").asString()).isEqualTo(target.contains("?") ? "/query" : "/path");
            assertThat(p.path("detail").asString()).doesNotContain("\uFFFD");
        }
        try (Socket s = open(port)) { // not percent-encoding at all: Netty's own 400 (no body), before the service
            send(s, get("/api/scenarios/%zz", ""));
            assertThat(answers(s, 1).get(0).status()).isEqualTo(400);
        }
        try (Socket s = open(port)) { // valid UTF-8, encoded, still reaches the operation
            send(s, get("/api/scenarios/e1-one-hog-10pct/tasks/%C3%A9", ""));
            assertThat(answers(s, 1).get(0).status()).isEqualTo(404);
        }
    }
}
