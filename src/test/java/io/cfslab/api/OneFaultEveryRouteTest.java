package io.cfslab.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * One fault, one problem (status, errno, pointer, title) in every document and route (breaker 2 N3, N4, N7): a scenario
 * body in JSON and in YAML, inline in a run request and in an experiment, an experiment arm's {@code set}, and the
 * sub-resource that takes the same entry ({@code cgroups:generate}, {@code tasks}, {@code timeline}). The pointer is
 * the same field wherever the document sits ({@code /scenario} before it inline; an arm's {@code set} names its own
 * key). The API once pre-checked sizes and names itself, so that a generate level of 2^31 was 422 at
 * {@code /generate} without errno in a body but {@code ERANGE} at {@code /generate/0/levels/0} in an arm.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:onefault-${random.uuid};DB_CLOSE_DELAY=-1", "cfslab.runs.execute=false",
        "cfslab.runs.queue.max=100000", "cfslab.runs.queue.max-per-client=0"})
@AutoConfigureWebTestClient(timeout = "60s")
class OneFaultEveryRouteTest {
    @Autowired WebTestClient web;

    static final YAMLMapper YAML = YAMLMapper.builder().build();
    static final MediaType YAML_TYPE = MediaType.parseMediaType("application/yaml");

    static final String BASE = """
            {"name": "f", "duration": "100ms", "machine": {"cpus": 1}, "cgroups": [{"path": "/g"}],
             "tasks": [{"name": "t", "cgroup": "/g", "workload": {"kind": "hog"}}]}""";

    /**
     * A fault: top-level key {@code key} of {@link #BASE} set to {@code value} (JSON); the problem expected at
     * {@code pointer} (in the scenario) with {@code errno} (null: none). {@code part} is the sub-resource that takes
     * one entry of that section, or null.
     */
    record Fault(String key, String value, String pointer, String errno, boolean deepInArm, String kernel) {
        Fault(String key, String value, String pointer, String errno) { this(key, value, pointer, errno, false, null); }
        Fault(String key, String value, String pointer, String errno, boolean deepInArm) { this(key, value, pointer, errno, deepInArm, null); }
        /** The fault in a scenario whose {@code kernel} section is {@code kernel} (JSON; null: the default). */
        Fault in(String kernel) { return new Fault(key, value, pointer, errno, deepInArm, kernel); }
        @Override public String toString() { return key + "=" + value; }
    }

    static final Map<String, String> PARTS = Map.of("generate", "/cgroups:generate", "tasks", "/tasks",
            "timeline", "/timeline");

    static final String HOG = "\"workload\": {\"kind\": \"hog\"}";

    static List<Fault> faults() {
        List<Fault> out = new ArrayList<>();
        // N3: generate levels out of range, beyond 64 bits, and trees over the limits
        for (String level : List.of("2147483648", "99999999999999999999", "0", "-1", "18446744073709551616")) {
            out.add(new Fault("generate", "[{\"under\": \"/\", \"levels\": [" + level + "]}]", "/generate/0/levels/0", "ERANGE"));
            out.add(new Fault("generate", "[{\"under\": \"/\", \"levels\": [2, " + level + "]}]", "/generate/0/levels/1", "ERANGE"));
        }
        out.add(new Fault("generate", "[{\"under\": \"/\", \"levels\": [1.5]}]", "/generate/0/levels/0", "EINVAL"));
        out.add(new Fault("generate", "[{\"under\": \"/\", \"levels\": [1000, 1000, 1000]}]", "/generate/0/levels", null));
        out.add(new Fault("generate", "[{\"under\": \"/\", \"levels\": [2147483647]}]", "/generate/0/levels", null));
        out.add(new Fault("generate", "[{\"under\": \"/\", \"levels\": [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]}]",
                "/generate/0/levels", null));
        // N4: a cgroup file value of the wrong type, in every place a file value is written
        for (String bad : List.of("1.5", "true", "false", "{\"a\": 1}", "[1]")) {
            for (String file : List.of("cpu.weight", "cpu.max", "cpu.max.burst")) {
                out.add(new Fault("cgroups", "[{\"path\": \"/g\", \"" + file + "\": " + bad + "}]", "/cgroups/0/" + file, "EINVAL"));
                out.add(new Fault("generate", "[{\"under\": \"/\", \"levels\": [2], \"" + file + "\": {\"1\": " + bad + "}}]",
                        "/generate/0/" + file + "/1", "EINVAL"));
            }
            for (String file : List.of("cpu.shares", "cpu.cfs_quota_us", "cpu.cfs_period_us")) {
                out.add(new Fault("cgroups", "[{\"path\": \"/g\", \"" + file + "\": " + bad + "}]", "/cgroups/0/" + file, "EINVAL"));
            }
            out.add(new Fault("timeline", "[{\"at\": \"10ms\", \"write\": \"/g/cpu.weight\", \"value\": " + bad + "}]",
                    "/timeline/0/value", "EINVAL"));
        }
        // cpu.max is a string only (the published schema): an integer is a value of the wrong type too
        out.add(new Fault("cgroups", "[{\"path\": \"/g\", \"cpu.max\": 50000}]", "/cgroups/0/cpu.max", "EINVAL"));
        // one parser of a file value (ParseContext.fileValue) for every file in every section that writes one: a
        // timeline write of 50000 to cpu.max was taken while cgroups[] refused it
        List<String> every = new ArrayList<>(io.cfslab.scenario.CgroupFiles.FILES);
        every.addAll(io.cfslab.scenario.CgroupFiles.FILES_V1);
        for (String file : every) {
            List<String> bads = new ArrayList<>(List.of("1.5", "true", "{\"a\": 1}", "[1]"));
            if (!io.cfslab.scenario.CgroupFiles.takesInteger(file)) bads.add("50000");
            // the RT files exist with RT group scheduling only (without it, ENOENT before any value is read)
            String kernel = file.startsWith("cpu.rt_") ? "{\"rt_group_sched\": true}" : null;
            for (String bad : bads) {
                out.add(new Fault("cgroups", "[{\"path\": \"/g\", \"" + file + "\": " + bad + "}]", "/cgroups/0/" + file, "EINVAL").in(kernel));
                out.add(new Fault("timeline", "[{\"at\": \"10ms\", \"write\": \"/g/" + file + "\", \"value\": " + bad + "}]",
                        "/timeline/0/value", "EINVAL").in(kernel));
                if (io.cfslab.scenario.CgroupFiles.FILES.contains(file)) {
                    out.add(new Fault("generate", "[{\"under\": \"/\", \"levels\": [2], \"" + file + "\": {\"1\": " + bad + "}}]",
                            "/generate/0/" + file + "/1", "EINVAL"));
                }
            }
        }
        // N4: a duration beyond 64 bits, bare ns or with a unit, in every duration field
        for (String big : List.of("99999999999999999999", "\"99999999999999999999ns\"", "\"9999999999999s\"")) {
            out.add(new Fault("duration", big, "/duration", "ERANGE"));
            out.add(new Fault("timeline", "[{\"at\": " + big + ", \"write\": \"/g/cpu.weight\", \"value\": 5}]",
                    "/timeline/0/at", "ERANGE"));
            out.add(new Fault("record", "{\"interval\": " + big + "}", "/record/interval", "ERANGE"));
            for (String[] w : new String[][] {{"periodic", "run", "\"sleep\": \"1ms\""}, {"periodic", "sleep", "\"run\": \"1ms\""},
                    {"periodic", "kernel", "\"run\": \"1ms\", \"sleep\": \"1ms\""}, {"fixed-work", "work", null},
                    {"go-sleep-loop", "run", "\"sleep\": \"1ms\""}, {"go-sleep-loop", "sleep", "\"run\": \"1ms\""}}) {
                out.add(new Fault("tasks", "[{\"name\": \"w\", \"cgroup\": \"/g\", \"workload\": {\"kind\": \"" + w[0] + "\", \""
                        + w[1] + "\": " + big + (w[2] == null ? "" : ", " + w[2]) + "}}]", "/tasks/0/workload/" + w[1], "ERANGE"));
            }
        }
        // N7: task names that cannot be a path segment, as mkdir's bad names
        for (String name : List.of("", "a/b", "/", ".", "..", "t/1")) {
            out.add(new Fault("tasks", "[{\"name\": \"" + name + "\", \"cgroup\": \"/g\", " + HOG + "}]", "/tasks/0/name", "EINVAL"));
        }
        out.add(new Fault("tasks", "[{\"name\": \"" + "x".repeat(256) + "\", \"cgroup\": \"/g\", " + HOG + "}]",
                "/tasks/0/name", "ENAMETOOLONG"));
        // breaker 2 (a)-4: a control character (C0, DEL, C1) in any text is EINVAL in JSON as in YAML (it was EINVAL
        // in YAML only). The text check reads the whole document, so through an arm it names the string itself
        // (/arms/0/set/~1tasks/0/name), where the section's own checks name the arm's key
        for (String cc : List.of("\\u0001", "\\u001b", "\\u007f", "\\u009b")) {
            out.add(new Fault("name", "\"a" + cc + "b\"", "/name", "EINVAL", true));
            out.add(new Fault("tasks", "[{\"name\": \"t" + cc + "\", \"cgroup\": \"/g\", " + HOG + "}]", "/tasks/0/name", "EINVAL", true));
            out.add(new Fault("cgroups", "[{\"path\": \"/g" + cc + "\"}]", "/cgroups/0/path", "EINVAL", true));
        }
        // breaker 4 F1, F1b: a document's fault is 422 whatever its errno (EEXIST, ENOENT were 409/404 "Invalid
        // scenario" in a body, inline run and entry, 422 in an experiment), and a bad group name is EINVAL as in mkdir
        out.add(new Fault("cgroups", "[{\"path\": \"/g\"}, {\"path\": \"/g\"}]", "/cgroups/1/path", "EEXIST"));
        out.add(new Fault("cgroups", "[{\"path\": \"/g\"}, {\"path\": \"/\"}]", "/cgroups/1/path", "EEXIST"));
        out.add(new Fault("cgroups", "[{\"path\": \"/g\"}, {\"path\": \"/cpu.max\"}]", "/cgroups/1/path", "EEXIST"));
        out.add(new Fault("cgroups", "[{\"path\": \"/g\", \"cpu.max\": \"50000 100000\"}, {\"path\": \"/b\", "
                + "\"cpu.shares\": 512}]", "/cgroups/1/cpu.shares", "ENOENT"));
        out.add(new Fault("tasks", "[{\"name\": \"w\", \"cgroup\": \"/nope\", " + HOG + "}]", "/tasks/0/cgroup", "ENOENT"));
        out.add(new Fault("timeline", "[{\"at\": \"10ms\", \"rmdir\": \"/h\"}]", "/timeline/0/rmdir", "ENOENT"));
        for (String name : List.of("/g b", "/g*b", "/g//b")) {
            out.add(new Fault("cgroups", "[{\"path\": \"" + name + "\"}]", "/cgroups/0/path", "EINVAL"));
            out.add(new Fault("generate", "[{\"under\": \"" + name + "\", \"levels\": [1]}]", "/generate/0/under", "EINVAL"));
        }
        return out;
    }

    record Answer(String route, int status, String pointer, String errno, String title, String body) { }

    Answer send(String route, HttpMethod method, String uri, MediaType type, String body) {
        EntityExchangeResult<byte[]> r = web.method(method).uri(uri).contentType(type).bodyValue(body).exchange()
                .expectBody().returnResult();
        String text = r.getResponseBody() == null ? "" : new String(r.getResponseBody());
        JsonNode p = text.isEmpty() ? ApiTestSupport.JSON.nullNode() : ApiTestSupport.JSON.readTree(text);
        String errno = p.path("errno").isString() ? p.path("errno").asString() : null;
        return new Answer(route, r.getStatus().value(), p.path("pointer").asString(null), errno,
                p.path("title").asString(null), text.length() > 400 ? text.substring(0, 400) : text);
    }

    static String esc(String key) { return key.replace("~", "~0").replace("/", "~1"); }

    /** Every route's answer to the fault, with the pointer each should name. */
    Map<Answer, String> answers(Fault f, String storedId) {
        ObjectNode doc = (ObjectNode) ApiTestSupport.JSON.readTree(BASE);
        if (f.kernel() != null) doc.set("kernel", ApiTestSupport.JSON.readTree(f.kernel()));
        String base = doc.toString();
        JsonNode value = ApiTestSupport.JSON.readTree(f.value());
        doc.set(f.key(), value);
        String json = doc.toString();
        Map<Answer, String> out = new LinkedHashMap<>();
        out.put(send("scenario JSON", HttpMethod.POST, "/api/scenarios", MediaType.APPLICATION_JSON, json), f.pointer());
        out.put(send("scenario YAML", HttpMethod.POST, "/api/scenarios", YAML_TYPE, YAML.writeValueAsString(doc)), f.pointer());
        out.put(send("run inline", HttpMethod.POST, "/api/runs", MediaType.APPLICATION_JSON,
                "{\"scenario\": " + json + "}"), "/scenario" + f.pointer());
        out.put(send("experiment inline", HttpMethod.POST, "/api/experiments", MediaType.APPLICATION_JSON,
                "{\"scenario\": " + json + ", \"repeats\": 1, \"arms\": [{\"name\": \"a\", \"set\": {}}]}"),
                "/scenario" + f.pointer());
        out.put(send("experiment arm set", HttpMethod.POST, "/api/experiments", MediaType.APPLICATION_JSON,
                "{\"scenario\": " + base + ", \"repeats\": 1, \"arms\": [{\"name\": \"a\", \"set\": {\"/" + f.key() + "\": "
                        + f.value() + "}}]}"), "/arms/0/set/" + esc("/" + f.key())
                        + (f.deepInArm() ? f.pointer().substring(f.key().length() + 1) : ""));
        String part = PARTS.get(f.key());
        if (part != null && value instanceof ArrayNode a && a.size() == 1 && f.kernel() == null) {
            // the stored scenario has one task and no generate or timeline entry: the new entry's index
            String ptr = f.pointer().replaceFirst("^/tasks/0", "/tasks/1");
            out.put(send("POST " + part, HttpMethod.POST, "/api/scenarios/" + storedId + part, MediaType.APPLICATION_JSON,
                    a.get(0).toString()), ptr);
        }
        return out;
    }

    @Test
    void everyFaultGivesOneProblemInEveryRoute() {
        String stored = ApiTestSupport.createScenario(web, BASE);
        SoftAssertions soft = new SoftAssertions();
        int checked = 0;
        for (Fault f : faults()) {
            for (Map.Entry<Answer, String> e : answers(f, stored).entrySet()) {
                Answer a = e.getKey();
                String what = f + " via " + a.route() + ": " + a.body();
                soft.assertThat(a.status()).as(what).isEqualTo(422);
                soft.assertThat(a.pointer()).as(what).isEqualTo(e.getValue());
                soft.assertThat(a.errno()).as(what).isEqualTo(f.errno());
                soft.assertThat(a.title()).as(what).isEqualTo(ProblemHandler.titleOf(f.errno()));
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(300);
        soft.assertAll();
        // nothing was lost on the refused writes: the stored scenario is as created
        web.get().uri("/api/scenarios/" + stored).exchange().expectStatus().isOk().expectHeader()
                .valueEquals("ETag", "\"1\"");
    }

    /**
     * Breaker 4 F9: one fault of a name, one wording on every route (a tab was "white space other than a plain space"
     * in a JSON body and inline run, "a control character" in YAML and an experiment's inline scenario); an empty or
     * blank scenario name is refused as an arm's is (it was stored as given).
     */
    @Test
    void aNameFaultHasOneWordingOnEveryRoute() {
        String stored = ApiTestSupport.createScenario(web, BASE);
        Map<String, String> words = new LinkedHashMap<>();
        words.put("\"a\\tb\"", "name contains a control character (U+0009)");
        words.put("\"\\t\"", "name contains a control character (U+0009)");
        words.put("\"a\\u0001b\"", "name contains a control character (U+0001)");
        words.put("\"a\\u009bb\"", "name contains a control character (U+009B)");
        words.put("\"\"", "name must not be empty");
        words.put("\"   \"", "name must not be empty");
        words.put("\" x\"", "name must not begin or end with white space");
        words.put("\"x \"", "name must not begin or end with white space");
        SoftAssertions soft = new SoftAssertions();
        int checked = 0;
        for (Map.Entry<String, String> w : words.entrySet()) {
            Fault f = new Fault("name", w.getKey(), "/name", "EINVAL");
            for (Map.Entry<Answer, String> e : answers(f, stored).entrySet()) {
                Answer a = e.getKey();
                String what = f + " via " + a.route() + ": " + a.body();
                soft.assertThat(a.status()).as(what).isEqualTo(422);
                soft.assertThat(a.pointer()).as(what).isEqualTo(e.getValue());
                soft.assertThat(a.errno()).as(what).isEqualTo("EINVAL");
                // an arm's set adds where the value went: (arm "a", scenario /name)
                String detail = ApiTestSupport.JSON.readTree(a.body()).path("detail").asString();
                soft.assertThat(detail.replace(" (arm \"a\", scenario /name)", "")).as(what).isEqualTo(w.getValue());
                checked++;
            }
            // the experiment's own name, and an arm's, in the same words
            String experiment = "{\"name\": " + w.getKey() + ", \"scenario\": " + BASE + ", \"repeats\": 1, \"arms\": [{\"name\": \"a\"}]}";
            String arm = "{\"scenario\": " + BASE + ", \"repeats\": 1, \"arms\": [{\"name\": " + w.getKey() + "}]}";
            for (String[] doc : new String[][] {{experiment, "/name"}, {arm, "/arms/0/name"}}) {
                Answer a = send("experiment", HttpMethod.POST, "/api/experiments", MediaType.APPLICATION_JSON, doc[0]);
                soft.assertThat(a.status()).as(a.body()).isEqualTo(422);
                soft.assertThat(a.pointer()).as(a.body()).isEqualTo(doc[1]);
                soft.assertThat(a.errno()).as(a.body()).isEqualTo("EINVAL");
                soft.assertThat(ApiTestSupport.JSON.readTree(a.body()).path("detail").asString()).as(doc[0]).isEqualTo(w.getValue());
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(50);
        soft.assertAll();
    }

    static final Pattern DURATION = Pattern.compile("[0-9]+(\\.[0-9]+)?(ns|us|ms|s)");

    /** Every duration and every cgroup file value of the ready-made scenarios: the pointers to set faults at. */
    static void fields(JsonNode n, String at, List<String> durations, List<String> files) {
        if (n instanceof ObjectNode o) {
            for (Map.Entry<String, JsonNode> e : o.properties()) {
                String ptr = at + "/" + esc(e.getKey());
                if (e.getKey().startsWith("cpu.") && e.getValue().isValueNode()) files.add(ptr);
                else if (e.getKey().startsWith("cpu.") && e.getValue() instanceof ObjectNode depths) {
                    for (String d : depths.propertyNames()) files.add(ptr + "/" + d);
                } else if (e.getKey().equals("value") && o.has("write")) files.add(ptr);
                else fields(e.getValue(), ptr, durations, files);
            }
        } else if (n instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) fields(a.get(i), at + "/" + i, durations, files);
        } else if (n.isString() && DURATION.matcher(n.asString()).matches()) {
            durations.add(at);
        }
    }

    /**
     * N4 over the corpus: every duration of every ready-made scenario set to a bare-ns integer beyond 64 bits is
     * ERANGE at its pointer, every cgroup file value set to {@code 1.5} or {@code true} EINVAL, as a scenario body in
     * JSON and YAML and inline in a run request.
     */
    @Test
    void everyDurationAndEveryFileValueOfTheReadyMadeScenarios() throws Exception {
        SoftAssertions soft = new SoftAssertions();
        int checked = 0;
        for (JsonNode s : ProblemWordsTest.documents("scenarios")) {
            List<String> durations = new ArrayList<>(), files = new ArrayList<>();
            fields(s, "", durations, files);
            List<String[]> cases = new ArrayList<>();
            for (String d : durations) cases.add(new String[] {d, "99999999999999999999", "ERANGE"});
            for (String f : files) {
                cases.add(new String[] {f, "1.5", "EINVAL"});
                cases.add(new String[] {f, "true", "EINVAL"});
            }
            for (String[] c : cases) {
                String json = ProblemWordsTest.jsonWith(s, c[0], c[1]);
                ObjectNode doc = (ObjectNode) ApiTestSupport.JSON.readTree(json);
                for (Answer a : List.of(
                        send("scenario JSON", HttpMethod.POST, "/api/scenarios", MediaType.APPLICATION_JSON, json),
                        send("scenario YAML", HttpMethod.POST, "/api/scenarios", YAML_TYPE, YAML.writeValueAsString(doc)))) {
                    String what = c[0] + "=" + c[1] + " via " + a.route() + ": " + a.body();
                    soft.assertThat(a.status()).as(what).isEqualTo(422);
                    soft.assertThat(a.pointer()).as(what).isEqualTo(c[0]);
                    soft.assertThat(a.errno()).as(what).isEqualTo(c[2]);
                    checked++;
                }
                Answer run = send("run inline", HttpMethod.POST, "/api/runs", MediaType.APPLICATION_JSON,
                        "{\"scenario\": " + json + "}");
                soft.assertThat(run.pointer()).as(c[0] + " run: " + run.body()).isEqualTo("/scenario" + c[0]);
                soft.assertThat(run.errno()).as(c[0] + " run: " + run.body()).isEqualTo(c[2]);
                checked++;
            }
        }
        assertThat(checked).as("durations and file values of every section").isGreaterThan(60);
        soft.assertAll();
    }

    /**
     * N5 through the file API: a v1 root file's value beyond its parser's range is ERANGE, as a child's (the kernel
     * parses before it refuses the root); a value that parses is the root's EINVAL. The scenario is kept as it was.
     */
    @Test
    void v1RootFilesParseBeforeTheyRefuseTheRoot() {
        String v1 = ApiTestSupport.createScenario(web, "{\"name\": \"v1\", \"duration\": \"1s\", \"kernel\": {\"rt_group_sched\":"
                + " true}, \"cgroups\": [{\"path\": \"/p\", \"cpu.shares\": 1024}]}");
        for (String file : io.cfslab.scenario.CgroupFiles.FILES_V1) {
            String big = io.cfslab.scenario.V1RootWriteOrderTest.beyond(file);
            for (String group : List.of("", "/p")) {
                var p = ApiTestSupport.problem(web.put().uri("/api/scenarios/" + v1 + "/cgroups" + group + "/" + file)
                        .contentType(MediaType.TEXT_PLAIN).bodyValue(big).exchange(),
                        org.springframework.http.HttpStatus.UNPROCESSABLE_CONTENT, null, "ERANGE");
                assertThat(p.path("detail").asString()).as(file).contains("out of range");
            }
        }
        ApiTestSupport.problem(web.put().uri("/api/scenarios/" + v1 + "/cgroups/cpu.shares").contentType(MediaType.TEXT_PLAIN)
                .bodyValue("2048").exchange(), org.springframework.http.HttpStatus.UNPROCESSABLE_CONTENT, "/path", "EINVAL");
        // the root's RT files: what tg_set_rt_bandwidth()/tg_rt_schedulable() refuse gets their EINVAL (runtime 0,
        // period 0, runtime above the period, above the global 950000/1000000); a write the kernel takes is refused
        // as not modelled, without an errno (the root's RT bandwidth is kernel.sched_rt_*)
        for (String[] w : new String[][] {{"cpu.rt_runtime_us", "0", "EINVAL"}, {"cpu.rt_period_us", "0", "EINVAL"},
                {"cpu.rt_runtime_us", "2000000", "EINVAL"}, {"cpu.rt_runtime_us", "960000", "EINVAL"},
                {"cpu.rt_period_us", "900000", "EINVAL"}, {"cpu.rt_runtime_us", "900000", null},
                {"cpu.rt_period_us", "2000000", null}, {"cpu.rt_runtime_us", "-1", "EINVAL"}}) {
            var p = ApiTestSupport.problem(web.put().uri("/api/scenarios/" + v1 + "/cgroups/" + w[0]).contentType(MediaType.TEXT_PLAIN)
                    .bodyValue(w[1]).exchange(), org.springframework.http.HttpStatus.UNPROCESSABLE_CONTENT, null, w[2]);
            if (w[2] == null) assertThat(p.path("errno").isMissingNode() || p.path("errno").isNull()).as(w[0] + " " + w[1] + " " + p).isTrue();
            if (w[2] == null) assertThat(p.path("detail").asString()).as(w[0] + " " + w[1]).contains("not modelled (the kernel takes this write)");
            else assertThat(p.path("detail").asString()).as(w[0] + " " + w[1]).doesNotContain("not modelled");
        }
        web.get().uri("/api/scenarios/" + v1).exchange().expectHeader().valueEquals("ETag", "\"1\"");
    }

    /**
     * The cgroup file API and a document agree: the same text written to a file through {@code PUT …/cgroups/g/file}
     * and as the value of that file in a scenario body gives one problem (status, errno, pointer, title).
     */
    @Test
    void theFileApiAndADocumentGiveOneProblemForOneValue() {
        String stored = ApiTestSupport.createScenario(web, BASE);
        SoftAssertions soft = new SoftAssertions();
        for (String file : List.of("cpu.weight", "cpu.max", "cpu.max.burst")) {
            for (String text : List.of("1.5", "true", "0", "10001", "18446744073709551616", "abc", "-1", " 5")) {
                ObjectNode doc = (ObjectNode) ApiTestSupport.JSON.readTree(BASE);
                ((ObjectNode) doc.get("cgroups").get(0)).put(file, text);
                Answer inDoc = send("scenario JSON", HttpMethod.POST, "/api/scenarios", MediaType.APPLICATION_JSON, doc.toString());
                Answer put = send("PUT file", HttpMethod.PUT, "/api/scenarios/" + stored + "/cgroups/g/" + file,
                        MediaType.TEXT_PLAIN, text);
                String what = file + " = '" + text + "': " + inDoc.body() + " / " + put.body();
                if (inDoc.status() == 201) {
                    soft.assertThat(put.status()).as(what).isEqualTo(204);
                    continue;
                }
                soft.assertThat(put.status()).as(what).isEqualTo(inDoc.status());
                soft.assertThat(put.errno()).as(what).isEqualTo(inDoc.errno());
                soft.assertThat(put.pointer()).as(what).isEqualTo(inDoc.pointer());
                soft.assertThat(put.title()).as(what).isEqualTo(inDoc.title());
            }
        }
        soft.assertAll();
    }
}
