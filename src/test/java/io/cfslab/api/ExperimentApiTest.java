package io.cfslab.api;

import static io.cfslab.api.ApiTestSupport.JSON;
import static io.cfslab.api.ApiTestSupport.awaitStatus;
import static io.cfslab.api.ApiTestSupport.createScenario;
import static io.cfslab.api.ApiTestSupport.json;
import static io.cfslab.api.ApiTestSupport.problem;
import static io.cfslab.api.ApiTestSupport.submitRun;
import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.experiment.SeedSequence;
import io.cfslab.testsupport.EventLoopGuard;
import io.cfslab.testsupport.PacedEngine;
import io.cfslab.testsupport.PacedEngineConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code /api/experiments} end to end (create from a body and from a stored scenario, progress per arm, the table in
 * every format, histograms side by side, cancel, delete, bad experiments), and run provenance: a run keeps the exact
 * scenario it ran and its settings when the stored scenario is edited afterwards.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:experimentapitest-${random.uuid};DB_CLOSE_DELAY=-1",
        "cfslab.runs.pool-size=2", "cfslab.runs.poll-interval=100ms", "cfslab.runs.progress-interval=50ms"})
@AutoConfigureWebTestClient(timeout = "30s")
@Import({PacedEngineConfig.class, EventLoopGuard.class})
class ExperimentApiTest {
    @Autowired WebTestClient web;

    static final String SCENARIO = """
            {"name": "one group", "seed": 7, "duration": "500ms", "machine": {"profile": "generic", "cpus": 2},
             "cgroups": [{"path": "/a", "cpu.max": "50000 100000"}],
             "tasks": [{"name": "nop", "cgroup": "/a", "count": 2, "workload": {"kind": "hog"}}]}""";

    static String halving(String scenarioPart) {
        return """
                {"name": "halve /a", "seed": 11, %s, "repeats": 3,
                 "arms": [{"name": "base"}, {"name": "half", "set": {"/cgroups/0/cpu.max": "25000 100000"}}]}"""
                .formatted(scenarioPart);
    }

    @AfterEach
    void nothingBlockedTheEventLoop() {
        assertThat(EventLoopGuard.violations).isEmpty();
    }

    @BeforeEach
    void fast() {
        PacedEngine.reset();
    }

    String create(String body) {
        var res = web.post().uri("/api/experiments").contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange()
                .expectStatus().isAccepted().expectBody().returnResult();
        String loc = res.getResponseHeaders().getLocation().toString();
        assertThat(loc).startsWith("/api/experiments/");
        return loc.substring(loc.lastIndexOf('/') + 1);
    }

    JsonNode get(String uri) { return json(web.get().uri(uri).exchange().expectStatus().isOk()); }

    String text(String uri, MediaType accept, MediaType expected) {
        return web.get().uri(uri).accept(accept).exchange().expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith(expected).expectBody(String.class).returnResult().getResponseBody();
    }

    JsonNode await(String id, String status, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        JsonNode x = get("/api/experiments/" + id);
        while (!x.path("status").asString().equals(status)) {
            assertThat(System.nanoTime()).as("experiment %s to reach %s, last: %s", id, status, x).isLessThan(end);
            Thread.sleep(50);
            x = get("/api/experiments/" + id);
        }
        return x;
    }

    @Test
    void anInlineExperimentRunsAndGivesItsTableInEveryFormat() throws Exception {
        String id = create(halving("\"scenario\": " + SCENARIO));
        JsonNode done = await(id, "done", Duration.ofSeconds(60));
        assertThat(done.path("progress").asDouble()).isEqualTo(100.0);
        assertThat(done.path("done").asInt()).isEqualTo(6);
        assertThat(done.path("seeds").toString()).isEqualTo("[" + SeedSequence.seed(11, 0) + "," + SeedSequence.seed(11, 1)
                + "," + SeedSequence.seed(11, 2) + "]");
        JsonNode arms = done.path("arms");
        assertThat(arms.size()).isEqualTo(2);
        assertThat(arms.get(1).path("name").asString()).isEqualTo("half");
        assertThat(arms.get(1).path("set").path("/cgroups/0/cpu.max").asString()).isEqualTo("25000 100000");
        assertThat(arms.get(1).path("runs").size()).isEqualTo(3);
        String runId = arms.get(1).path("runs").get(2).path("id").asString();
        assertThat(arms.get(1).path("runs").get(2).path("seed").asLong()).isEqualTo(SeedSequence.seed(11, 2));

        // each run is an ordinary run that remembers what it ran
        JsonNode run = get("/api/runs/" + runId);
        assertThat(run.path("experimentId").asString()).isEqualTo(id);
        assertThat(run.path("arm").asString()).isEqualTo("half");
        assertThat(run.path("repeat").asInt()).isEqualTo(2);
        assertThat(run.path("settings").path("seed").asLong()).isEqualTo(SeedSequence.seed(11, 2));
        assertThat(run.path("settings").path("kernel").path("throttle").asString()).isEqualTo("task");
        JsonNode ran = get("/api/runs/" + runId + "/scenario");
        assertThat(ran.path("cgroups").get(0).path("cpu.max").asString()).isEqualTo("25000 100000");
        assertThat(ran.path("seed").asLong()).isEqualTo(SeedSequence.seed(11, 2));
        problem(web.delete().uri("/api/runs/" + runId).exchange(), HttpStatus.CONFLICT, "/id", "EBUSY");
        problem(web.post().uri("/api/runs/" + runId + "/cancel").exchange(), HttpStatus.CONFLICT, "/id", "EBUSY");
        // the standalone list leaves experiment runs out
        assertThat(get("/api/runs?standalone=true").findValuesAsString("id")).doesNotContain(runId);
        assertThat(get("/api/runs").findValuesAsString("id")).contains(runId);

        // the table in each media type
        String plain = text("/api/experiments/" + id + "/table", MediaType.TEXT_PLAIN, MediaType.TEXT_PLAIN);
        assertThat(plain).startsWith("Experiment: halve /a\n").contains("  AMean CoefVar  : ", "@distribute_cfs_runtime_ns:")
                .containsPattern("cgroups/~1a/cpu\\.stat/usage_usec +\\d+±[\\d.]+% +\\d+±[\\d.]+% +-\\d+\\.\\d%");
        String md = text("/api/experiments/" + id + "/table", MediaType.parseMediaType("text/markdown"),
                MediaType.parseMediaType("text/markdown"));
        assertThat(md).startsWith("## halve /a\n").contains("| metric | base | half | diff |");
        String csv = text("/api/experiments/" + id + "/table", MediaType.parseMediaType("text/csv"), MediaType.parseMediaType("text/csv"));
        // content negotiation: q-values, then the most specific range; text/* is the seeds' text layout
        assertThat(web.get().uri("/api/experiments/" + id + "/table").header("Accept", "text/csv;q=0.5, text/markdown")
                .exchange().expectStatus().isOk().expectHeader().contentTypeCompatibleWith("text/markdown")
                .expectBody(String.class).returnResult().getResponseBody()).isEqualTo(md);
        assertThat(text("/api/experiments/" + id + "/table", MediaType.parseMediaType("text/*"), MediaType.TEXT_PLAIN))
                .isEqualTo(plain);
        assertThat(csv.lines().findFirst().orElseThrow()).startsWith("metric,arm,n,min,max,median,amean,gmean,hmean,stddev,coefvar_pct");
        assertThat(csv).contains("cgroups/~1a/cpu.stat/usage_usec,half,3,");
        JsonNode table = json(web.get().uri("/api/experiments/" + id + "/table").accept(MediaType.APPLICATION_JSON).exchange()
                .expectStatus().isOk());
        JsonNode usage = table.path("metrics").path("cgroups/~1a/cpu.stat/usage_usec").path("half");
        assertThat(usage.path("diff_percent").asDouble()).isBetween(-53.0, -47.0);
        assertThat(usage.path("p_value").asDouble()).isLessThan(0.05);
        assertThat(usage.path("values").size()).isEqualTo(3);
        assertThat(table).isEqualTo(get("/api/experiments/" + id + "/result"));
        assertThat(web.get().uri("/api/experiments/" + id + "/table?format=markdown").exchange().expectStatus().isOk()
                .expectBody(String.class).returnResult().getResponseBody()).isEqualTo(md);
        problem(web.get().uri("/api/experiments/" + id + "/table?format=xml").exchange(), HttpStatus.BAD_REQUEST, "/format", "EINVAL");
        // the merged histograms: JSON per arm, or side by side as bpftrace prints them
        JsonNode hist = get("/api/experiments/" + id + "/histograms/distribute_cfs_runtime_ns");
        assertThat(hist.path("base").path("count").asLong()).isEqualTo(table.path("histograms").path("base")
                .path("distribute_cfs_runtime_ns").path("count").asLong()).isPositive();
        String side = text("/api/experiments/" + id + "/histograms/distribute_cfs_runtime_ns", MediaType.TEXT_PLAIN, MediaType.TEXT_PLAIN);
        assertThat(side.lines().skip(1).findFirst().orElseThrow())
                .matches("@distribute_cfs_runtime_ns: +@distribute_cfs_runtime_ns:");
        problem(web.get().uri("/api/experiments/" + id + "/histograms/nope").exchange(), HttpStatus.NOT_FOUND, "/name", "ENOENT");
        // the definition runs again, exactly
        JsonNode def = get("/api/experiments/" + id + "/definition");
        assertThat(def.path("scenario").path("name").asString()).isEqualTo("one group");
        String again = create(def.toString());
        await(again, "done", Duration.ofSeconds(60));
        assertThat(get("/api/experiments/" + again + "/result").path("metrics")).isEqualTo(table.path("metrics"));

        // listed, then deleted with its runs
        assertThat(get("/api/experiments").findValuesAsString("id")).contains(id, again);
        // the list (runs read in one query for all experiments) shows each experiment's status and arms as its own page does
        for (JsonNode listed : get("/api/experiments")) {
            JsonNode own = get("/api/experiments/" + listed.path("id").asString());
            assertThat(listed.path("status")).isEqualTo(own.path("status"));
            assertThat(listed.path("arms").size()).isEqualTo(own.path("arms").size()).isPositive();
            for (int a = 0; a < own.path("arms").size(); a++) {
                JsonNode la = listed.path("arms").path(a).deepCopy(), oa = own.path("arms").path(a).deepCopy();
                ((tools.jackson.databind.node.ObjectNode) la).remove("runs");
                ((tools.jackson.databind.node.ObjectNode) oa).remove("runs");
                assertThat(la).isEqualTo(oa);
            }
        }
        // a cancel that arrives after the end leaves the experiment done with its runs' results (breaker4 F0)
        JsonNode late = json(web.post().uri("/api/experiments/" + id + "/cancel").exchange().expectStatus().isOk());
        assertThat(late.path("status").asString()).isEqualTo("done");
        web.get().uri("/api/runs/" + runId + "/result").exchange().expectStatus().isOk();
        web.delete().uri("/api/experiments/" + id).exchange().expectStatus().isNoContent();
        problem(web.get().uri("/api/experiments/" + id).exchange(), HttpStatus.NOT_FOUND, "/id", "ENOENT");
        problem(web.get().uri("/api/runs/" + runId).exchange(), HttpStatus.NOT_FOUND, "/id", "ENOENT");
        problem(web.delete().uri("/api/experiments/" + id).exchange(), HttpStatus.NOT_FOUND, "/id", "ENOENT");
        assertThat(get("/api/experiments").findValuesAsString("id")).doesNotContain(id).contains(again);
    }

    @Test
    void progressPerArmWhileItRunsAndCancel() throws Exception {
        PacedEngine.wallMsPerSimulatedSecond = 2000; // 1 s wall per 500 ms run
        String id = create(halving("\"scenario\": " + SCENARIO));
        TreeSet<Double> seen = new TreeSet<>();
        long end = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        JsonNode x = get("/api/experiments/" + id);
        while (seen.stream().noneMatch(p -> p > 0 && p < 100) || x.path("done").asInt() < 2) {
            assertThat(System.nanoTime()).as("progress seen %s, last %s", seen, x).isLessThan(end);
            for (JsonNode a : x.path("arms")) seen.add(a.path("progress").asDouble());
            Thread.sleep(30);
            x = get("/api/experiments/" + id);
        }
        assertThat(x.path("status").asString()).isEqualTo("running");
        assertThat(PacedEngine.maxConcurrent.get()).as("both simulation threads ran the experiment's runs at once").isEqualTo(2);
        problem(web.get().uri("/api/experiments/" + id + "/table").exchange(), HttpStatus.CONFLICT, "/id", null);
        problem(web.delete().uri("/api/experiments/" + id + "x").exchange(), HttpStatus.NOT_FOUND, "/id", "ENOENT");
        // DELETE only deletes: a running experiment is refused with the action to use (breaker4 F0)
        JsonNode busy = problem(web.delete().uri("/api/experiments/" + id).exchange(), HttpStatus.CONFLICT, "/id", "EBUSY");
        assertThat(busy.path("detail").asString()).contains("cancel it first (POST /api/experiments/" + id + "/cancel)");
        web.post().uri("/api/experiments/" + id + "/cancel").exchange().expectStatus().isAccepted();
        JsonNode cancelled = await(id, "cancelled", Duration.ofSeconds(10));
        // a repeated cancel answers 200 and deletes nothing
        JsonNode again = json(web.post().uri("/api/experiments/" + id + "/cancel").exchange().expectStatus().isOk());
        assertThat(again.path("status").asString()).isEqualTo("cancelled");
        assertThat(cancelled.path("cancelRequested").asBoolean()).isTrue();
        List<String> statuses = new ArrayList<>();
        cancelled.path("arms").forEach(a -> a.path("runs").forEach(r -> statuses.add(r.path("status").asString())));
        assertThat(statuses).contains("done", "cancelled").doesNotContain("queued", "running");
        // an arm's run keeps what it recorded as any run does: one the cancel stopped has its partial result, one
        // cancelled while queued none; the experiment uses neither (its table needs every run done)
        List<String> cancelledRuns = new ArrayList<>();
        cancelled.path("arms").forEach(a -> a.path("runs").forEach(r -> {
            if (r.path("status").asString().equals("cancelled")) cancelledRuns.add(r.path("id").asString());
        }));
        for (String run : cancelledRuns) {
            JsonNode view = get("/api/runs/" + run);
            if (view.path("startedAt").isNull()) {
                problem(web.get().uri("/api/runs/" + run + "/result").exchange(), HttpStatus.CONFLICT, "/id", null);
            } else {
                JsonNode partial = get("/api/runs/" + run + "/result").path("partial");
                assertThat(partial.path("stopped_at_ns").asLong()).as("run %s stopped early", run)
                        .isLessThan(partial.path("duration_ns").asLong());
            }
        }
        // breaker 3 #11: a cancelled experiment's table and result say it never comes (ECANCELED), at every format
        for (String uri : List.of("/result", "/table", "/table?format=csv", "/table?format=markdown", "/table?format=text")) {
            JsonNode never = problem(web.get().uri("/api/experiments/" + id + uri).exchange(), HttpStatus.CONFLICT, "/id", "ECANCELED");
            assertThat(never.path("detail").asString()).as(uri).contains("is cancelled with").contains("never will")
                    .doesNotContain("exists once");
        }
        web.delete().uri("/api/experiments/" + id).exchange().expectStatus().isNoContent();
    }

    @Test
    void aStoredScenarioAndTheReadyMadeExperiments() throws Exception {
        String scenarioId = createScenario(web, SCENARIO);
        String id = create(halving("\"scenario_id\": \"" + scenarioId + "\""));
        JsonNode done = await(id, "done", Duration.ofSeconds(60));
        assertThat(done.path("scenarioId").asString()).isEqualTo(scenarioId);
        JsonNode def = get("/api/experiments/" + id + "/definition");
        assertThat(def.has("scenario_id")).isFalse();
        assertThat(def.path("scenario").path("name").asString()).isEqualTo("one group");

        JsonNode ready = get("/api/experiments/ready-made");
        assertThat(ready.findValuesAsString("id")).contains("seed04-task-vs-task-account", "throttle-models-large-tree");
        for (JsonNode e : ready) {
            assertThat(e.path("description").asString()).as(e.path("id").asString()).isNotBlank();
        }
        JsonNode seed04 = get("/api/experiments/ready-made/seed04-task-vs-task-account");
        assertThat(seed04.path("arms").findValuesAsString("name")).containsExactly("task", "task-account");
        problem(web.get().uri("/api/experiments/ready-made/nope").exchange(), HttpStatus.NOT_FOUND, "/id", "ENOENT");
    }

    @Test
    void badExperimentsAre422WithThePointer() {
        String good = halving("\"scenario\": " + SCENARIO);
        JsonNode p = problem(post(good.replace("/cgroups/0/cpu.max", "/cgroups/9/cpu.max")), HttpStatus.UNPROCESSABLE_CONTENT,
                "/arms/1/set/~1cgroups~19~1cpu.max", null);
        assertThat(p.path("detail").asString()).contains("unknown pointer /cgroups/9/cpu.max");
        p = problem(post(good.replace("\"25000 100000\"", "true")), HttpStatus.UNPROCESSABLE_CONTENT,
                "/arms/1/set/~1cgroups~10~1cpu.max", null);
        assertThat(p.path("detail").asString()).contains("not boolean true");
        problem(post(good.replace("\"repeats\": 3", "\"repeats\": 0")), HttpStatus.UNPROCESSABLE_CONTENT, "/repeats", "ERANGE");
        problem(post(halving("\"scenario_id\": \"no-such\"")), HttpStatus.UNPROCESSABLE_CONTENT, "/scenario_id", "ENOENT");
        problem(post(good.replace("\"name\": \"halve /a\"", "\"nmae\": 1")), HttpStatus.UNPROCESSABLE_CONTENT, "/nmae", null);
        problem(post("{\"arms\": "), HttpStatus.BAD_REQUEST, "", "EINVAL");
        problem(post(good.replace("\"duration\": \"500ms\"", "\"duration\": \"5 weeks\"")), HttpStatus.UNPROCESSABLE_CONTENT,
                "/scenario/duration", null);
        // names the store keeps: the experiment's, and a scenario name an arm sets (was a 500 from the database)
        String longName = "x".repeat(501);
        problem(post(good.replace("\"name\": \"halve /a\"", "\"name\": \"" + longName + "\"")),
                HttpStatus.UNPROCESSABLE_CONTENT, "/name", "ENAMETOOLONG");
        problem(post(good.replace("{\"name\": \"base\"}", "{\"name\": \"base\", \"set\": {\"/name\": \"" + longName + "\"}}")),
                HttpStatus.UNPROCESSABLE_CONTENT, "/arms/0/set/~1name", "ENAMETOOLONG");
        // more runs than one client can ever have queued: invalid (422), not "try again later" (429)
        p = problem(post(good.replace("\"repeats\": 3", "\"repeats\": 51")), HttpStatus.UNPROCESSABLE_CONTENT, "/repeats", "ERANGE");
        assertThat(p.path("detail").asString()).contains("102 runs");
        // which limit: one arm x 51 repeats passes the document's 1..100 but not the per-client share (50 by default)
        p = problem(post(good.replace("\"repeats\": 3", "\"repeats\": 51")
                .replace(", {\"name\": \"half\", \"set\": {\"/cgroups/0/cpu.max\": \"25000 100000\"}}", "")),
                HttpStatus.UNPROCESSABLE_CONTENT, "/repeats", "ERANGE");
        assertThat(p.path("detail").asString()).contains("cfslab.runs.queue.max-per-client is 50");
        // a metric every arm must have: a CPU the machine lacks, a task an arm renames
        problem(post(good.replace("\"repeats\": 3", "\"repeats\": 3, \"metrics\": [\"cpus/9999/busy\"]")),
                HttpStatus.UNPROCESSABLE_CONTENT, "/metrics/0", null);
        p = problem(post(good.replace("\"repeats\": 3", "\"repeats\": 3, \"metrics\": [\"tasks/nop~10/usage_usec\"]")
                .replace("\"25000 100000\"}", "\"25000 100000\", \"/tasks/0/name\": \"renamed\"}")),
                HttpStatus.UNPROCESSABLE_CONTENT, "/metrics/0", null);
        assertThat(p.path("detail").asString()).contains("arm \"half\"");
        // a number beyond a double's range: out of range at its pointer (was described as the string "Infinity")
        for (String[] c : new String[][] {{"\"seed\": 11", "\"seed\": 1e400", "/seed"},
                {"\"cpus\": 2", "\"cpus\": -1e999", "/scenario/machine/cpus"},
                {"\"25000 100000\"", "1E+400", "/arms/1/set/~1cgroups~10~1cpu.max"}}) {
            p = problem(post(good.replace(c[0], c[1])), HttpStatus.UNPROCESSABLE_CONTENT, c[2], "ERANGE");
            assertThat(p.path("detail").asString()).contains("out of range").doesNotContain("Infinity");
        }
        p = problem(web.post().uri("/api/scenarios").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(SCENARIO.replace("\"seed\": 7", "\"seed\": 1e400")).exchange(),
                HttpStatus.UNPROCESSABLE_CONTENT, "/seed", "ERANGE");
    }

    WebTestClient.ResponseSpec post(String body) {
        return web.post().uri("/api/experiments").contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    @Test
    void aRunKeepsTheScenarioAndSettingsItRanWhenTheScenarioIsEdited() throws Exception {
        String scenarioId = createScenario(web, SCENARIO);
        String run = submitRun(web, Map.of("scenarioId", scenarioId, "seed", 5));
        awaitStatus(web, run, "done", Duration.ofSeconds(30));
        JsonNode before = ApiTestSupport.run(web, run);
        String ranBefore = get("/api/runs/" + run + "/scenario").toString();
        String pageBefore = page("/runs/" + run);
        assertThat(before.path("settings").path("kernel").path("throttle").asString()).isEqualTo("task");
        assertThat(before.path("settings").path("seed").asLong()).isEqualTo(5);
        assertThat(before.path("settings").path("machine").path("cpus").asInt()).isEqualTo(2);
        // every switch of the effective kernel, defaults included
        assertThat(before.path("settings").path("kernel").propertyNames()).contains("throttle", "unthrottle", "hz",
                "bandwidth_slice_us", "timer_placement", "preempt", "throttled_list_insert", "slice_expiry",
                "throttled_clock_start", "sched_rt_runtime_us", "sched_rt_period_us");
        assertThat(pageBefore).contains("data-setting=\"throttle\">task<", "data-setting=\"hz\">1000<",
                "data-setting=\"machine\">generic, 2 CPUs<", "kernel.bandwidth_slice_us");

        // edit the stored scenario: another throttle model, HZ and quota
        ObjectNode doc = (ObjectNode) JSON.readTree(SCENARIO);
        doc.putObject("kernel").put("throttle", "cfs_rq").put("hz", 250);
        ((ObjectNode) doc.path("cgroups").get(0)).put("cpu.max", "20000 100000");
        web.put().uri("/api/scenarios/" + scenarioId).contentType(MediaType.APPLICATION_JSON).bodyValue(doc.toString())
                .exchange().expectStatus().isOk();

        assertThat(get("/api/runs/" + run + "/scenario").toString()).isEqualTo(ranBefore);
        assertThat(ApiTestSupport.run(web, run).path("settings")).isEqualTo(before.path("settings"));
        assertThat(page("/runs/" + run)).contains("data-setting=\"throttle\">task<", "data-setting=\"hz\">1000<");

        // a new run of the edited scenario runs the new settings; the compare page lists what differs
        String after = submitRun(web, Map.of("scenarioId", scenarioId, "seed", 5));
        awaitStatus(web, after, "done", Duration.ofSeconds(30));
        assertThat(ApiTestSupport.run(web, after).path("settings").path("kernel").path("throttle").asString()).isEqualTo("cfs_rq");
        String compare = page("/compare?a=" + run + "&b=" + after);
        assertThat(compare).contains("id=\"settings-diff\"", "data-key=\"kernel.throttle\"", "data-key=\"kernel.hz\"",
                "data-key=\"kernel.throttled_clock_start\"", "data-key=\"/cgroups[/a]/cpu.max\"")
                .doesNotContain("data-key=\"seed\"", "data-key=\"kernel.unthrottle\"");
        String same = page("/compare?a=" + run + "&b=" + run);
        assertThat(same).contains("id=\"no-differences\"");
    }

    String page(String uri) {
        return web.get().uri(uri).accept(MediaType.TEXT_HTML).exchange().expectStatus().isOk()
                .expectBody(String.class).returnResult().getResponseBody();
    }
}
