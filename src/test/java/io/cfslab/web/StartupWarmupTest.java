package io.cfslab.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.test.web.reactive.server.WebTestClient;

/** The self warm-up after start: it sends its rounds through the real HTTP stack, and health says when it is over. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:warmuptest-${random.uuid};DB_CLOSE_DELAY=-1", "cfslab.runs.execute=false",
        "cfslab.warmup.rounds=6"})
@AutoConfigureWebTestClient(timeout = "30s")
class StartupWarmupTest {
    @Autowired
    WebTestClient web;
    @Autowired
    StartupWarmup warmup;

    @Test
    void sendsItsRoundsThenHealthIsUp() throws Exception {
        warmup.await(Duration.ofSeconds(60));
        assertThat(warmup.health().getStatus().getCode()).isEqualTo("UP");
        web.get().uri("/actuator/health").exchange().expectStatus().isOk()
                .expectBody().jsonPath("$.status").isEqualTo("UP");
        // every round requested the home page and the scenario list once (the server's own request metrics)
        for (String uri : new String[] {"/", "/api/scenarios"}) {
            web.get().uri(u -> u.path("/actuator/metrics/http.server.requests").queryParam("tag", "uri:" + uri).build())
                    .exchange().expectStatus().isOk()
                    .expectBody().jsonPath("$.measurements[?(@.statistic == 'COUNT')].value").value(v ->
                            assertThat(((java.util.List<?>) v).get(0).toString()).satisfies(c ->
                                    assertThat(Double.parseDouble(c)).isGreaterThanOrEqualTo(6.0)));
        }
    }

    @Test
    void outOfServiceWhileItRuns() {
        StartupWarmup running = new StartupWarmup(new org.springframework.mock.env.MockEnvironment()
                .withProperty("local.server.port", "1"), null, 5);
        assertThat(running.health().getStatus().getCode()).isEqualTo("OUT_OF_SERVICE");
    }
}
