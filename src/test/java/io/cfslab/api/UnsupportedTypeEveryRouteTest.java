package io.cfslab.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.testsupport.TestApps;
import io.cfslab.testsupport.TestDatabase;
import java.util.Locale;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * Breaker 9 F1: a body of a type an operation does not read is the service's own 415 on every operation that takes a
 * body, whatever the type: one title, pointer {@code /headers/Content-Type}, a detail naming what the operation reads,
 * and an {@code Accept} response header listing it. A form-urlencoded body (curl {@code -d}'s default) or
 * {@code Content-Type: *}{@code /*} on a cgroup path got Spring's generic 415 (no {@code Accept}, detail "Unsupported
 * Media Type"), and the scenario routes' title differed from the cgroup file route's.
 */
class UnsupportedTypeEveryRouteTest {
    private static ConfigurableApplicationContext app;
    private static WebTestClient web;

    @BeforeAll
    static void start() {
        app = TestApps.start(TestDatabase.h2("unsupportedtype"), "unsupportedtype", Map.of("cfslab.runs.execute", "false"));
        web = TestApps.client(app);
    }

    @AfterAll
    static void stop() { app.close(); }

    @Test
    void everyBodyOfAnUnreadTypeIsTheServicesOwn415() {
        String scenario = ApiTestSupport.createScenario(web, "{\"name\": \"u\", \"duration\": \"100ms\", \"cgroups\": [{\"path\": \"/a\"}]}");
        JsonNode paths = ApiTestSupport.JSON.readTree(new String(web.get().uri("/v3/api-docs").exchange()
                .expectStatus().isOk().expectBody().returnResult().getResponseBody())).path("paths");
        SoftAssertions soft = new SoftAssertions();
        int walked = 0;
        for (var path : paths.properties()) {
            String t = path.getKey();
            if (!t.startsWith("/api/")) continue;
            String uri = t.replace("{id}", scenario).replace("{path}", "a").replace("{file}", "cpu.weight")
                    .replace("{name}", "nop").replace("{index}", "0").replaceAll("\\{[^}]+}", "x");
            for (var op : path.getValue().properties()) {
                if (!op.getValue().has("requestBody")) continue;
                HttpMethod method = HttpMethod.valueOf(op.getKey().toUpperCase(Locale.ROOT));
                for (String type : new String[] {"application/x-www-form-urlencoded", "*/*", "application/xml"}) {
                    walked++;
                    var r = web.method(method).uri(uri).header("Content-Type", type).bodyValue("a=1").exchange()
                            .expectBody().returnResult();
                    String what = method + " " + uri + " Content-Type " + type + ": " + new String(r.getResponseBody());
                    soft.assertThat(r.getStatus().value()).as(what).isEqualTo(415);
                    JsonNode p = ApiTestSupport.JSON.readTree(new String(r.getResponseBody()));
                    soft.assertThat(p.path("title").asString()).as(what).isEqualTo("Unsupported media type");
                    soft.assertThat(p.path("pointer").asString()).as(what).isEqualTo("/headers/Content-Type");
                    soft.assertThat(p.path("detail").asString()).as(what).isNotEqualTo("Unsupported Media Type");
                    soft.assertThat(r.getResponseHeaders().getFirst("Accept")).as(what + " Accept").isNotBlank();
                }
            }
        }
        soft.assertAll();
        assertThat(walked).as("requests walked").isGreaterThanOrEqualTo(3 * 8);
    }
}
