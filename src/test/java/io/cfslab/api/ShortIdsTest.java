package io.cfslab.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.http.HttpStatus;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * Breaker 2 N8: a run id in every form a person pastes names the same run, in the API and in the pages alike. A
 * UUID is case-insensitive on input (RFC 9562 §4) and its dashes only mark its fields, so upper case, no dashes,
 * stray dashes and white space around it are the same id; a full id in any of those forms is the run at every
 * {@code /api/runs/{id}} endpoint (and a scenario's id at {@code /api/scenarios/{id}}), a prefix of at least 8 hex
 * digits in any of them finds it with {@code ?id_prefix=} and on the run page; the API takes full ids only, so a
 * prefix there is 404, trimmed or not (never 400 for the white space the page trims).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:shortids-${random.uuid};DB_CLOSE_DELAY=-1", "cfslab.runs.execute=false"})
@AutoConfigureWebTestClient(timeout = "60s")
class ShortIdsTest {
    @Autowired WebTestClient web;
    @org.springframework.boot.test.web.server.LocalServerPort int port;

    /** The target as written: the forms' percent-encodings are sent as they are, not encoded again. */
    java.net.URI u(String target) { return java.net.URI.create("http://localhost:" + port + target); }

    /** Every form of {@code id} (a canonical UUID or a prefix of one) a paste may bring, percent-encoded for a path. */
    static List<String> forms(String id) {
        String dashless = id.replace("-", "");
        return List.of(id, id.toUpperCase(Locale.ROOT), dashless, dashless.toUpperCase(Locale.ROOT),
                "%20" + id, id + "%20", "%09" + dashless + "%20", dashless.substring(0, 4) + "-" + dashless.substring(4),
                "--" + dashless);
    }

    /**
     * Breaker 4 F8: the run, experiment and scenario pages take every form of an id, full or the 8-character short id
     * (and longer prefixes) the headings show, and send it to the canonical page (303); the three list endpoints
     * filter by {@code id_prefix} alike.
     */
    @Test
    void everyPageAndListTakesEveryFormOfAnIdAlike() {
        String scenario = ApiTestSupport.createScenario(web, ApiTestSupport.tiny("page ids"));
        String experiment = ApiTestSupport.json(web.post().uri("/api/experiments").contentType(org.springframework.http.MediaType.APPLICATION_JSON)
                .bodyValue("{\"name\": \"x\", \"repeats\": 1, \"scenario_id\": \"" + scenario + "\", \"arms\": [{\"name\": \"a\"}]}")
                .exchange().expectStatus().isAccepted()).path("id").asString();
        String run = ApiTestSupport.submitRun(web, Map.of("scenarioId", "e1-one-hog-10pct"));
        int checked = 0;
        for (String[] page : new String[][] {{"scenarios", scenario}, {"experiments", experiment}, {"runs", run}}) {
            String id = page[1];
            List<String> all = new java.util.ArrayList<>(forms(id));
            for (String prefix : List.of(id.substring(0, 8), id.substring(0, 13), id.substring(0, 23))) all.addAll(forms(prefix));
            for (String form : all) {
                var r = web.get().uri(u("/" + page[0] + "/" + form)).exchange().expectBody().returnResult();
                if (form.equals(id)) {
                    assertThat(r.getStatus().value()).as(page[0] + "/" + form).isEqualTo(200);
                } else {
                    assertThat(r.getStatus().value()).as(page[0] + "/" + form).isEqualTo(303);
                    assertThat(r.getResponseHeaders().getLocation().toString()).as(form).endsWith("/" + page[0] + "/" + id);
                }
                checked++;
            }
            for (String prefix : List.of(id.substring(0, 8), id.substring(0, 13).toUpperCase(Locale.ROOT), id.replace("-", "").substring(0, 20))) {
                JsonNode list = ApiTestSupport.json(web.get().uri(u("/api/" + page[0] + "?id_prefix=" + prefix)).exchange().expectStatus().isOk());
                assertThat(list.findValuesAsString("id")).as(page[0] + "?id_prefix=" + prefix).containsExactly(id);
            }
            for (String bad : List.of("zz", id.substring(0, 7), "0".repeat(33), id.replace("-", "") + "0")) {
                JsonNode p = ApiTestSupport.problem(web.get().uri(u("/api/" + page[0] + "?id_prefix=" + bad)).exchange(),
                        HttpStatus.BAD_REQUEST, "/id_prefix", "EINVAL");
                if (bad.length() > 32) assertThat(p.path("detail").asString()).as(bad).contains("33 hex digits").contains("at most 32");
            }
            // breaker 4 F9: a page's own 404 for an unknown id of the right shape, as before
            assertThat(web.get().uri(u("/" + page[0] + "/ffffffff")).exchange().expectBody().returnResult().getStatus().value())
                    .isEqualTo(404);
        }
        assertThat(checked).isGreaterThan(90);
    }

    /**
     * Breaker 4 F8: one rule for query parameters on every list endpoint: one the endpoint does not take is 400
     * {@code EINVAL} at its name, listing the ones it takes (a misspelt filter once listed everything).
     */
    @Test
    void everyListEndpointRefusesAParameterItDoesNotTake() {
        String scenario = ApiTestSupport.createScenario(web, ApiTestSupport.tiny("lists"));
        for (String list : List.of("/api/runs", "/api/experiments", "/api/scenarios", "/api/experiments/ready-made",
                "/api/scenarios/" + scenario + "/cgroups", "/api/scenarios/" + scenario + "/tasks",
                "/api/scenarios/" + scenario + "/timeline")) {
            for (String bad : List.of("id_prefx=94a7cdbf", "bogus=1", "x=", "Id_Prefix=94a7cdbf")) {
                String name = bad.substring(bad.lastIndexOf('&') + 1, bad.lastIndexOf('='));
                JsonNode p = ApiTestSupport.problem(web.get().uri(u(list + "?" + bad)).exchange(), HttpStatus.BAD_REQUEST,
                        "/" + name, "EINVAL");
                assertThat(p.path("detail").asString()).as(list + "?" + bad).contains("unknown query parameter \"" + name + "\"");
            }
        }
    }

    /**
     * Breaker 5 F9, F11: a parameter given twice is 400 naming it, whatever it is, on every list and on
     * {@code /api/scenario-defaults}; {@code standalone} takes {@code true} or {@code false} only; scenario-defaults
     * refuses a parameter it does not take, an empty version as a document's, and lists no key a document refuses.
     */
    @Test
    void listParametersAreGivenOnceInTheirOneSpelling() {
        for (String twice : List.of("/api/runs?id_prefix=b4924148&id_prefix=00000000", "/api/runs?status=done&status=queued",
                "/api/runs?standalone=true&standalone=false", "/api/scenarios?id_prefix=118b3269&id_prefix=118b3269",
                "/api/experiments?id_prefix=118b3269&id_prefix=00000000", "/api/scenario-defaults?version=5.4&version=6.1")) {
            String name = twice.substring(twice.lastIndexOf('&') + 1, twice.lastIndexOf('='));
            JsonNode p = ApiTestSupport.problem(web.get().uri(twice).exchange(), HttpStatus.BAD_REQUEST, "/" + name, "EINVAL");
            assertThat(p.path("detail").asString()).as(twice).contains(name + " given 2 times");
        }
        for (String v : List.of("yes", "on", "1", "TRUE", "", "0")) {
            ApiTestSupport.problem(web.get().uri("/api/runs?standalone=" + v).exchange(), HttpStatus.BAD_REQUEST,
                    "/standalone", "EINVAL");
        }
        for (String v : List.of("true", "false")) web.get().uri("/api/runs?standalone=" + v).exchange().expectStatus().isOk().expectBody().returnResult();
        ApiTestSupport.problem(web.get().uri("/api/scenario-defaults?versoin=5.4").exchange(), HttpStatus.BAD_REQUEST,
                "/versoin", "EINVAL");
        // an empty value is a bad value of the parameter, as on every operation (breaker 6 F7: it was 422 /kernel/version)
        ApiTestSupport.problem(web.get().uri("/api/scenario-defaults?version=").exchange(),
                HttpStatus.BAD_REQUEST, "/version", "EINVAL");
        // a value the parser refuses too, as every bad query value (breaker 7 N9: it was 422 at /kernel/version)
        for (String bad : List.of("zz", "3.10", "6.99")) {
            JsonNode p = ApiTestSupport.problem(web.get().uri("/api/scenario-defaults?version=" + bad).exchange(),
                    HttpStatus.BAD_REQUEST, "/version", null);
            assertThat(p.path("detail").asString()).as(bad).startsWith("parameter version: ").contains(bad);
        }
        JsonNode d = ApiTestSupport.json(web.get().uri("/api/scenario-defaults?version=5.4").exchange().expectStatus().isOk());
        for (String key : d.path("kernel").propertyNames()) {
            // every key listed is one a document takes: 422 for none of them
            if (key.equals("version")) continue;
            JsonNode value = d.path("kernel").path(key);
            String doc = "{\"name\": \"k\", \"duration\": \"100ms\", \"kernel\": {\"version\": \"5.4\", \"" + key + "\": "
                    + value.toString() + "}}";
            var r = web.post().uri("/api/scenarios").contentType(org.springframework.http.MediaType.APPLICATION_JSON)
                    .bodyValue(doc).exchange().expectBody(String.class).returnResult();
            assertThat(r.getStatus().value()).as(key + ": " + r.getResponseBody()).isEqualTo(201);
        }
    }

    /**
     * Breaker 4 F8b: only ASCII space and tab around an id are trimmed; a control character (C0, DEL) anywhere in the
     * id is 400 {@code EINVAL} at {@code /path} in the API and on the pages, as a line end is; a Unicode space (NBSP, EM
     * SPACE, IDEOGRAPHIC SPACE), a zero-width one, a BOM or U+2028/U+2029 is in no id: 400 naming it.
     */
    @Test
    void onlyAsciiSpaceAndTabAroundAnIdAreTrimmed() {
        String run = ApiTestSupport.submitRun(web, Map.of("scenarioId", "e1-one-hog-10pct"));
        String scenario = ApiTestSupport.createScenario(web, ApiTestSupport.tiny("ids"));
        String experiment = ApiTestSupport.json(web.post().uri("/api/experiments").contentType(org.springframework.http.MediaType.APPLICATION_JSON)
                .bodyValue("{\"name\": \"x\", \"repeats\": 1, \"scenario_id\": \"" + scenario + "\", \"arms\": [{\"name\": \"a\"}]}")
                .exchange().expectStatus().isAccepted()).path("id").asString();
        // the ready-made experiment route too (breaker 6 F5: a 404 that echoed U+000B and a raw NEL)
        for (String path : List.of("/api/runs/" + run, "/api/scenarios/" + scenario, "/api/experiments/" + experiment,
                "/api/experiments/ready-made/seed00-netperf", "/runs/" + run, "/scenarios/" + scenario, "/experiments/" + experiment)) {
            String at = path.substring(0, path.lastIndexOf('/') + 1);
            String id = path.substring(path.lastIndexOf('/') + 1);
            // C1 too (breaker 5 F5: U+0085 was a 404 whose detail echoed it raw, naming an existing id as missing)
            for (String cc : List.of("%01", "%0B", "%0C", "%1F", "%7F", "%C2%80", "%C2%85", "%C2%9F")) {
                for (String form : List.of(id + cc, cc + id, id.substring(0, 8) + cc)) {
                    ApiTestSupport.problem(web.get().uri(u(at + form)).exchange(), HttpStatus.BAD_REQUEST, "/path", "EINVAL");
                }
            }
            // a character that shows as a space or as nothing is in no id: 400 naming it, whatever it is (breaker 7 N6:
            // NBSP, BOM, ZWSP were a 404 echoing them unnamed, U+2028 a 400 blaming "a header or query parameter");
            // a tab inside the id is a control character as U+000B is (breaker 7 N7: it was 404)
            Map<String, String> named = Map.of("%C2%A0", "U+00A0 NO-BREAK SPACE", "%E2%80%83", "U+2003 EM SPACE",
                    "%E3%80%80", "U+3000 IDEOGRAPHIC SPACE", "%E2%80%8B", "U+200B ZERO WIDTH SPACE",
                    "%EF%BB%BF", "U+FEFF ZERO WIDTH NO-BREAK SPACE", "%E2%80%A8", "U+2028 LINE SEPARATOR",
                    "%E2%80%A9", "U+2029 PARAGRAPH SEPARATOR", "%09", "control character (U+0009)");
            for (var space : named.entrySet()) {
                List<String> forms = space.getKey().equals("%09") ? List.of(id.substring(0, 4) + "%09" + id.substring(4))
                        : List.of(id + space.getKey(), space.getKey() + id, id.substring(0, 4) + space.getKey() + id.substring(4));
                for (String form : forms) {
                    JsonNode p = ApiTestSupport.problem(web.get().uri(u(at + form)).exchange(), HttpStatus.BAD_REQUEST, "/path", "EINVAL");
                    assertThat(p.path("detail").asString()).as(at + form).startsWith("the id in the path holds ")
                            .contains(space.getValue()).endsWith("only ASCII spaces and tabs around an id are trimmed");
                }
            }
            for (String form : List.of("%20" + id, id + "%09", "%09%20" + id + "%20")) {
                int status = web.get().uri(u(at + form)).exchange().expectBody().returnResult().getStatus().value();
                assertThat(status).as(at + form).isIn(200, 303);
            }
        }
    }

    /**
     * Breaker 5 F7: a scenario id in a request body ({@code scenarioId} of a run, {@code scenario_id} of an
     * experiment) is read in every form a path id is, and the short id the pages show: the stored id is recorded.
     */
    @Test
    void aBodysScenarioIdIsReadInEveryFormOfAPathId() {
        String scenario = ApiTestSupport.createScenario(web, ApiTestSupport.tiny("body-ids"));
        List<String> typed = new java.util.ArrayList<>();
        for (String form : forms(scenario)) typed.add(form.replace("%20", " ").replace("%09", " "));
        typed.add(scenario.substring(0, 8));
        typed.add(scenario.substring(0, 8).toUpperCase(Locale.ROOT));
        for (String form : typed) {
            String run = ApiTestSupport.submitRun(web, Map.of("scenarioId", form));
            JsonNode r = ApiTestSupport.json(web.get().uri("/api/runs/" + run).exchange().expectStatus().isOk());
            assertThat(r.path("scenarioId").asString()).as(form).isEqualTo(scenario);
            var posted = web.post().uri("/api/experiments").contentType(org.springframework.http.MediaType.APPLICATION_JSON)
                    .bodyValue(Map.of("name", "x", "repeats", 1, "scenario_id", form, "arms", List.of(Map.of("name", "a"))))
                    .exchange().expectBody(String.class).returnResult();
            assertThat(posted.getStatus().value()).as(form + ": " + posted.getResponseBody()).isEqualTo(202);
            String x = ApiTestSupport.json(web.get().uri(posted.getResponseHeaders().getLocation().getPath()).exchange().expectStatus().isOk())
                    .path("id").asString();
            JsonNode e = ApiTestSupport.json(web.get().uri("/api/experiments/" + x).exchange().expectStatus().isOk());
            assertThat(e.path("scenarioId").asString()).as(form).isEqualTo(scenario);
        }
        // the ready-made ids too, and a missing one names the field
        ApiTestSupport.submitRun(web, Map.of("scenarioId", " e1-one-hog-10pct "));
        ApiTestSupport.problem(web.post().uri("/api/runs").contentType(org.springframework.http.MediaType.APPLICATION_JSON)
                .bodyValue(Map.of("scenarioId", "0000000000")).exchange(), HttpStatus.UNPROCESSABLE_CONTENT, "/scenarioId", "ENOENT");
    }

    /** Breaker 5 F5: the compare page's {@code a}/{@code b} are ids as a path's: a control character or a repeat is 400. */
    @Test
    void theComparePagesIdsAreReadAsPathIds() {
        String run = ApiTestSupport.submitRun(web, Map.of("scenarioId", "e1-one-hog-10pct"));
        for (String side : List.of("a", "b")) {
            String other = side.equals("a") ? "b" : "a";
            for (String cc : List.of("%0B", "%1F", "%7F", "%C2%80", "%C2%85", "%C2%9F")) {
                var r = web.get().uri(u("/compare?" + side + "=" + run.substring(0, 8) + cc + "&" + other + "=" + run))
                        .exchange().expectBody(String.class).returnResult();
                assertThat(r.getStatus().value()).as(side + cc).isEqualTo(400);
                assertThat(r.getResponseBody()).as(side + cc).contains("control character");
            }
            var twice = web.get().uri(u("/compare?" + side + "=" + run + "&" + side + "=" + run)).exchange()
                    .expectBody(String.class).returnResult();
            assertThat(twice.getStatus().value()).isEqualTo(400);
            assertThat(twice.getResponseBody()).contains("given 2 times");
        }
        assertThat(web.get().uri(u("/compare?a=" + run + "&b=" + run)).exchange().expectBody().returnResult()
                .getStatus().value()).isEqualTo(200);
    }

    @Test
    void everyFormOfAnIdNamesTheSameRun() {
        String run = ApiTestSupport.submitRun(web, Map.of("scenarioId", "e1-one-hog-10pct"));
        for (String form : forms(run)) {
            JsonNode r = ApiTestSupport.json(web.get().uri(u("/api/runs/" + form)).exchange().expectStatus().isOk());
            assertThat(r.path("id").asString()).as(form).isEqualTo(run);
            web.get().uri(u("/api/runs/" + form + "/scenario")).exchange().expectStatus().isOk().expectBody().returnResult();
            // the page: the run's own page, or a redirect to it
            var page = web.get().uri(u("/runs/" + form)).exchange().expectBody().returnResult();
            if (page.getStatus().is3xxRedirection()) {
                assertThat(page.getResponseHeaders().getLocation().toString()).as(form).endsWith("/runs/" + run);
            } else {
                assertThat(page.getStatus().value()).as(form).isEqualTo(200);
            }
        }
        for (String prefix : List.of(run.substring(0, 8), run.substring(0, 13), run.substring(0, 23))) {
            for (String form : forms(prefix)) {
                JsonNode list = ApiTestSupport.json(web.get().uri(u("/api/runs?id_prefix=" + form)).exchange().expectStatus().isOk());
                assertThat(list.findValuesAsString("id")).as("id_prefix=" + form).containsExactly(run);
                var page = web.get().uri(u("/runs/" + form)).exchange().expectBody().returnResult();
                assertThat(page.getStatus().is3xxRedirection()).as("page " + form).isTrue();
                assertThat(page.getResponseHeaders().getLocation().toString()).as(form).endsWith("/runs/" + run);
                // the API takes full ids only, trimmed as the page trims: a prefix is no run (404), never a 400
                ApiTestSupport.problem(web.get().uri(u("/api/runs/" + form)).exchange(), HttpStatus.NOT_FOUND, "/id", "ENOENT");
            }
        }
        for (String bad : List.of("%7B" + run.substring(0, 8) + "%7D", run.substring(0, 7), run.replace("-", "") + "0",
                run.substring(0, 4) + "%20" + run.substring(4, 8))) {
            ApiTestSupport.problem(web.get().uri(u("/api/runs?id_prefix=" + bad)).exchange(), HttpStatus.BAD_REQUEST,
                    "/id_prefix", "EINVAL");
        }
        // a line end is refused in a path, the page's as the API's (Spring Security's firewall): the same answer
        int api = web.get().uri(u("/api/runs/" + run + "%0A")).exchange().expectBody().returnResult().getStatus().value();
        int page = web.get().uri(u("/runs/" + run + "%0A")).exchange().expectBody().returnResult().getStatus().value();
        assertThat(api).isEqualTo(page).isEqualTo(400);
        // a scenario's UUID likewise
        String scenario = ApiTestSupport.createScenario(web, ApiTestSupport.tiny("ids"));
        for (String form : forms(scenario)) {
            JsonNode s = ApiTestSupport.json(web.get().uri(u("/api/scenarios/" + form)).exchange().expectStatus().isOk());
            assertThat(s.path("id").asString()).as(form).isEqualTo(scenario);
        }
    }
}
