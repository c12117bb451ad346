package io.cfslab.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
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
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The two slots for large bodies ({@link LargeBodyGate}) cannot be held by clients that do not earn them: a
 * request without the token is answered 401 without taking one, and a client that stalls in the middle of its
 * body loses its slot after {@code cfslab.http.large-body-timeout} (408), after which others get through.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:gate-${random.uuid};DB_CLOSE_DELAY=-1;WRITE_DELAY=0",
        "cfslab.runs.pool-size=1", "cfslab.security.token=" + LargeBodyGateTest.TOKEN,
        "cfslab.http.large-body-timeout=5s"})
class LargeBodyGateTest {
    static final String TOKEN = "gate-token";
    static final int LENGTH = 400_000;

    @LocalServerPort int port;
    @Autowired LargeBodyGate gate;

    /** Sends the headers of a large POST and the first KB of its body, then stalls. */
    Socket stalled(boolean authenticated) throws Exception {
        Socket s = new Socket("127.0.0.1", port);
        s.setSoTimeout(30_000);
        OutputStream out = s.getOutputStream();
        out.write(("POST /api/scenarios HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + (authenticated ? "Authorization: Bearer " + TOKEN + "\r\n" : "")
                + "Content-Length: " + LENGTH + "\r\n\r\n{" + " ".repeat(1023)).getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return s;
    }

    static String statusLine(Socket s) throws Exception {
        return new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII)).readLine();
    }

    /** A whole large scenario (valid: whitespace pads it over 256 KB), with the token. */
    int post() throws Exception {
        String body = "{" + " ".repeat(300_000) + "\"name\": \"large\", \"duration\": \"100ms\", \"machine\": {\"cpus\": 1}}";
        HttpResponse<String> r = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/scenarios"))
                        .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                        .header("Authorization", "Bearer " + TOKEN)
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        return r.statusCode();
    }

    static void awaitFreeSlots(LargeBodyGate gate, int n) throws InterruptedException {
        for (int i = 0; i < 200 && gate.freeSlots() != n; i++) Thread.sleep(25);
        assertThat(gate.freeSlots()).isEqualTo(n);
    }

    @Test
    void unauthenticatedClientsTakeNoSlot() throws Exception {
        List<Socket> anonymous = new ArrayList<>();
        for (int i = 0; i < 3; i++) anonymous.add(stalled(false));
        try {
            Thread.sleep(300);
            assertThat(gate.freeSlots()).isEqualTo(LargeBodyGate.LARGE_PERMITS);
            assertThat(post()).as("three stalled anonymous bodies hold no slot").isEqualTo(201);
            // each reads its 401 once its body is in (the security answers after draining it, not with a reset)
            for (Socket s : anonymous) {
                s.getOutputStream().write(" ".repeat(LENGTH - 1025).concat("}").getBytes(StandardCharsets.US_ASCII));
                assertThat(statusLine(s)).startsWith("HTTP/1.1 401");
            }
        } finally {
            for (Socket s : anonymous) s.close();
        }
    }

    @Test
    void aStalledBodyLosesItsSlot() throws Exception {
        List<Socket> slow = List.of(stalled(true), stalled(true));
        try {
            awaitFreeSlots(gate, 0);
            assertThat(post()).as("both slots are taken").isEqualTo(429);
            long t0 = System.nanoTime();
            for (Socket s : slow) assertThat(statusLine(s)).startsWith("HTTP/1.1 408");
            assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(15));
            awaitFreeSlots(gate, LargeBodyGate.LARGE_PERMITS);
            assertThat(post()).isEqualTo(201);
        } finally {
            for (Socket s : slow) s.close();
        }
    }
}
