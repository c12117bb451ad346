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
        assertThat(page("/compare?a=x&b=y")).contains("data-page=\"compare\"", "no run x");
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
                "throttle model / unthrottle mode · kernel version · HZ · machine\">ran with</th>");
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

    @Test
    void unknownPagesAreHtmlWithTheNavigationBar() {
        for (String path : java.util.List.of("/runs/nope", "/experiments/nope", "/scenarios/nope", "/no-such-page", "/runs/a/b/c")) {
            String html = web.get().uri(path).accept(org.springframework.http.MediaType.TEXT_HTML).exchange()
                    .expectStatus().isNotFound()
                    .expectHeader().contentTypeCompatibleWith(org.springframework.http.MediaType.TEXT_HTML)
                    .expectBody(String.class).returnResult().getResponseBody();
            assertThat(html).as(path).contains("data-page=\"error\"", "class=\"top\"", "href=\"/scenarios/new\"", "404")
                    .doesNotContain("\"status\":");
        }
    }

    @Autowired
    io.cfslab.store.RunRepository runs;

    String post(String uri, String json) {
        return web.post().uri(uri).contentType(MediaType.APPLICATION_JSON).bodyValue(json).exchange()
                .expectStatus().isAccepted().expectBody(String.class).returnResult().getResponseBody()
                .replaceAll("(?s).*?\"id\":\"([^\"]+)\".*", "$1");
    }

    /** The text under each side's heading of a compare page ("A" then "B"), tags dropped. */
    static java.util.List<String> sides(String html) {
        java.util.List<String> out = new java.util.ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?s)<div class=\"side\"[^>]*>(.*?)</div>").matcher(html);
        while (m.find()) out.add(m.group(1).replaceAll("<[^>]+>", " ").replaceAll("\\s+", " ").strip());
        return out;
    }

    /**
     * Issue 12: every heading of the compare page names what it shows or says why not, whatever the ids name
     * (queued, cancelled, failed, done-less, unknown, an experiment, none), and a finished run's reason is said once.
     */
    @Test
    void compareHeadingsNameEachSideOrSayWhyNot() {
        String queued = post("/api/runs", "{\"scenarioId\": \"e1-one-hog-10pct\"}");
        String cancelled = post("/api/runs", "{\"scenarioId\": \"e1-one-hog-10pct\"}");
        web.post().uri("/api/runs/" + cancelled + "/cancel").exchange().expectStatus().isAccepted();
        String failed = java.util.UUID.randomUUID().toString();
        runs.insert(failed, null, "failed run", "{\"name\": \"failed run\", \"duration\": \"1s\"}", 3L, 1);
        runs.start(failed, "test", 1_000_000_000L);
        runs.finish(failed, io.cfslab.store.RunStatus.FAILED, "max events exceeded (1000)", 0.1, 1_000_000, 1001, 3);
        String experiment = post("/api/experiments", "{\"name\": \"e1 twice\", \"scenario_id\": \"e1-one-hog-10pct\","
                + " \"repeats\": 1, \"arms\": [{\"name\": \"a\"}, {\"name\": \"b\"}]}");
        java.util.Map<String, java.util.List<String>> expected = new java.util.LinkedHashMap<>();
        expected.put("a=" + queued + "&b=" + cancelled, java.util.List.of("A E1 one hog at 10% " + queued.substring(0, 8) + " queued (no result yet)",
                "B E1 one hog at 10% " + cancelled.substring(0, 8) + " cancelled (no result)"));
        expected.put("a=" + failed + "&b=no-such-run", java.util.List.of("A failed run " + failed.substring(0, 8) + " failed (no result)",
                "B no run no-such-run (deleted, or a mistyped id)"));
        expected.put("a=" + experiment + "&b=" + queued, java.util.List.of("A e1 twice (an experiment, not a run)",
                "B E1 one hog at 10% " + queued.substring(0, 8) + " queued (no result yet)"));
        expected.put("a=" + queued, java.util.List.of("A E1 one hog at 10% " + queued.substring(0, 8) + " queued (no result yet)",
                "B none given (tick a done run on the home page, or paste its id above)"));
        expected.put("b=" + failed, java.util.List.of("A none given (tick a done run on the home page, or paste its id above)",
                "B failed run " + failed.substring(0, 8) + " failed (no result)"));
        expected.put("", java.util.List.of("A none given (tick a done run on the home page, or paste its id above)",
                "B none given (tick a done run on the home page, or paste its id above)"));
        expected.forEach((query, want) -> assertThat(sides(page("/compare?" + query))).as(query).isEqualTo(want));

        String html = page("/compare?a=" + failed + "&b=" + cancelled);
        assertThat(html).as("each reason said once").contains("B (E1 one hog at 10%) cancelled while queued; it kept no result",
                "A (failed run) failed: max events exceeded (1000); it kept no result").doesNotContain("cancelled (cancelled");
        // the settings table: a side without a run says so instead of a row of dashes
        assertThat(page("/compare?a=" + queued + "&b=nope")).contains("no settings: no run nope (deleted, or a mistyped id)");
        // a hex id too short to look up says so, not "deleted" (newcomer walk 4: /compare?a=fa76)
        assertThat(page("/compare?a=" + queued + "&b=fa76")).contains("no run fa76 (a short id needs at least 8 hex digits");
        assertThat(page("/compare?a=" + experiment + "&b=" + queued)).contains("href=\"/experiments/" + experiment + "\"",
                "is an experiment, not a run");
    }

    @Test
    void listPagesTypedInTheAddressBarGoToTheirHomeSection() {
        for (String list : java.util.List.of("experiments", "runs", "scenarios")) {
            web.get().uri("/" + list).accept(MediaType.TEXT_HTML).exchange()
                    .expectStatus().is3xxRedirection()
                    .expectHeader().valueEquals("Location", "/#" + list);
        }
        // each section is there to land on
        assertThat(new String(web.get().uri("/").accept(MediaType.TEXT_HTML).exchange().expectStatus().isOk()
                .expectBody().returnResult().getResponseBody(), java.nio.charset.StandardCharsets.UTF_8))
                .contains("id=\"experiments\"", "id=\"runs\"", "id=\"scenarios\"");
    }
}
