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
        "spring.datasource.url=jdbc:h2:mem:faultkinds-${random.uuid};DB_CLOSE_DELAY=-1", "cfslab.runs.execute=false"})
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
                    web.delete().uri(base + "/tasks/t").exchange().expectStatus().isNoContent();
                }
                if (TimelineRefs.GROUP_KEY.containsKey(kind)) {
                    var p = problem(web.delete().uri(base + "/cgroups/g").exchange(), HttpStatus.CONFLICT, "/path", "EBUSY");
                    assertThat(p.path("detail").asString()).as(kind).contains("/timeline/0");
                } else {
                    web.delete().uri(base + "/cgroups/g").exchange().expectStatus().isNoContent();
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
        return web.put().uri(uri).contentType(type).bodyValue(body).exchange().returnResult(byte[].class).getStatus().value();
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
            var p = problem(spec, HttpStatus.NOT_FOUND, null, "ENOENT");
            assertThat(p.path("pointer").asString()).startsWith("/cgroups/0/");
            assertThat(p.path("detail").asString()).contains("4.15");
        }
        String v1 = createScenario(web, "{\"name\": \"414 v1\", \"duration\": \"1s\", \"kernel\": {\"version\": \"4.14\"},"
                + " \"cgroups\": [{\"path\": \"/a\", \"cpu.cfs_quota_us\": 50000}]}");
        String base = "/api/scenarios/" + v1 + "/cgroups/a/";
        for (String file : List.of("cpu.cfs_quota_us", "cpu.cfs_period_us", "cpu.shares")) {
            web.get().uri(base + file).exchange().expectStatus().isOk();
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
            for (var param : op.parameters()) {
                if (!param.path("schema").path("type").asString("").equals("integer")) continue;
                String name = param.path("name").asString();
                boolean inPath = param.path("in").asString().equals("path");
                for (String bad : List.of("0x1", "+1", "010", "00", "1e0", "%201", "%23", "-0", "1.0", "18446744073709551616")) {
                    String uri = uri(op, name, bad, inPath);
                    var spec = web.method(org.springframework.http.HttpMethod.valueOf(op.method())).uri(java.net.URI.create("http://127.0.0.1:" + port + uri))
                            .exchange();
                    var p = problem(spec, HttpStatus.BAD_REQUEST, "/" + name, "EINVAL");
                    assertThat(p.path("detail").asString()).as(op.method() + " " + uri).contains(name);
                }
                int status = web.method(org.springframework.http.HttpMethod.valueOf(op.method()))
                        .uri(java.net.URI.create("http://127.0.0.1:" + port + uri(op, name, "1", inPath))).exchange().returnResult(byte[].class)
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
        for (String v : List.of(huge, "-" + huge, "\"1\"", "1.5")) {
            String errno = v.startsWith("\"") || v.contains(".") ? "EINVAL" : "ERANGE";
            assertThat(problemAt("/api/runs", "{\"scenario\": " + BASE + ", \"seed\": " + v + "}", "/seed").path("errno")
                    .asString()).as("run seed " + v).isEqualTo(errno);
            assertThat(problemAt("/api/experiments", "{\"name\": \"e\", \"scenario\": " + BASE + ", \"seed\": " + v
                    + ", \"repeats\": 1, \"arms\": [{\"name\": \"base\"}]}", "/seed").path("errno").asString())
                    .as("experiment seed " + v).isEqualTo(errno);
        }
        for (String v : List.of(huge, "0", "101", "\"1\"", "1.5")) {
            String errno = v.startsWith("\"") || v.contains(".") ? "EINVAL" : "ERANGE";
            assertThat(problemAt("/api/runs", "{\"scenario\": " + BASE + ", \"repeats\": " + v + "}", "/repeats").path("errno")
                    .asString()).as("run repeats " + v).isEqualTo(errno);
            assertThat(problemAt("/api/experiments", "{\"name\": \"e\", \"scenario\": " + BASE + ", \"repeats\": " + v
                    + ", \"arms\": [{\"name\": \"base\"}]}", "/repeats").path("errno").asString())
                    .as("experiment repeats " + v).isEqualTo(errno);
        }
    }
}
