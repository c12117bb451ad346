package io.cfslab.runs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.MediaType;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * The first run queued after idle starts at once, not at the queue's next poll: with a poll interval of 60 s, a
 * submitted run still leaves {@code queued} within seconds (the check for due runs is made again after the
 * submitting transaction commits; db-scheduler's own immediate check ran inside it, before the row was visible).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:immediate-${random.uuid};DB_CLOSE_DELAY=-1;WRITE_DELAY=0",
        "cfslab.runs.poll-interval=60s"})
@DirtiesContext
class ImmediateStartTest {
    @LocalServerPort int port;

    @Test
    void aRunSubmittedAfterIdleStartsWithoutWaitingForThePoll() throws Exception {
        WebTestClient web = WebTestClient.bindToServer().baseUrl("http://127.0.0.1:" + port)
                .responseTimeout(Duration.ofSeconds(30)).build();
        // idle: the scheduler's first poll at start is long over before the submit
        Thread.sleep(1500);
        for (int i = 0; i < 2; i++) {
            byte[] body = web.post().uri("/api/runs").contentType(MediaType.APPLICATION_JSON)
                    .bodyValue("{\"scenarioId\": \"e1-one-hog-10pct\"}").exchange()
                    .expectStatus().isAccepted().expectBody().returnResult().getResponseBody();
            String id = RunsTestSupport.JSON.readTree(new String(body)).path("id").asString();
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            String status = "queued";
            while (System.nanoTime() < deadline && status.equals("queued")) {
                Thread.sleep(50);
                JsonNode run = RunsTestSupport.JSON.readTree(new String(web.get().uri("/api/runs/" + id).exchange()
                        .expectStatus().isOk().expectBody().returnResult().getResponseBody()));
                status = run.path("status").asString();
            }
            assertThat(status).as("run %d left the queue long before the 60 s poll", i).isNotEqualTo("queued");
            // wait for the end so that the second submit also finds the queue idle
            while (System.nanoTime() < deadline && !status.equals("done")) {
                Thread.sleep(50);
                status = RunsTestSupport.JSON.readTree(new String(web.get().uri("/api/runs/" + id).exchange()
                        .expectBody().returnResult().getResponseBody())).path("status").asString();
            }
        }
    }
}
