package io.cfslab.api;

import static io.cfslab.api.ApiTestSupport.createScenario;
import static io.cfslab.api.ApiTestSupport.json;
import static io.cfslab.api.ApiTestSupport.problem;
import static io.cfslab.api.ApiTestSupport.tiny;
import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.testsupport.EventLoopGuard;
import io.cfslab.testsupport.PacedEngine;
import io.cfslab.testsupport.PacedEngineConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.annotation.Import;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/** The REST layer's answers to concurrent, malformed and edge-case requests. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:apifixes-${random.uuid};DB_CLOSE_DELAY=-1;WRITE_DELAY=0",
        "cfslab.runs.execute=false"})
@AutoConfigureWebTestClient(timeout = "30s")
@Import({PacedEngineConfig.class, EventLoopGuard.class})
class ApiFixesTest {
    @Autowired WebTestClient web;
    @LocalServerPort int port;

    @AfterEach
    void nothingBlockedTheEventLoop() {
        assertThat(EventLoopGuard.violations).isEmpty();
    }

    @BeforeEach
    void fast() {
        PacedEngine.reset();
    }

    private WebClient client() {
        return WebClient.builder().baseUrl("http://localhost:" + port)
                .codecs(c -> c.defaultCodecs().maxInMemorySize(1 << 24)).build();
    }

    private static String emptyScenario(String name) {
        return "{\"name\": \"" + name + "\", \"duration\": \"200ms\", \"machine\": {\"cpus\": 1}}";
    }

    @Test
    void parallelMkdirsAreAllKept() {
        String id = createScenario(web, emptyScenario("mkdirs"));
        WebClient c = client();
        List<Integer> statuses = Flux.range(0, 40)
                .flatMap(i -> c.put().uri("/api/scenarios/" + id + "/cgroups/n" + i).exchangeToMono(r ->
                        r.releaseBody().thenReturn(r.statusCode().value())), 40)
                .collectList().block(Duration.ofSeconds(60));
        assertThat(statuses).hasSize(40).containsOnly(201);
        JsonNode tree = json(web.get().uri("/api/scenarios/" + id + "/cgroups").exchange().expectStatus().isOk());
        assertThat(tree.findValuesAsString("path")).containsAll(IntStream.range(0, 40).mapToObj(i -> "/n" + i).toList());
        JsonNode got = json(web.get().uri("/api/scenarios/" + id).exchange().expectStatus().isOk());
        assertThat(got.path("version").asLong()).isEqualTo(41);
    }

    @Test
    void parallelFileWritesEndConsistentWithTheAnswers() {
        String id = createScenario(web, emptyScenario("files"));
        String base = "/api/scenarios/" + id + "/cgroups";
        web.put().uri(base + "/g").exchange().expectStatus().isCreated();
        WebClient c = client();
        for (int round = 0; round < 10; round++) {
            // burst 30000 fits quota 40000 but not 10000: every order must end as the answers said
            String quota = round % 2 == 0 ? "40000" : "10000";
            web.put().uri(base + "/g/cpu.max.burst").contentType(MediaType.TEXT_PLAIN).bodyValue("0").exchange()
                    .expectStatus().isNoContent();
            web.put().uri(base + "/g/cpu.max").contentType(MediaType.TEXT_PLAIN).bodyValue("50000 100000").exchange()
                    .expectStatus().isNoContent();
            Mono<Integer> max = c.put().uri(base + "/g/cpu.max").contentType(MediaType.TEXT_PLAIN)
                    .bodyValue(quota + " 100000").exchangeToMono(r -> r.releaseBody().thenReturn(r.statusCode().value()));
            Mono<Integer> burst = c.put().uri(base + "/g/cpu.max.burst").contentType(MediaType.TEXT_PLAIN)
                    .bodyValue("30000").exchangeToMono(r -> r.releaseBody().thenReturn(r.statusCode().value()));
            var both = Mono.zip(max.subscribeOn(reactor.core.scheduler.Schedulers.parallel()),
                    burst.subscribeOn(reactor.core.scheduler.Schedulers.parallel())).block(Duration.ofSeconds(30));
            String maxNow = text(base + "/g/cpu.max");
            String burstNow = text(base + "/g/cpu.max.burst");
            assertThat(maxNow).as("round %d, answers %s", round, both)
                    .isEqualTo(both.getT1() == 204 ? quota + " 100000\n" : "50000 100000\n");
            assertThat(burstNow).as("round %d, answers %s", round, both)
                    .isEqualTo(both.getT2() == 204 ? "30000\n" : "0\n");
            if (quota.equals("40000")) assertThat(both.getT1()).isEqualTo(204);
            if (quota.equals("40000")) assertThat(both.getT2()).isEqualTo(204);
        }
    }

    @Test
    void ifMatchAndEtagOnScenarios() {
        String id = createScenario(web, tiny("etag"));
        String uri = "/api/scenarios/" + id;
        web.get().uri(uri).exchange().expectStatus().isOk().expectHeader().valueEquals("ETag", "\"1\"");
        problem(web.put().uri(uri).header("If-Match", "\"7\"").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(tiny("stale")).exchange(), HttpStatus.PRECONDITION_FAILED, "/id", null);
        // If-Match compares strongly (RFC 9110 13.1.1): a weak tag never matches, even of the current version
        problem(web.put().uri(uri).header("If-Match", "W/\"1\"").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(tiny("weak")).exchange(), HttpStatus.PRECONDITION_FAILED, "/id", null);
        problem(web.delete().uri(uri).header("If-Match", "W/\"1\", W/\"2\"").exchange(), HttpStatus.PRECONDITION_FAILED,
                "/id", null);
        web.put().uri(uri).header("If-Match", "\"1\"").contentType(MediaType.APPLICATION_JSON).bodyValue(tiny("fresh"))
                .exchange().expectStatus().isOk().expectHeader().valueEquals("ETag", "\"2\"");
        problem(web.delete().uri(uri).header("If-Match", "\"1\"").exchange(), HttpStatus.PRECONDITION_FAILED, "/id", null);
        web.get().uri(uri).exchange().expectStatus().isOk();
        web.delete().uri(uri).header("If-Match", "\"2\"").exchange().expectStatus().isNoContent();
        problem(web.delete().uri(uri).header("If-Match", "*").exchange(), HttpStatus.NOT_FOUND, "/id", "ENOENT");
    }

    @Test
    void problemErrorsAreCapped() {
        StringBuilder body = new StringBuilder("{\"name\": \"keys\", \"duration\": \"200ms\", \"machine\": {\"cpus\": 1}");
        for (int i = 0; i < 5000; i++) body.append(", \"k").append(i).append("\": 1");
        body.append('}');
        JsonNode p = problem(web.post().uri("/api/scenarios").contentType(MediaType.APPLICATION_JSON)
                .bodyValue(body.toString()).exchange(), HttpStatus.UNPROCESSABLE_CONTENT, "/k0", null);
        assertThat(p.path("errors").size()).isEqualTo(100);
        assertThat(p.path("detail").asString()).contains("and 4999 more").contains("4900 more not listed");
        var e = org.junit.jupiter.api.Assertions.assertThrows(io.cfslab.scenario.ScenarioException.class,
                () -> io.cfslab.scenario.ScenarioParser.parse(body.toString()));
        assertThat(e.problems()).hasSize(io.cfslab.scenario.ScenarioParser.MAX_PROBLEMS);
        assertThat(e.total()).isEqualTo(5000);
    }

    @Test
    void matrixParametersAreRefused() {
        String id = createScenario(web, emptyScenario("matrix"));
        String base = "/api/scenarios/" + id + "/cgroups";
        web.put().uri(base + "/a").exchange().expectStatus().isCreated();
        for (String p : List.of(base + "/a;zzz/cpu.max", base + "/a/cpu.max;x", base + "/a;x")) {
            problem(web.put().uri(p).contentType(MediaType.TEXT_PLAIN).bodyValue("20000").exchange(),
                    HttpStatus.BAD_REQUEST, "/path", "EINVAL");
        }
        problem(web.get().uri("/api/scenarios;x/" + id).exchange(), HttpStatus.BAD_REQUEST, "/path", "EINVAL");
        assertThat(text(base + "/a/cpu.max")).isEqualTo("max 100000\n");
    }

    @Test
    void tooLongUriIsAProblem() {
        String longPath = "/api/scenarios/" + "x".repeat(5000);
        JsonNode p = problem(web.get().uri(longPath).exchange(), HttpStatus.URI_TOO_LONG, "/path", null);
        assertThat(p.path("detail").asString()).contains("4096");
    }

    /** A refusal closes its connection: keep-alive connections reused after some refusals hung (1 in ~300). */
    @Test
    void refusalsCloseTheirConnection() {
        web.get().uri("/api/runs/nope").exchange().expectStatus().isNotFound().expectHeader().valueEquals("Connection", "close");
        web.get().uri("/api/no-such-thing").exchange().expectStatus().isNotFound().expectHeader().valueEquals("Connection", "close");
        web.get().uri("/api/scenarios;x/y").exchange().expectStatus().isBadRequest().expectHeader().valueEquals("Connection", "close");
        web.get().uri("/api/scenarios").exchange().expectStatus().isOk().expectHeader().doesNotExist("Connection");
    }

    @Test
    void everyRefusalIsProblemJsonWhateverTheAccept() {
        problem(web.get().uri("/api/runs/nope").header("Accept", "garbage").exchange(), HttpStatus.NOT_FOUND, "/id", "ENOENT");
        problem(web.get().uri("/api/runs/nope").accept(MediaType.TEXT_PLAIN).exchange(), HttpStatus.NOT_FOUND, "/id", "ENOENT");
        problem(web.get().uri("/api/no-such-thing").exchange(), HttpStatus.NOT_FOUND, null, "ENOENT");
        String id = createScenario(web, emptyScenario("accept"));
        String base = "/api/scenarios/" + id + "/cgroups";
        web.put().uri(base + "/a").exchange().expectStatus().isCreated();
        problem(web.get().uri(base + "/a/cpu.max").accept(MediaType.APPLICATION_JSON).exchange(),
                HttpStatus.NOT_ACCEPTABLE, null, null);
        web.get().uri(base + "/a/cpu.max").header("Accept", "garbage").exchange().expectStatus().isOk(); // ignored
    }

    @Test
    void taskNamedByTheTimelineIsBusy() {
        String id = createScenario(web, """
                {"name": "busy", "duration": "200ms", "machine": {"cpus": 2},
                 "tasks": [{"name": "t1", "workload": {"kind": "hog"}}],
                 "timeline": [{"at": "10ms", "taskset": "t1", "cpus": "0"}]}
                """);
        JsonNode p = problem(web.delete().uri("/api/scenarios/" + id + "/tasks/t1").exchange(), HttpStatus.CONFLICT,
                "/name", "EBUSY");
        assertThat(p.path("detail").asString()).contains("task t1 is used by timeline entry 0");
        web.delete().uri("/api/scenarios/" + id + "/timeline/0").exchange().expectStatus().isNoContent();
        web.delete().uri("/api/scenarios/" + id + "/tasks/t1").exchange().expectStatus().isNoContent();
    }

    /** A group that a timeline entry needs (write to its files, move into it, rmdir of it) is busy: 409 EBUSY. */
    @Test
    void groupNamedByTheTimelineIsBusy() {
        String id = createScenario(web, """
                {"name": "busy-group", "duration": "200ms", "machine": {"cpus": 2},
                 "cgroups": [{"path": "/w", "cpu.max": "50000 100000"}, {"path": "/m"}, {"path": "/r"}, {"path": "/free"}],
                 "tasks": [{"name": "t1", "workload": {"kind": "hog"}}],
                 "timeline": [{"at": "10ms", "write": "/w/cpu.max", "value": "max"},
                              {"at": "20ms", "move": "t1", "to": "/m"},
                              {"at": "30ms", "rmdir": "/r"}]}
                """);
        String base = "/api/scenarios/" + id + "/cgroups";
        String[][] busy = {{"/w", "0"}, {"/m", "1"}, {"/r", "2"}};
        for (String[] b : busy) {
            JsonNode p = problem(web.delete().uri(base + b[0]).exchange(), HttpStatus.CONFLICT, "/path", "EBUSY");
            assertThat(p.path("detail").asString()).contains(b[0] + " is named by /timeline/" + b[1]);
        }
        web.delete().uri(base + "/free").exchange().expectStatus().isNoContent();
        web.delete().uri("/api/scenarios/" + id + "/timeline/2").exchange().expectStatus().isNoContent();
        web.delete().uri(base + "/r").exchange().expectStatus().isNoContent();
    }

    @Test
    void groupNamesAsTheKernelJudgesThem() {
        String id = createScenario(web, emptyScenario("names"));
        String base = "/api/scenarios/" + id + "/cgroups";
        web.put().uri(base + "/a").exchange().expectStatus().isCreated();
        problem(web.put().uri(base + "/a/cgroup.procs").exchange(), HttpStatus.CONFLICT, "/path", "EEXIST");
        problem(web.put().uri(base + "/cpu.foo").exchange(), HttpStatus.CONFLICT, "/path", "EEXIST");
        web.put().uri(base + "/" + "n".repeat(255)).exchange().expectStatus().isCreated();
        JsonNode p = problem(web.put().uri(base + "/" + "n".repeat(256)).exchange(), HttpStatus.UNPROCESSABLE_CONTENT,
                "/path", "ENAMETOOLONG");
        assertThat(p.path("detail").asString()).contains("255");
        problem(web.put().uri(base + "/a/..").exchange(), HttpStatus.BAD_REQUEST, "/path", "EINVAL"); // the path itself
    }

    @Test
    void duplicateKeysAreRefused() {
        JsonNode p = problem(web.post().uri("/api/scenarios").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"name\": \"a\", \"name\": \"b\", \"duration\": \"200ms\", \"machine\": {\"cpus\": 1}}")
                .exchange(), HttpStatus.BAD_REQUEST, null, "EINVAL");
        assertThat(p.path("detail").asString()).contains("key \"name\" given twice in one object");
        problem(web.post().uri("/api/runs").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"scenarioId\": \"e1-one-hog-10pct\", \"seed\": 1, \"seed\": 2}")
                .exchange(), HttpStatus.BAD_REQUEST, null, "EINVAL");
    }

    @Test
    void allowIsConsistentAndBadPathVariablesAreNamed() {
        String id = createScenario(web, emptyScenario("allow"));
        String base = "/api/scenarios/" + id + "/cgroups";
        web.put().uri(base + "/a").exchange().expectStatus().isCreated();
        var allow = web.options().uri(base + "/a/cpu.max").exchange().expectStatus().isOk()
                .returnResult(Void.class).getResponseHeaders().getAllow();
        assertThat(allow).extracting(Object::toString).contains("GET", "PUT").doesNotContain("DELETE");
        var groupAllow = web.options().uri(base + "/a").exchange().expectStatus().isOk()
                .returnResult(Void.class).getResponseHeaders().getAllow();
        assertThat(groupAllow).extracting(Object::toString).contains("GET", "PUT", "DELETE");
        var res = web.delete().uri(base + "/a/cpu.max").exchange();
        res.expectHeader().value("Allow", v -> assertThat(v).doesNotContain("DELETE").contains("PUT"));
        problem(web.delete().uri(base + "/a/cpu.max").exchange(), HttpStatus.METHOD_NOT_ALLOWED, "/path", "ENOTDIR");

        JsonNode p = problem(web.get().uri("/api/scenarios/" + id + "/timeline/abc").exchange(), HttpStatus.BAD_REQUEST,
                "/index", "EINVAL");
        assertThat(p.path("detail").asString()).contains("index").contains("abc").doesNotContain("Type mismatch");
        problem(web.delete().uri("/api/scenarios/" + id + "/timeline/abc").exchange(), HttpStatus.BAD_REQUEST,
                "/index", "EINVAL");
    }

    private String text(String uri) {
        return web.get().uri(uri).exchange().expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
    }
}
