package io.cfslab.api;

import static io.cfslab.api.ApiTestSupport.createScenario;
import static io.cfslab.api.ApiTestSupport.json;
import static io.cfslab.api.ApiTestSupport.problem;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/** Kinds of API fault a breaker run found (issue 13), each over every member of its kind. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:apikinds-${random.uuid};DB_CLOSE_DELAY=-1", "cfslab.runs.execute=false"})
@AutoConfigureWebTestClient(timeout = "60s")
class ApiKindsTest {
    @Autowired WebTestClient web;

    static String scenario(String name, String kernel, String cgroupEntry) {
        return """
                {"name": "%s", "duration": "200ms", "machine": {"cpus": 1}, "kernel": {"version": "%s"},
                 "cgroups": [%s],
                 "tasks": [{"name": "t", "cgroup": "/a", "workload": {"kind": "hog"}}]}
                """.formatted(name, kernel, cgroupEntry);
    }

    int get(String uri) {
        return web.get().uri(uri).exchange().expectBody().returnResult().getStatus().value();
    }

    int write(String uri, String value) {
        return web.put().uri(uri).contentType(MediaType.TEXT_PLAIN).bodyValue(value).exchange()
                .expectBody().returnResult().getStatus().value();
    }

    List<String> groups(String id) {
        List<String> out = new java.util.ArrayList<>();
        json(web.get().uri("/api/scenarios/" + id + "/cgroups").exchange().expectStatus().isOk())
                .forEach(g -> out.add(g.path("path").asString()));
        return out;
    }

    /**
     * A file write ({@code text/plain}, as echo) to a group that does not exist is ENOENT, never a mkdir (PUT
     * …/web/tasks made /web/tasks); a write cannot create a file either.
     */
    @Test
    void aFileWriteNeverMakesADirectory() {
        String id = createScenario(web, scenario("writes", "6.18", "{\"path\": \"/a\", \"cpu.max\": \"50000 100000\"}"));
        String base = "/api/scenarios/" + id + "/cgroups";
        for (String target : List.of("/web/tasks", "/web/cpu.max", "/web/cpu.idle", "/web/cgroup.procs", "/web/x/y",
                "/a/tasks", "/a/notafile")) {
            problem(web.put().uri(base + target).contentType(MediaType.TEXT_PLAIN).bodyValue("123").exchange(),
                    HttpStatus.NOT_FOUND, "/path", "ENOENT");
        }
        assertThat(groups(id)).containsExactly("/", "/a");
        // a PUT without a text/plain body is still mkdir -p
        web.put().uri(base + "/web/tasks").exchange().expectStatus().isCreated().expectBody().returnResult();
        assertThat(groups(id)).contains("/web", "/web/tasks");
    }

    /**
     * GET and PUT of every file name agree, per kernel version and cgroup version: a file the simulator models is
     * read (200) and written (204); a kernel file it does not model ({@code cpu.idle}, {@code cpu.uclamp.*},
     * {@code cgroup.procs}, v1's {@code tasks}), a file the kernel lacks ({@code cpu.max.burst} on 5.4) or no
     * file at all is 404 ENOENT for both (GET cpu.idle was 404 while PUT cpu.idle was EEXIST); a PUT without a
     * text/plain value is a mkdir, 409 EEXIST for a kernel file's name (415 for a file the API writes: the value's
     * type is missing).
     */
    @Test
    void readAndWriteAgreeForEveryFile() {
        record Kernel(String version, String entry, List<String> modelled, List<String> absent) { }
        List<Kernel> kernels = List.of(
                new Kernel("6.18", "{\"path\": \"/a\", \"cpu.max\": \"50000 100000\"}",
                        List.of("cpu.max", "cpu.max.burst", "cpu.weight"),
                        List.of("cpu.idle", "cpu.uclamp.min", "cpu.uclamp.max", "cpu.stat", "cpu.weight.nice",
                                "cgroup.procs", "cgroup.freeze", "cpu.cfs_quota_us", "cpu.nope", "cgroup.nope")),
                new Kernel("5.4", "{\"path\": \"/a\", \"cpu.max\": \"50000 100000\"}", List.of("cpu.max", "cpu.weight"),
                        List.of("cpu.max.burst", "cpu.idle", "cpu.uclamp.min", "cgroup.kill")),
                new Kernel("6.18", "{\"path\": \"/a\", \"cpu.cfs_quota_us\": 50000}",
                        List.of("cpu.cfs_quota_us", "cpu.cfs_period_us", "cpu.cfs_burst_us", "cpu.shares"),
                        List.of("cpu.idle", "cpu.uclamp.max", "cgroup.procs", "cpu.max", "cpu.stat")));
        for (Kernel k : kernels) {
            String id = createScenario(web, scenario("files-" + k.version(), k.version(), k.entry()));
            String base = "/api/scenarios/" + id + "/cgroups/a/";
            for (String f : k.modelled()) {
                assertThat(get(base + f)).as(k + " GET " + f).isEqualTo(200);
                String value = f.equals("cpu.max") ? "50000 100000" : f.equals("cpu.weight") ? "100"
                        : f.equals("cpu.shares") ? "1024" : f.equals("cpu.cfs_period_us") ? "100000"
                        : f.equals("cpu.cfs_quota_us") ? "50000" : "0";
                assertThat(write(base + f, value + "\n")).as(k + " PUT " + f).isEqualTo(204);
            }
            for (String f : k.absent()) {
                problem(web.get().uri(base + f).exchange(), HttpStatus.NOT_FOUND, "/path", "ENOENT");
                problem(web.put().uri(base + f).contentType(MediaType.TEXT_PLAIN).bodyValue("1").exchange(),
                        HttpStatus.NOT_FOUND, "/path", "ENOENT");
                if (f.startsWith("cpu.") || f.startsWith("cgroup.")) { // a file's name: a mkdir of it is EEXIST
                    problem(web.put().uri(base + f).exchange(), CgroupController.FILES.contains(f)
                            ? HttpStatus.UNSUPPORTED_MEDIA_TYPE : HttpStatus.CONFLICT, null, null);
                    problem(web.put().uri(base + f + "/b").exchange(), HttpStatus.CONFLICT, "/path", "EEXIST");
                }
            }
            if (k.entry().contains("cfs_quota")) { // cgroup v1's tasks file
                problem(web.get().uri(base + "tasks").exchange(), HttpStatus.NOT_FOUND, "/path", "ENOENT");
                problem(web.put().uri(base + "tasks").contentType(MediaType.TEXT_PLAIN).bodyValue("1").exchange(),
                        HttpStatus.NOT_FOUND, "/path", "ENOENT");
                problem(web.put().uri(base + "tasks").exchange(), HttpStatus.CONFLICT, "/path", "EEXIST");
            }
        }
    }

    /**
     * Breaker 8 F4: a slash after a cgroup file ({@code cpu.max/}) names a directory, which the file is not: 404
     * {@code ENOTDIR} for every method and every file of either cgroup version, as {@code cat cpu.max/} and
     * {@code echo 1 > cpu.max/} fail; nothing is written (the slash was dropped and the file written).
     */
    @Test
    void aSlashAfterAFileIsEnotdirForEveryMethodAndFile() {
        record Tree(String entry, List<String> files) { }
        for (Tree tree : List.of(new Tree("{\"path\": \"/a\", \"cpu.max\": \"50000 100000\"}", List.of("cpu.max", "cpu.max.burst", "cpu.weight")),
                new Tree("{\"path\": \"/a\", \"cpu.cfs_quota_us\": 50000}", List.of("cpu.cfs_quota_us", "cpu.cfs_period_us", "cpu.cfs_burst_us", "cpu.shares")))) {
            String id = createScenario(web, scenario("slash", "6.18", tree.entry()));
            String etag = ScenarioWrite.etag(web, id);
            for (String f : tree.files()) {
                String uri = "/api/scenarios/" + id + "/cgroups/a/" + f + "/";
                assertThat(get(uri.substring(0, uri.length() - 1))).as(f).isEqualTo(200);
                for (var method : List.of(org.springframework.http.HttpMethod.GET, org.springframework.http.HttpMethod.PUT,
                        org.springframework.http.HttpMethod.DELETE, org.springframework.http.HttpMethod.OPTIONS)) {
                    var spec = web.method(method).uri(uri);
                    var sent = method == org.springframework.http.HttpMethod.PUT
                            ? spec.contentType(MediaType.TEXT_PLAIN).bodyValue("1000") : spec;
                    JsonNode p = problem(sent.exchange(), HttpStatus.NOT_FOUND, "/path", "ENOTDIR");
                    assertThat(p.path("detail").asString()).as(method + " " + f).contains("/a/" + f + " is a file");
                }
                web.head().uri(uri).exchange().expectStatus().isNotFound();
            }
            assertThat(ScenarioWrite.etag(web, id)).as("nothing written").isEqualTo(etag);
        }
    }

    /**
     * Breaker 8 F5, breaker 7 N12: a PUT with a body that is not {@code text/plain} is 415 at
     * {@code /headers/Content-Type} on every cgroup path, a group's (a mkdir takes no body) as a file's: it made the
     * group and dropped the body, so {@code cpu.mx} with a forgotten Content-Type became a group. A bodiless PUT
     * is still the mkdir.
     */
    @Test
    void aPutWithABodyNotTextPlainIsRefusedOnEveryCgroupPath() {
        String id = createScenario(web, scenario("mkdir body", "6.18", "{\"path\": \"/a\", \"cpu.max\": \"50000 100000\"}"));
        String etag = ScenarioWrite.etag(web, id);
        String base = "/api/scenarios/" + id + "/cgroups";
        for (String path : List.of("", "/", "/n2", "/a", "/a/new/deep", "/a/cpu.max", "/a/cpu.mx", "/a/cpu.idle", "/a/cgroup.procs")) {
            for (MediaType type : List.of(MediaType.APPLICATION_JSON, MediaType.APPLICATION_OCTET_STREAM, MediaType.valueOf("application/yaml"))) {
                JsonNode p = problem(web.put().uri(base + path).contentType(type).bodyValue("{\"cpu.max\": \"max\"}").exchange(),
                        HttpStatus.UNSUPPORTED_MEDIA_TYPE, "/headers/Content-Type", "EINVAL");
                assertThat(p.path("detail").asString()).as(path + " " + type).contains(type.toString());
            }
            // no Content-Type at all, a body all the same
            JsonNode p = problem(web.put().uri(base + path).header("Content-Type", "").bodyValue("5000 100000".getBytes()).exchange(),
                    HttpStatus.UNSUPPORTED_MEDIA_TYPE, "/headers/Content-Type", "EINVAL");
            assertThat(p.path("detail").asString()).as(path).contains("without Content-Type");
        }
        assertThat(groups(id)).containsExactly("/", "/a");
        assertThat(ScenarioWrite.etag(web, id)).isEqualTo(etag);
        web.put().uri(base + "/n2").exchange().expectStatus().isCreated(); // a bodiless PUT: the mkdir
    }

    /** The bytes of a write reach the file's parser as sent: no stripping (kstrtoull takes one trailing newline). */
    @Test
    void aWriteIsParsedAsWritten() {
        String id = createScenario(web, scenario("raw", "6.18", "{\"path\": \"/a\", \"cpu.max\": \"50000 100000\"}"));
        String base = "/api/scenarios/" + id + "/cgroups/a/";
        assertThat(write(base + "cpu.max.burst", "1000\n")).isEqualTo(204);
        problem(web.put().uri(base + "cpu.max.burst").contentType(MediaType.TEXT_PLAIN).bodyValue(" 1000").exchange(),
                HttpStatus.UNPROCESSABLE_CONTENT, "/cgroups/0/cpu.max.burst", "EINVAL");
        problem(web.put().uri(base + "cpu.weight").contentType(MediaType.TEXT_PLAIN).bodyValue("100 ").exchange(),
                HttpStatus.UNPROCESSABLE_CONTENT, "/cgroups/0/cpu.weight", "EINVAL");
        assertThat(write(base + "cpu.max", "\t20000  100000  \n")).isEqualTo(204);
        assertThat(write(base + "cpu.max", "18446744073709551615")).isEqualTo(204);
        web.get().uri(base + "cpu.max").exchange().expectStatus().isOk().expectBody(String.class).isEqualTo("max 100000\n");
    }

    WebTestClient.ResponseSpec postJson(String uri, String body) {
        return web.post().uri(uri).contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    /**
     * Each length counts what its limit is about and says so: a scenario or experiment name 500 characters (code
     * points: 500 emoji are 1,000 UTF-16 units, stored since Flyway V10), a task name 255 bytes of UTF-8 (NAME_MAX).
     */
    @Test
    void lengthsCountWhatTheLimitIsAbout() {
        String emoji = "\uD83D\uDE00";
        String id = createScenario(web, scenario(emoji.repeat(500), "6.18", "{\"path\": \"/a\"}"));
        assertThat(json(web.get().uri("/api/scenarios/" + id).exchange().expectStatus().isOk()).path("name").asString())
                .isEqualTo(emoji.repeat(500));
        var p = problem(postJson("/api/scenarios", scenario(emoji.repeat(501), "6.18", "{\"path\": \"/a\"}")),
                HttpStatus.UNPROCESSABLE_CONTENT, "/name", "ENAMETOOLONG");
        assertThat(p.path("detail").asString()).contains("501 characters");
        problem(postJson("/api/scenarios", scenario("é".repeat(501), "6.18", "{\"path\": \"/a\"}")),
                HttpStatus.UNPROCESSABLE_CONTENT, "/name", "ENAMETOOLONG");
        // task names: bytes (é is 2, 😀 4)
        postJson("/api/scenarios/" + id + "/tasks", "{\"name\": \"" + "é".repeat(127) + "\", \"cgroup\": \"/a\", "
                + "\"workload\": {\"kind\": \"hog\"}}").expectStatus().isCreated().expectBody().returnResult();
        p = problem(postJson("/api/scenarios/" + id + "/tasks", "{\"name\": \"" + emoji.repeat(64)
                + "\", \"cgroup\": \"/a\", \"workload\": {\"kind\": \"hog\"}}"), HttpStatus.UNPROCESSABLE_CONTENT,
                "/tasks/2/name", "ENAMETOOLONG");
        assertThat(p.path("detail").asString()).contains("256 bytes").contains("64 characters");
        // experiments: characters too
        p = problem(postJson("/api/experiments", "{\"name\": \"" + emoji.repeat(501) + "\", \"scenario_id\": \"" + id
                + "\", \"arms\": [{\"name\": \"a\", \"set\": {}}]}"), HttpStatus.UNPROCESSABLE_CONTENT, "/name", "ENAMETOOLONG");
        assertThat(p.path("detail").asString()).contains("501 characters");
    }

    /**
     * Names that would look like another are refused by Unicode property (format characters, default-ignorable code
     * points, private use, white space other than a space; task names also in NFC): scenario, task and experiment
     * names alike.
     */
    @Test
    void lookAlikeNamesAreRefused() {
        String id = createScenario(web, scenario("plain", "6.18", "{\"path\": \"/a\"}"));
        List<String> lookAlikes = List.of("web\u200B", "\u200Dweb", "we\u00ADb", "web\uFEFF", "w\u2060eb", "web\u034F",
                "web\uFE0F", "\u3164web", "web\u180E", "w\u00A0eb", "web\u2028", "\uE000web", "web\u202E",
                "web\uDB40\uDC01", "web\uDB40\uDD00");
        for (String name : lookAlikes) {
            String json = name.chars().mapToObj(ch -> ch < 0x80 ? String.valueOf((char) ch) : String.format("\\u%04x", ch))
                    .reduce("", String::concat);
            problem(postJson("/api/scenarios", scenario(json, "6.18", "{\"path\": \"/a\"}")),
                    HttpStatus.UNPROCESSABLE_CONTENT, "/name", "EINVAL");
            problem(postJson("/api/scenarios/" + id + "/tasks", "{\"name\": \"" + json + "\", \"cgroup\": \"/a\", "
                    + "\"workload\": {\"kind\": \"hog\"}}"), HttpStatus.UNPROCESSABLE_CONTENT, "/tasks/1/name", "EINVAL");
            problem(postJson("/api/experiments", "{\"name\": \"" + json + "\", \"scenario_id\": \"" + id
                    + "\", \"arms\": [{\"name\": \"a\", \"set\": {}}]}"), HttpStatus.UNPROCESSABLE_CONTENT, "/name", "EINVAL");
        }
        // e + U+0301 is é written another way: a task name must be NFC; the composed one is fine
        problem(postJson("/api/scenarios/" + id + "/tasks", "{\"name\": \"e\\u0301\", \"cgroup\": \"/a\", "
                + "\"workload\": {\"kind\": \"hog\"}}"), HttpStatus.UNPROCESSABLE_CONTENT, "/tasks/1/name", "EINVAL");
        postJson("/api/scenarios/" + id + "/tasks", "{\"name\": \"\\u00e9 b\", \"cgroup\": \"/a\", "
                + "\"workload\": {\"kind\": \"hog\"}}").expectStatus().isCreated().expectBody().returnResult();
    }

    /**
     * A word that mixes Latin, Greek and Cyrillic letters is a look-alike too (issue 13, a breaker's finding: "wеb"
     * with a Cyrillic е was stored beside "web"): refused in scenario, task, experiment and arm names, 422 EINVAL
     * naming the word. A word in one script is a name like any other, and so are words of different scripts side
     * by side; U+00B5 MICRO SIGN is not a Greek letter (Unicode's Common script).
     */
    @Test
    void wordsMixingLatinGreekAndCyrillicAreRefusedInEveryName() {
        String id = createScenario(web, scenario("mixed", "6.18", "{\"path\": \"/a\"}"));
        // Cyrillic е U+0435 and а U+0430, Greek ο U+03BF and μ U+03BC, Cyrillic і U+0456 in a Greek word
        List<String> mixed = List.of("w\\u0435b", "b\\u0430ckend", "pr\\u03bfxy", "500\\u03bcs", "\\u03b1\\u0456");
        int task = 1;
        for (String name : mixed) {
            var p = problem(postJson("/api/scenarios", scenario(name, "6.18", "{\"path\": \"/a\"}")),
                    HttpStatus.UNPROCESSABLE_CONTENT, "/name", "EINVAL");
            assertThat(p.path("detail").asString()).contains("mixes").contains("write each word in one script");
            problem(postJson("/api/scenarios/" + id + "/tasks", "{\"name\": \"" + name + "\", \"cgroup\": \"/a\", "
                    + "\"workload\": {\"kind\": \"hog\"}}"), HttpStatus.UNPROCESSABLE_CONTENT, "/tasks/1/name", "EINVAL");
            problem(postJson("/api/experiments", "{\"name\": \"" + name + "\", \"scenario_id\": \"" + id
                    + "\", \"arms\": [{\"name\": \"a\", \"set\": {}}]}"), HttpStatus.UNPROCESSABLE_CONTENT, "/name", "EINVAL");
            problem(postJson("/api/experiments", "{\"name\": \"e\", \"scenario_id\": \"" + id
                    + "\", \"arms\": [{\"name\": \"" + name + "\", \"set\": {}}]}"), HttpStatus.UNPROCESSABLE_CONTENT,
                    "/arms/0/name", "EINVAL");
        }
        // one script per word: stored
        for (String name : List.of("\\u0432\\u0435\\u0431", "web \\u0441\\u0435\\u0440\\u0432\\u0435\\u0440",
                "\\u03b1\\u03b2 test", "500\\u00b5s", "web\\u65e5\\u672c")) {
            createScenario(web, scenario(name, "6.18", "{\"path\": \"/a\"}"));
            postJson("/api/scenarios/" + id + "/tasks", "{\"name\": \"" + name + "\", \"cgroup\": \"/a\", "
                    + "\"workload\": {\"kind\": \"hog\"}}").expectStatus().isCreated().expectBody().returnResult();
            task++;
        }
        assertThat(task).isEqualTo(6);
    }
}
