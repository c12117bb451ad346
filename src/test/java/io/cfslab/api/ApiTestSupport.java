package io.cfslab.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Helpers for WebTestClient tests of the API. */
final class ApiTestSupport {
    static final JsonMapper JSON = JsonMapper.builder().build();

    private ApiTestSupport() {}

    /** A one-CPU scenario that simulates 200 ms. */
    static String tiny(String name) {
        return """
                {"name": "%s", "seed": 7, "duration": "200ms", "machine": {"profile": "generic", "cpus": 1},
                 "cgroups": [{"path": "/a", "cpu.max": "50000 100000"}],
                 "tasks": [{"name": "nop", "cgroup": "/a", "count": 1, "workload": {"kind": "hog"}}]}
                """.formatted(name);
    }

    static JsonNode json(WebTestClient.ResponseSpec spec) {
        byte[] body = spec.expectBody().returnResult().getResponseBody();
        return JSON.readTree(body == null ? "null" : new String(body));
    }

    /** Asserts a problem+json answer with this status, pointer and errno; returns the body. */
    static JsonNode problem(WebTestClient.ResponseSpec spec, HttpStatus status, String pointer, String errno) {
        var result = spec.expectStatus().isEqualTo(status)
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody().returnResult();
        JsonNode p = JSON.readTree(new String(result.getResponseBody()));
        assertThat(p.path("status").asInt()).isEqualTo(status.value());
        assertThat(p.path("title").asString()).isNotBlank();
        assertThat(p.path("detail").asString()).isNotBlank();
        if (pointer != null) assertThat(p.path("pointer").asString()).isEqualTo(pointer);
        if (errno != null) assertThat(p.path("errno").asString()).isEqualTo(errno);
        assertThat(p.path("errors").isArray()).isTrue();
        return p;
    }

    static String createScenario(WebTestClient web, String body) {
        var res = web.post().uri("/api/scenarios").contentType(MediaType.APPLICATION_JSON).bodyValue(body)
                .exchange().expectStatus().isCreated().expectBody().returnResult();
        String location = res.getResponseHeaders().getLocation().toString();
        return location.substring(location.lastIndexOf('/') + 1);
    }

    static String submitRun(WebTestClient web, Map<String, Object> request) {
        var res = web.post().uri("/api/runs").contentType(MediaType.APPLICATION_JSON).bodyValue(request)
                .exchange().expectStatus().isAccepted().expectBody().returnResult();
        String location = res.getResponseHeaders().getLocation().toString();
        assertThat(location).startsWith("/api/runs/");
        return location.substring(location.lastIndexOf('/') + 1);
    }

    static JsonNode run(WebTestClient web, String id) {
        return json(web.get().uri("/api/runs/" + id).exchange().expectStatus().isOk());
    }

    /** Polls until the run has {@code status}, failing after {@code timeout}. */
    static JsonNode awaitStatus(WebTestClient web, String id, String status, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        JsonNode r = run(web, id);
        while (!r.path("status").asString().equals(status)) {
            assertThat(System.nanoTime()).as("run %s to reach %s, last: %s", id, status, r).isLessThan(end);
            Thread.sleep(50);
            r = run(web, id);
        }
        return r;
    }
}
