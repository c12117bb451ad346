package io.cfslab.api;

import static io.cfslab.api.ApiTestSupport.problem;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/** An unknown machine profile, or a topology beside a named one, is an RFC 9457 problem naming the field. */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:badinput-${random.uuid};DB_CLOSE_DELAY=-1;WRITE_DELAY=0",
        "cfslab.runs.execute=false"})
@AutoConfigureWebTestClient(timeout = "30s")
class MachineProfileProblemsTest {
    @Autowired WebTestClient web;

    WebTestClient.ResponseSpec post(String uri, String body) {
        return web.post().uri(uri).contentType(MediaType.APPLICATION_JSON).bodyValue(body).exchange();
    }

    @Test
    void unknownProfileAndCpusWithANamedProfileAreProblems() {
        for (String uri : new String[] {"/api/scenarios", "/api/runs"}) {
            String wrap = uri.equals("/api/runs") ? "{\"scenario\": %s}" : "%s";
            String at = uri.equals("/api/runs") ? "/scenario" : "";
            JsonNode p = problem(post(uri, wrap.formatted(
                    "{\"name\": \"m\", \"duration\": \"1s\", \"machine\": {\"profile\": \"power11-8c\"}}")),
                    HttpStatus.UNPROCESSABLE_CONTENT, at + "/machine/profile", null);
            assertThat(p.path("detail").asString()).contains("unknown profile \"power11-8c\"");
            p = problem(post(uri, wrap.formatted(
                    "{\"name\": \"m\", \"duration\": \"1s\", \"machine\": {\"profile\": \"amd-genoa-2s\", \"cpus\": 64}}")),
                    HttpStatus.UNPROCESSABLE_CONTENT, at + "/machine/cpus", null);
            assertThat(p.path("detail").asString()).contains("cannot be set with the named profile \"amd-genoa-2s\"");
        }
    }

    @Test
    void aNamedProfileIsAccepted() {
        post("/api/scenarios", "{\"name\": \"p10\", \"duration\": \"1s\", \"machine\": {\"profile\": \"power10-1c-smt8\"}}")
                .expectStatus().isCreated();
    }
}
