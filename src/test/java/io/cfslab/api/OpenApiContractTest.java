package io.cfslab.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.api.OpenApiDocument.Operation;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * The running service against its own OpenAPI document, operation by operation, for every operation the
 * document lists (so operations added later are checked too): each is called with valid arguments on a fresh
 * fixture, with unknown ids, with a malformed body and with an Accept it cannot satisfy, and every answer must
 * have a documented status, a documented media type and a body that validates against the documented schema.
 * Also: the document's info, path parameters and media types, and the published scenario schema.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:contract-${random.uuid};DB_CLOSE_DELAY=-1;WRITE_DELAY=0",
        "cfslab.runs.pool-size=1", "cfslab.runs.poll-interval=100ms", "cfslab.runs.progress-interval=50ms"})
class OpenApiContractTest {
    static final String SCENARIO = """
            {"name": "contract", "seed": 3, "duration": "300ms", "machine": {"profile": "generic", "cpus": 2},
             "cgroups": [{"path": "/a", "cpu.max": "50000 100000"}, {"path": "/b"}],
             "tasks": [{"name": "nop", "cgroup": "/a", "count": 2, "workload": {"kind": "hog"}}],
             "timeline": [{"at": "100ms", "write": "/a/cpu.max", "value": "60000 100000"}]}""";
    static final String EXPERIMENT = "{\"name\": \"contract\", \"scenario\": " + SCENARIO + ", \"repeats\": 2,"
            + " \"arms\": [{\"name\": \"base\"}, {\"name\": \"half\", \"set\": {\"/cgroups/0/cpu.max\": \"25000 100000\"}}]}";
    /** Valid request bodies by the component their schema refers to. */
    static final Map<String, String> BODIES = Map.of(
            "Scenario", SCENARIO,
            "ExperimentRequest", EXPERIMENT,
            "Task", "{\"name\": \"t2\", \"cgroup\": \"/b\", \"count\": 1, \"workload\": {\"kind\": \"hog\"}}",
            "TimelineAction", "{\"at\": \"200ms\", \"write\": \"/b/cpu.max\", \"value\": \"20000\"}",
            "GenerateEntry", "{\"under\": \"/b\", \"levels\": [2, 2]}");

    @LocalServerPort int port;
    HttpClient http;
    OpenApiDocument api;
    String base;

    @BeforeEach
    void document() throws Exception {
        base = "http://127.0.0.1:" + port;
        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        api = new OpenApiDocument(base);
    }

    record Answer(int status, String contentType, String body, Map<String, String> headers) { }

    Answer send(String method, String uri, String contentType, String body, String accept) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + uri)).timeout(Duration.ofSeconds(30));
        if (contentType != null) b.header("Content-Type", contentType);
        if (accept != null) b.header("Accept", accept);
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        return new Answer(r.statusCode(), r.headers().firstValue("Content-Type").orElse(null), r.body(),
                OpenApiDocument.headers(r));
    }

    String created(Answer a) {
        assertThat(a.status()).as(a.body()).isBetween(200, 299);
        String location = a.headers().get("location");
        return location.substring(location.lastIndexOf('/') + 1);
    }

    String finishedExperiment() throws Exception {
        String id = created(send("POST", "/api/experiments", "application/json", EXPERIMENT, null));
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!OpenApiDocument.JSON.readTree(send("GET", "/api/experiments/" + id, null, null, null).body()).path("status")
                .asString().equals("done")) {
            assertThat(System.nanoTime()).as("experiment " + id + " done").isLessThan(end);
            Thread.sleep(50);
        }
        return id;
    }

    String finishedRun(String scenarioId) throws Exception {
        String run = created(send("POST", "/api/runs", "application/json", "{\"scenarioId\": \"" + scenarioId + "\"}", null));
        long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!OpenApiDocument.JSON.readTree(send("GET", "/api/runs/" + run, null, null, null).body()).path("status")
                .asString().equals("done")) {
            assertThat(System.nanoTime()).as("run " + run + " done").isLessThan(end);
            Thread.sleep(50);
        }
        return run;
    }

    @Test
    void theDocumentDescribesTheServiceAndEveryParameter() throws Exception {
        JsonNode info = api.doc.path("info");
        assertThat(info.path("title").asString()).isEqualTo("CFS Bandwidth Lab (cfslab)");
        assertThat(info.path("version").asString()).matches("\\d+\\.\\d+\\.\\d+.*");
        assertThat(info.path("description").asString()).contains("CFS bandwidth").doesNotContain("\n");
        assertThat(api.doc.path("openapi").asString()).startsWith("3.1");
        // one relative server: right behind a proxy or on another host, unlike the request's own absolute URL
        assertThat(api.doc.path("servers")).hasSize(1);
        assertThat(api.doc.path("servers").get(0).path("url").asString()).isEqualTo("/");
        List<Operation> ops = api.operations();
        assertThat(ops).hasSizeGreaterThanOrEqualTo(31);
        for (Operation op : ops) {
            Set<String> declared = new HashSet<>();
            for (JsonNode p : op.parameters()) if (p.path("in").asString().equals("path")) declared.add(p.path("name").asString());
            assertThat(declared).as("path parameters of " + op).isEqualTo(new HashSet<>(op.pathParameters()));
            // a success answer, but for an operation that only refuses (DELETE of a cgroup file: 405; of the root: 409
            // EBUSY, as rmdir of /sys/fs/cgroup is)
            boolean rootRmdir = op.node().path("operationId").asString().equals("rmdirCgroupRoot");
            assertThat(op.statuses()).as("a success answer of " + op).anyMatch(s -> s < 300 || s == 405 || rootRmdir && s == 409);
            for (int s : op.statuses()) {
                if (s >= 400) assertThat(op.mediaTypes(s)).as(op + " " + s).containsExactly("application/problem+json");
            }
        }
        Operation writeFile = ops.stream().filter(o -> o.method().equals("PUT") && o.path().endsWith("{file}")).findFirst()
                .orElseThrow();
        assertThat(writeFile.requestMediaTypes()).containsExactly("text/plain");
        // the published scenario schema is the repository's file
        assertThat(send("GET", "/schemas/scenario.json", null, null, null).body())
                .isEqualTo(Files.readString(Path.of("src/main/resources/static/schemas/scenario.json")));
    }

    @Test
    void everyOperationAnswersAsDocumented() throws Exception {
        String runScenario = created(send("POST", "/api/scenarios", "application/json", SCENARIO, null));
        String run = finishedRun(runScenario);
        String experiment = finishedExperiment();
        List<String> failures = new ArrayList<>();
        int calls = 0;
        for (Operation op : api.operations()) {
            String scenario = created(send("POST", "/api/scenarios", "application/json", SCENARIO, null));
            boolean known = true;
            String uri = op.path();
            for (String p : op.pathParameters()) {
                // DELETE of a finished run or experiment deletes it: those get their own
                boolean deletes = op.method().equals("DELETE");
                String v = switch (p) {
                    case "id" -> op.path().startsWith("/api/runs") ? (deletes ? finishedRun(runScenario) : run)
                            : op.path().startsWith("/api/scenarios") ? scenario
                            : op.path().startsWith("/api/experiments/ready-made") ? "seed04-task-vs-task-account"
                            : op.path().startsWith("/api/experiments") ? (deletes ? finishedExperiment() : experiment) : null;
                    case "name" -> op.path().contains("/histograms/") ? "distribute_cfs_runtime_ns" : "nop";
                    case "index" -> "0";
                    case "path" -> "b";
                    case "file" -> "cpu.max";
                    default -> null;
                };
                if (v == null) {
                    known = false;
                    v = "x";
                }
                uri = uri.replace("{" + p + "}", v);
            }
            List<String> media = op.requestMediaTypes();
            String type = media.isEmpty() ? null : media.get(0);
            String body = null;
            if (type != null) {
                String ref = op.node().path("requestBody").path("content").path(type).path("schema").path("$ref").asString("");
                String component = ref.substring(ref.lastIndexOf('/') + 1);
                body = type.equals("text/plain") ? "50000 100000"
                        : component.equals("RunRequest") ? "{\"scenarioId\": \"" + scenario + "\"}" : BODIES.get(component);
                if (body == null) {
                    known = false;
                    body = "{}";
                }
            }
            List<Answer> answers = new ArrayList<>();
            Answer good = send(op.method(), uri, type, body, null);
            answers.add(good);
            boolean refusesOnly = op.statuses().stream().noneMatch(st -> st < 300);
            if (known && good.status() >= 300 && !refusesOnly) {
                failures.add(op + " with valid arguments answered " + good.status() + ": " + OpenApiDocument.abbreviate(good.body()));
            }
            String missing = op.path();
            for (String p : op.pathParameters()) missing = missing.replace("{" + p + "}", p.equals("file") ? "cpu.max" : "nope");
            answers.add(send(op.method(), missing, type, body, null));
            if (type != null) answers.add(send(op.method(), uri, type, type.equals("text/plain") ? "\u00ff" : "{\"a\": ", null));
            answers.add(send(op.method(), uri, type, body, "image/png"));
            for (Answer a : answers) {
                calls++;
                for (String problem : api.check(op, a.status(), a.contentType(), a.body())) {
                    failures.add(op + " answered " + a.status() + " " + a.contentType() + ": " + problem);
                }
            }
        }
        assertThat(failures).isEmpty();
        assertThat(calls).isGreaterThanOrEqualTo(3 * api.operations().size());
    }

    /**
     * Issue 13: "gives bodies as a generic tree". Every request and answer body of every operation has a real schema: a
     * component ({@code $ref}: Scenario, Run, Experiment, Problem, …), an array or map of one, an object with its
     * properties, or a scalar type; never {@code {}} or a bare {@code object}.
     */
    @Test
    void everyBodyHasARealSchemaNotAGenericTree() {
        List<String> generic = new ArrayList<>();
        int bodies = 0;
        for (var path : api.doc.path("paths").properties()) {
            for (var op : path.getValue().properties()) {
                List<Map.Entry<String, JsonNode>> contents = new ArrayList<>();
                op.getValue().path("requestBody").path("content").properties().forEach(c -> contents.add(Map.entry("request "
                        + c.getKey(), c.getValue())));
                for (var r : op.getValue().path("responses").properties()) {
                    r.getValue().path("content").properties().forEach(c -> contents.add(Map.entry(r.getKey() + " "
                            + c.getKey(), c.getValue())));
                }
                for (var c : contents) {
                    bodies++;
                    if (!realSchema(c.getValue().path("schema"))) {
                        generic.add(op.getKey() + " " + path.getKey() + " " + c.getKey() + ": " + c.getValue().path("schema"));
                    }
                }
            }
        }
        assertThat(bodies).isGreaterThan(60);
        assertThat(generic).isEmpty();
    }

    private static boolean realSchema(JsonNode s) {
        if (s.isMissingNode() || s.isEmpty()) return false;
        if (s.has("$ref") || s.has("oneOf") || s.has("anyOf")) return true;
        String type = s.path("type").asString();
        if (type.equals("array")) return realSchema(s.path("items"));
        if (type.equals("object")) return s.has("properties") || realSchema(s.path("additionalProperties"));
        return List.of("string", "integer", "number", "boolean").contains(type);
    }

    @Test
    void everyReadyMadeScenarioMatchesThePublishedSchema() throws Exception {
        JsonNode list = OpenApiDocument.JSON.readTree(send("GET", "/api/scenarios", null, null, null).body());
        int readyMade = 0;
        for (JsonNode s : list) {
            if (!s.path("readyMade").asBoolean()) continue;
            readyMade++;
            JsonNode view = OpenApiDocument.JSON.readTree(send("GET", "/api/scenarios/" + s.path("id").asString(), null, null, null).body());
            assertThat(api.validate("Scenario", view.path("scenario"))).as(s.path("id").asString()).isEmpty();
        }
        assertThat(readyMade).isGreaterThanOrEqualTo(7);
        // and what the parser refuses as unknown keys or wrong types, the schema refuses too
        assertThat(api.validate("Scenario", OpenApiDocument.JSON.readTree("{\"duration\": \"1s\", \"bogus\": 1}"))).isNotEmpty();
        assertThat(api.validate("Scenario", OpenApiDocument.JSON.readTree("{\"duration\": \"1 fortnight\"}"))).isNotEmpty();
        assertThat(api.validate("Scenario", OpenApiDocument.JSON.readTree(SCENARIO))).isEmpty();
        // the checks bite: a run view of the wrong shape, a problem without its fields, an undocumented status
        Operation getRun = api.operations().stream().filter(o -> o.toString().equals("GET /api/runs/{id}")).findFirst()
                .orElseThrow();
        assertThat(api.check(getRun, 200, "application/json", "{\"id\": 1}")).isNotEmpty();
        assertThat(api.check(getRun, 404, "application/problem+json", "{\"status\": 404}")).isNotEmpty();
        assertThat(api.check(getRun, 500, "application/problem+json", "{}")).isNotEmpty();
        assertThat(api.check(getRun, 200, "text/html", "<p>")).isNotEmpty();
    }
}
