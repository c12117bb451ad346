package io.cfslab.runs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** Submitting and watching runs over HTTP. */
final class RunsTestSupport {
    static final JsonMapper JSON = JsonMapper.builder().build();

    private RunsTestSupport() {}

    /** A one-CPU scenario of {@code ms} simulated milliseconds, named {@code name}. */
    static JsonNode scenario(String name, int ms) {
        return JSON.readTree("""
                {"name": "%s", "seed": 1, "duration": "%dms", "machine": {"profile": "generic", "cpus": 1},
                 "cgroups": [{"path": "/a", "cpu.max": "50000 100000"}],
                 "tasks": [{"name": "nop", "cgroup": "/a", "count": 1, "workload": {"kind": "hog"}}]}
                """.formatted(name, ms));
    }

    static String submit(WebTestClient web, Map<String, Object> request) {
        var res = web.post().uri("/api/runs").contentType(MediaType.APPLICATION_JSON).bodyValue(request)
                .exchange().expectStatus().isAccepted().expectBody().returnResult();
        String loc = res.getResponseHeaders().getLocation().toString();
        return loc.substring(loc.lastIndexOf('/') + 1);
    }

    static JsonNode get(WebTestClient web, String uri) {
        byte[] body = web.get().uri(uri).exchange().expectStatus().isOk().expectBody().returnResult().getResponseBody();
        return JSON.readTree(new String(body));
    }

    static String status(WebTestClient web, String run) { return get(web, "/api/runs/" + run).path("status").asString(); }

    static JsonNode await(WebTestClient web, String run, String status, Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        JsonNode r = get(web, "/api/runs/" + run);
        while (!r.path("status").asString().equals(status)) {
            assertThat(System.nanoTime()).as("run %s to reach %s; last %s", run, status, r).isLessThan(end);
            Thread.sleep(50);
            r = get(web, "/api/runs/" + run);
        }
        return r;
    }
}
