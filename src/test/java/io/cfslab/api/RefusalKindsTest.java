package io.cfslab.api;

import static io.cfslab.api.ApiTestSupport.JSON;
import static io.cfslab.api.ApiTestSupport.awaitStatus;
import static io.cfslab.api.ApiTestSupport.createScenario;
import static io.cfslab.api.ApiTestSupport.problem;
import static io.cfslab.api.ApiTestSupport.run;
import static io.cfslab.api.ApiTestSupport.submitRun;
import static io.cfslab.api.ApiTestSupport.tiny;
import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.runs.LiveJson;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * A breaker's findings of the third session, each as its kind: one problem shape for every 406, problem bodies for the
 * actuator's 404s, every problem of a run request at once, {@code 1e-400} refused in request bodies, paced runs bounded
 * (they cannot take every simulation thread) and a paced run's ETA.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:refusals-${random.uuid};DB_CLOSE_DELAY=-1;WRITE_DELAY=0",
        "cfslab.runs.pool-size=2", "cfslab.runs.poll-interval=100ms", "cfslab.runs.progress-interval=50ms",
        "cfslab.runs.max-wall-time=120s"})
@AutoConfigureWebTestClient(timeout = "60s")
class RefusalKindsTest {
    @Autowired WebTestClient web;

    private WebTestClient.ResponseSpec postRun(Object body) {
        return web.post().uri("/api/runs").contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    private static JsonNode paced(String duration) {
        return JSON.readTree("""
                {"name": "paced", "seed": 5, "duration": "%s", "machine": {"profile": "generic", "cpus": 2},
                 "cgroups": [{"path": "/a", "cpu.max": "50000 100000"}],
                 "tasks": [{"name": "hog", "cgroup": "/a", "count": 2, "workload": {"kind": "hog"}}]}
                """.formatted(duration));
    }

    @Test
    void every406HasOneShapeWhoeverRefuses() throws Exception {
        String done = submitRun(web, Map.of("scenario", JSON.readTree(tiny("for 406s"))));
        awaitStatus(web, done, "done", Duration.ofSeconds(60));
        List<JsonNode> bodies = new ArrayList<>();
        // Spring's content negotiation (JSON-only operations), the actuator, a cgroup file's own check, and an operation
        // that negotiates itself (a histogram: JSON or bpftrace text), each refused (of resources that exist: a missing one
        // is 404 whatever the Accept, AcceptChecked)
        for (String[] c : new String[][] {{"/api/runs", "image/png"}, {"/api/scenarios/e1-one-hog-10pct", "text/html"},
                {"/actuator/health", "text/html"}, {"/api/scenarios/e1-one-hog-10pct/cgroups/e1/cpu.max", "application/json"},
                {"/api/runs/" + done + "/histograms/distribute_cfs_runtime_ns",
                        "text/plain;q=0, application/json;q=0, */*;q=0.5"}}) {
            JsonNode p = problem(web.get().uri(c[0]).header("Accept", c[1]).exchange(), HttpStatus.NOT_ACCEPTABLE,
                    "/headers/Accept", "EINVAL");
            assertThat(p.path("title").asString()).as(c[0]).isEqualTo("Not acceptable");
            assertThat(p.path("detail").asString()).as(c[0]).isNotBlank();
            bodies.add(p);
        }
        List<String> shape = fields(bodies.get(0));
        for (JsonNode b : bodies) assertThat(fields(b)).as(b.toString()).isEqualTo(shape);
        for (JsonNode b : bodies) assertThat(fields(b.path("errors").get(0))).isEqualTo(List.of("pointer", "reason", "errno"));
    }

    private static List<String> fields(JsonNode n) { return new ArrayList<>(n.propertyNames()); }

    /**
     * DELETEs of one run racing each other (a client retrying, two tabs): each answers 202 (cancelled), 204 (deleted),
     * 404 (a racing one deleted it first) or 409 (not finished yet), never a 500 (a breaker's finding: a run deleted
     * between the cancel's two reads threw NoSuchElementException), and at the end the run is gone.
     */
    @Test
    void racingDeletesOfOneRunNeverFail() throws Exception {
        for (int round = 0; round < 4; round++) {
            String id = submitRun(web, Map.of("scenario", paced("2s"), "pace", 1));
            List<Thread> threads = new ArrayList<>();
            List<Integer> statuses = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int t = 0; t < 8; t++) {
                Thread th = new Thread(() -> {
                    for (int k = 0; k < 3; k++) {
                        // cancels and deletes mixed: a cancel never deletes, a DELETE of a running run is 409
                        var req = k % 2 == 0 ? web.post().uri("/api/runs/" + id + "/cancel")
                                : web.delete().uri("/api/runs/" + id);
                        statuses.add(req.exchange().expectBody().returnResult().getStatus().value());
                    }
                });
                threads.add(th);
                th.start();
            }
            for (Thread th : threads) th.join(120_000);
            assertThat(statuses).hasSize(24).allMatch(st -> st == 200 || st == 202 || st == 204 || st == 404 || st == 409);
            long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (web.get().uri("/api/runs/" + id).exchange().expectBody().returnResult().getStatus().value() != 404
                    && System.nanoTime() < end) {
                web.post().uri("/api/runs/" + id + "/cancel").exchange().expectBody().returnResult();
                web.delete().uri("/api/runs/" + id).exchange().expectBody().returnResult();
                Thread.sleep(50);
            }
            web.get().uri("/api/runs/" + id).exchange().expectStatus().isNotFound().expectBody().returnResult();
        }
    }

    /**
     * A cgroup file reads as text/plain, as cat prints it, and its group as JSON: the same operation answers both,
     * so neither may be refused for the other's type (the editor reads a file back with Accept: text/plain after each
     * write; declaring the operation JSON-only answered it 406).
     */
    @Test
    void cgroupFilesReadAsTextAndGroupsAsJson() {
        String scenario = createScenario(web, tiny("accept-files"));
        String file = "/api/scenarios/" + scenario + "/cgroups/a/cpu.max", group = "/api/scenarios/" + scenario + "/cgroups/a";
        for (String accept : List.of("text/plain", "text/*", "*/*", "application/json;q=0.5, text/plain")) {
            web.get().uri(file).header("Accept", accept).exchange().expectStatus().isOk()
                    .expectHeader().contentTypeCompatibleWith(MediaType.TEXT_PLAIN);
        }
        for (String accept : List.of("application/json", "text/plain;q=0, */*", "text/html")) {
            problem(web.get().uri(file).header("Accept", accept).exchange(), HttpStatus.NOT_ACCEPTABLE, "/headers/Accept", "EINVAL");
        }
        for (String accept : List.of("text/plain", "application/json;q=0, */*")) {
            problem(web.get().uri(group).header("Accept", accept).exchange(), HttpStatus.NOT_ACCEPTABLE, "/headers/Accept", "EINVAL");
        }
        web.get().uri(group).header("Accept", "*/*").exchange().expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_JSON);
    }

    /**
     * A write whose Accept takes no JSON is refused before it is done: refused only when its answer was written, the
     * run, scenario, experiment, group, task or rename had been stored already (and again at the client's retry).
     */
    @Test
    void aWriteRefusedForItsAcceptChangesNothing() {
        int runs = count("/api/runs"), scenarios = count("/api/scenarios"), experiments = count("/api/experiments");
        String scenario = tiny("accept-check");
        for (String accept : List.of("text/html", "application/xml", "application/json;q=0, text/*", "image/png")) {
            problem(web.post().uri("/api/runs").contentType(MediaType.APPLICATION_JSON).header("Accept", accept)
                    .bodyValue("{\"scenario\": " + scenario + "}").exchange(), HttpStatus.NOT_ACCEPTABLE, "/headers/Accept", "EINVAL");
            problem(web.post().uri("/api/scenarios").contentType(MediaType.APPLICATION_JSON).header("Accept", accept)
                    .bodyValue(scenario).exchange(), HttpStatus.NOT_ACCEPTABLE, "/headers/Accept", "EINVAL");
            problem(web.post().uri("/api/experiments").contentType(MediaType.APPLICATION_JSON).header("Accept", accept)
                    .bodyValue("{\"scenario\": " + scenario + ", \"repeats\": 1, \"arms\": [{\"name\": \"a\", \"set\": {}}]}")
                    .exchange(), HttpStatus.NOT_ACCEPTABLE, "/headers/Accept", "EINVAL");
            problem(web.put().uri("/api/scenarios/e1-one-hog-10pct/cgroups/zz").header("Accept", accept).exchange(),
                    HttpStatus.NOT_ACCEPTABLE, "/headers/Accept", "EINVAL");
            // a DELETE answers 204, no representation to negotiate (breaker 9 F23): judged as without the Accept
            problem(web.delete().uri("/api/scenarios/e1-one-hog-10pct").header("Accept", accept).exchange(),
                    HttpStatus.CONFLICT, "/id", "EPERM");
        }
        assertThat(count("/api/runs")).isEqualTo(runs);
        assertThat(count("/api/scenarios")).isEqualTo(scenarios);
        assertThat(count("/api/experiments")).isEqualTo(experiments);
        // problem+json alone (how a client takes refusals) and JSON among others still write
        web.post().uri("/api/scenarios").contentType(MediaType.APPLICATION_JSON).header("Accept", "application/problem+json")
                .bodyValue(tiny("accept-problem")).exchange().expectStatus().isCreated().expectBody().returnResult();
        web.post().uri("/api/scenarios").contentType(MediaType.APPLICATION_JSON).header("Accept", "text/html, application/json;q=0.1")
                .bodyValue(tiny("accept-json-too")).exchange().expectStatus().isCreated().expectBody().returnResult();
        assertThat(count("/api/scenarios")).isEqualTo(scenarios + 2);
    }

    private int count(String path) {
        JsonNode list = JSON.readTree(web.get().uri(path).exchange().expectStatus().isOk().expectBody(String.class)
                .returnResult().getResponseBody());
        return list.isArray() ? list.size() : list.path("items").size();
    }


    @Test
    void theActuatorsNotFoundsAreProblems() {
        for (String path : List.of("/actuator/nope", "/actuator/health/nope", "/actuator/metrics/no.such.metric",
                "/actuator/health/db/nope")) {
            JsonNode p = problem(web.get().uri(path).exchange(), HttpStatus.NOT_FOUND, "", "ENOENT");
            assertThat(p.path("instance").asString()).isEqualTo(path);
        }
        // what the actuator answers itself stays
        web.get().uri("/actuator/health").exchange().expectStatus().isOk().expectBody()
                .jsonPath("$.status").isEqualTo("UP");
    }

    @Test
    void aRunRequestReportsEveryProblemAtOnce() {
        JsonNode p = problem(postRun(Map.of("scenarioId", "e1-one-hog-10pct", "seed", "x", "repeats", 0, "pace", -1,
                "colour", 1)), HttpStatus.UNPROCESSABLE_CONTENT, null, null);
        List<String> pointers = new ArrayList<>();
        p.path("errors").forEach(e -> pointers.add(e.path("pointer").asString()));
        assertThat(pointers).containsExactlyInAnyOrder("/colour", "/seed", "/repeats", "/pace");
        assertThat(p.path("detail").asString()).contains("and 3 more");
        // with an invalid inline scenario: the request's problems and the scenario's, together
        JsonNode q = problem(postRun(Map.of("scenario", JSON.readTree("{\"duration\": \"soon\", \"machine\": {\"cpus\": 1}}"),
                "repeats", "two")), HttpStatus.UNPROCESSABLE_CONTENT, "/repeats", "EINVAL"); // not an integer (Integers)
        List<String> all = new ArrayList<>();
        q.path("errors").forEach(e -> all.add(e.path("pointer").asString()));
        assertThat(all).contains("/repeats", "/scenario/duration");
        // both scenarioId and scenario: said once, the rest still reported
        JsonNode both = problem(postRun(Map.of("scenarioId", "e1-one-hog-10pct", "scenario", paced("1s"), "seed", 1.5)),
                HttpStatus.UNPROCESSABLE_CONTENT, null, null);
        assertThat(both.path("errors").size()).isEqualTo(2);
    }

    @Test
    void aNumberThatWouldReadAsZeroIsRefusedInRequestBodies() {
        problem(web.post().uri("/api/runs").contentType(MediaType.APPLICATION_JSON)
                        .bodyValue("{\"scenarioId\": \"e1-one-hog-10pct\", \"pace\": 1e-400}").exchange(),
                HttpStatus.UNPROCESSABLE_CONTENT, "/pace", "ERANGE");
        JsonNode p = problem(web.post().uri("/api/scenarios").contentType(MediaType.APPLICATION_JSON)
                        .bodyValue(tiny("underflow").replace("\"seed\": 7", "\"seed\": 7, \"x\": [0.0, -1e-400]")).exchange(),
                HttpStatus.UNPROCESSABLE_CONTENT, "/x/1", "ERANGE");
        assertThat(p.path("detail").asString()).contains("read as 0");
        problem(web.post().uri("/api/runs").contentType(MediaType.APPLICATION_JSON)
                        .bodyValue("{\"scenario\": " + tiny("s").replace("\"seed\": 7", "\"seed\": 7, \"y\": 2e-999") + "}")
                        .exchange(), HttpStatus.UNPROCESSABLE_CONTENT, "/scenario/y", "ERANGE");
    }

    @Test
    void pacedRunsCannotTakeEverySimulationThread() throws Exception {
        // two simulation threads: one paced run at a time (cfslab.runs.max-paced default: threads - 1)
        String slow = submitRun(web, Map.of("scenario", paced("60s"), "pace", 1));
        awaitStatus(web, slow, "running", Duration.ofSeconds(30));
        var refused = postRun(Map.of("scenario", paced("1s"), "pace", 0.5));
        refused.expectHeader().exists("Retry-After");
        JsonNode p = problem(refused, HttpStatus.TOO_MANY_REQUESTS, "/pace", "EAGAIN");
        assertThat(p.path("detail").asString()).contains("cfslab.runs.max-paced");
        // the other thread still runs runs at full speed meanwhile
        String fast = submitRun(web, Map.of("scenario", paced("2s")));
        awaitStatus(web, fast, "done", Duration.ofSeconds(60));
        assertThat(run(web, slow).path("status").asString()).isEqualTo("running");

        // a paced run's ETA: the wall time its pace still needs, from its first moment (it was null, then too short:
        // its simulated time is reported ahead of the wall clock, where it then waits)
        JsonNode r = run(web, slow);
        long remaining = 60_000 - r.path("wallMs").asLong();
        assertThat(r.path("etaMs").asLong()).isBetween(remaining - 2_000, remaining + 2_000);

        web.post().uri("/api/runs/" + slow + "/cancel").exchange().expectStatus().isAccepted().expectBody().returnResult();
        awaitStatus(web, slow, "cancelled", Duration.ofSeconds(10));
        String again = submitRun(web, Map.of("scenario", paced("1s"), "pace", 10));
        awaitStatus(web, again, "done", Duration.ofSeconds(60));
    }

    @Test
    void thePacedEtaIsWhatThePaceStillNeeds() {
        // 10 s at real time, 1 s in: 9 s, whether the simulation reported 0 % (set-up) or is ahead at 20 % (waiting)
        assertThat(LiveJson.etaMs("running", 0, 1_000, 10_000_000_000L, 1, 1.0)).isEqualTo(9_000);
        assertThat(LiveJson.etaMs("running", 20, 1_000, 10_000_000_000L, 1, 1.0)).isEqualTo(9_000);
        // two repeats of 10 s at twice real time: 10 s in all
        assertThat(LiveJson.etaMs("running", 45, 4_000, 10_000_000_000L, 2, 2.0)).isEqualTo(6_000);
        // a pace the simulator cannot keep: the observed rate decides
        assertThat(LiveJson.etaMs("running", 10, 10_000, 10_000_000_000L, 1, 10_000.0)).isEqualTo(90_000);
        // unpaced as before; nothing once ended
        assertThat(LiveJson.etaMs("running", 25, 1_000, 10_000_000_000L, 1, null)).isEqualTo(3_000);
        assertThat(LiveJson.etaMs("running", 0, 1_000, 10_000_000_000L, 1, null)).isNull();
        assertThat(LiveJson.etaMs("done", 100, 1_000, 10_000_000_000L, 1, 1.0)).isNull();
    }
}
