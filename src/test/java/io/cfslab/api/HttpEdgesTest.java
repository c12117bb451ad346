package io.cfslab.api;

import static io.cfslab.api.ConnectionKindsTest.open;
import static io.cfslab.api.ConnectionKindsTest.send;
import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.api.KeepAliveAfterUnreadBodyTest.Response;
import java.io.BufferedInputStream;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Requests at the edges of HTTP (issue 13, breaker findings), each sent as raw bytes, each answered as RFC 9110 / 9112
 * say, with a problem wherever the server answers a refusal itself ({@link RequestEdgeFilter}); and the order of the
 * checks of a write: 404 (no such scenario), then 409 (read-only), then 422 (the content), as docs/api.md says. No
 * wall time is asserted: a hang fails on the socket's generous read timeout.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:edges-${random.uuid};DB_CLOSE_DELAY=-1", "cfslab.runs.execute=false"})
class HttpEdgesTest {
    static final String READY_MADE = "seed03-functional";
    /** A group of {@link #READY_MADE}. */
    static final String READY_MADE_GROUP = "1";
    @LocalServerPort int port;

    Response exchange(String request) throws Exception {
        try (Socket s = open(port)) {
            send(s, request);
            return Response.read(new BufferedInputStream(s.getInputStream()), false);
        }
    }

    static String body(Response r) {
        return new String(r.body(), StandardCharsets.UTF_8);
    }

    /** RFC 9112 §3.2: "A server MUST respond with a 400 (Bad Request) ... [to a request] that lacks a Host header field
     * and to any request message that contains more than one Host header field line". HTTP/1.0 may leave it out. */
    @Test
    void anHttp11RequestWithoutOneHostIs400() throws Exception {
        for (String headers : new String[]{"", "Host: a\r\nHost: b\r\n"}) {
            Response r = exchange("GET /api/scenarios/" + READY_MADE + " HTTP/1.1\r\n" + headers + "\r\n");
            assertThat(r.status()).as(headers).isEqualTo(400);
            assertThat(r.headers().get("content-type")).startsWith("application/problem+json");
            assertThat(body(r)).contains("\"pointer\":\"/headers/Host\"");
        }
        assertThat(exchange("GET /api/scenarios/" + READY_MADE + " HTTP/1.0\r\n\r\n").status()).isEqualTo(200);
    }

    /** RFC 9110 §10.1.4: TE names the transfer codings the client accepts in the answer; a server may use none. */
    @Test
    void teGzipIsAnsweredPlainly() throws Exception {
        Response r = exchange("GET /api/scenarios/" + READY_MADE + " HTTP/1.1\r\nHost: x\r\nTE: gzip\r\n"
                + "Connection: close\r\n\r\n");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.headers()).doesNotContainKey("content-encoding");
        assertThat(body(r)).contains("\"id\":\"" + READY_MADE + "\"");
    }

    /** RFC 9110 §10.1.1: the server answers 100 (Continue) to an Expect it will take, then the final answer. */
    @Test
    void expectContinueGets100ThenTheAnswer() throws Exception {
        String doc = ApiTestSupport.tiny("expect");
        byte[] bytes = doc.getBytes(StandardCharsets.UTF_8);
        try (Socket s = open(port)) {
            send(s, "POST /api/scenarios HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: "
                    + bytes.length + "\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n");
            InputStream in = new BufferedInputStream(s.getInputStream());
            Response interim = Response.read(in, true);
            assertThat(interim.status()).isEqualTo(100);
            s.getOutputStream().write(bytes);
            s.getOutputStream().flush();
            Response r = Response.read(in, false);
            assertThat(r.status()).as(body(r)).isEqualTo(201);
        }
    }

    /** RFC 9110 §9.3.7: OPTIONS of a resource that does not exist is its 404; of one that does, Allow. */
    @Test
    void optionsOfUnknownIdsIs404AndOfKnownOnesListsAllow() throws Exception {
        for (String path : new String[]{"/api/runs/nope", "/api/runs/nope/result", "/api/scenarios/nope",
                "/api/scenarios/nope/cgroups/a/cpu.max", "/api/experiments/nope", "/api/experiments/ready-made/nope"}) {
            Response r = exchange("OPTIONS " + path + " HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(r.status()).as(path).isEqualTo(404);
            assertThat(r.headers().get("content-type")).as(path).startsWith("application/problem+json");
            assertThat(body(r)).as(path).contains("\"errno\":\"ENOENT\"");
        }
        Response known = exchange("OPTIONS /api/scenarios/" + READY_MADE + " HTTP/1.1\r\nHost: x\r\n\r\n");
        assertThat(known.status()).isEqualTo(200);
        assertThat(known.headers().get("allow")).contains("GET").contains("PUT").contains("DELETE");
        assertThat(known.headers()).doesNotContainKey("accept-patch"); // RFC 5789 3.1: a non-empty list, or none
        Response collection = exchange("OPTIONS /api/runs HTTP/1.1\r\nHost: x\r\n\r\n");
        assertThat(collection.status()).isEqualTo(200);
        assertThat(collection.headers().get("allow")).contains("POST");
    }

    /** RFC 9110 §9.3.7: {@code OPTIONS *} asks about the server as a whole. */
    @Test
    void optionsStarDescribesTheServer() throws Exception {
        Response r = exchange("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.headers().get("allow")).isEqualTo(RequestEdgeFilter.SERVER_ALLOW);
        assertThat(r.body()).isEmpty();
    }

    /** RFC 9110 §15.5.6: "The origin server MUST generate an Allow header field in a 405 response". */
    @Test
    void a405ListsAllowAndIsAProblem() throws Exception {
        for (String request : new String[]{"PATCH /api/runs", "DELETE /api/scenarios",
                "DELETE /api/scenarios/" + READY_MADE + "/cgroups/1/cpu.max"}) {
            Response r = exchange(request + " HTTP/1.1\r\nHost: x\r\n\r\n");
            assertThat(r.status()).as(request).isEqualTo(405);
            assertThat(r.headers().get("allow")).as(request).isNotBlank();
            assertThat(r.headers().get("content-type")).as(request).startsWith("application/problem+json");
        }
    }

    /** A request target over 4096 bytes: 414 problem without {@code instance} (RFC 9457 §3.1.5 makes it optional;
     * the target is what is too long to echo), as docs/api.md says. */
    @Test
    void a414IsAProblemWithoutInstance() throws Exception {
        Response r = exchange("GET /api/runs/" + "a".repeat(5000) + " HTTP/1.1\r\nHost: x\r\n\r\n");
        assertThat(r.status()).isEqualTo(414);
        assertThat(r.headers().get("content-type")).startsWith("application/problem+json");
        assertThat(body(r)).contains("\"errno\":\"ENAMETOOLONG\"").doesNotContain("\"instance\"");
    }

    /** Order of a write's checks (docs/api.md, "Order of checks"): 404, then 409, then 422. */
    @Test
    void aWriteIs404Then409Then422() throws Exception {
        String[][] writes = {
                {"PUT", "/cgroups/a%20b", null, null}, // a name the parser refuses (422 on a writable scenario)
                {"PUT", "/cgroups/a/cpu.max", "text/plain", "zz"},
                {"POST", "/tasks", "application/json", "{\"count\": -1}"},
                {"POST", "/timeline", "application/json", "{\"at\": \"x\"}"},
                {"POST", "/cgroups:generate", "application/json", "{\"levels\": \"x\"}"},
                {"PUT", "", "application/json", "{\"duration\": \"x\"}"}};
        String stored = ApiTestSupport.JSON.readTree(body(exchange(post("/api/scenarios", "application/json",
                ApiTestSupport.tiny("order"))))).path("id").asString();
        for (String[] w : writes) {
            assertThat(exchange(request(w, "/api/scenarios/nope")).status()).as("unknown " + w[1]).isEqualTo(404);
            // on the ready-made one, a group it has (a missing one is 404 first, breaker 9 F27)
            String[] ready = {w[0], w[1].replace("/cgroups/a/", "/cgroups/" + READY_MADE_GROUP + "/"), w[2], w[3]};
            assertThat(exchange(request(ready, "/api/scenarios/" + READY_MADE)).status()).as("ready-made " + ready[1]).isEqualTo(409);
            assertThat(exchange(request(w, "/api/scenarios/" + stored)).status()).as("stored " + w[1]).isEqualTo(422);
        }
    }

    static String post(String path, String type, String body) {
        return request(new String[]{"POST", "", type, body}, path);
    }

    static String request(String[] w, String base) {
        byte[] b = w[3] == null ? new byte[0] : w[3].getBytes(StandardCharsets.UTF_8);
        return w[0] + " " + base + w[1] + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
                + (w[2] == null ? "" : "Content-Type: " + w[2] + "\r\n") + "Content-Length: " + b.length + "\r\n\r\n"
                + new String(b, StandardCharsets.ISO_8859_1);
    }
}
