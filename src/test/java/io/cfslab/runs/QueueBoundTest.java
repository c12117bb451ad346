package io.cfslab.runs;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.client.reactive.ReactorClientHttpConnector;
import org.springframework.test.web.reactive.server.WebTestClient;
import reactor.netty.http.client.HttpClient;
import tools.jackson.databind.JsonNode;

/**
 * The run queue is bounded: at most {@code cfslab.runs.queue.max} queued runs in all and
 * {@code max-per-client} of one client; beyond, 429 problem with {@code Retry-After}. A client is the token holder
 * with a token, and without one the whole local service ({@link io.cfslab.api.RunClients}): 127.0.0.1 and 127.0.0.2
 * (both loopback on Linux) are one client, so a second address does not get a second share (a breaker's finding).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:queuebound-${random.uuid};DB_CLOSE_DELAY=-1;WRITE_DELAY=0",
        "cfslab.runs.execute=false", "cfslab.runs.queue.max=3", "cfslab.runs.queue.max-per-client=2",
        "cfslab.runs.queue.retry-after=7s"})
class QueueBoundTest {
    @LocalServerPort int port;

    WebTestClient client(String sourceAddress) {
        HttpClient http = HttpClient.create().bindAddress(() -> new InetSocketAddress(sourceAddress, 0));
        return WebTestClient.bindToServer(new ReactorClientHttpConnector(http)).baseUrl("http://127.0.0.1:" + port)
                .responseTimeout(Duration.ofSeconds(30)).build();
    }

    static WebTestClient.ResponseSpec submit(WebTestClient web) {
        return web.post().uri("/api/runs").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"scenarioId\": \"e1-one-hog-10pct\"}").exchange();
    }

    static void refused(WebTestClient.ResponseSpec spec, String reason) {
        byte[] body = spec.expectStatus().isEqualTo(HttpStatus.TOO_MANY_REQUESTS)
                .expectHeader().valueEquals(HttpHeaders.RETRY_AFTER, "7")
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody().returnResult().getResponseBody();
        JsonNode p = RunsTestSupport.JSON.readTree(new String(body));
        assertThat(p.path("status").asInt()).isEqualTo(429);
        assertThat(p.path("errno").asString()).isEqualTo("EAGAIN");
        assertThat(p.path("detail").asString()).contains(reason);
    }

    @Test
    void everyLocalAddressSharesOneShareAndTheQueueHasItsBound() {
        WebTestClient a = client("127.0.0.1");
        WebTestClient b = client("127.0.0.2");
        submit(a).expectStatus().isAccepted();
        String second = submit(b).expectStatus().isAccepted().expectBody().returnResult().getResponseHeaders()
                .getLocation().toString();
        refused(submit(a), "max-per-client) is 2");   // the share is full ...
        refused(submit(b), "max-per-client) is 2");   // ... from any other loopback address too
        // a run that leaves the queue makes room again
        a.post().uri(second + "/cancel").exchange().expectStatus().isAccepted();
        submit(b).expectStatus().isAccepted();
        refused(submit(a), "max-per-client) is 2");
    }

    @Test
    void theClientIsTheTokenHolderWithATokenAndTheLocalServiceWithout() {
        assertThat(new io.cfslab.api.RunClients("s3cret").client())
                .isEqualTo(io.cfslab.api.RunClients.TOKEN_HOLDER);
        assertThat(new io.cfslab.api.RunClients(null).client())
                .isEqualTo(io.cfslab.api.RunClients.LOCAL);
        assertThat(new io.cfslab.api.RunClients(" ").client())
                .isEqualTo(io.cfslab.api.RunClients.LOCAL);
    }
}
