package io.cfslab.runs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.MediaType;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * A stopped context can be started again and still executes runs: Spring's test context cache stops an idle
 * context and starts it when a later test class needs it, and the run queue used to fail there ("Failed to start
 * bean 'runQueue'": db-scheduler's executors, and the worker's ticker, were terminated at the stop).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties =
        "spring.datasource.url=jdbc:h2:mem:lifecycle-${random.uuid};DB_CLOSE_DELAY=-1;WRITE_DELAY=0")
@DirtiesContext
class LifecycleRestartTest {
    @Autowired ConfigurableApplicationContext context;
    @Autowired RunQueue queue;

    @Test
    void aRunSubmittedAfterAStopAndStartIsExecuted() throws Exception {
        for (int cycle = 0; cycle < 2; cycle++) {
            context.stop();
            assertThat(queue.isRunning()).isFalse();
            context.start();
            assertThat(queue.isRunning()).isTrue();
        }
        // the web server starts again too, on a new random port
        int port = ((org.springframework.boot.web.server.context.WebServerApplicationContext) context).getWebServer().getPort();
        WebTestClient web = WebTestClient.bindToServer().baseUrl("http://127.0.0.1:" + port)
                .responseTimeout(Duration.ofSeconds(60)).build();
        byte[] body = web.post().uri("/api/runs").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"scenarioId\": \"e1-one-hog-10pct\"}").exchange()
                .expectStatus().isAccepted().expectBody().returnResult().getResponseBody();
        String id = RunsTestSupport.JSON.readTree(new String(body)).path("id").asString();
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos(); // generous: a loaded CI machine
        String status = "queued";
        while (System.nanoTime() < deadline && !status.equals("done") && !status.equals("failed")) {
            Thread.sleep(100);
            status = RunsTestSupport.JSON.readTree(new String(web.get().uri("/api/runs/" + id).exchange()
                    .expectStatus().isOk().expectBody().returnResult().getResponseBody())).path("status").asString();
        }
        assertThat(status).as("the run after two stop/start cycles").isEqualTo("done");
    }
}
