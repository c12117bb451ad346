package io.cfslab.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.store.ReadyMadeExperiments;
import io.cfslab.store.ReadyMadeScenarios;
import io.cfslab.store.RunIds;
import io.cfslab.testsupport.TestApps;
import io.cfslab.testsupport.TestDatabase;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import tools.jackson.databind.JsonNode;

/**
 * One rule for an id on every route, page and body (breaker 5 F12, and the body ids of the brief's item 4): ASCII
 * spaces and tabs around it are a paste's and trimmed, its ASCII letters are in any case ({@link RunIds#canonical});
 * a ready-made scenario's or experiment's id is lower case by construction, so {@code E1-ONE-HOG-10PCT} and
 * {@code %20e1-one-hog-10pct} name {@code e1-one-hog-10pct} at every {@code /api/scenarios/{id}…} operation (the page
 * trimmed, the API answered 404), on the page, and in a run's {@code scenarioId} and an experiment's
 * {@code scenario_id} (which refused a tab the run took); any other control character is refused in a body as in a
 * path; a near miss stays 404 naming what was typed.
 */
class ReadyMadeIdsTest {
    private static ConfigurableApplicationContext app;
    private static WebTestClient web;
    private static String base;
    private static final String ID = "e1-one-hog-10pct";

    @BeforeAll
    static void start() {
        app = TestApps.start(TestDatabase.h2("readymadeids"), "readymadeids", Map.of("cfslab.runs.execute", "false"));
        web = TestApps.client(app);
        base = "http://127.0.0.1:" + app.getEnvironment().getProperty("local.server.port");
    }

    @AfterAll
    static void stop() { app.close(); }

    /** The forms a person types or pastes, percent-encoded for a path. */
    static List<String> forms(String id) {
        return List.of(id.toUpperCase(Locale.ROOT), "%20" + id, id + "%20", "%09" + id.substring(0, 1).toUpperCase(Locale.ROOT)
                + id.substring(1) + "%09");
    }

    private static EntityExchangeResult<byte[]> send(HttpMethod method, String target) {
        var spec = web.method(method).uri(URI.create(base + target));
        return (method == HttpMethod.GET || method == HttpMethod.DELETE ? spec
                : spec.contentType(MediaType.APPLICATION_JSON).bodyValue("{}")).exchange().expectBody().returnResult();
    }

    /** What an answer says, without its instance (the target as sent). */
    private static String said(EntityExchangeResult<byte[]> r) {
        String body = r.getResponseBody() == null ? "" : new String(r.getResponseBody());
        return r.getStatus().value() + " " + body.replaceAll("\"instance\":\"[^\"]*\",?", "");
    }

    @Test
    void everyShippedIdIsInItsCanonicalForm() {
        // so that reading any case cannot make two shipped ids one
        List<String> ids = new ArrayList<>();
        new ReadyMadeScenarios().all().forEach(e -> ids.add(e.id()));
        new ReadyMadeExperiments().all().forEach(e -> ids.add(e.id()));
        assertThat(ids).hasSizeGreaterThan(10).allSatisfy(id -> assertThat(RunIds.canonical(id)).isEqualTo(id));
    }

    @Test
    void everyScenarioOperationReadsAReadyMadeIdInEveryForm() {
        JsonNode paths = ApiTestSupport.JSON.readTree(new String(web.get().uri("/v3/api-docs").exchange()
                .expectStatus().isOk().expectBody().returnResult().getResponseBody())).path("paths");
        SoftAssertions soft = new SoftAssertions();
        int routes = 0;
        for (var path : paths.properties()) {
            if (!path.getKey().startsWith("/api/scenarios/{id}")) continue;
            for (var op : path.getValue().properties()) {
                HttpMethod method = HttpMethod.valueOf(op.getKey().toUpperCase(Locale.ROOT));
                if (method == HttpMethod.OPTIONS || method == HttpMethod.HEAD) continue;
                String template = path.getKey().replaceAll("\\{path}", "a").replaceAll("\\{file}", "cpu.max")
                        .replaceAll("\\{name}", "hog").replaceAll("\\{index}", "0").replaceAll("\\{(?!id)[^}]+}", "x");
                String expected = said(send(method, template.replace("{id}", ID)));
                for (String form : forms(ID)) {
                    String target = template.replace("{id}", form);
                    soft.assertThat(said(send(method, target))).as(method + " " + target).isEqualTo(expected);
                }
                routes++;
            }
        }
        soft.assertAll();
        assertThat(routes).as("scenario operations enumerated").isGreaterThan(10);
        for (String form : forms(ID)) {
            web.get().uri(URI.create(base + "/api/scenarios/" + form)).exchange().expectStatus().isOk()
                    .expectBody().jsonPath("$.id").isEqualTo(ID);
        }
        // a write to a ready-made one is 409 EPERM in any form, nothing stored
        ApiTestSupport.problem(web.method(HttpMethod.PUT).uri(URI.create(base + "/api/scenarios/E1-ONE-HOG-10PCT/cgroups/z"))
                .exchange(), HttpStatus.CONFLICT, null, "EPERM");
    }

    @Test
    void aReadyMadeExperimentIsReadInEveryForm() {
        String id = ApiTestSupport.json(web.get().uri("/api/experiments/ready-made").exchange().expectStatus().isOk())
                .get(0).path("id").asString();
        String expected = said(send(HttpMethod.GET, "/api/experiments/ready-made/" + id));
        assertThat(expected).startsWith("200 ");
        for (String form : forms(id)) {
            assertThat(said(send(HttpMethod.GET, "/api/experiments/ready-made/" + form))).as(form).isEqualTo(expected);
        }
    }

    @Test
    void thePageSendsEveryFormToTheShippedId() {
        for (String form : forms(ID)) {
            web.get().uri(URI.create(base + "/scenarios/" + form)).exchange().expectStatus().isSeeOther()
                    .expectHeader().valueEquals("Location", "/scenarios/" + ID);
        }
    }

    @Test
    void aNearMissIs404NamingWhatWasTyped() {
        JsonNode p = ApiTestSupport.problem(web.get().uri("/api/scenarios/e1-one-hog").exchange(), HttpStatus.NOT_FOUND,
                "/id", "ENOENT");
        assertThat(p.path("detail").asString()).contains("e1-one-hog");
        ApiTestSupport.problem(web.get().uri("/api/experiments/ready-made/SEED-NONE").exchange(), HttpStatus.NOT_FOUND,
                "/id", "ENOENT");
    }

    /** The two syntaxes a body is read in: JSON, and YAML in block style (a JSON text sent as YAML reads as JSON). */
    private static final List<MediaType> FORMATS = List.of(MediaType.APPLICATION_JSON, MediaType.parseMediaType("application/yaml"));

    /** A YAML double-quoted scalar of {@code s}: every character outside printable ASCII as a {@code \\u} escape. */
    private static String yamlQuoted(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            if (ch == '"' || ch == '\\') b.append('\\').append(ch);
            else if (ch < 0x20 || ch >= 0x7f) b.append(String.format("\\u%04x", (int) ch));
            else b.append(ch);
        }
        return b.append('"').toString();
    }

    /** A run's body naming {@code id}, in {@code format}. */
    private static String runBody(MediaType format, String id) {
        return format.equals(MediaType.APPLICATION_JSON) ? ApiTestSupport.JSON.writeValueAsString(Map.of("scenarioId", id))
                : "scenarioId: " + yamlQuoted(id) + "\n";
    }

    /** An experiment's body naming {@code id}, in {@code format}. */
    private static String experimentBody(MediaType format, String id) {
        return format.equals(MediaType.APPLICATION_JSON) ? ApiTestSupport.JSON.writeValueAsString(
                Map.of("name", "x", "repeats", 1, "scenario_id", id, "arms", List.of(Map.of("name", "a"))))
                : "name: x\nrepeats: 1\nscenario_id: " + yamlQuoted(id) + "\narms:\n  - name: a\n";
    }

    private static EntityExchangeResult<String> post(String path, MediaType format, String body) {
        return web.post().uri(path).contentType(format).bodyValue(body).exchange().expectBody(String.class).returnResult();
    }

    /**
     * The ids of a body, by the same rule, for every body that carries one (a run's and an experiment's) and in every
     * syntax (JSON and YAML: a YAML run body refused the tab its JSON took, breaker 6 F1), with one wording for a
     * fault whatever the body, key or syntax (breaker 6 F12).
     */
    @Test
    void everyBodyIdIsReadByThePathsRule() {
        String stored = ApiTestSupport.createScenario(web, ApiTestSupport.tiny("body ids"));
        List<String[]> cases = new ArrayList<>();
        for (String typed : List.of("\t" + ID, ID + "\t", " E1-ONE-HOG-10PCT ", "\tE1-one-hog-10PCT")) cases.add(new String[] {typed, ID});
        for (String typed : List.of("\t" + stored, stored.toUpperCase(Locale.ROOT) + "\t", " \t" + stored.substring(0, 8))) {
            cases.add(new String[] {typed, stored});
        }
        for (MediaType format : FORMATS) {
            for (String[] c : cases) {
                String as = format + " of " + c[0];
                var run = post("/api/runs", format, runBody(format, c[0]));
                assertThat(run.getStatus().value()).as("run " + as + ": " + run.getResponseBody()).isEqualTo(202);
                assertThat(ApiTestSupport.JSON.readTree(run.getResponseBody()).path("scenarioId").asString()).as("run " + as)
                        .isEqualTo(c[1]);
                var posted = post("/api/experiments", format, experimentBody(format, c[0]));
                assertThat(posted.getStatus().value()).as("experiment " + as + ": " + posted.getResponseBody()).isEqualTo(202);
                String x = ApiTestSupport.JSON.readTree(posted.getResponseBody()).path("id").asString();
                assertThat(ApiTestSupport.json(web.get().uri("/api/experiments/" + x).exchange().expectStatus().isOk())
                        .path("scenarioId").asString()).as("experiment " + as).isEqualTo(c[1]);
            }
        }
        // another control character is refused in both, as in a path, and not echoed into an ENOENT; an id of nothing
        // but spaces and tabs is empty: in one wording for both keys and both syntaxes
        Map<String, String> faults = new java.util.LinkedHashMap<>();
        for (String control : List.of("\u000b", "\u001f", "\u0085", "\u007f")) {
            faults.put(ID + control, " holds a control character (U+" + String.format("%04X", (int) control.charAt(0))
                    + "); only ASCII spaces and tabs around an id are trimmed");
        }
        for (String empty : List.of("", "   ", " \t ")) faults.put(empty, " must not be empty");
        // a tab inside the id is a control character too (breaker 7 N7: "no scenario e1-one<TAB>hog-10pct", ENOENT),
        // and a character that shows as a space or as nothing is named (breaker 7 N6: echoed unnamed in an ENOENT)
        faults.put("e1-one\thog-10pct", " holds a control character (U+0009); only ASCII spaces and tabs around an id are trimmed");
        for (String[] look : List.of(new String[] {"\u00a0", "U+00A0 NO-BREAK SPACE"}, new String[] {"\ufeff", "U+FEFF ZERO WIDTH NO-BREAK SPACE"},
                new String[] {"\u200b", "U+200B ZERO WIDTH SPACE"}, new String[] {"\u2028", "U+2028 LINE SEPARATOR"},
                new String[] {"\u2029", "U+2029 PARAGRAPH SEPARATOR"})) {
            faults.put(ID + look[0], " holds " + look[1] + " at character 17, which shows as a space or as nothing and is in no id"
                    + "; only ASCII spaces and tabs around an id are trimmed");
        }
        SoftAssertions soft = new SoftAssertions();
        for (MediaType format : FORMATS) {
            for (var f : faults.entrySet()) {
                for (String[] route : List.of(new String[] {"/api/runs", "scenarioId"}, new String[] {"/api/experiments", "scenario_id"})) {
                    String body = route[1].equals("scenarioId") ? runBody(format, f.getKey()) : experimentBody(format, f.getKey());
                    var r = post(route[0], format, body);
                    String as = route[0] + " " + format + " " + yamlQuoted(f.getKey()) + ": " + r.getResponseBody();
                    soft.assertThat(r.getStatus().value()).as(as).isEqualTo(422);
                    JsonNode p = ApiTestSupport.JSON.readTree(r.getResponseBody());
                    soft.assertThat(p.path("pointer").asString()).as(as).isEqualTo("/" + route[1]);
                    soft.assertThat(p.path("errno").asString()).as(as).isEqualTo("EINVAL");
                    soft.assertThat(p.path("detail").asString()).as(as).isEqualTo(route[1] + f.getValue());
                }
            }
        }
        soft.assertAll();
    }
}
