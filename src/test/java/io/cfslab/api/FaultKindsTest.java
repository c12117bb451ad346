package io.cfslab.api;

import static io.cfslab.api.ApiTestSupport.createScenario;
import static io.cfslab.api.ApiTestSupport.problem;
import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.scenario.CgroupFiles;
import io.cfslab.scenario.TimelineRefs;
import java.nio.charset.StandardCharsets;
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

/**
 * The kinds of fault of the breaker's findings of 2026-12-01 (issue 13), each over every member of its kind: every
 * timeline entry kind, every cgroup file of both versions, every resource.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:faultkinds-${random.uuid};DB_CLOSE_DELAY=-1", "cfslab.runs.execute=false",
        "cfslab.runs.queue.max=100000", "cfslab.runs.queue.max-per-client=0"})
@AutoConfigureWebTestClient(timeout = "60s")
class FaultKindsTest {
    @Autowired WebTestClient web;
    @org.springframework.boot.test.web.server.LocalServerPort int port;

    /** One valid entry of every timeline kind, naming task {@code t} (or its instance 1) and group {@code /g}. */
    static final Map<String, String> ENTRY = Map.of(
            "write", "{\"at\": \"0s\", \"write\": \"/g/cpu.max\", \"value\": \"50000 100000\"}",
            "move", "{\"at\": \"0s\", \"move\": \"%s\", \"to\": \"/g\"}",
            "taskset", "{\"at\": \"0s\", \"taskset\": \"%s\", \"cpus\": \"0\"}",
            "chrt", "{\"at\": \"0s\", \"chrt\": \"%s\", \"policy\": \"batch\"}",
            "kill", "{\"at\": \"0s\", \"kill\": \"%s\"}",
            "rmdir", "{\"at\": \"0s\", \"rmdir\": \"/g\"}");

    static String withTimeline(String entry) {
        return """
                {"name": "refs", "duration": "1s", "machine": {"cpus": 1}, "cgroups": [{"path": "/g"}],
                 "tasks": [{"name": "t", "cgroup": "/", "count": 2, "workload": {"kind": "hog"}}],
                 "timeline": [%s]}
                """.formatted(entry);
    }

    /**
     * Item 1: a task or group that any timeline entry names cannot be removed, 409 EBUSY, for every entry kind (a
     * kill's task was 404 ENOENT, the removal making the stored scenario one that no longer parses); a task named by
     * one of its instances ({@code t/1}) too. A kind added to the parser without saying what it names fails here.
     */
    @Test
    void everyTimelineKindThatNamesATaskOrGroupKeepsIt() {
        assertThat(ENTRY.keySet()).as("an example of every kind").containsExactlyInAnyOrderElementsOf(TimelineRefs.KINDS);
        for (String kind : TimelineRefs.KINDS) {
            assertThat(TimelineRefs.TASK_KEY.containsKey(kind) || TimelineRefs.GROUP_KEY.containsKey(kind))
                    .as(kind + " names a task or a group").isTrue();
            for (String ref : List.of("t", "t/1")) {
                if (!TimelineRefs.TASK_KEY.containsKey(kind) && ref.equals("t/1")) continue;
                String id = createScenario(web, withTimeline(ENTRY.get(kind).formatted(ref)));
                String base = "/api/scenarios/" + id;
                if (TimelineRefs.TASK_KEY.containsKey(kind)) {
                    var p = problem(web.delete().uri(base + "/tasks/t").exchange(), HttpStatus.CONFLICT, "/name", "EBUSY");
                    assertThat(p.path("detail").asString()).as(kind).contains("timeline entry 0");
                } else {
                    web.delete().uri(base + "/tasks/t").exchange().expectStatus().isNoContent().expectBody().returnResult();
                }
                if (TimelineRefs.GROUP_KEY.containsKey(kind)) {
                    var p = problem(web.delete().uri(base + "/cgroups/g").exchange(), HttpStatus.CONFLICT, "/path", "EBUSY");
                    assertThat(p.path("detail").asString()).as(kind).contains("/timeline/0");
                } else {
                    web.delete().uri(base + "/cgroups/g").exchange().expectStatus().isNoContent().expectBody().returnResult();
                }
            }
        }
    }

    /** A file of a scenario, with a valid value as octal digits (2000 µs, or weight/shares 63) and what reads back. */
    record File(String scenario, String name, String octal, String readBack) { }

    static final String V2 = "{\"name\": \"v2\", \"duration\": \"1s\", \"cgroups\": [{\"path\": \"/g\"}]}";
    static final String V1 = "{\"name\": \"v1\", \"duration\": \"1s\", \"kernel\": {\"rt_group_sched\": true},"
            + " \"cgroups\": [{\"path\": \"/g\", \"cpu.shares\": 1024}]}";

    /** Every file the API writes, of both cgroup versions. */
    static List<File> files() {
        List<File> out = new ArrayList<>(List.of(
                new File(V2, "cpu.max.burst", "3720", "2000"), new File(V2, "cpu.weight", "77", "63"),
                new File(V1, "cpu.cfs_quota_us", "3720", "2000"), new File(V1, "cpu.cfs_period_us", "3720", "2000"),
                new File(V1, "cpu.cfs_burst_us", "3720", "2000"), new File(V1, "cpu.shares", "77", "63"),
                new File(V1, "cpu.rt_runtime_us", "3720", "2000"), new File(V1, "cpu.rt_period_us", "3720", "2000"),
                new File(V2, "cpu.max", null, null)));
        List<String> names = out.stream().map(File::name).toList();
        assertThat(names).as("every file the API writes").containsExactlyInAnyOrderElementsOf(
                java.util.stream.Stream.concat(CgroupFiles.FILES.stream(), CgroupFiles.FILES_V1.stream()).toList());
        return out;
    }

    int put(String uri, byte[] body, MediaType type) {
        return web.put().uri(uri).contentType(type).bodyValue(body).exchange().expectBody().returnResult().getStatus().value();
    }

    String read(String uri) {
        return web.get().uri(uri).exchange().expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
    }

    static byte[] bytes(String s) { return s.getBytes(StandardCharsets.ISO_8859_1); }

    /**
     * Item 5: every file is written as kernfs and kstrtoull take it: more than PAGE_SIZE (4096) bytes is E2BIG before
     * any parsing (a cpu.max of "max" and 5000 spaces was 204), exactly 4096 is a write; a number file takes any
     * number of leading zeros (octal, as base 0 reads a leading 0: 70 or more were EINVAL).
     */
    @Test
    void everyFileTakesWhatKernfsAndKstrtoullTake() {
        for (File f : files()) {
            String id = createScenario(web, f.scenario());
            String uri = "/api/scenarios/" + id + "/cgroups/g/" + f.name();
            String pointer = "/cgroups/0/" + f.name();
            String fits = f.octal() == null ? "max" + " ".repeat(CgroupFiles.PAGE_SIZE - 3)
                    : "0".repeat(CgroupFiles.PAGE_SIZE - f.octal().length()) + f.octal();
            assertThat(fits).hasSize(CgroupFiles.PAGE_SIZE);
            assertThat(put(uri, bytes(fits), MediaType.TEXT_PLAIN)).as(f.name() + ": 4096 bytes").isEqualTo(204);
            if (f.readBack() != null) assertThat(read(uri)).as(f.name()).isEqualTo(f.readBack() + "\n");
            else assertThat(read(uri)).isEqualTo("max 100000\n");
            for (String over : List.of(fits + " ", fits + "\n", "0".repeat(5000) + "77", "30000 100000 " + "#".repeat(5000))) {
                var p = problem(web.put().uri(uri).contentType(MediaType.TEXT_PLAIN).bodyValue(bytes(over)).exchange(),
                        HttpStatus.UNPROCESSABLE_CONTENT, pointer, "E2BIG");
                assertThat(p.path("detail").asString()).as(f.name()).contains("4096");
            }
            if (f.octal() != null) {
                for (int zeros : List.of(1, 60, 70, 100, 1000)) {
                    assertThat(put(uri, bytes("0".repeat(zeros) + f.octal() + "\n"), MediaType.TEXT_PLAIN))
                            .as(f.name() + " with " + zeros + " leading zeros").isEqualTo(204);
                    assertThat(read(uri)).isEqualTo(f.readBack() + "\n");
                }
            }
        }
    }

    /**
     * Item 14: a file's body is bytes, as the kernel reads them: a byte that is not UTF-8 reaches the file's parser
     * (cpu.max's sscanf ignores what follows the fields it reads; kstrtoull refuses any byte but its digits: EINVAL,
     * the detail showing it as \xff), never a 400 for the body's encoding; a body of another media type than
     * text/plain is 415, naming text/plain, before the body is read.
     */
    @Test
    void everyFileBodyIsBytesAndOnlyTextPlain() {
        for (File f : files()) {
            String id = createScenario(web, f.scenario());
            String uri = "/api/scenarios/" + id + "/cgroups/g/" + f.name();
            byte[] value = f.octal() == null ? bytes("60000 \u00ff") : bytes(f.readBack() + "\u00ff");
            if (f.octal() == null) {
                assertThat(put(uri, value, MediaType.TEXT_PLAIN)).isEqualTo(204);
                assertThat(read(uri)).isEqualTo("60000 100000\n");
                assertThat(put(uri, bytes("\u00ff0000"), MediaType.TEXT_PLAIN)).isEqualTo(422);
            } else {
                var p = problem(web.put().uri(uri).contentType(MediaType.TEXT_PLAIN).bodyValue(value).exchange(),
                        HttpStatus.UNPROCESSABLE_CONTENT, "/cgroups/0/" + f.name(), "EINVAL");
                assertThat(p.path("detail").asString()).as(f.name()).contains("\\xff");
            }
            assertThat(put(uri, value, MediaType.parseMediaType("text/plain;charset=utf-8"))).as(f.name())
                    .isIn(204, 422);
            for (MediaType other : List.of(MediaType.APPLICATION_OCTET_STREAM, MediaType.APPLICATION_JSON,
                    MediaType.TEXT_HTML, MediaType.parseMediaType("text/csv"))) {
                var spec = web.put().uri(uri).contentType(other).bodyValue(value).exchange();
                spec.expectHeader().valueEquals("Accept", "text/plain");
                var p = problem(spec, HttpStatus.UNSUPPORTED_MEDIA_TYPE, "/headers/Content-Type", "EINVAL");
                assertThat(p.path("detail").asString()).as(f.name() + " " + other).contains("text/plain");
            }
        }
    }

    /**
     * Item 6: kernel 4.14's cgroup v2 has no cpu controller files (0d5936344f30 added cpu.max, cpu.weight,
     * cpu.weight.nice and cpu.stat in 4.15): each is 404 ENOENT to read or write, and a document that writes one is
     * refused as a file that does not exist; its cgroup v1 has v1's files (cpu.stat included) but not the burst's.
     */
    @Test
    void kernel414HasNoCgroupV2CpuFiles() {
        for (String file : List.of("cpu.max", "cpu.max.burst", "cpu.weight", "cpu.weight.nice", "cpu.stat",
                "cpu.stat.local", "cpu.idle", "cpu.pressure")) {
            String base = "/api/scenarios/" + createScenario(web, "{\"name\": \"414\", \"duration\": \"1s\", \"kernel\":"
                    + " {\"version\": \"4.14\"}, \"cgroups\": [{\"path\": \"/a\"}]}") + "/cgroups/a/";
            problem(web.get().uri(base + file).exchange(), HttpStatus.NOT_FOUND, "/path", "ENOENT");
            problem(web.put().uri(base + file).contentType(MediaType.TEXT_PLAIN).bodyValue("100").exchange(),
                    HttpStatus.NOT_FOUND, "/path", "ENOENT");
        }
        for (String entry : List.of("\"cpu.max\": \"50000 100000\"", "\"cpu.weight\": 50", "\"cpu.max.burst\": 0")) {
            String doc = "{\"name\": \"414\", \"duration\": \"1s\", \"kernel\": {\"version\": \"4.14\"},"
                    + " \"cgroups\": [{\"path\": \"/a\", " + entry + "}]}";
            var spec = web.post().uri("/api/scenarios").contentType(MediaType.APPLICATION_JSON).bodyValue(doc).exchange();
            var p = problem(spec, HttpStatus.UNPROCESSABLE_CONTENT, null, "ENOENT"); // a document's fault (breaker 4 F1)
            assertThat(p.path("title").asString()).isEqualTo("No such file or entry");
            assertThat(p.path("pointer").asString()).startsWith("/cgroups/0/");
            assertThat(p.path("detail").asString()).contains("4.15");
        }
        String v1 = createScenario(web, "{\"name\": \"414 v1\", \"duration\": \"1s\", \"kernel\": {\"version\": \"4.14\"},"
                + " \"cgroups\": [{\"path\": \"/a\", \"cpu.cfs_quota_us\": 50000}]}");
        String base = "/api/scenarios/" + v1 + "/cgroups/a/";
        for (String file : List.of("cpu.cfs_quota_us", "cpu.cfs_period_us", "cpu.shares")) {
            web.get().uri(base + file).exchange().expectStatus().isOk().expectBody().returnResult();
        }
        for (String file : List.of("cpu.cfs_burst_us", "cpu.max", "cpu.weight")) {
            problem(web.get().uri(base + file).exchange(), HttpStatus.NOT_FOUND, "/path", "ENOENT");
        }
        var stat = problem(web.get().uri(base + "cpu.stat").exchange(), HttpStatus.NOT_FOUND, "/path", "ENOENT");
        assertThat(stat.path("detail").asString()).as("v1's cpu.stat exists on 4.14: not modelled").contains("not model");
    }

    /**
     * Item 12: every integer path segment and query parameter of the OpenAPI document is plain decimal in its one
     * spelling: hex, a sign, a leading zero, an exponent or white space is 400 naming the parameter (0x1 and +1 were
     * entry 1, 010 was 10), before the resource is looked up; the decimal spelling reaches the operation.
     */
    @Test
    void everyIntegerParameterIsPlainDecimal() throws Exception {
        OpenApiDocument api = new OpenApiDocument("http://127.0.0.1:" + port);
        int checked = 0;
        for (OpenApiDocument.Operation op : api.operations()) {
            if (op.method().equals("HEAD")) continue; // its GET's parameters, answered without a body to read
            for (var param : op.parameters()) {
                if (!param.path("schema").path("type").asString("").equals("integer")) continue;
                String name = param.path("name").asString();
                boolean inPath = param.path("in").asString().equals("path");
                for (String bad : List.of("0x1", "+1", "010", "00", "1e0", "%201", "%23", "-0", "1.0")) {
                    String uri = uri(op, name, bad, inPath);
                    var spec = web.method(org.springframework.http.HttpMethod.valueOf(op.method())).uri(java.net.URI.create("http://127.0.0.1:" + port + uri))
                            .exchange();
                    var p = problem(spec, HttpStatus.BAD_REQUEST, "/" + name, "EINVAL");
                    assertThat(p.path("detail").asString()).as(op.method() + " " + uri).contains(name);
                }
                // an integer past any 64-bit range is an integer out of range: ERANGE (breaker 5 F8: "is not an integer")
                for (String big : List.of("18446744073709551616", "9223372036854775808", "-9223372036854775809",
                        "99999999999999999999")) {
                    String uri = uri(op, name, big, inPath);
                    var spec = web.method(org.springframework.http.HttpMethod.valueOf(op.method())).uri(java.net.URI.create("http://127.0.0.1:" + port + uri))
                            .exchange();
                    var p = problem(spec, HttpStatus.BAD_REQUEST, "/" + name, "ERANGE");
                    assertThat(p.path("detail").asString()).as(op.method() + " " + uri).contains(name).contains("out of range");
                }
                int status = web.method(org.springframework.http.HttpMethod.valueOf(op.method()))
                        .uri(java.net.URI.create("http://127.0.0.1:" + port + uri(op, name, "1", inPath))).exchange().expectBody().returnResult()
                        .getStatus().value();
                assertThat(status).as(op.method() + " " + op.path() + " with " + name + "=1").isNotEqualTo(400);
                checked++;
            }
        }
        assertThat(checked).as("the integer parameters: timeline index, repeat").isGreaterThanOrEqualTo(6);
    }

    /** The operation's URI with {@code value} for {@code name} and "nope" for every other path parameter. */
    static String uri(OpenApiDocument.Operation op, String name, String value, boolean inPath) {
        String path = op.path();
        for (String p : op.pathParameters()) {
            path = path.replace("{" + p + "}", p.equals(name) ? value : "nope");
        }
        return inPath ? path : path + "?" + name + "=" + value;
    }

    /** A valid scenario with every section an integer field lives in. */
    static final String BASE = """
            {"name": "ints", "seed": 1, "duration": "100ms", "machine": {"profile": "generic", "cpus": 1, "sockets": 1},
             "kernel": {"bandwidth_slice_us": 5000, "sched_rt_runtime_us": 950000, "sched_rt_period_us": 1000000},
             "tasks": [{"name": "t", "count": 1, "policy": "fifo", "priority": 10, "workload": {"kind": "hog"}}],
             "record": {"max_series_tasks": 1, "max_series_cgroups": 1, "max_distribute_calls": 1}}
            """;

    /** The problem at {@code pointer} among a refusal's {@code errors}. */
    tools.jackson.databind.JsonNode problemAt(String uri, String body, String pointer) {
        var spec = web.post().uri(uri).contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
        var p = problem(spec, HttpStatus.UNPROCESSABLE_CONTENT, null, null);
        for (var e : p.path("errors")) if (e.path("pointer").asString().equals(pointer)) return e;
        throw new AssertionError("no problem at " + pointer + " in " + p);
    }

    /**
     * Item 13: the same fault of an integer gets the same errno in every document and operation: not an integer is
     * EINVAL, an integer out of its range ERANGE (2^64 as a seed was EINVAL for a run, no errno in a scenario or an
     * experiment), except a sysctl's, which its handler refuses with EINVAL (sched_rt_runtime_us -2 and
     * sched_rt_period_us 0 had no errno), and a priority, which sched_setscheduler() refuses with EINVAL; for each
     * integer field of a scenario (stored, inline in a run, inline in an experiment) and of run and experiment requests.
     */
    @Test
    void everyIntegerFieldHasOneErrnoPerFault() {
        var json = ApiTestSupport.JSON;
        String huge = "18446744073709551616";
        record Field(String pointer, String rangeErrno, List<String> outOfRange) { }
        List<Field> fields = List.of(new Field("/seed", "ERANGE", List.of(huge)),
                new Field("/machine/cpus", "ERANGE", List.of(huge, "0")), new Field("/machine/sockets", "ERANGE", List.of(huge, "0")),
                new Field("/kernel/bandwidth_slice_us", "EINVAL", List.of(huge, "0")),
                new Field("/kernel/sched_rt_runtime_us", "EINVAL", List.of(huge, "-2")),
                new Field("/kernel/sched_rt_period_us", "EINVAL", List.of(huge, "0")),
                new Field("/tasks/0/count", "ERANGE", List.of(huge, "0")), new Field("/tasks/0/priority", "EINVAL", List.of(huge, "100")),
                new Field("/record/max_series_tasks", "ERANGE", List.of(huge, "-1")),
                new Field("/record/max_series_cgroups", "ERANGE", List.of(huge, "-1")),
                new Field("/record/max_distribute_calls", "ERANGE", List.of(huge, "-1")));
        for (Field f : fields) {
            List<String> values = new ArrayList<>(f.outOfRange());
            values.addAll(List.of("\"1\"", "1.5", "true"));
            for (String v : values) {
                String errno = f.outOfRange().contains(v) ? f.rangeErrno() : "EINVAL";
                var doc = (tools.jackson.databind.node.ObjectNode) json.readTree(BASE);
                var parent = (tools.jackson.databind.node.ContainerNode<?>) doc.at(f.pointer().substring(0, f.pointer().lastIndexOf('/')));
                String key = f.pointer().substring(f.pointer().lastIndexOf('/') + 1);
                var value = json.readTree(v);
                if (parent instanceof tools.jackson.databind.node.ObjectNode o) o.set(key, value);
                String scenario = doc.toString();
                String what = f.pointer() + " = " + v;
                assertThat(problemAt("/api/scenarios", scenario, f.pointer()).path("errno").asString()).as("scenario " + what).isEqualTo(errno);
                assertThat(problemAt("/api/runs", "{\"scenario\": " + scenario + "}", "/scenario" + f.pointer())
                        .path("errno").asString()).as("run " + what).isEqualTo(errno);
                assertThat(problemAt("/api/experiments", "{\"name\": \"e\", \"scenario\": " + scenario
                        + ", \"repeats\": 1, \"arms\": [{\"name\": \"base\"}]}", "/scenario" + f.pointer()).path("errno").asString())
                        .as("experiment " + what).isEqualTo(errno);
            }
        }
        // the requests' own integers: seed and repeats of a run and of an experiment
        for (String key : List.of("seed", "repeats")) {
            List<String> values = key.equals("seed") ? List.of(huge, "-" + huge, "\"1\"", "1.5")
                    : List.of(huge, "0", "101", "\"1\"", "1.5");
            for (String v : values) {
                String errno = v.startsWith("\"") || v.contains(".") ? "EINVAL" : "ERANGE";
                String field = ", \"" + key + "\": " + v;
                assertThat(problemAt("/api/runs", "{\"scenario\": " + BASE + field + "}", "/" + key).path("errno").asString())
                        .as("run " + key + " " + v).isEqualTo(errno);
                assertThat(problemAt("/api/experiments", "{\"name\": \"e\", \"scenario\": " + BASE + field
                        + (key.equals("repeats") ? "" : ", \"repeats\": 1") + ", \"arms\": [{\"name\": \"base\"}]}", "/" + key)
                        .path("errno").asString()).as("experiment " + key + " " + v).isEqualTo(errno);
            }
        }
    }

    static final List<org.springframework.http.HttpMethod> METHODS = List.of(org.springframework.http.HttpMethod.GET,
            org.springframework.http.HttpMethod.HEAD, org.springframework.http.HttpMethod.POST,
            org.springframework.http.HttpMethod.PUT, org.springframework.http.HttpMethod.PATCH,
            org.springframework.http.HttpMethod.OPTIONS, org.springframework.http.HttpMethod.DELETE); // DELETE last

    /** Fresh resources for one path: a stored scenario with group /g, task t and a timeline entry, a run, an experiment. */
    Map<String, String> resources() {
        String scenario = createScenario(web, """
                {"name": "res", "duration": "100ms", "machine": {"cpus": 1}, "cgroups": [{"path": "/g"}],
                 "tasks": [{"name": "t", "cgroup": "/g", "workload": {"kind": "hog"}}],
                 "timeline": [{"at": "0s", "taskset": "t", "cpus": "0"}]}""");
        String run = ApiTestSupport.submitRun(web, Map.of("scenarioId", scenario));
        var res = web.post().uri("/api/experiments").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"name\": \"e\", \"scenario_id\": \"" + scenario + "\", \"repeats\": 1, \"metrics\": [\"simulated_ns\"], \"arms\": [{\"name\": \"base\"}]}")
                .exchange().expectStatus().isAccepted().expectBody().returnResult();
        String loc = res.getResponseHeaders().getLocation().toString();
        return Map.of("scenarios", scenario, "runs", run, "experiments", loc.substring(loc.lastIndexOf('/') + 1));
    }

    /** The operation's path with the given resources' ids and names. */
    static String concrete(String template, Map<String, String> ids) {
        String top = template.split("/")[2];
        return template.replace("/ready-made/{id}", "/ready-made/" + READY_MADE_EXPERIMENT)
                .replace("{id}", ids.getOrDefault(top, "x")).replace("{path}", "g").replace("{file}", "cpu.max")
                .replace("{name}", top.equals("scenarios") ? "t" : "distribute_cfs_runtime_ns").replace("{index}", "0");
    }

    static final String READY_MADE_EXPERIMENT = "throttle-models-large-tree";

    org.springframework.test.web.reactive.server.EntityExchangeResult<byte[]> send(org.springframework.http.HttpMethod m,
                                                                                 String uri, MediaType type, String body) {
        var spec = web.method(m).uri(java.net.URI.create("http://127.0.0.1:" + port + uri));
        var req = type == null ? spec : spec.contentType(type).bodyValue(body);
        return req.exchange().expectBody().returnResult();
    }

    /**
     * Item 8: every resource of the OpenAPI document answers, in every 405 and in OPTIONS, an {@code Allow} that lists
     * exactly the methods it answers (those that are not 405), HEAD wherever GET is (a file's 405 listed DELETE, a
     * task's lacked HEAD and OPTIONS), and every 405's detail names the same methods.
     */
    @Test
    void everyAllowListsExactlyWhatTheResourceAnswers() throws Exception {
        OpenApiDocument api = new OpenApiDocument("http://127.0.0.1:" + port);
        java.util.Set<String> templates = new java.util.TreeSet<>();
        api.operations().forEach(op -> templates.add(op.path()));
        for (String template : templates) {
            Map<String, String> ids = resources();
            String uri = concrete(template, ids);
            java.util.Set<org.springframework.http.HttpMethod> answered = new java.util.HashSet<>();
            List<String> allows = new ArrayList<>();
            for (var m : METHODS) {
                if (template.endsWith("/events") && (m == org.springframework.http.HttpMethod.GET
                        || m == org.springframework.http.HttpMethod.HEAD)) {
                    answered.add(m); // an event stream of a queued run never ends (RunEventsTest reads it)
                    continue;
                }
                var r = send(m, uri, m == org.springframework.http.HttpMethod.PUT && template.endsWith("{file}")
                        ? MediaType.TEXT_PLAIN : m == org.springframework.http.HttpMethod.POST || m == org.springframework.http.HttpMethod.PUT
                        || m == org.springframework.http.HttpMethod.PATCH ? MediaType.APPLICATION_JSON : null, "50000");
                int status = r.getStatus().value();
                // a path without variables always exists: a method it lists never answers 404 (breaker 7 N10: DELETE
                // /api/experiments/ready-made was listed, and answered "experiment ready-made does not exist")
                if (!template.contains("{")) assertThat(status).as(m + " " + uri).isNotEqualTo(404);
                if (status != 405) answered.add(m);
                if (status == 405 && m != org.springframework.http.HttpMethod.HEAD) { // a HEAD's answer has no body
                    // the detail names the methods the Allow header lists, in its order (breaker 6 F11: a file's
                    // detail listed DELETE, and HEAD and OPTIONS were left out)
                    String detail = ApiTestSupport.JSON.readTree(new String(r.getResponseBody())).path("detail").asString();
                    // (a file's DELETE says why in the kernel's words, "cpu.max is a file; only groups can be removed")
                    if (detail.contains("it allows")) assertThat(detail).as(m + " " + uri).endsWith("(it allows "
                            + r.getResponseHeaders().getFirst("Allow").replace(",", ", ") + ")");
                }
                if (status == 405 || m == org.springframework.http.HttpMethod.OPTIONS) {
                    assertThat(r.getResponseHeaders().getFirst("Allow")).as(m + " " + uri + " (" + status + ")").isNotNull();
                    allows.add(m + " " + status + ": " + r.getResponseHeaders().getFirst("Allow"));
                }
                if (m == org.springframework.http.HttpMethod.OPTIONS) assertThat(status).as("OPTIONS " + uri).isEqualTo(200);
            }
            String expected = ResourceMethods.format(answered);
            assertThat(answered.contains(org.springframework.http.HttpMethod.HEAD))
                    .as(uri + ": HEAD wherever GET").isEqualTo(answered.contains(org.springframework.http.HttpMethod.GET));
            for (String a : allows) assertThat(a.substring(a.indexOf(": ") + 2)).as(uri + " " + a).isEqualTo(expected);
        }
    }

    /**
     * Breaker 8 F7: the OpenAPI document lists exactly the methods each path answers, and every path an operation
     * answers is in it. Each documented path's methods (HEAD with GET, OPTIONS) are its OPTIONS {@code Allow}; each
     * mapping's pattern, a catch-all {@code {*path}} also with an empty path (the cgroup root: PUT and DELETE
     * answered, the document listed only GET), names a path the document has.
     */
    @Test
    void theDocumentListsEveryMethodOfEveryPathThatAnswers(@org.springframework.beans.factory.annotation.Autowired
            @org.springframework.beans.factory.annotation.Qualifier("requestMappingHandlerMapping")
            org.springframework.web.reactive.result.method.annotation.RequestMappingHandlerMapping mappings) throws Exception {
        OpenApiDocument api = new OpenApiDocument("http://127.0.0.1:" + port);
        Map<String, String> ids = resources();
        Map<String, java.util.Set<org.springframework.http.HttpMethod>> documented = new java.util.TreeMap<>();
        for (var op : api.operations()) {
            var methods = documented.computeIfAbsent(concrete(op.path(), ids), k -> new java.util.HashSet<>());
            // breaker 9 F11: every operation the document lists is one the path answers (the file's DELETE, a
            // refusal, was listed), and the document lists HEAD and OPTIONS itself, so it is compared as it is
            methods.add(org.springframework.http.HttpMethod.valueOf(op.method().toUpperCase(java.util.Locale.ROOT)));
        }
        org.assertj.core.api.SoftAssertions soft = new org.assertj.core.api.SoftAssertions();
        for (var e : documented.entrySet()) {
            var methods = new java.util.HashSet<>(e.getValue());
            var r = send(org.springframework.http.HttpMethod.OPTIONS, e.getKey(), null, null);
            soft.assertThat(r.getResponseHeaders().getFirst("Allow")).as("OPTIONS " + e.getKey() + " vs the document")
                    .isEqualTo(ResourceMethods.format(methods));
        }
        int patterns = 0;
        for (var info : mappings.getHandlerMethods().keySet()) {
            for (var pattern : info.getPatternsCondition().getPatterns()) {
                String t = pattern.getPatternString();
                if (!t.startsWith("/api/")) continue;
                List<String> forms = t.contains("{*path}") ? List.of(t.replace("/{*path}", ""), t.replace("{*path}", "{path}"),
                        t.replace("{*path}", "{path}/{file}")) : List.of(t);
                for (String form : forms) {
                    soft.assertThat(documented).as(t + " answers " + form + ", which the document lacks")
                            .containsKey(concrete(form, ids));
                    patterns++;
                }
            }
        }
        soft.assertAll();
        assertThat(patterns).as("mapping patterns walked").isGreaterThan(30);
    }

    /**
     * Item 9: every sub-resource of a missing resource, and every missing resource inside an existing one (a group, a
     * file, a task, a timeline entry), is 404 ENOENT for every method, OPTIONS and methods it does not answer
     * included (OPTIONS of a missing group was 200; DELETE of a missing group's cpu.max 405 ENOTDIR).
     */
    @Test
    void everyMethodOfAMissingResourceIs404() throws Exception {
        OpenApiDocument api = new OpenApiDocument("http://127.0.0.1:" + port);
        Map<String, String> ids = resources();
        List<String> missing = new ArrayList<>();
        java.util.Set<String> templates = new java.util.TreeSet<>();
        api.operations().forEach(op -> templates.add(op.path()));
        for (String template : templates) {
            if (!template.contains("{")) continue; // collections always exist
            String top = template.split("/")[2];
            missing.add(concrete(template, Map.of(top, "nope")).replace("/ready-made/" + READY_MADE_EXPERIMENT, "/ready-made/nope"));
        }
        String s = "/api/scenarios/" + ids.get("scenarios");
        missing.addAll(List.of(s + "/cgroups/nope", s + "/cgroups/nope/cpu.max", s + "/cgroups/g/cpu.stat",
                s + "/cgroups/g/cpu.nope", s + "/tasks/nope", s + "/timeline/99", s + "/timeline/-1"));
        for (String uri : missing) {
            for (var m : METHODS) {
                boolean creates = m == org.springframework.http.HttpMethod.PUT && !uri.matches(".*/cpu\\.[a-z_.]+$");
                boolean collection = m == org.springframework.http.HttpMethod.POST && uri.startsWith(s);
                if (creates || collection) continue; // mkdir -p and POST make what is missing
                MediaType type = m == org.springframework.http.HttpMethod.PUT ? MediaType.TEXT_PLAIN
                        : m == org.springframework.http.HttpMethod.POST || m == org.springframework.http.HttpMethod.PATCH
                        ? MediaType.APPLICATION_JSON : null;
                var r = send(m, uri, type, type == MediaType.TEXT_PLAIN ? "50000" : "{}");
                assertThat(r.getStatus().value()).as(m + " " + uri + ": " + (r.getResponseBody() == null ? ""
                        : new String(r.getResponseBody(), StandardCharsets.UTF_8))).isEqualTo(404);
                if (m != org.springframework.http.HttpMethod.HEAD) {
                    assertThat(new String(r.getResponseBody(), StandardCharsets.UTF_8)).as(m + " " + uri).contains("\"errno\":\"ENOENT\"");
                }
            }
        }
    }

    /** One request on its own connection, as raw bytes; its answer. */
    KeepAliveAfterUnreadBodyTest.Response raw(String head, byte[] body) throws Exception {
        try (java.net.Socket sock = ConnectionKindsTest.open(port)) {
            ConnectionKindsTest.send(sock, head);
            if (body != null) {
                sock.getOutputStream().write(body);
                sock.getOutputStream().flush();
            }
            return KeepAliveAfterUnreadBodyTest.Response.read(new java.io.BufferedInputStream(sock.getInputStream()), false);
        }
    }

    /** The headers of a large POST and its first KB, then nothing: it holds a large-body slot (LargeBodyGate). */
    java.net.Socket stalledLargePost() throws Exception {
        java.net.Socket sock = ConnectionKindsTest.open(port);
        ConnectionKindsTest.send(sock, "POST /api/scenarios HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: 300000\r\n\r\n" + " ".repeat(1024));
        return sock;
    }

    /**
     * Item 11: every refusal under /api says {@code Connection: close}, the large-body gate's 429 among them (it had
     * none): a 400, 404, 405, 406, 414, 415, 422, 431 and the 429 of a third body over 256 KB, sent whole or waiting for
     * 100 Continue (then answered at once: its body is never sent).
     */
    @Test
    void everyRefusalClosesItsConnection() throws Exception {
        String id = createScenario(web, V2);
        Map<String, String> refusals = new java.util.LinkedHashMap<>();
        refusals.put("GET /api/runs/%ff HTTP/1.1\r\nHost: x\r\n\r\n", "400");
        refusals.put("GET /api/runs/nope HTTP/1.1\r\nHost: x\r\n\r\n", "404");
        refusals.put("PATCH /api/runs HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n", "405");
        refusals.put("POST /api/runs HTTP/1.1\r\nHost: x\r\nAccept: image/png\r\nContent-Type: application/json\r\n"
                + "Content-Length: 2\r\n\r\n{}", "406");
        refusals.put("GET /api/runs/" + "a".repeat(5000) + " HTTP/1.1\r\nHost: x\r\n\r\n", "414");
        refusals.put("POST /api/runs HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nContent-Length: 1\r\n\r\nx", "415");
        refusals.put("PUT /api/scenarios/" + id + "/cgroups/g/cpu.max HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                + "Content-Length: 2\r\n\r\nzz", "422");
        refusals.put("GET /api/runs HTTP/1.1\r\nHost: x\r\nX-Big: " + "a".repeat(20_000) + "\r\n\r\n", "431");
        for (var e : refusals.entrySet()) {
            var r = raw(e.getKey(), null);
            assertThat(r.status()).as(e.getValue()).isEqualTo(Integer.parseInt(e.getValue()));
            assertThat(r.headers().get("connection")).as(e.getValue()).isEqualToIgnoringCase("close");
        }
        List<java.net.Socket> slots = List.of(stalledLargePost(), stalledLargePost());
        try {
            Thread.sleep(500); // both slots taken
            byte[] body = new byte[300_000];
            java.util.Arrays.fill(body, (byte) ' ');
            for (boolean expect : List.of(false, true)) {
                var r = raw("POST /api/scenarios HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 300000\r\n"
                        + (expect ? "Expect: 100-continue\r\n" : "") + "\r\n", expect ? null : body);
                assertThat(r.status()).as("large body, expect " + expect).isEqualTo(429);
                assertThat(r.headers().get("retry-after")).isEqualTo("1");
                assertThat(r.headers().get("connection")).as("large body, expect " + expect).isEqualToIgnoringCase("close");
                assertThat(new String(r.body(), StandardCharsets.UTF_8)).contains("\"errno\":\"EAGAIN\"");
            }
        } finally {
            for (java.net.Socket sock : slots) sock.close();
        }
    }

    /** The status line of the answer to one raw request. */
    String statusLine(String request) throws Exception {
        try (java.net.Socket sock = ConnectionKindsTest.open(port)) {
            ConnectionKindsTest.send(sock, request);
            var in = new java.io.BufferedReader(new java.io.InputStreamReader(sock.getInputStream(), StandardCharsets.ISO_8859_1));
            return in.readLine();
        }
    }

    /**
     * Item 10: the status line names the server's version, whatever the client's: an HTTP/1.x request of a higher
     * minor version is answered HTTP/1.1 (HTTP/1.2 was answered HTTP/1.2), HTTP/1.0 and 1.1 in their own, and another
     * major version is 505 (HTTP/9.9 was answered HTTP/9.9 404), for every kind of answer.
     */
    @Test
    void everyAnswerNamesTheServersHttpVersion() throws Exception {
        for (String target : List.of("GET /api/runs", "GET /api/runs/nope", "PATCH /api/runs", "GET /api/runs/%ff",
                "OPTIONS /api/runs")) {
            for (String v : List.of("1.2", "1.9", "1.1", "1.0")) {
                String line = statusLine(target + " HTTP/" + v + "\r\nHost: x\r\nContent-Length: 0\r\n\r\n");
                assertThat(line).as(target + " HTTP/" + v).startsWith(v.equals("1.0") ? "HTTP/1.0 " : "HTTP/1.1 ");
            }
            for (String v : List.of("2.0", "3.0", "9.9", "0.9")) {
                var r = raw(target + " HTTP/" + v + "\r\nHost: x\r\nContent-Length: 0\r\n\r\n", null);
                assertThat(r.status()).as(target + " HTTP/" + v).isEqualTo(505);
                assertThat(r.headers().get("content-type")).startsWith("application/problem+json");
                assertThat(new String(r.body(), StandardCharsets.UTF_8)).contains("HTTP/1.1").contains("\"status\":505");
                assertThat(statusLine(target + " HTTP/" + v + "\r\nHost: x\r\n\r\n")).startsWith("HTTP/1.1 505");
            }
        }
    }

    /**
     * Item 15: a raw byte outside ASCII anywhere in the request target (UTF-8 or Latin-1, path or query) is 400 EINVAL
     * at /path, never a name garbled through ISO-8859-1 (nöpe came back as nÃ¶pe); percent-encoded it is the name.
     */
    @Test
    void aRawNonAsciiByteInTheTargetIs400() throws Exception {
        String utf8 = new String("n\u00f6pe".getBytes(StandardCharsets.UTF_8), StandardCharsets.ISO_8859_1);
        for (String target : List.of("/api/runs/" + utf8, "/api/runs/n\u00f6pe", "/api/runs?status=" + utf8,
                "/api/scenarios/x/tasks/" + utf8)) {
            var r = raw("GET " + target + " HTTP/1.1\r\nHost: x\r\n\r\n", null);
            assertThat(r.status()).as(target).isEqualTo(400);
            String body = new String(r.body(), StandardCharsets.UTF_8);
            assertThat(body).as(target).contains("\"pointer\":\"/path\"").contains("\"errno\":\"EINVAL\"").doesNotContain("\u00c3");
        }
        var encoded = raw("GET /api/runs/n%C3%B6pe HTTP/1.1\r\nHost: x\r\n\r\n", null);
        assertThat(encoded.status()).isEqualTo(404);
        assertThat(new String(encoded.body(), StandardCharsets.UTF_8)).contains("run n\u00f6pe does not exist");
    }
}
