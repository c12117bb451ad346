package io.cfslab.api;

import static io.cfslab.api.ApiTestSupport.JSON;
import static io.cfslab.api.ApiTestSupport.createScenario;
import static io.cfslab.api.ApiTestSupport.tiny;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;
import java.util.stream.Stream;
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
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.databind.node.StringNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Every refusal is written in the client's words (issue 13, a breaker's finding: YAML {@code .inf} and {@code .nan}, a
 * second YAML document and nesting deeper than 500 answered with Jackson's messages, Java class names and reader
 * switches included):
 * <ul>
 *   <li>every number field, in every body that holds one (scenarios, run requests, experiments), takes only finite
 *       numbers: YAML's {@code .inf}, {@code -.Inf}, {@code +.INF}, {@code .nan}, {@code .NaN} and JSON's {@code 1e999},
 *       {@code -1e999} are 422 at the field's pointer ({@code ERANGE} for infinities, {@code EINVAL} for NaN), as any
 *       other out-of-range number;</li>
 *   <li>some 70 malformed bodies (JSON and YAML syntax errors of every kind the readers know, reader limits) sent to
 *       every operation that reads a body, and malformed requests (methods, media types, paths the firewall refuses,
 *       parameters), answer a 4xx problem whose {@code detail} and reasons carry no library's words (package names,
 *       exception names, reader switches) and, for a syntax error, name the line and column.</li>
 * </ul>
 * {@code ArchitectureTest#noLibraryExceptionMessageReachesAnAnswer} keeps it so by construction.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:problemwords-${random.uuid};DB_CLOSE_DELAY=-1;WRITE_DELAY=0",
        "cfslab.runs.execute=false", "cfslab.warmup.rounds=0"})
@AutoConfigureWebTestClient(timeout = "60s")
class ProblemWordsTest {
    static final MediaType YAML = MediaType.parseMediaType("application/yaml");
    static final YAMLMapper YAML_WRITER = YAMLMapper.builder().build();
    static final String MARK = "@@number@@";

    /** Words of a library, never of the project: none may appear in an answer. */
    static final List<String> LIBRARY_WORDS = List.of("com.fasterxml", "tools.jackson", "jackson", "snakeyaml",
            "io.netty", "reactor.", "org.springframework", "springframework", "java.", "javax.", "jakarta.",
            "exception", "jsontoken", "streamreadconstraints", "deserializationfeature", "jsonreadfeature",
            "readfeature", "fail_on", "allow_", "bound as", "source: ", "redacted", "the request was rejected",
            "bodytype", "(code ", "ctrl-char", "marker", "in reader", "<block", "<stream", "<document",
            "was expecting", "not supported for", "nesting depth (");

    @Autowired WebTestClient web;

    record Answer(int status, String contentType, JsonNode body, String what) {}

    Answer send(HttpMethod method, String uri, MediaType type, String body, String what) {
        var spec = web.method(method).uri(uri);
        EntityExchangeResult<byte[]> r = (body == null ? spec : spec.contentType(type).bodyValue(body))
                .exchange().expectBody().returnResult();
        String ct = r.getResponseHeaders().getContentType() == null ? "" : r.getResponseHeaders().getContentType().toString();
        byte[] b = r.getResponseBody();
        JsonNode json = b == null || b.length == 0 ? JSON.nullNode() : JSON.readTree(new String(b));
        return new Answer(r.getStatus().value(), ct, json, what);
    }

    // ---- every number field takes finite numbers only ----

    /** The JSON pointers of every number in {@code n}, depth first. */
    static void numbers(JsonNode n, String at, List<String> out) {
        if (n.isNumber()) out.add(at);
        else if (n.isObject()) n.properties().forEach(e -> numbers(e.getValue(), at + "/" + e.getKey().replace("~", "~0")
                .replace("/", "~1"), out));
        else if (n.isArray()) for (int i = 0; i < n.size(); i++) numbers(n.get(i), at + "/" + i, out);
    }

    /** {@code doc} as block YAML with the number at {@code pointer} written as {@code yamlValue}, as a plain scalar. */
    static String yamlWith(JsonNode doc, String pointer, String yamlValue) {
        String y = YAML_WRITER.writeValueAsString(replaced(doc, pointer));
        return y.replace("\"" + MARK + "\"", yamlValue).replace("'" + MARK + "'", yamlValue).replace(MARK, yamlValue);
    }

    static String jsonWith(JsonNode doc, String pointer, String jsonNumber) {
        return JSON.writeValueAsString(replaced(doc, pointer)).replace("\"" + MARK + "\"", jsonNumber);
    }

    /** A copy of {@code doc} with the marker string at {@code pointer}. */
    private static JsonNode replaced(JsonNode doc, String pointer) {
        JsonNode copy = doc.deepCopy();
        tools.jackson.core.JsonPointer p = tools.jackson.core.JsonPointer.compile(pointer);
        JsonNode parent = copy.at(p.head());
        if (parent instanceof ObjectNode o) o.set(p.last().getMatchingProperty(), StringNode.valueOf(MARK));
        else ((tools.jackson.databind.node.ArrayNode) parent).set(p.last().getMatchingIndex(), StringNode.valueOf(MARK));
        return copy;
    }

    static List<JsonNode> documents(String dir) throws IOException {
        try (Stream<Path> files = Files.list(Path.of("src/main/resources", dir))) {
            return files.filter(f -> f.toString().endsWith(".json")).sorted()
                    .map(f -> { try { return JSON.readTree(Files.readString(f)); } catch (IOException e) { throw new RuntimeException(e); } })
                    .toList();
        }
    }

    @Test
    void everyNumberFieldTakesFiniteNumbersOnlyInYamlAndJson() throws IOException {
        record Body(String uri, JsonNode doc) {}
        List<Body> bodies = new ArrayList<>();
        for (JsonNode s : documents("scenarios")) bodies.add(new Body("/api/scenarios", s));
        for (JsonNode e : documents("experiments")) bodies.add(new Body("/api/experiments", e));
        ObjectNode runRequest = JSON.createObjectNode();
        runRequest.set("scenario", documents("scenarios").get(1));
        runRequest.put("seed", 3).put("repeats", 2).put("pace", 10.5);
        bodies.add(new Body("/api/runs", runRequest));

        String[][] yaml = {{".inf", "ERANGE"}, {"-.Inf", "ERANGE"}, {"+.INF", "ERANGE"}, {".nan", "EINVAL"},
                {".NaN", "EINVAL"}, {"!!float .inf", "ERANGE"}};
        String[][] json = {{"1e999", "ERANGE"}, {"-1e999", "ERANGE"}};
        SoftAssertions soft = new SoftAssertions();
        int checked = 0;
        for (Body b : bodies) {
            List<String> pointers = new ArrayList<>();
            numbers(b.doc(), "", pointers);
            for (String ptr : pointers) {
                for (String[] v : yaml) {
                    expectRange(soft, send(HttpMethod.POST, b.uri(), YAML, yamlWith(b.doc(), ptr, v[0]), b.uri() + " YAML "
                            + ptr + ": " + v[0]), ptr, v[1]);
                    checked++;
                }
                for (String[] v : json) {
                    expectRange(soft, send(HttpMethod.POST, b.uri(), MediaType.APPLICATION_JSON, jsonWith(b.doc(), ptr, v[0]),
                            b.uri() + " JSON " + ptr + ": " + v[0]), ptr, v[1]);
                    checked++;
                }
            }
        }
        // the documents hold numbers of every section: seeds, machine sizes, kernel switches, counts, workload
        // parameters, timeline times, experiment repeats and seeds, a run request's seed, repeats and pace
        assertThat(checked).isGreaterThan(500);
        soft.assertAll();
    }

    private static void expectRange(SoftAssertions soft, Answer a, String pointer, String errno) {
        soft.assertThat(a.status()).as(a.what() + " " + a.body()).isEqualTo(422);
        soft.assertThat(a.body().path("pointer").asString()).as(a.what() + " " + a.body()).isEqualTo(pointer);
        soft.assertThat(a.body().path("errno").asString()).as(a.what()).isEqualTo(errno);
        noLibraryWords(soft, a);
    }

    // ---- malformed bodies and requests, in the client's words ----

    static final List<String> MALFORMED_YAML = List.of(
            "name: x\nduration: 1s\n---\nname: y\n---\nname: z", "---\nname: x\n---\n", "a: 1\n...\nb: 2",
            "a: " + "[".repeat(600) + "]".repeat(600), "a:\n" + nestedBlock(520),
            "name: x\n\tduration: 1s", "name: x\nduration: 1s: 2s", "name: x\n duration: 1s", "name: [1, 2",
            "name: {a: 1", "name: \"abc", "name: 'abc", "name: \"\\q\"", "- a\nb: 1", "name: x\nname: y", "a: *ref",
            "a: &x 1", "%YAML 1.1\n%YAML 1.1\n--- \na: 1", "%FOO bar\n---\na: 1", "? [a]\n: 1", "a: |0\n  x",
            "a: b\n- c", "a:\n  - b\n  c: d", "k".repeat(60_000) + ": 1", "a: " + "1".repeat(2000), "a: @x", "a: `x",
            "[1, 2]]", "a: !<tag:x> 1", "a: !!binary AAAA", "a: \"\\x4\"", "a: [1, 2", "a: {b: [1, {c: 2]}",
            "a: - b", "a: |\n x\n  y\n z", "a:\n  b: 1\n c: 2", "a: 'it''s", "\"a\": 1\n\"a\": 2", "a: !foo! x",
            "a: {b: 1, b: 2}", "\u00ef\u00bb\u00bfa: 1\n  - b");
    static final List<String> MALFORMED_JSON = List.of(
            "{\"a\": 1", "{\"a\": 1}}", "{\"a\": 1} {\"b\": 2}", "{\"a\": NaN}", "{\"a\": Infinity}", "{\"a\": -Infinity}",
            "{\"a\": 01}", "{\"a\": 1.}", "{\"a\": .5}", "{\"a\": \"x\u0001\"}", "{a: 1}", "{'a': 1}", "{\"a\": tru}",
            "{\"a\": [1,]}", "{\"a\": 1, \"a\": 2}", "{\"a\": \"\\q\"}", "{\"a\": \"\\u12\"}",
            "{\"" + "k".repeat(60_000) + "\": 1}", "{\"a\": " + "[".repeat(600) + "]".repeat(600) + "}",
            "{\"a\": " + "9".repeat(2000) + "}", "{\"a\": 1 /* c */}", "{\"a\": 1}\u0000", "{\"a\":\n\n  +1}",
            "{\"a\": \"xx\n\"}", "[", "\"x", "{\"a\": 1,}", "{\"a\" 1}", "{\"a\": nul}", "{\"a\": 1e}", "{\"a\": -}",
            "{\"a\": 0x1F}", "{\"a\": \"\\ud800\"}", "{\"a\": [1 2]}", "{\"a\": {\"b\": 1 \"c\": 2}}", "}", "]", ",",
            "{\"a\": True}", "{\"a\": 1}}]", "{\"a\": \"\\u00zz\"}", "{\"a\": 1.5e+}", "\u0000{}", "{\"a\":--1}");

    static String nestedBlock(int depth) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < depth; i++) b.append("  ".repeat(i + 1)).append("k:\n");
        return b.append("  ".repeat(depth + 1)).append("v: 1\n").toString();
    }

    @Test
    void malformedBodiesAreRefusedInTheClientsWordsAtEveryOperation() {
        String id = createScenario(web, tiny("words"));
        record Op(HttpMethod method, String uri) {}
        List<Op> ops = List.of(new Op(HttpMethod.POST, "/api/scenarios"), new Op(HttpMethod.PUT, "/api/scenarios/" + id),
                new Op(HttpMethod.POST, "/api/scenarios/" + id + "/tasks"),
                new Op(HttpMethod.POST, "/api/scenarios/" + id + "/timeline"),
                new Op(HttpMethod.POST, "/api/scenarios/" + id + "/cgroups:generate"),
                new Op(HttpMethod.POST, "/api/runs"), new Op(HttpMethod.POST, "/api/experiments"));
        SoftAssertions soft = new SoftAssertions();
        int syntax = 0;
        for (Op op : ops) {
            for (String body : MALFORMED_YAML) {
                syntax += check(soft, send(op.method(), op.uri(), YAML, body, op + " YAML " + cut(body)));
            }
            for (String body : MALFORMED_JSON) {
                syntax += check(soft, send(op.method(), op.uri(), MediaType.APPLICATION_JSON, body, op + " JSON " + cut(body)));
            }
        }
        assertThat(syntax).as("syntax errors answered with their line and column").isGreaterThan(ops.size() * 60);
        soft.assertAll();
    }

    /**
     * Breaker 4 F10: a raw control character in a YAML body (SnakeYAML's reader refuses it before any token, without
     * a mark) is reported at its own line and column and named, as JSON's reader names it: every character YAML's
     * c-printable set leaves out (C0 but tab and line ends, DEL, C1 but U+0085), plain, quoted, in a key and deeper
     * in the document, at every operation that reads a body.
     */
    @Test
    void aControlCharacterInYamlIsNamedAtItsLineAndColumn() {
        String id = createScenario(web, tiny("control"));
        List<String> uris = List.of("/api/scenarios", "/api/scenarios/" + id + "/tasks", "/api/scenarios/" + id + "/timeline",
                "/api/scenarios/" + id + "/cgroups:generate", "/api/runs", "/api/experiments");
        // {text before the character, text after it}: the character is at the end of the "before" text
        String[][] places = {{"duration: 1s\nname: abc", "def\n"}, {"duration: 1s\nname: \"abc", "def\"\n"},
                {"duration: 1s\nname: 'abc", "def'\n"}, {"a", "b: 1\n"}, {"cgroups:\n  - path: /g\n    cpu.max: \"5", " 1\"\n"},
                {"\n\n  \nname: x # a comment ", "\n"}, {"duration: 1s\nname: x\n", ""}, {"", "\n"}};
        SoftAssertions soft = new SoftAssertions();
        int checked = 0;
        for (int cc : new int[] {0x00, 0x01, 0x07, 0x08, 0x0B, 0x0C, 0x1B, 0x1F, 0x7F, 0x80, 0x9B, 0x9F}) {
            for (String[] place : places) {
                String before = place[0];
                int line = before.split("\n", -1).length;
                int column = before.substring(before.lastIndexOf('\n') + 1).length() + 1;
                String body = before + (char) cc + place[1];
                for (String uri : uris) {
                    HttpMethod method = uri.equals("/api/scenarios") && checked % 2 == 1 ? HttpMethod.PUT : HttpMethod.POST;
                    String at = method == HttpMethod.PUT ? "/api/scenarios/" + id : uri;
                    Answer a = send(method, at, YAML, body, method + " " + at + " U+" + Integer.toHexString(cc) + " " + cut(body));
                    soft.assertThat(a.status()).as(a.what()).isEqualTo(400);
                    soft.assertThat(a.body().path("detail").asString()).as(a.what())
                            .isEqualTo("malformed YAML at line " + line + ", column " + column + ": a control character (U+"
                                    + String.format(Locale.ROOT, "%04X", cc) + "), which YAML text cannot hold (its only"
                                    + " control characters are tab and the line ends)");
                    noLibraryWords(soft, a);
                    checked++;
                }
            }
        }
        assertThat(checked).isEqualTo(12 * places.length * uris.size());
        soft.assertAll();
    }

    /**
     * Breaker 5 F13: the characters YAML 1.1 took as line breaks or that show as a space are explained as YAML 1.2
     * (which bodies follow) reads them, at every operation that reads a body. NEL (U+0085), a control character that
     * SnakeYAML's reader took as a line end in some places ("a ':' where no key can start" at a line's start; after a
     * value the scenario ran) and as text in others, is 400 naming its line and column wherever it is (a key, after a
     * value, in a comment, quoted). U+2028, U+2029, a byte order mark inside the text and NBSP are text in YAML 1.2:
     * at a line's start they begin a key, refused as unknown naming the character, where it is and what YAML made of
     * it (the key " x" showed nothing).
     */
    @Test
    void yamlLineBreakAndSpaceLookalikesAreExplainedAsYaml12ReadsThem() {
        String id = createScenario(web, tiny("lookalikes"));
        List<String> uris = List.of("/api/scenarios", "/api/scenarios/" + id + "/tasks", "/api/scenarios/" + id + "/timeline",
                "/api/scenarios/" + id + "/cgroups:generate", "/api/runs", "/api/experiments");
        String[][] places = {{"duration: 1s\nname: ab\n", "x: 1\n"}, {"duration: 1s\nname: ab ", "\n"},
                {"duration: 1s # a comment ", "x: 1\n"}, {"duration: 1s\nname: \"ab", "\"\n"}, {"", "x: 1\n"}};
        SoftAssertions soft = new SoftAssertions();
        int checked = 0;
        for (String[] place : places) {
            String before = place[0];
            int line = before.split("\n", -1).length;
            int column = before.substring(before.lastIndexOf('\n') + 1).length() + 1;
            for (String uri : uris) {
                Answer a = send(HttpMethod.POST, uri, YAML, before + "\u0085" + place[1], "POST " + uri + " NEL " + cut(before));
                soft.assertThat(a.status()).as(a.what()).isEqualTo(400);
                soft.assertThat(a.body().path("detail").asString()).as(a.what()).isEqualTo("malformed YAML at line " + line
                        + ", column " + column + ": a NEL character (U+0085), a control character: YAML 1.2 reads it as"
                        + " text, not as the line end YAML 1.1 made it, and no key or value here may hold it; end the line"
                        + " with a line feed");
                noLibraryWords(soft, a);
                checked++;
            }
        }
        String[][] lookalikes = {{"\u2028", "U+2028 LINE SEPARATOR at character 1: YAML 1.2 reads it as text, not as a line end"},
                {"\u2029", "U+2029 PARAGRAPH SEPARATOR at character 1: YAML 1.2 reads it as text, not as a line end"},
                {"\ufeff", "U+FEFF ZERO WIDTH NO-BREAK SPACE at character 1: a byte order mark, which YAML takes only at the start of the text"},
                {"\u00a0", "U+00A0 NO-BREAK SPACE at character 1: no white space to YAML or JSON (only space and tab are)"}};
        for (String[] l : lookalikes) {
            for (String uri : uris) {
                // on the second line: a byte order mark there is inside the text
                // a timeline entry without its action reports only that: give it one
                String entry = uri.endsWith("/timeline") ? "at: 100ms\nkill: nop" : "";
                Answer a = send(HttpMethod.POST, uri, YAML, entry + "\n" + l[0] + "x: 1\n", "POST " + uri + " " + l[1]);
                soft.assertThat(a.status()).as(a.what() + " " + a.body()).isEqualTo(422);
                List<String> reasons = new ArrayList<>();
                a.body().path("errors").forEach(e -> {
                    if (e.path("pointer").asString().endsWith("/" + l[0] + "x")) reasons.add(e.path("reason").asString());
                });
                soft.assertThat(reasons).as(a.what() + " " + a.body()).hasSize(1);
                soft.assertThat(String.join("|", reasons)).as(a.what())
                        .startsWith("unknown key \"" + l[0] + "x\" (" + l[1] + ")");
                noLibraryWords(soft, a);
                checked++;
            }
        }
        assertThat(checked).isEqualTo((places.length + lookalikes.length) * uris.size());
        soft.assertAll();
    }

    /**
     * Breaker 6 F2, F3: a line or a value holding U+2028, U+2029, NBSP or an inner byte order mark looks right and is
     * text to YAML 1.2. Alone on a line, or inside one, the reader stops further on where nothing is wrong ("line 3,
     * column 1: a key without a ':' after it" for an NBSP on line 2); the answer names the character at its own line
     * and column, at every operation that reads a body. In a value it made the value a string that reads as correct
     * ({@code must be an integer, not string "2 "}): the refusal names the character and where it is in the value,
     * in YAML and JSON alike. JSON's reader names it too where it stops on one.
     */
    @Test
    void yamlLookalikesOnALineOrInAValueAreNamedWhereTheyAre() {
        String id = createScenario(web, tiny("lookalike lines"));
        List<String> uris = List.of("/api/scenarios", "/api/scenarios/" + id + "/tasks", "/api/scenarios/" + id + "/timeline",
                "/api/scenarios/" + id + "/cgroups:generate", "/api/runs", "/api/experiments");
        String[][] chars = {{"\u2028", "U+2028 LINE SEPARATOR, YAML 1.2 reads it as text, not as a line end"},
                {"\u2029", "U+2029 PARAGRAPH SEPARATOR, YAML 1.2 reads it as text, not as a line end"},
                {"\ufeff", "U+FEFF ZERO WIDTH NO-BREAK SPACE, a byte order mark, which YAML takes only at the start of the text"},
                {"\u00a0", "U+00A0 NO-BREAK SPACE, no white space to YAML or JSON (only space and tab are)"}};
        SoftAssertions soft = new SoftAssertions();
        int checked = 0;
        for (String[] c : chars) {
            // {text, line, column} of the character: alone on a line, alone on the last line, after a key's colon
            String[][] lines = {{"name: ab\n" + c[0] + "\nduration: 500ms\n", "2", "1"},
                    {"name: ab\nduration: 500ms\nmachine:\n  cpus: 2\n" + c[0] + "\n", "5", "1"},
                    {"name: ab" + c[0] + "duration: 500ms\n", "1", "9"}};
            for (String[] l : lines) {
                for (String uri : uris) {
                    Answer a = send(HttpMethod.POST, uri, YAML, l[0], "POST " + uri + " " + c[1] + " at " + l[1] + ":" + l[2]);
                    soft.assertThat(a.status()).as(a.what() + " " + a.body()).isEqualTo(400);
                    soft.assertThat(a.body().path("detail").asString()).as(a.what())
                            .startsWith("malformed YAML at line " + l[1] + ", column " + l[2] + ": " + c[1] + "; ");
                    noLibraryWords(soft, a);
                    checked++;
                }
            }
            // in a value: named in the refusal of the value, in YAML and in JSON, with its place in the value
            String name = c[1].substring(0, c[1].indexOf(','));
            String[][] values = {{"/duration", "name: ab\nduration: 500ms" + c[0] + "\n", "{\"name\": \"ab\", \"duration\": \"500ms" + c[0] + "\"}", "6"},
                    {"/machine/cpus", "name: ab\nduration: 500ms\nmachine:\n  cpus: 2" + c[0] + "\n",
                            "{\"name\": \"ab\", \"duration\": \"500ms\", \"machine\": {\"cpus\": \"2" + c[0] + "\"}}", "2"}};
            for (String[] v : values) {
                for (int json = 0; json < 2; json++) {
                    for (String[] route : List.of(new String[] {"/api/scenarios", ""}, new String[] {"/api/runs", "/scenario"})) {
                        String body = json == 1 ? v[2] : v[1];
                        if (!route[1].isEmpty()) {
                            body = json == 1 ? "{\"scenario\": " + body + "}" : "scenario:\n" + body.replaceAll("(?m)^(?=.)", "  ");
                        }
                        Answer a = send(HttpMethod.POST, route[0], json == 1 ? MediaType.APPLICATION_JSON : YAML, body,
                                "POST " + route[0] + (json == 1 ? " JSON " : " YAML ") + name + " in " + v[0]);
                        soft.assertThat(a.status()).as(a.what() + " " + a.body()).isEqualTo(422);
                        List<String> reasons = new ArrayList<>();
                        a.body().path("errors").forEach(e -> {
                            if (e.path("pointer").asString().equals(route[1] + v[0])) reasons.add(e.path("reason").asString());
                        });
                        soft.assertThat(reasons).as(a.what() + " " + a.body()).hasSize(1);
                        soft.assertThat(String.join("|", reasons)).as(a.what()).contains("(" + name + " at character " + v[3] + ": ");
                        noLibraryWords(soft, a);
                        checked++;
                    }
                }
            }
            // JSON's reader stopping on one between tokens names it
            Answer a = send(HttpMethod.POST, "/api/scenarios", MediaType.APPLICATION_JSON,
                    "{\"name\": \"ab\"," + c[0] + "\"duration\": \"500ms\"}", "POST JSON " + name + " between tokens");
            soft.assertThat(a.status()).as(a.what() + " " + a.body()).isEqualTo(400);
            soft.assertThat(a.body().path("detail").asString()).as(a.what()).startsWith("malformed JSON at line 1, column 15: ")
                    .contains(name + ")");
            checked++;
        }
        assertThat(checked).isEqualTo(chars.length * (3 * uris.size() + 2 * 2 * 2 + 1));
        soft.assertAll();
    }

    /** Asserts a 4xx problem in the client's words; 1 if it is a syntax error (then it names line and column). */
    private static int check(SoftAssertions soft, Answer a) {
        soft.assertThat(a.status()).as(a.what() + " " + a.body()).isBetween(400, 499);
        soft.assertThat(a.contentType()).as(a.what()).startsWith("application/problem+json");
        noLibraryWords(soft, a);
        String title = a.body().path("title").asString();
        if (a.status() == 400 && title.startsWith("Malformed")) {
            soft.assertThat(a.body().path("detail").asString()).as(a.what())
                    .matches("(?s)malformed (JSON|YAML) at line \\d+, column \\d+: .+|.*anchors and aliases.*|empty body"
                            + "|the body is not valid [^ ]+(: invalid byte sequence at byte \\d+ \\(0x[0-9a-f]+\\))?");
            return 1;
        }
        if (a.status() == 422) { // a value at its pointer: a number of too many digits, an unsupported tag
            soft.assertThat(a.body().path("pointer").asString()).as(a.what()).isNotEmpty();
        }
        return 0;
    }

    private static void noLibraryWords(SoftAssertions soft, Answer a) {
        List<String> texts = new ArrayList<>();
        texts.add(a.body().path("detail").asString());
        texts.add(a.body().path("title").asString());
        a.body().path("errors").forEach(e -> texts.add(e.path("reason").asString()));
        for (String t : texts) {
            String lower = t.toLowerCase(Locale.ROOT);
            for (String w : LIBRARY_WORDS) {
                soft.assertThat(lower).as(a.what() + ": \"" + t + "\" has a library's words (" + w + ")").doesNotContain(w);
            }
        }
    }

    private static String cut(String s) {
        return s.length() > 40 ? s.substring(0, 40) + "…" : s;
    }

    @Test
    void malformedRequestsAreRefusedInTheClientsWords() {
        String id = createScenario(web, tiny("requests"));
        SoftAssertions soft = new SoftAssertions();
        List<Consumer<SoftAssertions>> cases = List.of(
                s -> check(s, send(HttpMethod.PATCH, "/api/scenarios", MediaType.APPLICATION_JSON, "{}", "PATCH")),
                s -> check(s, send(HttpMethod.DELETE, "/api/scenarios", null, null, "DELETE of the collection")),
                s -> check(s, send(HttpMethod.POST, "/api/scenarios", MediaType.TEXT_XML, "<a/>", "text/xml")),
                s -> check(s, send(HttpMethod.POST, "/api/scenarios", MediaType.APPLICATION_FORM_URLENCODED, "a=1", "form")),
                s -> check(s, send(HttpMethod.POST, "/api/runs", MediaType.APPLICATION_OCTET_STREAM, "x", "octets")),
                s -> check(s, send(HttpMethod.POST, "/api/scenarios", MediaType.APPLICATION_JSON, "", "empty body")),
                s -> check(s, send(HttpMethod.POST, "/api/scenarios", YAML, "", "empty YAML body")),
                s -> check(s, send(HttpMethod.GET, "/api/runs?status=zzz", null, null, "status")),
                s -> check(s, send(HttpMethod.GET, "/api/runs?standalone=maybe", null, null, "standalone")),
                s -> check(s, send(HttpMethod.GET, "/api/scenarios/" + id + "/timeline/abc", null, null, "index")),
                s -> check(s, send(HttpMethod.GET, "/api/runs/x/histograms/h?repeat=1e999", null, null, "repeat")),
                s -> check(s, send(HttpMethod.GET, "/api/nothing/here", null, null, "no route")),
                s -> check(s, send(HttpMethod.GET, "/actuator/nothing", null, null, "no endpoint")),
                s -> check(s, send(HttpMethod.PUT, "/api/scenarios/" + id + "/cgroups/web/cpu.max", MediaType.APPLICATION_JSON,
                        "{}", "cpu.max as JSON")));
        cases.forEach(c -> c.accept(soft));
        // requests that need raw headers or targets: the client would refuse to build them
        for (String raw : List.of("POST /api/scenarios HTTP/1.1\r\nHost: x\r\nContent-Type: foo\r\nContent-Length: 2\r\n\r\n{}",
                "POST /api/scenarios HTTP/1.1\r\nHost: x\r\nContent-Type: application/json;charset=klingon\r\n"
                        + "Content-Length: 2\r\n\r\n{}",
                "POST /api/scenarios HTTP/1.1\r\nHost: x\r\nContent-Type: application/json; charset=iso-8859-1\r\n"
                        + "Content-Length: 3\r\n\r\n{\"\u00ff",
                "GET /api/%2e%2e/x HTTP/1.1\r\nHost: x\r\n\r\n", "GET /api/a%00b HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET /api/a%0ab HTTP/1.1\r\nHost: x\r\n\r\n", "GET /api//runs HTTP/1.1\r\nHost: x\r\n\r\n",
                "PROPFIND /api/runs HTTP/1.1\r\nHost: x\r\n\r\n", "TRACE /api/runs HTTP/1.1\r\nHost: x\r\n\r\n",
                "GET /api/runs HTTP/1.1\r\nHost: x\r\nAccept: foo/bar/baz;;\r\n\r\n",
                "POST /api/runs HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 3\r\n\r\n\u00ff\u00fe{")) {
            checkRaw(soft, raw);
        }
        soft.assertAll();
    }

    @org.springframework.boot.test.web.server.LocalServerPort int port;
    /**
     * Breaker 4 F9: a whole number written as a float ({@code 1e3}) where a file takes an integer is refused without a
     * spelling the client never wrote (it was "not number 1000.0" for {@code 1e3}), in every file and both syntaxes.
     */
    @Test
    void aWholeFloatIsNotEchoedInASpellingTheClientNeverWrote() {
        SoftAssertions soft = new SoftAssertions();
        for (String file : List.of("cpu.weight", "cpu.max.burst", "cpu.cfs_quota_us", "cpu.shares", "cpu.cfs_period_us")) {
            for (String v : List.of("1e3", "1E3", "10.0e2", "1000.00", "1e+3")) {
                for (MediaType type : List.of(MediaType.APPLICATION_JSON, YAML)) {
                    String body = type == YAML ? "duration: 1s\ncgroups:\n  - path: /a\n    " + file + ": " + v + "\n"
                            : "{\"duration\": \"1s\", \"cgroups\": [{\"path\": \"/a\", \"" + file + "\": " + v + "}]}";
                    Answer a = send(HttpMethod.POST, "/api/scenarios", type, body, file + "=" + v + " " + type);
                    soft.assertThat(a.status()).as(a.what()).isEqualTo(422);
                    soft.assertThat(a.body().path("errno").asString()).as(a.what()).isEqualTo("EINVAL");
                    soft.assertThat(a.body().path("detail").asString()).as(a.what())
                            .startsWith("must be a string or an integer, not number 1000 written with a fraction or an exponent")
                            .doesNotContain("number 1000.0");
                }
            }
        }
        soft.assertAll();
    }


    /**
     * Breaker 3 #12: a path the firewall refuses for its '.' and '..' segments, raw or made with an encoded '/', is
     * answered about the path (it was "a header or query parameter holds a character …"), under every prefix.
     */
    @Test
    void aDotSegmentIsRefusedAsAPath() {
        String id = createScenario(web, tiny("dots"));
        SoftAssertions soft = new SoftAssertions();
        int checked = 0;
        for (String prefix : List.of("/api/experiments/ready-made/", "/api/scenarios/" + id + "/tasks/", "/api/runs/",
                "/api/scenarios/" + id + "/cgroups/", "/runs/", "/experiments/")) {
            for (String segment : List.of("..%2f..%2fapplication.yml", "..%2F", "a%2f..%2fb", ".%2fx", "a%2f%2fb", "%2f..",
                    "x%2f.", "%2e%2e", "..", "a/../b")) {
                String raw = "GET " + prefix + segment + " HTTP/1.1\r\nHost: x\r\n\r\n";
                String answer = rawAnswer(raw);
                soft.assertThat(answer).as(raw).startsWith("HTTP/1.1 400");
                soft.assertThat(answer).as(raw).contains("\"pointer\":\"/path\"").doesNotContain("header or query")
                        .containsPattern("'\\.'|'\\.\\.'|encoded '\\.'");
                checked++;
            }
        }
        assertThat(checked).isEqualTo(60);
        soft.assertAll();
    }

    private String rawAnswer(String raw) {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            raw = raw.replaceFirst("\r\nHost: x\r\n", "\r\nHost: x\r\nConnection: close\r\n");
            s.getOutputStream().write(raw.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            return new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private void checkRaw(SoftAssertions soft, String raw) {
        try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
            s.setSoTimeout(10_000);
            raw = raw.replaceFirst("\r\nHost: x\r\n", "\r\nHost: x\r\nConnection: close\r\n");
            s.getOutputStream().write(raw.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            s.getOutputStream().flush();
            String answer = new String(s.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            int status = Integer.parseInt(answer.substring(9, 12));
            int start = answer.indexOf("\r\n\r\n") + 4;
            String body = answer.substring(start);
            if (answer.toLowerCase(Locale.ROOT).contains("transfer-encoding: chunked")) body = body.substring(body.indexOf("\r\n") + 2);
            String what = cut(raw.replace("\r\n", " "));
            if (status == 200) return; // an Accept that does not parse is ignored, as if absent (docs/api.md)
            JsonNode json = JSON.readTree(body.substring(0, body.lastIndexOf('}') + 1));
            check(soft, new Answer(status, answer.toLowerCase(Locale.ROOT).contains("content-type: application/problem+json")
                    ? "application/problem+json" : "", json, what));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Breaker 7 N11: a key given as null is the key left out in a run request too, as for {@code seed}, an
     * experiment's {@code scenario_id} and every document key: {@code "scenarioId": null} (JSON, YAML {@code ~} or
     * an empty value) answers what {@code {}} answers (it was "scenarioId must be a string").
     */
    @Test
    void aNullScenarioIdIsTheKeyLeftOut() {
        Answer none = send(HttpMethod.POST, "/api/runs", MediaType.APPLICATION_JSON, "{}", "{}");
        assertThat(none.status()).isEqualTo(422);
        for (Answer a : List.of(send(HttpMethod.POST, "/api/runs", MediaType.APPLICATION_JSON, "{\"scenarioId\": null}", "json null"),
                send(HttpMethod.POST, "/api/runs", MediaType.APPLICATION_JSON, "{\"scenarioId\": null, \"scenario\": null}", "both null"),
                send(HttpMethod.POST, "/api/runs", YAML, "scenarioId: ~\n", "yaml ~"),
                send(HttpMethod.POST, "/api/runs", YAML, "scenarioId:\n", "yaml empty"))) {
            assertThat(a.status()).as(a.what()).isEqualTo(422);
            assertThat(a.body().path("pointer").asString()).as(a.what()).isEqualTo(none.body().path("pointer").asString());
            assertThat(a.body().path("detail").asString()).as(a.what()).isEqualTo(none.body().path("detail").asString())
                    .doesNotContain("must be a string");
        }
    }

    /**
     * Breaker 6 F13: a body may start with one byte order mark (the encoding's), in JSON and YAML alike; a second one
     * is 400 at line 1, column 1 naming U+FEFF in both (YAML took it, JSON refused it).
     */
    @Test
    void aSecondByteOrderMarkIsRefusedInJsonAndYamlAlike() {
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
        for (String uri : List.of("/api/scenarios", "/api/runs", "/api/experiments")) {
            for (MediaType type : List.of(MediaType.APPLICATION_JSON, YAML)) {
                String doc = type.equals(YAML) ? "name: b\nduration: 1s\n" : "{\"name\": \"b\", \"duration\": \"1s\"}";
                byte[] one = (new String(bom, java.nio.charset.StandardCharsets.ISO_8859_1) + doc).getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
                byte[] two = new byte[one.length + 3];
                System.arraycopy(bom, 0, two, 0, 3);
                System.arraycopy(one, 0, two, 3, one.length);
                var r = web.post().uri(uri).contentType(type).bodyValue(two).exchange().expectBody().returnResult();
                JsonNode p = JSON.readTree(new String(r.getResponseBody()));
                assertThat(r.getStatus().value()).as(uri + " " + type + " two BOMs: " + p).isEqualTo(400);
                assertThat(p.path("detail").asString()).as(uri + " " + type).contains("line 1, column 1").contains("U+FEFF");
                if (uri.equals("/api/scenarios")) {
                    web.post().uri(uri).contentType(type).bodyValue(one).exchange().expectStatus().isCreated(); // one BOM
                }
            }
        }
    }
}
