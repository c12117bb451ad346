package io.cfslab.api;

import static io.cfslab.api.ApiTestSupport.awaitStatus;
import static io.cfslab.api.ApiTestSupport.createScenario;
import static io.cfslab.api.ApiTestSupport.json;
import static io.cfslab.api.ApiTestSupport.problem;
import static io.cfslab.api.ApiTestSupport.submitRun;
import static io.cfslab.api.ApiTestSupport.tiny;
import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.testsupport.EventLoopGuard;
import io.cfslab.testsupport.PacedEngine;
import io.cfslab.testsupport.PacedEngineConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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

/** Every endpoint of the API, success and failure, through WebTestClient on an in-memory H2. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:apitest-${random.uuid};DB_CLOSE_DELAY=-1",
        "cfslab.runs.pool-size=2", "cfslab.runs.poll-interval=100ms", "cfslab.runs.progress-interval=50ms"})
@AutoConfigureWebTestClient(timeout = "30s") // a loaded 2-core CI machine can take more than the default 5 s
@Import({PacedEngineConfig.class, EventLoopGuard.class})
class ApiTest {
    @Autowired WebTestClient web;

    /** No endpoint may take a JDBC connection on the event loop. */
    @AfterEach
    void nothingBlockedTheEventLoop() {
        assertThat(EventLoopGuard.violations).isEmpty();
    }

    @BeforeEach
    void fast() {
        PacedEngine.reset(); // the real engine, unpaced
    }

    @Test
    void readyMadeScenariosAreListedAndReadOnly() {
        JsonNode list = json(web.get().uri("/api/scenarios").exchange().expectStatus().isOk());
        List<String> ids = new ArrayList<>();
        list.forEach(n -> {
            if (n.path("readyMade").asBoolean()) ids.add(n.path("id").asString());
        });
        assertThat(ids).contains("seed03-functional", "e1-one-hog-10pct", "e5a-nested-children-unlimited",
                "seed01-large-tree-sync", "seed03-large-tree-async", "seed01-large-tree-cfsrq-sync", "dashboard-demo");
        JsonNode e1 = json(web.get().uri("/api/scenarios/e1-one-hog-10pct").exchange().expectStatus().isOk());
        assertThat(e1.path("scenario").path("cgroups").get(0).path("cpu.max").asString()).isEqualTo("10000 100000");
        problem(web.put().uri("/api/scenarios/e1-one-hog-10pct").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(tiny("x")).exchange(), HttpStatus.CONFLICT, "/id", "EPERM");
        problem(web.delete().uri("/api/scenarios/seed03-functional").exchange(), HttpStatus.CONFLICT, "/id", "EPERM");
        problem(web.put().uri("/api/scenarios/e1-one-hog-10pct/cgroups/x").exchange(), HttpStatus.CONFLICT, "/id", "EPERM");
    }

    @Test
    void scenarioCrud() {
        String id = createScenario(web, tiny("crud"));
        JsonNode got = json(web.get().uri("/api/scenarios/" + id).exchange().expectStatus().isOk());
        assertThat(got.path("name").asString()).isEqualTo("crud");
        assertThat(got.path("readyMade").asBoolean()).isFalse();
        assertThat(got.path("scenario").path("duration").asString()).isEqualTo("200ms");

        JsonNode put = json(web.put().uri("/api/scenarios/" + id).contentType(MediaType.APPLICATION_JSON)
                .bodyValue(tiny("renamed")).exchange().expectStatus().isOk());
        assertThat(put.path("name").asString()).isEqualTo("renamed");
        assertThat(put.path("version").asLong()).isEqualTo(2);

        JsonNode list = json(web.get().uri("/api/scenarios").exchange().expectStatus().isOk());
        assertThat(list.findValuesAsString("id")).contains(id);

        web.delete().uri("/api/scenarios/" + id).exchange().expectStatus().isNoContent();
        problem(web.get().uri("/api/scenarios/" + id).exchange(), HttpStatus.NOT_FOUND, "/id", "ENOENT");
        problem(web.delete().uri("/api/scenarios/" + id).exchange(), HttpStatus.NOT_FOUND, "/id", "ENOENT");
        problem(web.put().uri("/api/scenarios/" + id).contentType(MediaType.APPLICATION_JSON).bodyValue(tiny("x"))
                .exchange(), HttpStatus.NOT_FOUND, "/id", "ENOENT");
    }

    @Test
    void cgroupTreeLikeCgroupfs() {
        String id = createScenario(web, "{\"name\": \"tree\", \"duration\": \"200ms\", \"machine\": {\"cpus\": 1}}");
        String base = "/api/scenarios/" + id + "/cgroups";
        web.put().uri(base + "/a").exchange().expectStatus().isCreated();
        web.put().uri(base + "/a/b").exchange().expectStatus().isCreated();
        web.put().uri(base + "/a").exchange().expectStatus().isOk(); // mkdir -p: exists already
        web.put().uri(base + "/x/y/z").exchange().expectStatus().isCreated(); // parents created

        assertThat(text(base + "/a/cpu.max")).isEqualTo("max 100000\n");
        putText(base + "/a/cpu.max", "50000 100000\n").expectStatus().isNoContent();
        assertThat(text(base + "/a/cpu.max")).isEqualTo("50000 100000\n");
        putText(base + "/a/cpu.max", "20000").expectStatus().isNoContent(); // period kept
        assertThat(text(base + "/a/cpu.max")).isEqualTo("20000 100000\n");
        putText(base + "/a/b/cpu.max", "max 50000").expectStatus().isNoContent();
        assertThat(text(base + "/a/b/cpu.max")).isEqualTo("max 50000\n");
        putText(base + "/a/b/cpu.weight", "200").expectStatus().isNoContent();
        assertThat(text(base + "/a/b/cpu.weight")).isEqualTo("200\n");
        putText(base + "/a/cpu.max.burst", "1000").expectStatus().isNoContent();
        assertThat(text(base + "/a/cpu.max.burst")).isEqualTo("1000\n");

        JsonNode tree = json(web.get().uri(base).exchange().expectStatus().isOk());
        assertThat(tree.findValuesAsString("path")).containsExactly("/", "/a", "/a/b", "/x", "/x/y", "/x/y/z");
        assertThat(tree.get(0).path("children").toString()).isEqualTo("[\"/a\",\"/x\"]");
        assertThat(tree.get(1).path("files").path("cpu.max").asString()).isEqualTo("20000 100000");

        JsonNode group = json(web.get().uri(base + "/a/b").exchange().expectStatus().isOk());
        assertThat(group.path("parent").asString()).isEqualTo("/a");
        assertThat(group.path("files").path("cpu.weight").asString()).isEqualTo("200");

        web.delete().uri(base + "/a/b").exchange().expectStatus().isNoContent();
        web.delete().uri(base + "/x/y/z").exchange().expectStatus().isNoContent();
        JsonNode after = json(web.get().uri(base).exchange().expectStatus().isOk());
        assertThat(after.findValuesAsString("path")).containsExactly("/", "/a", "/x", "/x/y");
        assertThat(text(base + "/a/cpu.max")).isEqualTo("20000 100000\n"); // the parent kept its file

        web.post().uri("/api/scenarios/" + id + "/cgroups:generate").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"under\": \"/\", \"levels\": [2, 3], \"cpu.max\": {\"1\": \"30000 100000\"}}")
                .exchange().expectStatus().isCreated();
        assertThat(text(base + "/1/cpu.max")).isEqualTo("30000 100000\n");
        assertThat(text(base + "/2/2_3/cpu.max")).isEqualTo("max 100000\n");
    }

    /** The file API speaks the scenario's cgroup version: v1's files with v1's checks, v2's not there (ENOENT). */
    @Test
    void cgroupFilesOfAV1Scenario() {
        String id = createScenario(web, "{\"name\": \"v1\", \"duration\": \"200ms\", \"machine\": {\"cpus\": 1},"
                + " \"kernel\": {\"version\": \"5.15\"}, \"cgroups\": [{\"path\": \"/p\", \"cpu.cfs_quota_us\": 50000}]}");
        String base = "/api/scenarios/" + id + "/cgroups";
        assertThat(text(base + "/p/cpu.cfs_quota_us")).isEqualTo("50000\n");
        assertThat(text(base + "/p/cpu.cfs_period_us")).isEqualTo("100000\n");
        assertThat(text(base + "/p/cpu.cfs_burst_us")).isEqualTo("0\n");
        assertThat(text(base + "/p/cpu.shares")).isEqualTo("1024\n");
        assertThat(text(base + "/cpu.cfs_quota_us")).as("v1's root has the files").isEqualTo("-1\n");
        problem(web.get().uri(base + "/p/cpu.max").exchange(), HttpStatus.NOT_FOUND, "/path", "ENOENT");
        problem(web.get().uri(base + "/p/cpu.rt_runtime_us").exchange(), HttpStatus.NOT_FOUND, "/path", "ENOENT");
        // writes are separate: the period first, the quota kept
        putText(base + "/p/cpu.cfs_period_us", "200000").expectStatus().isNoContent();
        assertThat(text(base + "/p/cpu.cfs_quota_us")).isEqualTo("50000\n");
        assertThat(text(base + "/p/cpu.cfs_period_us")).isEqualTo("200000\n");
        putText(base + "/p/cpu.shares", "512").expectStatus().isNoContent();
        assertThat(text(base + "/p/cpu.shares")).isEqualTo("512\n");
        // v1's hierarchy: a child above its parent's ratio (0.6 > 0.25) is EINVAL
        web.put().uri(base + "/p/c").exchange().expectStatus().isCreated();
        problem(putText(base + "/p/c/cpu.cfs_quota_us", "60000"), HttpStatus.UNPROCESSABLE_CONTENT, "/cgroups/1/cpu.cfs_quota_us",
                "EINVAL");
        putText(base + "/p/c/cpu.cfs_quota_us", "20000").expectStatus().isNoContent();
        problem(putText(base + "/p/cpu.cfs_quota_us", "10000"), HttpStatus.UNPROCESSABLE_CONTENT, "/cgroups/0/cpu.cfs_quota_us",
                "EINVAL"); // below its child now
        putText(base + "/p/cpu.cfs_quota_us", "-1").expectStatus().isNoContent();
        assertThat(text(base + "/p/cpu.cfs_quota_us")).isEqualTo("-1\n");
        problem(putText(base + "/cpu.cfs_quota_us", "50000"), HttpStatus.UNPROCESSABLE_CONTENT, "/path", "EINVAL");
        problem(putText(base + "/p/cpu.max", "50000"), HttpStatus.NOT_FOUND, "/path", "ENOENT");
        JsonNode tree = json(web.get().uri(base).exchange().expectStatus().isOk());
        assertThat(tree.get(1).path("path").asString()).isEqualTo("/p");
        assertThat(tree.get(1).path("files").propertyNames()).containsExactly("cpu.cfs_quota_us", "cpu.cfs_period_us",
                "cpu.cfs_burst_us", "cpu.shares");
        // and the stored scenario still parses as written: a run of it takes the files
        web.get().uri("/api/scenarios/" + id).exchange().expectStatus().isOk();
        // a v2 scenario has no v1 files (one that writes no file yet: theFirstFileWrittenDecides…)
        String v2 = createScenario(web, "{\"name\": \"v2\", \"duration\": \"200ms\", \"machine\": {\"cpus\": 1},"
                + " \"cgroups\": [{\"path\": \"/a\", \"cpu.weight\": 100}]}");
        problem(web.get().uri("/api/scenarios/" + v2 + "/cgroups/a/cpu.shares").exchange(), HttpStatus.NOT_FOUND, "/path", "ENOENT");
        problem(web.get().uri("/api/scenarios/" + v2 + "/cgroups/cpu.max").exchange(), HttpStatus.NOT_FOUND, "/path", "ENOENT");
    }

    /**
     * A scenario that writes no cgroup file yet is cgroup v2 only by default: the first file written through the
     * API decides, as the first file of a document does (a user on a cgroup v1 host builds the tree with mkdir,
     * then writes cpu.cfs_quota_us). From then on the other version's files are ENOENT.
     */
    @Test
    void theFirstFileWrittenDecidesTheCgroupVersionOfAScenarioWithoutFiles() {
        String id = createScenario(web, "{\"name\": \"bare v1\", \"duration\": \"200ms\", \"machine\": {\"cpus\": 1},"
                + " \"kernel\": {\"version\": \"rhel8\"}, \"cgroups\": [{\"path\": \"/p\"}]}");
        String base = "/api/scenarios/" + id + "/cgroups";
        web.put().uri(base + "/p/c").exchange().expectStatus().isCreated();
        assertThat(text(base + "/p/cpu.cfs_quota_us")).as("read before any write: v1's default, as a write finds it")
                .isEqualTo("-1\n");
        assertThat(text(base + "/p/cpu.max")).isEqualTo("max 100000\n");
        putText(base + "/p/cpu.cfs_quota_us", "50000").expectStatus().isNoContent();
        assertThat(text(base + "/p/cpu.cfs_quota_us")).isEqualTo("50000\n");
        assertThat(text(base + "/p/c/cpu.shares")).as("v1's files on every group now").isEqualTo("1024\n");
        problem(putText(base + "/p/c/cpu.cfs_quota_us", "60000"), HttpStatus.UNPROCESSABLE_CONTENT,
                "/cgroups/1/cpu.cfs_quota_us", "EINVAL"); // v1's hierarchy check
        problem(putText(base + "/p/cpu.max", "50000"), HttpStatus.NOT_FOUND, "/path", "ENOENT");
        JsonNode tree = json(web.get().uri(base).exchange().expectStatus().isOk());
        assertThat(tree.get(1).path("files").propertyNames()).contains("cpu.cfs_quota_us", "cpu.cfs_period_us", "cpu.shares");

        String v2 = createScenario(web, "{\"name\": \"bare v2\", \"duration\": \"200ms\", \"machine\": {\"cpus\": 1},"
                + " \"cgroups\": [{\"path\": \"/a\"}]}");
        String base2 = "/api/scenarios/" + v2 + "/cgroups";
        putText(base2 + "/a/cpu.max", "50000").expectStatus().isNoContent();
        problem(putText(base2 + "/a/cpu.cfs_quota_us", "10000"), HttpStatus.NOT_FOUND, "/path", "ENOENT");
        problem(putText(base2 + "/a/cpu.shares", "512"), HttpStatus.NOT_FOUND, "/path", "ENOENT");
    }

    @Test
    void tasksAndTimelineSubResources() {
        String id = createScenario(web, tiny("parts"));
        String base = "/api/scenarios/" + id;
        web.put().uri(base + "/cgroups/b").exchange().expectStatus().isCreated();
        web.post().uri(base + "/tasks").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"name\": \"w\", \"cgroup\": \"/b\", \"count\": 2, \"workload\": {\"kind\": \"hog\"}}")
                .exchange().expectStatus().isCreated().expectHeader().location(base + "/tasks/w");
        assertThat(json(web.get().uri(base + "/tasks").exchange().expectStatus().isOk()).findValuesAsString("name"))
                .containsExactly("nop", "w");
        assertThat(json(web.get().uri(base + "/tasks/w").exchange().expectStatus().isOk()).path("count").asInt()).isEqualTo(2);
        problem(web.post().uri(base + "/tasks").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"name\": \"w\", \"cgroup\": \"/b\", \"workload\": {\"kind\": \"hog\"}}").exchange(),
                HttpStatus.CONFLICT, "/name", "EEXIST");
        problem(web.post().uri(base + "/tasks").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"name\": \"v\", \"cgroup\": \"/nowhere\", \"workload\": {\"kind\": \"hog\"}}").exchange(),
                HttpStatus.UNPROCESSABLE_CONTENT, "/tasks/2/cgroup", "ENOENT"); // a document entry's fault: 422 (breaker 4 F1)
        problem(web.delete().uri(base + "/cgroups/b").exchange(), HttpStatus.CONFLICT, "/path", "EBUSY");

        web.post().uri(base + "/timeline").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"at\": \"100ms\", \"write\": \"/b/cpu.max\", \"value\": \"20000 100000\"}")
                .exchange().expectStatus().isCreated().expectHeader().location(base + "/timeline/0");
        assertThat(json(web.get().uri(base + "/timeline/0").exchange().expectStatus().isOk()).path("value").asString())
                .isEqualTo("20000 100000");
        problem(web.post().uri(base + "/timeline").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"at\": \"100ms\", \"write\": \"/b/cpu.max\", \"value\": \"1 100000\"}").exchange(),
                HttpStatus.UNPROCESSABLE_CONTENT, null, "EINVAL");
        web.delete().uri(base + "/timeline/0").exchange().expectStatus().isNoContent();
        problem(web.get().uri(base + "/timeline/0").exchange(), HttpStatus.NOT_FOUND, "/index", "ENOENT");
        web.delete().uri(base + "/tasks/w").exchange().expectStatus().isNoContent();
        problem(web.delete().uri(base + "/tasks/w").exchange(), HttpStatus.NOT_FOUND, "/name", "ENOENT");
        web.delete().uri(base + "/cgroups/b").exchange().expectStatus().isNoContent();
    }

    @Test
    void everyReadyMadeScenarioParses() {
        JsonNode list = json(web.get().uri("/api/scenarios").exchange().expectStatus().isOk());
        for (JsonNode s : list) {
            if (!s.path("readyMade").asBoolean()) continue;
            JsonNode tree = json(web.get().uri("/api/scenarios/" + s.path("id").asString() + "/cgroups")
                    .exchange().expectStatus().isOk());
            assertThat(tree.size()).as(s.path("id").asString()).isGreaterThan(1);
        }
    }

    @Test
    void malformedInputsAnswerProblems() {
        String id = createScenario(web, tiny("bad"));
        String base = "/api/scenarios/" + id + "/cgroups";
        web.put().uri(base + "/x/b").exchange().expectStatus().isCreated();
        // 0: /a has a task: with the cpu controller on, it cannot have child groups (no internal processes)
        problem(web.put().uri(base + "/a/b").exchange(), HttpStatus.CONFLICT, null, "EBUSY");
        // 1-4: bad cpu.max bodies, refused as the kernel refuses the write
        problem(putText(base + "/a/cpu.max", "abc"), HttpStatus.UNPROCESSABLE_CONTENT, "/cgroups/0/cpu.max", "EINVAL");
        problem(putText(base + "/a/cpu.max", "500 100000"), HttpStatus.UNPROCESSABLE_CONTENT, "/cgroups/0/cpu.max", "EINVAL");
        problem(putText(base + "/a/cpu.max", "-5 100000"), HttpStatus.UNPROCESSABLE_CONTENT, "/cgroups/0/cpu.max", "EINVAL");
        problem(putText(base + "/a/cpu.max", "50000 2000000"), HttpStatus.UNPROCESSABLE_CONTENT, "/cgroups/0/cpu.max", "EINVAL");
        // 5-6: cpu.weight out of range / not a number
        problem(putText(base + "/a/cpu.weight", "0"), HttpStatus.UNPROCESSABLE_CONTENT, "/cgroups/0/cpu.weight", "ERANGE");
        problem(putText(base + "/a/cpu.weight", "heavy"), HttpStatus.UNPROCESSABLE_CONTENT, "/cgroups/0/cpu.weight", "EINVAL");
        // the refused writes changed nothing
        assertThat(text(base + "/a/cpu.max")).isEqualTo("50000 100000\n");
        // 7: wrong content type for a file write
        problem(web.put().uri(base + "/a/cpu.max").contentType(MediaType.APPLICATION_JSON).bodyValue("\"50000\"")
                .exchange(), HttpStatus.UNSUPPORTED_MEDIA_TYPE, "/headers/Content-Type", "EINVAL");
        // 8-10: unknown groups and files
        problem(web.get().uri(base + "/nope").exchange(), HttpStatus.NOT_FOUND, "/path", "ENOENT");
        problem(putText(base + "/nope/cpu.max", "10000"), HttpStatus.NOT_FOUND, "/path", "ENOENT");
        problem(web.delete().uri(base + "/nope").exchange(), HttpStatus.NOT_FOUND, "/path", "ENOENT");
        // 11-12: rmdir of a busy group (children; tasks)
        problem(web.delete().uri(base + "/x").exchange(), HttpStatus.CONFLICT, "/path", "EBUSY");
        web.delete().uri(base + "/x/b").exchange().expectStatus().isNoContent();
        problem(web.delete().uri(base + "/a").exchange(), HttpStatus.CONFLICT, "/path", "EBUSY"); // task nop
        // 13: invalid group name (a name that does not validate, as a body that does not: 422)
        problem(web.put().uri(base + "/a/b c").exchange(), HttpStatus.UNPROCESSABLE_CONTENT, "/path", "EINVAL");
        // 14-16: bad JSON, wrong content type, unknown key
        problem(web.post().uri("/api/scenarios").contentType(MediaType.APPLICATION_JSON).bodyValue("{\"name\": ")
                .exchange(), HttpStatus.BAD_REQUEST, "", "EINVAL");
        problem(web.post().uri("/api/scenarios").contentType(MediaType.APPLICATION_JSON).bodyValue("[1, 2]")
                .exchange(), HttpStatus.UNPROCESSABLE_CONTENT, "", "EINVAL");
        problem(web.post().uri("/api/scenarios").contentType(MediaType.TEXT_PLAIN).bodyValue(tiny("t"))
                .exchange(), HttpStatus.UNSUPPORTED_MEDIA_TYPE, null, null);
        problem(web.post().uri("/api/scenarios").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(tiny("u").replaceFirst("\\{", "{\"bogus\": 1, ")).exchange(),
                HttpStatus.UNPROCESSABLE_CONTENT, "/bogus", null);
        // 17-19: huge generate requests: width, depth, and task counts, answered with the limit
        JsonNode huge = problem(web.post().uri("/api/scenarios/" + id + "/cgroups:generate")
                .contentType(MediaType.APPLICATION_JSON).bodyValue("{\"under\": \"/\", \"levels\": [1000, 1000, 1000]}")
                .exchange(), HttpStatus.UNPROCESSABLE_CONTENT, "/generate/0/levels", null); // the parser's, as in an arm
        assertThat(huge.path("detail").asString()).contains("20000");
        problem(web.post().uri("/api/scenarios/" + id + "/cgroups:generate").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"under\": \"/\", \"levels\": [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]}").exchange(),
                HttpStatus.UNPROCESSABLE_CONTENT, "/generate/0/levels", null);
        problem(web.post().uri("/api/scenarios").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(tiny("many").replace("\"count\": 1", "\"count\": 10000000")).exchange(),
                HttpStatus.UNPROCESSABLE_CONTENT, "/tasks/0/count", null);
        // 20: generate body that is not JSON
        problem(web.post().uri("/api/scenarios/" + id + "/cgroups:generate").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("levels: [2]").exchange(), HttpStatus.BAD_REQUEST, "", "EINVAL");
        // 21-26: bad run requests
        problem(postRun("{}"), HttpStatus.UNPROCESSABLE_CONTENT, "/scenarioId", "EINVAL");
        problem(postRun("{\"scenarioId\": \"" + id + "\", \"repeats\": 0}"), HttpStatus.UNPROCESSABLE_CONTENT, "/repeats", "ERANGE");
        problem(postRun("{\"scenarioId\": \"no-such\"}"), HttpStatus.UNPROCESSABLE_CONTENT, "/scenarioId", "ENOENT");
        problem(postRun("{\"scenarioId\": \"" + id + "\", \"seed\": \"x\"}"), HttpStatus.UNPROCESSABLE_CONTENT, "/seed", "EINVAL");
        problem(postRun("{\"scenario\": " + tiny("c").replace("50000 100000", "50 100000") + "}"),
                HttpStatus.UNPROCESSABLE_CONTENT, "/scenario/cgroups/0/cpu.max", "EINVAL");
        problem(postRun("{\"scenarioId\": \"" + id + "\", \"colour\": 1}"), HttpStatus.UNPROCESSABLE_CONTENT, "/colour", "EINVAL");
        // the benchmark workloads: 0 fds, absurd sizes (refused by the parser before a task or channel is built), at
        // the workload's field, stored scenario and inline run alike
        String hb = tiny("hb").replace("{\"kind\": \"hog\"}", "{\"kind\": \"hackbench\", \"fds\": 0}");
        JsonNode fds = problem(web.post().uri("/api/scenarios").contentType(MediaType.APPLICATION_JSON).bodyValue(hb)
                .exchange(), HttpStatus.UNPROCESSABLE_CONTENT, "/tasks/0/workload/fds", null);
        assertThat(fds.path("detail").asString()).contains("fds").contains("1..1000");
        JsonNode groups = problem(postRun("{\"scenario\": " + hb.replace("\"fds\": 0", "\"groups\": 150000, \"fds\": 1000")
                + "}"), HttpStatus.UNPROCESSABLE_CONTENT, "/scenario/tasks/0/workload/groups", null);
        assertThat(groups.path("detail").asString()).contains("300000000 tasks exceeds the limit");
        problem(postRun("{\"scenario\": " + hb.replace("\"fds\": 0", "\"loops\": 99999999999999") + "}"),
                HttpStatus.UNPROCESSABLE_CONTENT, "/scenario/tasks/0/workload/loops", null);
        problem(postRun("{\"scenario\": " + tiny("np").replace("{\"kind\": \"hog\"}",
                "{\"kind\": \"netperf-udp-rr\", \"request_size\": 1000000}") + "}"),
                HttpStatus.UNPROCESSABLE_CONTENT, "/scenario/tasks/0/workload/request_size", null);
        // 27-30: unknown runs, paths and filters
        problem(web.get().uri("/api/runs/no-such").exchange(), HttpStatus.NOT_FOUND, "/id", "ENOENT");
        problem(web.delete().uri("/api/runs/no-such").exchange(), HttpStatus.NOT_FOUND, "/id", "ENOENT");
        problem(web.get().uri("/api/runs?status=sleeping").exchange(), HttpStatus.BAD_REQUEST, "/status", "EINVAL");
        problem(web.get().uri("/api/no-such-thing").exchange(), HttpStatus.NOT_FOUND, null, null);
        // every unknown /api path, whatever its depth and method, is a problem that names the path (not a "static resource")
        for (String path : List.of("/api", "/api/", "/api/runs/x/nope", "/api/runs/x/histograms/a/b", "/api/scenarios/x/y/z/w.v")) {
            JsonNode p = problem(web.get().uri(path).exchange(), HttpStatus.NOT_FOUND, null, "ENOENT");
            assertThat(p.toString()).as(path).doesNotContain("static resource").contains("no such API path");
        }
        problem(web.delete().uri("/api/no/such/thing").exchange(), HttpStatus.NOT_FOUND, null, "ENOENT");
    }

    @Test
    void runLifecycleResultHistogramAndCpuStat() throws Exception {
        String id = createScenario(web, tiny("life"));
        String run = submitRun(web, Map.of("scenarioId", id, "seed", 42));
        JsonNode done = awaitStatus(web, run, "done", Duration.ofSeconds(20));
        assertThat(done.path("progress").asDouble()).isEqualTo(100.0);
        assertThat(done.path("simulatedNs").asLong()).isEqualTo(200_000_000L);
        assertThat(done.path("scenarioId").asString()).isEqualTo(id);
        assertThat(done.path("attempts").asInt()).isEqualTo(1);

        JsonNode result = json(web.get().uri("/api/runs/" + run + "/result").exchange().expectStatus().isOk());
        assertThat(result.path("seed").asLong()).isEqualTo(42);
        assertThat(result.path("scenario").asString()).isEqualTo("life");
        // the run's events are the simulation's, counted once (they were twice the result's engine.events)
        assertThat(result.path("engine").path("events").asLong()).isPositive();
        assertThat(done.path("events").asLong()).isEqualTo(result.path("engine").path("events").asLong());

        JsonNode h = json(web.get().uri("/api/runs/" + run + "/histograms/distribute_cfs_runtime_ns")
                .accept(MediaType.APPLICATION_JSON).exchange().expectStatus().isOk());
        long count = h.path("count").asLong();
        assertThat(count).as("a throttled hog makes the period timer distribute runtime").isPositive();
        // the list of the result's histograms, each with its count and the URL that gives it whole
        JsonNode list = json(web.get().uri("/api/runs/" + run + "/histograms").exchange().expectStatus().isOk());
        assertThat(list.size()).isEqualTo(result.path("histograms").size()).isPositive();
        assertThat(list.get(0).path("name").asString()).isEqualTo("distribute_cfs_runtime_ns");
        assertThat(list.get(0).path("count").asLong()).isEqualTo(count);
        assertThat(list.get(0).path("sum").asLong()).isEqualTo(h.path("sum").asLong());
        assertThat(list.get(0).path("href").asString()).isEqualTo("/api/runs/" + run + "/histograms/distribute_cfs_runtime_ns");
        long inBuckets = 0;
        List<String> expectedLines = new ArrayList<>();
        for (JsonNode bucket : h.path("buckets")) {
            inBuckets += bucket.path("count").asLong();
            expectedLines.add(bucket.path("count").asString());
        }
        assertThat(inBuckets).isEqualTo(count);
        String text = web.get().uri("/api/runs/" + run + "/histograms/distribute_cfs_runtime_ns")
                .accept(MediaType.TEXT_PLAIN).exchange().expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith(MediaType.TEXT_PLAIN)
                .expectBody(String.class).returnResult().getResponseBody();
        String[] lines = text.split("\n");
        assertThat(lines[0]).isEqualTo("@distribute_cfs_runtime_ns:");
        List<String> counts = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            if (lines[i].isBlank()) continue;
            // bpftrace: "[8K, 16K)" left in 16 columns, count right in 8, then " |" bar of 52 "|"
            assertThat(lines[i]).matches("\\[[0-9KMG]+(, [0-9KMG]+\\))?\\]?\\s+\\d+ \\|[@ ]{52}\\|");
            assertThat(lines[i].indexOf('|')).isEqualTo(25);
            counts.add(lines[i].substring(16, 24).strip());
        }
        assertThat(counts).isEqualTo(expectedLines);
        problem(web.get().uri("/api/runs/" + run + "/histograms/nope").exchange(), HttpStatus.NOT_FOUND, "/name", "ENOENT");

        JsonNode stat = json(web.get().uri("/api/runs/" + run + "/cpu.stat").accept(MediaType.APPLICATION_JSON)
                .exchange().expectStatus().isOk());
        JsonNode a = stat.path("/a").path("cpu.stat");
        assertThat(a.path("nr_periods").asLong()).isBetween(1L, 2L);
        assertThat(a.path("nr_throttled").asLong()).isPositive();
        assertThat(a.path("usage_usec").asLong()).as("50 ms per 100 ms period over 200 ms, timer phase random").isBetween(80_000L, 150_000L);
        String statText = web.get().uri("/api/runs/" + run + "/cpu.stat").accept(MediaType.TEXT_PLAIN).exchange()
                .expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
        assertThat(statText).contains("==> /a/cpu.stat <==\nusage_usec " + a.path("usage_usec").asLong() + "\n");

        JsonNode doneList = json(web.get().uri("/api/runs?status=done").exchange().expectStatus().isOk());
        assertThat(doneList.findValuesAsString("id")).contains(run);
        JsonNode queuedList = json(web.get().uri("/api/runs?status=queued").exchange().expectStatus().isOk());
        assertThat(queuedList.findValuesAsString("id")).doesNotContain(run);
        // id_prefix narrows the list like the other filters, and they are checked with it (breaker: it switched them off)
        String shortId = run.substring(0, 8);
        assertThat(json(web.get().uri("/api/runs?id_prefix=" + shortId + "&status=done").exchange().expectStatus().isOk())
                .findValuesAsString("id")).containsExactly(run);
        assertThat(json(web.get().uri("/api/runs?id_prefix=" + shortId + "&status=queued").exchange().expectStatus().isOk())
                .findValuesAsString("id")).isEmpty();
        problem(web.get().uri("/api/runs?id_prefix=" + shortId + "&status=bogus").exchange(), HttpStatus.BAD_REQUEST,
                "/status", "EINVAL");

        // a repeat the run does not have, at every route that takes ?repeat=: 404 titled as every other 404 (breaker 4 F9)
        for (String route : List.of("/result", "/histograms", "/cpu.stat", "/histograms/wakeup_latency")) {
            for (String repeat : List.of("1", "-1", "7")) {
                JsonNode p = problem(web.get().uri("/api/runs/" + run + route + "?repeat=" + repeat).exchange(),
                        HttpStatus.NOT_FOUND, "/repeat", "ENOENT");
                assertThat(p.path("title").asString()).as(route + " " + repeat).isEqualTo("Not found");
                assertThat(p.path("detail").asString()).as(route).isEqualTo("repeat " + repeat + " does not exist: run " + run + " has repeat 0");
            }
        }
        // a cancel of a finished run changes nothing and never deletes (breaker4 F0): 200, its status the final one
        for (int k = 0; k < 2; k++) {
            JsonNode late = json(web.post().uri("/api/runs/" + run + "/cancel").exchange().expectStatus().isOk());
            assertThat(late.path("status").asString()).isEqualTo("done");
            web.get().uri("/api/runs/" + run + "/result").exchange().expectStatus().isOk();
        }
        // a finished run is deleted with its results (issue 7)
        web.delete().uri("/api/runs/" + run).exchange().expectStatus().isNoContent();
        problem(web.get().uri("/api/runs/" + run).exchange(), HttpStatus.NOT_FOUND, "/id", "ENOENT");
        problem(web.get().uri("/api/runs/" + run + "/result").exchange(), HttpStatus.NOT_FOUND, "/id", "ENOENT");
        problem(web.delete().uri("/api/runs/" + run).exchange(), HttpStatus.NOT_FOUND, "/id", "ENOENT");
    }

    @Test
    void inlineScenarioWithRepeatsAndResultBeforeDone() throws Exception {
        PacedEngine.wallMsPerSimulatedSecond = 2000; // 400 ms wall per repeat
        String run = submitRun(web, Map.of("scenario", JSON_TINY("inline"), "seed", 5, "repeats", 2));
        JsonNode queuedOrRunning = ApiTestSupport.run(web, run);
        assertThat(queuedOrRunning.path("status").asString()).isIn("queued", "running");
        assertThat(queuedOrRunning.path("scenarioId").isNull()).isTrue();
        // its scenario's duration from submission on, queued too (breaker 4 F9: 0 until a worker started it)
        assertThat(queuedOrRunning.path("durationNs").asLong()).isEqualTo(200_000_000L);
        problem(web.get().uri("/api/runs/" + run + "/result").exchange(), HttpStatus.CONFLICT, "/id", null);
        JsonNode running = awaitStatus(web, run, "running", Duration.ofSeconds(10));
        assertThat(running.path("repeats").asInt()).isEqualTo(2);
        awaitStatus(web, run, "done", Duration.ofSeconds(20));
        JsonNode second = json(web.get().uri("/api/runs/" + run + "/result?repeat=1").exchange().expectStatus().isOk());
        assertThat(second.path("seed").asLong()).isEqualTo(6);
        assertThat(PacedEngine.executions.keySet()).contains("inline#5", "inline#6");
    }

    @Test
    void cancelRunningRun() throws Exception {
        // 60 s wall for 200 ms simulated: a cancel that waited for the run's end could not pass. No shorter bound on
        // how fast the cancel lands: on a loaded machine (load 20 on 2 cores) 1 s was missed by a correct build
        PacedEngine.wallMsPerSimulatedSecond = 300_000;
        String run = submitRun(web, Map.of("scenario", JSON_TINY("long")));
        awaitStatus(web, run, "running", Duration.ofSeconds(30));
        long t0 = System.nanoTime();
        // DELETE only deletes: a running run is refused with the action to use, and nothing changes (breaker4 F0)
        JsonNode busy = problem(web.delete().uri("/api/runs/" + run).exchange(), HttpStatus.CONFLICT, "/id", "EBUSY");
        assertThat(busy.path("detail").asString()).contains("cancel it first (POST /api/runs/" + run + "/cancel)");
        assertThat(ApiTestSupport.run(web, run).path("status").asString()).isEqualTo("running");
        assertThat(ApiTestSupport.run(web, run).path("cancelRequested").asBoolean()).isFalse();
        web.post().uri("/api/runs/" + run + "/cancel").exchange().expectStatus().isAccepted();
        JsonNode cancelled = awaitStatus(web, run, "cancelled", Duration.ofSeconds(30));
        // a repeated cancel (a retry, a double click) answers 200 and keeps the run and its partial result
        JsonNode again = json(web.post().uri("/api/runs/" + run + "/cancel").exchange().expectStatus().isOk());
        assertThat(again.path("status").asString()).isEqualTo("cancelled");
        JsonNode kept = json(web.get().uri("/api/runs/" + run + "/result").exchange().expectStatus().isOk());
        assertThat(kept.has("partial")).as("the partial result is kept").isTrue();
        web.delete().uri("/api/runs/" + run).exchange().expectStatus().isNoContent();
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("stopped long before the run's 60 s").isLessThan(Duration.ofSeconds(30));
        assertThat(cancelled.path("error").asString()).contains("cancel");
        assertThat(cancelled.path("progress").asDouble()).isLessThan(100.0);
    }

    @Test
    void openApiActuatorAndMetrics() throws Exception {
        String run = submitRun(web, Map.of("scenario", JSON_TINY("metrics")));
        awaitStatus(web, run, "done", Duration.ofSeconds(20));
        JsonNode api = json(web.get().uri("/v3/api-docs").exchange().expectStatus().isOk());
        assertThat(api.path("paths").has("/api/runs")).isTrue();
        assertThat(api.path("paths").has("/api/scenarios/{id}/cgroups/{*path}")
                || api.path("paths").toString().contains("/cgroups/")).isTrue();
        JsonNode health = json(web.get().uri("/actuator/health").exchange().expectStatus().isOk());
        assertThat(health.path("status").asString()).isEqualTo("UP");
        // no token configured: every caller is anonymous, and anonymous callers never see the details (disk path…)
        assertThat(health.has("components")).as(health.toString()).isFalse();
        assertThat(health.toString()).doesNotContain("diskSpace", "path", "H2");
        // a component path the actuator cannot split is no such endpoint, not a 500
        for (String odd : List.of("/actuator/health/db%2F", "/actuator/health/a%2Fb")) {
            // sent as is (a UriBuilder would encode the % again): the base URL and the raw path
            web.get().uri(b -> java.net.URI.create(b.build().toString().replaceAll("/$", "") + odd))
                    .exchange().expectStatus().isNotFound();
        }
        String prom = web.get().uri("/actuator/prometheus").exchange().expectStatus().isOk()
                .expectBody(String.class).returnResult().getResponseBody();
        assertThat(prom).contains("cfslab_runs_submitted_total", "cfslab_runs_finished_total{",
                "cfslab_runs_queued", "cfslab_runs_running", "cfslab_run_wall_time_seconds",
                "cfslab_simulation_events_per_second",
                "cfslab_cpu_cfs_periods_total{cgroup=\"/a\",run=\"" + run + "\"}",
                "cfslab_cpu_cfs_throttled_periods_total{cgroup=\"/a\",run=\"" + run + "\"}",
                "cfslab_cpu_cfs_throttled_seconds_total{cgroup=\"/a\",run=\"" + run + "\"}");
    }

    private static JsonNode JSON_TINY(String name) { return ApiTestSupport.JSON.readTree(tiny(name)); }

    private String text(String uri) {
        return web.get().uri(uri).accept(MediaType.TEXT_PLAIN).exchange().expectStatus().isOk()
                .expectHeader().contentTypeCompatibleWith(MediaType.TEXT_PLAIN)
                .expectBody(String.class).returnResult().getResponseBody();
    }

    private WebTestClient.ResponseSpec putText(String uri, String body) {
        return web.put().uri(uri).contentType(MediaType.TEXT_PLAIN).bodyValue(body).exchange();
    }

    private WebTestClient.ResponseSpec postRun(String body) {
        return web.post().uri("/api/runs").contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }
}
