package io.cfslab.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import io.cfslab.testsupport.EventLoopGuard;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.annotation.Import;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;

/** The server-rendered page shells, without a browser (the browser test skips where Chromium is missing). */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:pagestest-${random.uuid};DB_CLOSE_DELAY=-1", "cfslab.runs.execute=false"})
@AutoConfigureWebTestClient(timeout = "30s") // a loaded 2-core CI machine can take more than the default 5 s
@Import(EventLoopGuard.class)
class PagesTest {
    @Autowired
    WebTestClient web;

    /** The pages read the database on Jdbc's scheduler, never on the event loop. */
    @AfterEach
    void nothingBlockedTheEventLoop() {
        assertThat(EventLoopGuard.violations).isEmpty();
    }

    String page(String uri) {
        byte[] body = web.get().uri(uri).accept(MediaType.TEXT_HTML).exchange()
                .expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith(MediaType.TEXT_HTML)
                .expectBody().returnResult().getResponseBody();
        return new String(body, StandardCharsets.UTF_8);
    }

    @Test
    void homeListsTheReadyMadeScenariosWithRunButtons() {
        String html = page("/");
        assertThat(html).contains("data-page=\"home\"", "/ui/app.js", "/ui/app.css",
                "data-scenario-id=\"dashboard-demo\"", "data-scenario-id=\"seed03-functional\"", "class=\"run-btn\"");
        assertThat(html).doesNotContain("http://", "https://");
    }

    @Test
    void editorRunAndComparePagesRender() {
        assertThat(page("/scenarios/e1-one-hog-10pct")).contains("data-page=\"editor\"", "data-read-only=\"true\"",
                "E1 one hog at 10%", "Copy to edit");
        assertThat(page("/scenarios/new")).contains("data-page=\"editor\"", "data-read-only=\"false\"");
        assertThat(page("/compare?a=x&b=y")).contains("data-page=\"compare\"", "unknown run x");
        String id = web.post().uri("/api/runs").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"scenarioId\": \"e1-one-hog-10pct\"}").exchange().expectStatus().isAccepted()
                .expectBody(String.class).returnResult().getResponseBody().replaceAll(".*\"id\":\"([^\"]+)\".*", "$1");
        assertThat(page("/runs/" + id)).contains("data-page=\"run\"", "data-run-id=\"" + id + "\"", "id=\"run-progress\"",
                "id=\"cpustat-final\"", "E1 one hog at 10%");
    }

    @Test
    void experimentPageAndTheHomePagesExperiments() {
        String home = page("/");
        assertThat(home).contains("id=\"ready-made-experiments\"", "data-experiment-id=\"seed04-task-vs-task-account\"",
                "data-experiment-id=\"throttle-models-large-tree\"", "class=\"run-experiment-btn\"", "id=\"experiments-table\"",
                "<th>throttle</th>", "<th>machine</th>");
        String id = web.post().uri("/api/experiments").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"name\": \"e1 twice\", \"scenario_id\": \"e1-one-hog-10pct\", \"repeats\": 2,"
                        + " \"arms\": [{\"name\": \"a\"}, {\"name\": \"b\"}]}")
                .exchange().expectStatus().isAccepted()
                .expectBody(String.class).returnResult().getResponseBody().replaceAll("(?s).*?\"id\":\"([^\"]+)\".*", "$1");
        assertThat(page("/experiments/" + id)).contains("data-page=\"experiment\"", "data-experiment-id=\"" + id + "\"",
                "e1 twice", "id=\"arms\"", "id=\"summary-table\"", "id=\"exp-hist\"", "id=\"metric-plots\"",
                "/api/experiments/" + id + "/table?format=markdown");
    }

    @Test
    void unknownRunOrScenarioIs404() {
        web.get().uri("/experiments/nope").exchange().expectStatus().isNotFound();
        web.get().uri("/runs/nope").exchange().expectStatus().isNotFound();
        web.get().uri("/scenarios/nope").exchange().expectStatus().isNotFound();
    }
}
