package io.cfslab.api;

import static io.cfslab.api.ApiTestSupport.createScenario;
import static io.cfslab.api.ApiTestSupport.problem;
import static io.cfslab.api.ApiTestSupport.tiny;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * Each kind of bad input the reliability run found answers a 4xx problem, never a 500: integers beyond
 * 64 bits, texts longer than their columns, names that URLs cannot carry as they are, invalid UTF-8, and
 * oversized headers, targets and bodies.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:badinput-${random.uuid};DB_CLOSE_DELAY=-1;WRITE_DELAY=0",
        "cfslab.runs.execute=false"})
@AutoConfigureWebTestClient(timeout = "30s")
class BadInputTest {
    static final String HUGE = "123456789012345678901234567890";

    @Autowired WebTestClient web;
    @LocalServerPort int port;

    WebTestClient.ResponseSpec post(String uri, String body) {
        return web.post().uri(uri).contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    @Test
    void integersBeyond64BitsAreRangeErrors() {
        String id = createScenario(web, tiny("ints"));
        problem(post("/api/runs", "{\"scenarioId\": \"" + id + "\", \"repeats\": " + HUGE + "}"),
                HttpStatus.UNPROCESSABLE_CONTENT, "/repeats", "ERANGE");
        problem(post("/api/runs", "{\"scenarioId\": \"" + id + "\", \"repeats\": -" + HUGE + "}"),
                HttpStatus.UNPROCESSABLE_CONTENT, "/repeats", "ERANGE");
        problem(post("/api/runs", "{\"scenarioId\": \"" + id + "\", \"seed\": " + HUGE + "}"),
                HttpStatus.UNPROCESSABLE_CONTENT, "/seed", null);
        String base = "{\"name\": \"n\", \"duration\": \"200ms\", \"machine\": {\"cpus\": 1}";
        problem(post("/api/scenarios", base + ", \"generate\": [{\"under\": \"/\", \"levels\": [" + HUGE + "]}]}"),
                HttpStatus.UNPROCESSABLE_CONTENT, null, null);
        problem(post("/api/scenarios", base + ", \"generate\": [{\"under\": \"/\", \"levels\": [2, -" + HUGE + "]}]}"),
                HttpStatus.UNPROCESSABLE_CONTENT, null, null);
        problem(post("/api/scenarios", base + ", \"tasks\": [{\"name\": \"t\", \"count\": " + HUGE
                + ", \"workload\": {\"kind\": \"hog\"}}]}"), HttpStatus.UNPROCESSABLE_CONTENT, "/tasks/0/count", null);
        problem(post("/api/scenarios", base + ", \"tasks\": [{\"name\": \"t\", \"count\": -" + HUGE
                + ", \"workload\": {\"kind\": \"hog\"}}]}"), HttpStatus.UNPROCESSABLE_CONTENT, "/tasks/0/count", null);
        problem(post("/api/scenarios", "{\"name\": \"n\", \"duration\": " + HUGE + ", \"machine\": {\"cpus\": " + HUGE + "}}"),
                HttpStatus.UNPROCESSABLE_CONTENT, null, null);
        problem(post("/api/scenarios/" + id + "/tasks", "{\"name\": \"t\", \"count\": " + HUGE
                + ", \"workload\": {\"kind\": \"hog\"}}"), HttpStatus.UNPROCESSABLE_CONTENT, "/tasks/1/count", null);
        problem(web.get().uri("/api/scenarios/" + id + "/timeline/" + HUGE).exchange(), HttpStatus.BAD_REQUEST,
                "/index", "ERANGE");
        problem(web.get().uri("/api/runs/x/result?repeat=" + HUGE).exchange(), HttpStatus.BAD_REQUEST, "/repeat", "ERANGE");
    }

    /**
     * Numbers of more digits than Jackson reads (1,000) are range errors naming their field, as shorter ones beyond 64
     * bits are (they were 400 "Malformed JSON" at the body).
     */
    @Test
    void numbersOverAThousandDigitsNameTheirField() {
        String digits = "9".repeat(1200);
        String id = createScenario(web, tiny("long-numbers"));
        problem(post("/api/runs", "{\"scenarioId\": \"" + id + "\", \"repeats\": " + digits + "}"),
                HttpStatus.UNPROCESSABLE_CONTENT, "/repeats", "ERANGE");
        problem(post("/api/runs", "{\"scenarioId\": \"" + id + "\", \"seed\": -" + digits + "}"),
                HttpStatus.UNPROCESSABLE_CONTENT, "/seed", "ERANGE");
        problem(post("/api/scenarios", "{\"name\": \"n\", \"machine\": {\"cpus\": " + digits + "}}"),
                HttpStatus.UNPROCESSABLE_CONTENT, "/machine/cpus", "ERANGE");
        problem(post("/api/scenarios", "{\"name\": \"n\", \"generate\": [{\"under\": \"/\", \"levels\": [2, 0." + digits
                + "]}]}"), HttpStatus.UNPROCESSABLE_CONTENT, "/generate/0/levels/1", "ERANGE");
        problem(post("/api/scenarios/" + id + "/tasks", "{\"name\": \"t\", \"count\": " + digits + "}"),
                HttpStatus.UNPROCESSABLE_CONTENT, "/count", "ERANGE");
        // still malformed JSON when it is not JSON at all, whatever the digits
        problem(post("/api/scenarios", "{\"name\": " + digits + "x}"), HttpStatus.BAD_REQUEST, "", "EINVAL");
    }

    @Test
    void storedTextsAreCheckedAgainstTheirLimitsFirst() {
        String longName = "n".repeat(501);
        problem(post("/api/scenarios", tiny(longName)), HttpStatus.UNPROCESSABLE_CONTENT, "/name", "ENAMETOOLONG");
        problem(post("/api/runs", "{\"scenario\": " + tiny(longName) + "}"), HttpStatus.UNPROCESSABLE_CONTENT,
                "/scenario/name", "ENAMETOOLONG");
        String id = createScenario(web, tiny("n".repeat(500))); // the limit itself is fine
        problem(web.put().uri("/api/scenarios/" + id).contentType(MediaType.APPLICATION_JSON).bodyValue(tiny(longName))
                .exchange(), HttpStatus.UNPROCESSABLE_CONTENT, "/name", "ENAMETOOLONG");
        problem(post("/api/scenarios/" + id + "/tasks", "{\"name\": \"" + "é".repeat(128)
                + "\", \"cgroup\": \"/a\", \"workload\": {\"kind\": \"hog\"}}"), HttpStatus.UNPROCESSABLE_CONTENT,
                "/tasks/1/name", "ENAMETOOLONG");
    }

    /** Names are kept as written; Location encodes them, and following it finds the entry again. */
    @Test
    void taskNamesOfAnyCharacterLeadBackToThemselves() {
        String id = createScenario(web, tiny("names"));
        for (String name : List.of("a b", "50%", "x#y", "q?r", "a;b", "<tag>", "ünï", "a/b".replace("/", "\\\\"),
                "..x", "~", "%2F")) {
            String json = ApiTestSupport.JSON.writeValueAsString(java.util.Map.of("name", name, "cgroup", "/a",
                    "workload", java.util.Map.of("kind", "hog")));
            URI location = post("/api/scenarios/" + id + "/tasks", json).expectStatus().isCreated()
                    .expectBody().returnResult().getResponseHeaders().getLocation();
            assertThat(location.getRawPath()).startsWith("/api/scenarios/" + id + "/tasks/").doesNotContain("?", "#", ";");
            JsonNode got = ApiTestSupport.json(web.get().uri(URI.create("http://127.0.0.1:" + port + location.getRawPath()))
                    .exchange().expectStatus().isOk());
            assertThat(got.path("name").asString()).as("GET %s", location).isEqualTo(name);
        }
        // control characters: the parser refuses them in any string of a scenario
        problem(post("/api/scenarios/" + id + "/tasks", "{\"name\": \"nl\\nx\", \"cgroup\": \"/a\", "
                + "\"workload\": {\"kind\": \"hog\"}}"), HttpStatus.UNPROCESSABLE_CONTENT, "/tasks/12/name", null);
        for (String name : List.of(".", "..")) {
            problem(post("/api/scenarios/" + id + "/tasks", "{\"name\": \"" + name
                    + "\", \"cgroup\": \"/a\", \"workload\": {\"kind\": \"hog\"}}"), HttpStatus.UNPROCESSABLE_CONTENT,
                    "/tasks/12/name", "EINVAL");
        }
        // a cgroup path is restricted to [A-Za-z0-9_.-]: a mkdir's Location is the path itself
        URI mkdir = web.put().uri("/api/scenarios/" + id + "/cgroups/x.y/z_1").exchange().expectStatus().isCreated()
                .expectBody().returnResult().getResponseHeaders().getLocation();
        assertThat(mkdir.toString()).isEqualTo("/api/scenarios/" + id + "/cgroups/x.y/z_1");
    }

    /**
     * One class, one status: a body that is JSON but does not validate is 422 for every operation and every
     * kind of fault (the wrong shape of the whole body as much as a wrong type inside it); only a body that is not
     * JSON at all (syntax, duplicate key, invalid UTF-8) is 400.
     */
    @Test
    void aBodyThatIsJsonButDoesNotValidateIs422Everywhere() {
        String id = createScenario(web, tiny("shape"));
        for (String[] op : new String[][] {{"POST", "/api/scenarios"}, {"PUT", "/api/scenarios/" + id},
                {"POST", "/api/scenarios/" + id + "/tasks"}, {"POST", "/api/scenarios/" + id + "/timeline"},
                {"POST", "/api/scenarios/" + id + "/cgroups:generate"}, {"POST", "/api/runs"},
                {"POST", "/api/experiments"}}) {
            for (String body : List.of("[1, 2]", "\"text\"", "42", "true", "null", "{\"bogus\": []}")) {
                var spec = web.method(org.springframework.http.HttpMethod.valueOf(op[0])).uri(op[1])
                        .contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
                spec.expectStatus().value(s -> assertThat(s).as(op[0] + " " + op[1] + " " + body).isEqualTo(422));
            }
            for (String body : List.of("{\"a\": ", "{'a': 1}", "{\"a\": 1, \"a\": 2}")) {
                var spec = web.method(org.springframework.http.HttpMethod.valueOf(op[0])).uri(op[1])
                        .contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
                spec.expectStatus().value(s -> assertThat(s).as(op[0] + " " + op[1] + " " + body).isEqualTo(400));
            }
        }
    }

    @Test
    void invalidUtf8IsRefusedByEveryOperationThatReadsABody() {
        String id = createScenario(web, tiny("utf8"));
        byte[] bad = "{\"name\": \"caf\u00e9 \"}".getBytes(StandardCharsets.ISO_8859_1); // é as one byte 0xE9
        for (String[] op : new String[][] {{"POST", "/api/scenarios"}, {"PUT", "/api/scenarios/" + id},
                {"POST", "/api/scenarios/" + id + "/tasks"}, {"POST", "/api/scenarios/" + id + "/timeline"},
                {"POST", "/api/scenarios/" + id + "/cgroups:generate"}, {"POST", "/api/runs"}}) {
            var spec = web.method(org.springframework.http.HttpMethod.valueOf(op[0])).uri(op[1])
                    .contentType(MediaType.APPLICATION_JSON).bodyValue(bad).exchange();
            assertThat(problem(spec, HttpStatus.BAD_REQUEST, "", "EINVAL").path("detail").asString())
                    .as(op[0] + " " + op[1]).contains("not valid UTF-8");
        }
        // a cgroup file's body is bytes, as the kernel reads them (FaultKindsTest): cpu.max's sscanf reads the quota's
        // digits and ignores the byte 0xff after them, as the kernel does
        web.put().uri("/api/scenarios/" + id + "/cgroups/a/cpu.max").contentType(MediaType.TEXT_PLAIN)
                .bodyValue(new byte[] {'5', '0', '0', '0', (byte) 0xff}).exchange().expectStatus().isNoContent();
    }

    @Test
    void oversizedRequestsAreProblemsUpToNettysOwnLimits() throws Exception {
        problem(web.get().uri("/api/runs").header("X-Big", "a".repeat(20_000)).exchange(),
                HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "/headers", "E2BIG");
        problem(web.get().uri("/api/runs/" + "r".repeat(5000)).exchange(), HttpStatus.URI_TOO_LONG, "/path", "ENAMETOOLONG");
        byte[] five = new byte[5 << 20];
        java.util.Arrays.fill(five, (byte) ' ');
        problem(web.post().uri("/api/scenarios").contentType(MediaType.APPLICATION_JSON).bodyValue(five).exchange(),
                HttpStatus.CONTENT_TOO_LARGE, "", "EFBIG");
        // without a Content-Length (chunked), the codec stops reading at the same limit: a 413 problem, then the
        // connection closes with the rest unread, which a client still sending may see as a reset instead
        String chunked = raw("POST /api/scenarios HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n" + Integer.toHexString(five.length) + "\r\n", five, "\r\n0\r\n\r\n");
        if (!chunked.equals(RESET)) {
            assertThat(chunked).startsWith("HTTP/1.1 413").contains("application/problem+json").contains("\"status\":413")
                    .contains("\"errno\":\"EFBIG\""); // as with a Content-Length (a breaker found EINVAL)
        }
        // beyond what Netty reads (docs/api.md): its own answers, without a body
        assertThat(raw("GET /api/runs HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(70_000) + "\r\n\r\n", null, ""))
                .startsWith("HTTP/1.1 431");
        assertThat(raw("GET /api/runs HTTP/1.1\r\nHost: x\r\nX-Bad: a\u0001b\r\n\r\n", null, "")).startsWith("HTTP/1.1 400");
    }

    /**
     * A refusal sent before the request's body was read (no route, 405, the firewall's 400, a bad path variable)
     * reads the body first: a client that sends the whole body before it reads gets the answer, not a reset.
     */
    @Test
    void refusalsBeforeTheBodyIsReadStillReachAClientThatSendsItAll() throws Exception {
        byte[] body = new byte[300_000];
        java.util.Arrays.fill(body, (byte) ' ');
        for (String[] r : new String[][] {{"PUT", "/api/scenarios/x/cgroups/%0A/cpu.max", "400"}, {"POST", "/api/nothing", "404"},
                {"PUT", "/api/scenarios", "405"}, {"POST", "/api/scenarios/x/timeline/abc", "400"},
                {"PATCH", "/api/scenarios/x/tasks/t", "404"},
                {"POST", "/api/runs", "415"}}) {
            String head = r[0] + " " + r[1] + " HTTP/1.1\r\nHost: x\r\nContent-Type: " + (r[2].equals("415") ? "text/csv" : "text/plain")
                    + "\r\nContent-Length: " + body.length + "\r\n\r\n";
            for (int i = 0; i < 5; i++) {
                String answer;
                try {
                    answer = raw(head, body, "");
                } catch (java.io.IOException e) {
                    throw new AssertionError(r[0] + " " + r[1] + ", attempt " + i + ": " + e, e);
                }
                assertThat(answer).as(r[0] + " " + r[1]).startsWith("HTTP/1.1 " + r[2]).contains("application/problem+json");
            }
        }
    }

    static final String RESET = "(connection reset)";

    /** Sends bytes as they are and reads the answer until the server closes (every refusal closes). */
    String raw(String head, byte[] body, String tail) throws Exception {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            try {
                out.write(head.getBytes(StandardCharsets.ISO_8859_1));
                if (body != null) out.write(body);
                out.write(tail.getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            } catch (java.io.IOException closedEarly) {
                // the server answered and closed before reading all of it: read what it said
            }
            InputStream in = s.getInputStream();
            java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
            try {
                in.transferTo(got);
            } catch (java.net.SocketException reset) {
                if (got.size() == 0) return RESET;
            }
            return got.toString(StandardCharsets.ISO_8859_1);
        }
    }
}
