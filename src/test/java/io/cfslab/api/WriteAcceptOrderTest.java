package io.cfslab.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.testsupport.TestApps;
import io.cfslab.testsupport.TestDatabase;
import java.util.Locale;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * Breaker 9 F20 and F23, the {@code Accept} of a write, walked over every write of the OpenAPI document: the request's
 * syntax comes first (an unknown query parameter, a malformed {@code If-Match}: 400, where the write's 406 won); a
 * write whose success is 204 with no body (every {@code DELETE}, a cgroup file's {@code PUT}) is not refused for its
 * {@code Accept} (there is no representation to negotiate: {@code Accept: text/plain} on a file write was 406); any
 * other write with an {@code Accept} that takes no JSON is 406 and changes nothing. Each write carries an
 * {@code If-Match} no tag matches, so none is performed.
 */
class WriteAcceptOrderTest {
    private static ConfigurableApplicationContext app;
    private static WebTestClient web;
    private static final String NO_SUCH_TAG = "\"no-such-tag\"";

    @BeforeAll
    static void start() {
        app = TestApps.start(TestDatabase.h2("writeaccept"), "writeaccept", Map.of("cfslab.runs.execute", "false"));
        web = TestApps.client(app);
    }

    @AfterAll
    static void stop() { app.close(); }

    private static EntityExchangeResult<byte[]> send(HttpMethod method, String uri, String type, String body, String... headers) {
        var spec = web.method(method).uri(uri);
        for (int i = 0; i < headers.length; i += 2) spec = spec.header(headers[i], headers[i + 1]);
        return (body == null ? spec : spec.contentType(MediaType.parseMediaType(type)).bodyValue(body)).exchange()
                .expectBody().returnResult();
    }

    private static String text(EntityExchangeResult<byte[]> r) {
        return r.getResponseBody() == null ? "" : new String(r.getResponseBody());
    }

    @Test
    void aWritesSyntaxComesBeforeItsAcceptAndANoBodyWriteIsNotNegotiated() {
        String scenario = ApiTestSupport.createScenario(web, "{\"name\": \"w\", \"duration\": \"100ms\", \"cgroups\": [{\"path\": \"/a\"}]}");
        String etag = ScenarioWrite.etag(web, scenario);
        JsonNode paths = ApiTestSupport.JSON.readTree(new String(web.get().uri("/v3/api-docs").exchange()
                .expectStatus().isOk().expectBody().returnResult().getResponseBody())).path("paths");
        SoftAssertions soft = new SoftAssertions();
        int noBody = 0, negotiated = 0;
        for (var path : paths.properties()) {
            String t = path.getKey();
            if (!t.startsWith("/api/")) continue;
            String uri = t.replace("{id}", scenario).replace("{path}", "a").replace("{file}", "cpu.weight")
                    .replace("{name}", "nop").replace("{index}", "0").replaceAll("\\{[^}]+}", "x");
            for (var op : path.getValue().properties()) {
                HttpMethod method = HttpMethod.valueOf(op.getKey().toUpperCase(Locale.ROOT));
                if (method != HttpMethod.POST && method != HttpMethod.PUT && method != HttpMethod.PATCH && method != HttpMethod.DELETE) continue;
                JsonNode content = op.getValue().path("requestBody").path("content");
                String type = content.has("text/plain") ? "text/plain" : content.has("application/json") ? "application/json" : null;
                String body = type == null ? null : type.equals("text/plain") ? "100" : "{}";
                String what = method + " " + uri;
                var query = send(method, uri + "?bogus=1", type, body, "Accept", "image/png", "If-Match", NO_SUCH_TAG);
                soft.assertThat(query.getStatus().value()).as(what + "?bogus=1 Accept image/png: " + text(query)).isIn(400, 405);
                var ifMatch = send(method, uri, type, body, "Accept", "image/png", "If-Match", "garbage");
                soft.assertThat(ifMatch.getStatus().value()).as(what + " If-Match garbage, Accept image/png: " + text(ifMatch)).isIn(400, 405);
                boolean empty = op.getValue().path("responses").properties().stream()
                        .filter(r -> r.getKey().startsWith("2")).allMatch(r -> r.getKey().equals("204"));
                boolean any2xx = op.getValue().path("responses").properties().stream().anyMatch(r -> r.getKey().startsWith("2"));
                if (!any2xx) continue;
                var plain = send(method, uri, type, body, "Accept", "text/plain", "If-Match", NO_SUCH_TAG);
                if (empty) {
                    noBody++;
                    soft.assertThat(plain.getStatus().value()).as(what + " (204) Accept text/plain: " + text(plain)).isNotEqualTo(406);
                } else {
                    negotiated++;
                    soft.assertThat(plain.getStatus().value()).as(what + " Accept text/plain: " + text(plain)).isIn(406, 405);
                }
            }
        }
        soft.assertAll();
        assertThat(noBody).as("writes answering 204 walked (DELETEs, a file's PUT)").isGreaterThanOrEqualTo(5);
        assertThat(negotiated).as("writes answering JSON walked").isGreaterThanOrEqualTo(5);
        assertThat(ScenarioWrite.etag(web, scenario)).as("nothing performed").isEqualTo(etag);
        // a 204 write without a condition is done whatever Accept says: the file's own type
        web.put().uri("/api/scenarios/" + scenario + "/cgroups/a/cpu.weight").header("Accept", "text/plain")
                .contentType(MediaType.TEXT_PLAIN).bodyValue("250").exchange().expectStatus().isNoContent();
        web.put().uri("/api/scenarios/" + scenario + "/cgroups/b").exchange().expectStatus().isCreated();
        web.delete().uri("/api/scenarios/" + scenario + "/cgroups/b").header("Accept", "text/plain").exchange().expectStatus().isNoContent();
    }
}
