package io.cfslab.api;

import static io.cfslab.api.ApiTestSupport.JSON;
import static io.cfslab.api.ApiTestSupport.awaitStatus;
import static io.cfslab.api.ApiTestSupport.json;
import static io.cfslab.api.ApiTestSupport.problem;
import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.cli.Cli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * README and docs/scenarios.md say a scenario is JSON or YAML: every endpoint that takes a scenario (or a part of
 * one, or a request holding one) takes {@code application/yaml} (and its older names) as well, with the same
 * validation and the same problem pointers as the JSON body, and the CLI reads a YAML file (a newcomer's finding:
 * the API answered 415).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:yaml-${random.uuid};DB_CLOSE_DELAY=-1;WRITE_DELAY=0"})
@AutoConfigureWebTestClient(timeout = "60s")
class YamlBodiesTest {
    static final MediaType YAML = MediaType.parseMediaType("application/yaml");

    static final String SCENARIO = """
            # a comment, as YAML files have them
            name: yaml two levels
            seed: 7
            duration: 200ms
            machine: {profile: generic, cpus: 2}
            cgroups:
              - path: /web
                cpu.max: 50000 100000
            tasks:
              - name: be
                cgroup: /web
                count: 2
                workload: {kind: hog}
            """;

    static final String JSON_TWIN = """
            {"name": "yaml two levels", "seed": 7, "duration": "200ms", "machine": {"profile": "generic", "cpus": 2},
             "cgroups": [{"path": "/web", "cpu.max": "50000 100000"}],
             "tasks": [{"name": "be", "cgroup": "/web", "count": 2, "workload": {"kind": "hog"}}]}
            """;

    @Autowired WebTestClient web;

    private String created(MediaType type, String body) {
        var res = web.post().uri("/api/scenarios").contentType(type).bodyValue(body).exchange()
                .expectStatus().isCreated().expectBody().returnResult();
        String location = res.getResponseHeaders().getLocation().toString();
        return location.substring(location.lastIndexOf('/') + 1);
    }

    @Test
    void aYamlScenarioIsStoredAsItsJsonTwinAndRuns() throws Exception {
        String fromYaml = created(YAML, SCENARIO);
        String fromJson = created(MediaType.APPLICATION_JSON, JSON_TWIN);
        JsonNode a = json(web.get().uri("/api/scenarios/" + fromYaml).exchange().expectStatus().isOk()).path("scenario");
        JsonNode b = json(web.get().uri("/api/scenarios/" + fromJson).exchange().expectStatus().isOk()).path("scenario");
        assertThat(a).isEqualTo(b);
        assertThat(a.path("cgroups").get(0).path("cpu.max").asString()).isEqualTo("50000 100000");

        // replaced with YAML under an older media type name
        web.put().uri("/api/scenarios/" + fromYaml).contentType(MediaType.parseMediaType("application/x-yaml"))
                .bodyValue(SCENARIO.replace("200ms", "300ms")).exchange().expectStatus().isOk();
        assertThat(json(web.get().uri("/api/scenarios/" + fromYaml).exchange().expectStatus().isOk())
                .path("scenario").path("duration").asString()).isEqualTo("300ms");

        // a run request in YAML with the scenario inline, and parts of a stored scenario
        var run = web.post().uri("/api/runs").contentType(MediaType.parseMediaType("text/yaml"))
                .bodyValue("scenario:\n" + SCENARIO.indent(2)).exchange().expectStatus().isAccepted()
                .expectBody().returnResult();
        String location = run.getResponseHeaders().getLocation().toString();
        awaitStatus(web, location.substring(location.lastIndexOf('/') + 1), "done", Duration.ofSeconds(60));
        web.post().uri("/api/scenarios/" + fromYaml + "/tasks").contentType(YAML)
                .bodyValue("name: fe\ncgroup: /web\nworkload: {kind: hog}\n").exchange().expectStatus().isCreated();
        web.post().uri("/api/scenarios/" + fromYaml + "/timeline").contentType(YAML)
                .bodyValue("at: 100ms\nwrite: /web/cpu.max\nvalue: 20000 100000\n").exchange().expectStatus().isCreated();
    }

    /**
     * docs/api.md: YAML's null ({@code ~}, {@code null}, an empty value) is the key left out, so the stored scenario has
     * no such key (it kept {@code "hz": null}, a newcomer's finding): on POST, PUT, a part's edit and a run's inline
     * scenario, in YAML and in JSON alike, at any depth; the parsed defaults are the version's.
     */
    @Test
    void aNullKeyIsStoredAsTheKeyLeftOut() throws Exception {
        String withNulls = SCENARIO.replace("seed: 7", "seed: 7\nkernel:\n  version: '6.1'\n  hz: ~\n  throttle: null\n  bandwidth_slice_us:\nrecord: ~")
                .replace("count: 2", "count: 2\n    cpus_allowed: ~");
        String fromYaml = created(YAML, withNulls);
        String fromJson = created(MediaType.APPLICATION_JSON, JSON_TWIN.replace("\"seed\": 7,",
                "\"seed\": 7, \"kernel\": {\"version\": \"6.1\", \"hz\": null, \"throttle\": null, \"bandwidth_slice_us\": null}, \"record\": null,"));
        for (String id : java.util.List.of(fromYaml, fromJson)) {
            JsonNode doc = json(web.get().uri("/api/scenarios/" + id).exchange().expectStatus().isOk()).path("scenario");
            assertThat(doc.path("kernel").propertyNames()).as(id).containsExactly("version");
            assertThat(doc.has("record")).isFalse();
            assertThat(doc.toString()).doesNotContain("null");
        }
        // the same on PUT, and on a part added to the stored scenario
        web.put().uri("/api/scenarios/" + fromYaml).contentType(YAML).bodyValue(withNulls.replace("200ms", "300ms"))
                .exchange().expectStatus().isOk();
        web.post().uri("/api/scenarios/" + fromYaml + "/tasks").contentType(YAML)
                .bodyValue("name: fe\ncgroup: /web\ncpus_allowed: ~\nworkload: {kind: hog}\n").exchange().expectStatus().isCreated();
        JsonNode put = json(web.get().uri("/api/scenarios/" + fromYaml).exchange().expectStatus().isOk()).path("scenario");
        assertThat(put.toString()).doesNotContain("null");
        assertThat(put.path("tasks")).hasSize(2);
        // a run of an inline scenario keeps the scenario it ran without the nulls too
        var run = web.post().uri("/api/runs").contentType(YAML).bodyValue("scenario:\n" + withNulls.indent(2))
                .exchange().expectStatus().isAccepted().expectBody().returnResult();
        String location = run.getResponseHeaders().getLocation().toString();
        String runId = location.substring(location.lastIndexOf('/') + 1);
        JsonNode ran = json(web.get().uri("/api/runs/" + runId + "/scenario").exchange().expectStatus().isOk());
        assertThat(ran.path("kernel").propertyNames()).containsExactly("version");
        // and the version's defaults apply: 6.1's HZ and throttle model
        JsonNode settings = json(web.get().uri("/api/runs/" + runId).exchange().expectStatus().isOk()).path("settings");
        assertThat(settings.path("kernel").path("throttle").asString()).isEqualTo("cfs_rq");
        assertThat(settings.path("kernel").path("bandwidth_slice_us").asInt()).isEqualTo(5000);
    }

    @Test
    void aBadYamlScenarioGetsTheJsonBodysProblemAndPointer() {
        String bad = SCENARIO.replace("50000 100000", "500 100000");
        JsonNode fromYaml = problem(web.post().uri("/api/scenarios").contentType(YAML).bodyValue(bad).exchange(),
                HttpStatus.UNPROCESSABLE_CONTENT, "/cgroups/0/cpu.max", "EINVAL");
        JsonNode fromJson = problem(web.post().uri("/api/scenarios").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(JSON_TWIN.replace("50000 100000", "500 100000")).exchange(),
                HttpStatus.UNPROCESSABLE_CONTENT, "/cgroups/0/cpu.max", "EINVAL");
        assertThat(fromYaml.path("detail").asString()).isEqualTo(fromJson.path("detail").asString());

        // inline in a run request: the same pointer under /scenario
        problem(web.post().uri("/api/runs").contentType(YAML).bodyValue("scenario:\n" + bad.indent(2)).exchange(),
                HttpStatus.UNPROCESSABLE_CONTENT, "/scenario/cgroups/0/cpu.max", "EINVAL");
    }

    @Test
    void malformedYamlIsA400NamingTheLineAndDuplicateKeysAndAliasesAreRefused() {
        JsonNode p = problem(web.post().uri("/api/scenarios").contentType(YAML)
                .bodyValue("name: x\nduration: [1s\n").exchange(), HttpStatus.BAD_REQUEST, "", "EINVAL");
        assertThat(p.path("title").asString()).isEqualTo("Malformed YAML");
        assertThat(p.path("detail").asString()).contains("line");
        problem(web.post().uri("/api/scenarios").contentType(YAML).bodyValue("duration: 1s\nduration: 2s\n").exchange(),
                HttpStatus.BAD_REQUEST, "", "EINVAL");
        problem(web.post().uri("/api/scenarios").contentType(YAML)
                .bodyValue("duration: &d 1s\nname: *d\n").exchange(), HttpStatus.BAD_REQUEST, "", "EINVAL");
        // a YAML list is well-formed but not a scenario: 422, as a JSON array is
        problem(web.post().uri("/api/scenarios").contentType(YAML).bodyValue("- 1\n- 2\n").exchange(),
                HttpStatus.UNPROCESSABLE_CONTENT, "", "EINVAL");
        // a type the API does not read is still 415
        web.post().uri("/api/scenarios").contentType(MediaType.APPLICATION_XML).bodyValue("<x/>").exchange()
                .expectStatus().isEqualTo(HttpStatus.UNSUPPORTED_MEDIA_TYPE);
    }

    @Test
    void anExperimentInYamlIsAccepted() {
        String id = created(YAML, SCENARIO);
        String experiment = """
                name: yaml experiment
                scenario_id: %s
                repeats: 1
                arms:
                  - name: base
                  - name: half
                    set: {/cgroups/0/cpu.max: 25000 100000}
                """.formatted(id);
        web.post().uri("/api/experiments").contentType(YAML).bodyValue(experiment).exchange().expectStatus().isAccepted();
    }

    /**
     * Breaker 9 F15: a YAML body that starts with '{' (a flow mapping, single quotes, a JSON object with a trailing
     * comment) was read as JSON and refused "malformed JSON"; it is valid YAML. Every operation the OpenAPI document
     * lists as reading YAML is sent each form: none is a 400 (a 422 of its content is the route's own word), and
     * a flow sequence is "not an object" (422), as {@code - 1} is.
     */
    @Test
    void aYamlBodyStartingWithABraceIsReadAsYamlOnEveryRoute() {
        String id = created(YAML, SCENARIO);
        java.util.List<String> flows = java.util.List.of("{name: t, duration: 50ms}", "{'name': 't', 'duration': '50ms'}",
                "{\"name\": \"t\", \"duration\": \"50ms\"}\n# trailing comment",
                "{\"name\": \"t\", \"duration\": \"50ms\", \"kernel\": {hz: 250}}");
        JsonNode paths = JSON.readTree(new String(web.get().uri("/v3/api-docs").exchange().expectStatus().isOk()
                .expectBody().returnResult().getResponseBody())).path("paths");
        var soft = new org.assertj.core.api.SoftAssertions();
        int routes = 0;
        for (var path : paths.properties()) {
            for (var op : path.getValue().properties()) {
                if (!op.getValue().path("requestBody").path("content").has("application/yaml")) continue;
                routes++;
                String uri = path.getKey().replace("{id}", id).replace("{path}", "web").replaceAll("\\{[^}]+}", "x");
                var method = org.springframework.http.HttpMethod.valueOf(op.getKey().toUpperCase(java.util.Locale.ROOT));
                for (String body : flows) {
                    for (MediaType type : java.util.List.of(YAML, MediaType.parseMediaType("text/yaml"))) {
                        var r = web.method(method).uri(uri).contentType(type).bodyValue(body).exchange().expectBody().returnResult();
                        String text = r.getResponseBody() == null ? "" : new String(r.getResponseBody());
                        soft.assertThat(r.getStatus().value()).as(method + " " + uri + " " + type + " " + body + ": " + text).isNotEqualTo(400);
                        soft.assertThat(text).as(method + " " + uri + " " + body).doesNotContain("malformed JSON");
                    }
                }
                var list = web.method(method).uri(uri).contentType(YAML).bodyValue("[a, b]").exchange().expectBody().returnResult();
                soft.assertThat(list.getStatus().value()).as(method + " " + uri + " [a, b]: " + new String(list.getResponseBody()))
                        .isEqualTo(422);
            }
        }
        soft.assertAll();
        assertThat(routes).as("operations reading YAML").isGreaterThanOrEqualTo(5);
        // what was stored is the JSON twin's
        for (String body : flows) {
            String flow = created(YAML, body);
            assertThat(json(web.get().uri("/api/scenarios/" + flow).exchange()).path("scenario").path("name").asString()).isEqualTo("t");
        }
        // a body declared JSON stays JSON: the flow mapping is malformed JSON there
        problem(web.post().uri("/api/scenarios").contentType(MediaType.APPLICATION_JSON).bodyValue(flows.get(0)).exchange(),
                HttpStatus.BAD_REQUEST, "", null);
    }

    /** Breaker 9 F15, the CLI: a {@code .yaml}/{@code .yml} file is YAML whatever its first character; a .json file JSON. */
    @Test
    void theCliReadsAYamlFileStartingWithABraceAsYaml(@TempDir Path dir) throws Exception {
        String flow = "{name: t, duration: 50ms, cgroups: [{path: /web, cpu.max: '50000 100000'}], tasks: [{name: be, cgroup: /web}]}\n# end\n";
        for (String name : new String[] {"flow.yaml", "flow.YML"}) {
            Path file = dir.resolve(name);
            Files.writeString(file, flow);
            assertThat(Cli.run(new String[] {"simulate", file.toString(), "--out", dir.resolve(name + ".out").toString()}))
                    .as(name).isZero();
        }
        Path json = dir.resolve("flow.json");
        Files.writeString(json, flow);
        assertThat(Cli.run(new String[] {"simulate", json.toString(), "--out", dir.resolve("json.out").toString()})).isEqualTo(Cli.EXIT_BAD_INPUT);
        Path experiment = dir.resolve("e.yaml");
        Files.writeString(experiment, "{name: e, repeats: 1, scenario: " + flow.replace("\n# end\n", "") + ", arms: [{name: a}]}\n");
        assertThat(Cli.run(new String[] {"experiment", experiment.toString(), "--out", dir.resolve("e.out").toString()})).isZero();
    }

    @Test
    void theCliSimulatesAYamlFile(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("two-levels.yaml");
        Path out = dir.resolve("result.json");
        Files.writeString(file, SCENARIO);
        assertThat(Cli.run(new String[] {"simulate", file.toString(), "--out", out.toString()})).isZero();
        assertThat(JSON.readTree(Files.readString(out)).path("cgroups").has("/web")).isTrue();
    }
}
