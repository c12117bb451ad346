package io.cfslab.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.api.OpenApiDocument.Operation;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * Property-based test of the whole API, generated from its OpenAPI document: thousands of requests to
 * randomly chosen documented operations, with generated path segments (valid ids, unknown ones, encoded
 * dots and slashes, huge integers, long and non-ASCII text), query values, Accept and Content-Type headers
 * and bodies (valid examples with one value replaced, random JSON, deep nesting, duplicate keys, invalid
 * UTF-8, random bytes). For every answer: never 5xx; a 4xx is {@code application/problem+json} with its
 * status; the status, media type and body are as documented for the operation; no bad input is answered
 * slowly (see {@link #SLOWEST}: over 2 s, and still over 2 s plus twenty good requests' time when sent again alone).
 * Seeded ({@code -Dfuzz.seed=…}, {@code -Dfuzz.requests=…}); a failure names the request to replay.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:fuzz-${random.uuid};DB_CLOSE_DELAY=-1;WRITE_DELAY=0",
        "cfslab.runs.execute=false", "logging.level.io.cfslab.api=OFF"})
class ApiFuzzTest {
    static final long SEED = Long.getLong("fuzz.seed", 20261130L);
    static final int REQUESTS = Integer.getInteger("fuzz.requests", 3000);
    static final int THREADS = 4;
    /**
     * What "answered slowly" means. The fault this catches is a request the service spends seconds on (a pattern
     * that backtracks, a nesting that recurses, a body parsed twice): that time is the service's and comes back
     * every time the request is sent. An answer timed over this limit among four concurrent clients may instead be
     * the machine's (CI at load 9–13 on 2 cores: GC pauses, other JVMs; one answer took just over 2 s once), so such
     * an answer is only a suspect: it is sent again alone {@value #REPLAYS} times, each time right after a good
     * request (the fixture's scenario, read), and fails only if its best time is still over this limit plus
     * twenty ({@code -Dfuzz.good-requests}) times the good request's best time under the same load. Quiet, a good
     * request takes a few ms, so the limit stays about 2 s; at load, it grows by what load does to a request that has
     * no fault. {@code -Dfuzz.slowest-ms=1 -Dfuzz.good-requests=0} shows the check failing (answers of 10-23 ms alone).
     */
    static final Duration SLOWEST = Duration.ofMillis(Long.getLong("fuzz.slowest-ms", 2000));
    static final int REPLAYS = 3;
    static final int GOOD_REQUESTS = Integer.getInteger("fuzz.good-requests", 20);
    /**
     * Suspects sent again, at most: the slowest ones. A stall of the machine makes every request in flight a suspect
     * (four at once), so the count alone says nothing; a request the service is slow on is among the slowest.
     */
    static final int MAX_SUSPECTS = 10;

    static final String SCENARIO = OpenApiContractTest.SCENARIO;
    static final List<String> NASTY_SEGMENTS = List.of("", "%20", "..", ".", "%2e%2e", "%2E", "%2F", "a%2Fb", "%00",
            "%25", "%3B", "%5C", "%C3%BC", "%FF", "%E2%80%AE", "99999999999999999999999999", "-1", "0", "2147483648",
            "1e3", "0x10", "cpu.max", "cpu.weight", "cgroup.procs", "nope", "a.b-c_d", "%0A", "%7B%7D", "~", "*", "%2A",
            "x".repeat(300), "y".repeat(5000), "a/b/c", "a//b", "a/./b", "a/../b", ";x", "%3Bx", "%22", "%27%3B--");
    static final List<String> ACCEPTS = List.of("application/json", "text/plain", "*/*", "application/problem+json",
            "text/event-stream", "image/png", "x/y;q=z", "application/json;q=0", "text/html", ",,,", "text/*");
    static final List<String> CONTENT_TYPES = List.of("application/json", "text/plain", "application/xml",
            "application/json;charset=ISO-8859-1", "application/json;charset=bogus", "multipart/form-data",
            "application/x-www-form-urlencoded", "a/b/c", "text/plain;charset=UTF-16");
    static final List<Object> NASTY_VALUES = List.of("", " ", "\u0000", "\u202e", "é", "x".repeat(600), "99999999999999999999999",
            "-1", "max", "max max", "1 2 3", "1s", "-5s", "1e400s", "NaN", "leaves:/", "leaves:/nope", "/", "//", "/a/../b",
            "/a/cpu.max", "%", "..", "\\", "\"", "0-", "0-1023", "1024", "a,b");
    static final List<String> RAW_NUMBERS = List.of("123456789012345678901234567890", "-123456789012345678901234567890",
            "1e400", "-0", "0.5", "1E-400", "9223372036854775808", "-9223372036854775809", "2147483648", "NaN", "1.0e3");

    @LocalServerPort int port;

    /** One request as sent, to replay. */
    record Request(String method, String uri, String contentType, String accept, byte[] body, Operation op) {
        String describe() {
            String b = body == null ? "(none)" : new String(body, 0, Math.min(body.length, 200), StandardCharsets.ISO_8859_1);
            return method + " " + uri + " Content-Type: " + contentType + " Accept: " + accept + " body["
                    + (body == null ? 0 : body.length) + "]: " + b.replaceAll("\\p{Cntrl}", "?");
        }
    }

    @Test
    void thousandsOfGeneratedRequestsNeverGetA5xxAndAlwaysADocumentedAnswer() throws Exception {
        String base = "http://127.0.0.1:" + port;
        OpenApiDocument api = new OpenApiDocument(base);
        List<Operation> ops = api.operations();
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        Fixture fixture = new Fixture(http, base);
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger sent = new AtomicInteger();
        AtomicInteger refused = new AtomicInteger();
        AtomicInteger slowestMs = new AtomicInteger();
        java.util.concurrent.atomic.AtomicReference<String> slowest = new java.util.concurrent.atomic.AtomicReference<>("");
        List<Suspect> suspects = Collections.synchronizedList(new ArrayList<>());
        // warm-up, not timed: each operation a few times (the first calls load classes and compile code paths)
        Random warm = new Random(SEED - 1);
        for (int i = 0; i < 3 * ops.size(); i++) {
            Request r = generate(warm, ops.get(i % ops.size()), fixture, base);
            if (r != null) check(http, api, r, failures, new AtomicInteger(), new AtomicInteger());
        }
        long start = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        List<Future<?>> workers = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            Random random = new Random(SEED + t);
            int share = REQUESTS / THREADS;
            workers.add(pool.submit(() -> {
                for (int i = 0; i < share && failures.size() < 20; i++) {
                    if (i % 200 == 0) fixture.refresh();
                    Request r = generate(random, ops.get(random.nextInt(ops.size())), fixture, base);
                    if (r == null) continue;
                    try {
                        long ms = check(http, api, r, failures, refused, slowestMs);
                        if (ms >= slowestMs.get()) slowest.set(ms + " ms: " + r.describe());
                        if (ms > SLOWEST.toMillis()) suspects.add(new Suspect(r, ms));
                        sent.incrementAndGet();
                    } catch (Exception e) {
                        failures.add(r.describe() + " -> " + e);
                    }
                }
                return null;
            }));
        }
        for (Future<?> w : workers) w.get();
        pool.shutdown();
        String replayed = slowAlone(http, fixture, suspects, failures);
        System.out.printf("ApiFuzzTest: seed %d, %d requests to %d operations in %.1f s, %d refused (4xx), slowest %s%s%n",
                SEED, sent.get(), ops.size(), (System.nanoTime() - start) / 1e9, refused.get(),
                OpenApiDocument.abbreviate(slowest.get()), replayed);
        assertThat(failures).as("seed " + SEED).isEmpty();
        assertThat(sent.get()).isGreaterThanOrEqualTo(REQUESTS * 9 / 10);
    }

    /**
     * Sends each suspect (an answer timed over {@link #SLOWEST} among the concurrent clients) again alone and adds a
     * failure for each whose best time is over {@link #SLOWEST} plus {@link #GOOD_REQUESTS} good requests' best
     * time, measured alternately with it.
     * @return what was measured, for the summary line
     */
    static String slowAlone(HttpClient http, Fixture fixture, List<Suspect> suspects, List<String> failures) throws Exception {
        if (suspects.isEmpty()) return "";
        List<Suspect> slowest = new ArrayList<>(suspects);
        slowest.sort(java.util.Comparator.comparingLong(Suspect::ms).reversed());
        StringBuilder seen = new StringBuilder("; " + suspects.size() + " over " + SLOWEST.toMillis() + " ms, the slowest "
                + Math.min(MAX_SUSPECTS, suspects.size()) + " sent again alone");
        for (int i = 0; i < Math.min(MAX_SUSPECTS, slowest.size()); i++) {
            Request r = slowest.get(i).request();
            Request good = new Request("GET", fixture.base + "/api/scenarios/" + fixture.scenario, null, null, null, r.op());
            long goodMs = Long.MAX_VALUE, aloneMs = Long.MAX_VALUE;
            for (int k = 0; k < REPLAYS; k++) {
                goodMs = Math.min(goodMs, answer(http, good).ms());
                aloneMs = Math.min(aloneMs, answer(http, r).ms());
            }
            long limitMs = SLOWEST.toMillis() + GOOD_REQUESTS * goodMs;
            seen.append(String.format("; %d ms among the clients, best alone %d ms, good request %d ms, limit %d ms",
                    slowest.get(i).ms(), aloneMs, goodMs, limitMs));
            if (aloneMs > limitMs) {
                failures.add(r.describe() + " -> took " + aloneMs + " ms alone (best of " + REPLAYS + "), over " + limitMs
                        + " ms (" + SLOWEST.toMillis() + " ms + " + GOOD_REQUESTS + " x " + goodMs + " ms of a good request)");
            }
        }
        return seen.toString();
    }

    /** An answer timed over {@link #SLOWEST} among the concurrent clients, and its time there (ms). */
    record Suspect(Request request, long ms) {}

    /** An answer as received: status, Content-Type, body (empty for an event stream) and time to its end, ms. */
    record Answer(int status, String type, String body, long ms) {}

    static Answer answer(HttpClient http, Request r) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(r.uri())).timeout(Duration.ofSeconds(10));
        if (r.contentType() != null) b.header("Content-Type", r.contentType());
        if (r.accept() != null) b.header("Accept", r.accept());
        b.method(r.method(), r.body() == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(r.body()));
        long t0 = System.nanoTime();
        HttpResponse<InputStream> res = http.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
        String type = res.headers().firstValue("Content-Type").orElse(null);
        String body;
        try (InputStream in = res.body()) {
            // an event stream of a run that never ends (nothing executes here): its headers are the answer
            body = type != null && type.startsWith("text/event-stream") ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        return new Answer(res.statusCode(), type, body, (System.nanoTime() - t0) / 1_000_000);
    }

    /** Checks one answer as documented; @return the answer's time, ms (slowness is judged by the caller) */
    static long check(HttpClient http, OpenApiDocument api, Request r, List<String> failures, AtomicInteger refused,
                      AtomicInteger slowestMs) throws Exception {
        Answer a = answer(http, r);
        String type = a.type();
        String body = a.body();
        long ms = a.ms();
        slowestMs.accumulateAndGet((int) ms, Math::max);
        int status = a.status();
        List<String> wrong = new ArrayList<>();
        if (status >= 500) wrong.add("5xx");
        if (status >= 400) {
            refused.incrementAndGet();
            if (type == null || !type.startsWith("application/problem+json")) wrong.add("not a problem: " + type);
            else if (!r.method().equals("HEAD")) { // a HEAD's answer has a GET's headers and no body to read
                JsonNode p = OpenApiDocument.JSON.readTree(body);
                if (p.path("status").asInt() != status) wrong.add("problem status " + p.path("status") + " != " + status);
            }
        }
        if (!type(type).equals("text/event-stream")) wrong.addAll(api.check(r.op(), status, type, body));
        if (!wrong.isEmpty()) {
            failures.add(r.describe() + " -> " + status + " " + type + " " + OpenApiDocument.abbreviate(body) + ": " + wrong);
        }
        return ms;
    }

    static String type(String contentType) { return contentType == null ? "" : contentType.split(";")[0].strip(); }

    /** Ids that exist: scenarios (recreated now and then, since DELETE removes them), one queued run and experiment. */
    static final class Fixture {
        final HttpClient http;
        final String base;
        volatile String scenario;
        volatile String run;
        volatile String experiment;

        Fixture(HttpClient http, String base) throws Exception {
            this.http = http;
            this.base = base;
            refresh();
        }

        void refresh() {
            try {
                scenario = created("/api/scenarios", SCENARIO);
                if (run == null) run = created("/api/runs", "{\"scenarioId\": \"" + scenario + "\"}");
                if (experiment == null) experiment = created("/api/experiments", OpenApiContractTest.EXPERIMENT);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        String created(String path, String body) throws Exception {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + path))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            String location = r.headers().firstValue("Location").orElseThrow(() -> new IllegalStateException(r.body()));
            return location.substring(location.lastIndexOf('/') + 1);
        }
    }

    // --- generators ---

    static <T> T pick(Random r, List<T> list) { return list.get(r.nextInt(list.size())); }

    static Request generate(Random r, Operation op, Fixture f, String base) {
        String uri = op.path();
        for (String p : op.pathParameters()) uri = uri.replace("{" + p + "}", segment(r, op, p, f));
        StringBuilder query = new StringBuilder();
        for (JsonNode p : op.parameters()) {
            if (!p.path("in").asString().equals("query") || r.nextInt(3) == 0) continue;
            query.append(query.isEmpty() ? "?" : "&").append(p.path("name").asString()).append('=')
                    .append(r.nextBoolean() ? pick(r, List.of("0", "1", "-1", "done", "queued", "x")) : pick(r, NASTY_SEGMENTS));
        }
        if (r.nextInt(10) == 0) query.append(query.isEmpty() ? "?" : "&").append(pick(r, NASTY_SEGMENTS)).append("=1");
        String target = base + uri + query;
        try {
            URI.create(target);
        } catch (IllegalArgumentException notAUri) {
            return null; // a client cannot send it either
        }
        List<String> media = op.requestMediaTypes();
        String documented = media.isEmpty() ? null : media.get(0);
        byte[] body = null;
        String contentType = documented;
        if (documented != null || r.nextInt(5) == 0) {
            body = body(r, documented, f);
            if (r.nextInt(6) == 0) contentType = r.nextInt(4) == 0 ? null : pick(r, CONTENT_TYPES);
            if (contentType == null && body != null && documented == null) contentType = "application/json";
        }
        String accept = r.nextInt(3) == 0 ? pick(r, ACCEPTS) : null;
        return new Request(op.method(), target, contentType, accept, body, op);
    }

    /**
     * A value of a path parameter. Values that would make the request another operation's are not this
     * operation's: outside the parameter's enum, matching its {@code not} pattern, or holding a raw '/' where
     * the parameter's pattern has none (OpenAPI sends those encoded).
     */
    static String segment(Random r, Operation op, String name, Fixture f) {
        JsonNode schema = OpenApiDocument.parameterSchema(op, name);
        if (schema.has("enum")) {
            List<String> values = new ArrayList<>();
            schema.path("enum").forEach(v -> values.add(v.asString()));
            return pick(r, values);
        }
        for (int attempt = 0; ; attempt++) {
            String v = anySegment(r, op, name, f);
            boolean slashes = schema.path("pattern").asString("").contains("/");
            if (!slashes && v.contains("/")) v = v.replace("/", "%2F");
            String not = schema.path("not").path("pattern").asString(null);
            if (not == null || !java.util.regex.Pattern.compile(not).matcher(v).find() || attempt > 20) return v;
        }
    }

    static String anySegment(Random r, Operation op, String name, Fixture f) {
        if (r.nextInt(5) < 3) { // mostly valid, so that the operation's own checks are reached
            return switch (name) {
                case "id" -> op.path().startsWith("/api/runs") ? (r.nextInt(4) == 0 ? "nope" : f.run)
                        : op.path().startsWith("/api/experiments/ready-made") ? pick(r, List.of("seed04-task-vs-task-account", "nope"))
                        : op.path().startsWith("/api/experiments") ? (r.nextInt(4) == 0 ? "nope" : f.experiment)
                        : r.nextInt(6) == 0 ? pick(r, List.of("e1-one-hog-10pct", "dashboard-demo")) : f.scenario;
                case "name" -> op.path().contains("/histograms/") ? "distribute_cfs_runtime_ns" : pick(r, List.of("nop", "t2", "x"));
                case "index" -> pick(r, List.of("0", "1", "5"));
                case "path" -> pick(r, List.of("a", "b", "a/b", "b/c/d", "x"));
                case "file" -> pick(r, List.of("cpu.max", "cpu.max.burst", "cpu.weight"));
                default -> "x";
            };
        }
        return pick(r, NASTY_SEGMENTS);
    }

    /** A request body: usually a valid one with a value replaced, else something worse. */
    static byte[] body(Random r, String mediaType, Fixture f) {
        int kind = r.nextInt(10);
        if ("text/plain".equals(mediaType) && kind < 6) {
            return pick(r, List.of("50000 100000", "max", "max 1000", "1000 1000", "999 1000", "10000", "0", "-1",
                    "18446744073709551616 100000", "max 18446744073709551616", "abc", "", "  20000  ", "1 2 3 4",
                    "50000\n100000", "0x10", "10001", "1e5")).getBytes(StandardCharsets.UTF_8);
        }
        return switch (kind) {
            case 0, 1, 2, 3 -> mutate(r, pick(r, List.of(SCENARIO, OpenApiContractTest.BODIES.get("Task"),
                    OpenApiContractTest.BODIES.get("TimelineAction"), OpenApiContractTest.BODIES.get("GenerateEntry"),
                    "{\"scenarioId\": \"" + f.scenario + "\", \"seed\": 1, \"repeats\": 2}",
                    "{\"scenario\": " + SCENARIO + "}", OpenApiContractTest.EXPERIMENT)));
            case 4 -> randomJson(r, 0).getBytes(StandardCharsets.UTF_8);
            case 5 -> ("[".repeat(2000 + r.nextInt(3000)) + "]".repeat(r.nextInt(2) * 2000)).getBytes(StandardCharsets.UTF_8);
            case 6 -> {
                byte[] b = new byte[r.nextInt(200)];
                r.nextBytes(b);
                yield b;
            }
            case 7 -> ("{\"name\": \"dup\", \"name\": \"dup\", \"duration\": \"1s\"}").getBytes(StandardCharsets.UTF_8);
            case 8 -> {
                byte[] valid = SCENARIO.getBytes(StandardCharsets.UTF_8);
                valid[5 + r.nextInt(valid.length - 10)] = (byte) (0x80 + r.nextInt(0x80)); // invalid UTF-8
                yield valid;
            }
            default -> r.nextBoolean() ? new byte[0] : "{\"tasks\": [".concat("{\"name\": \"t\"},".repeat(20_000))
                    .concat("{}]}").getBytes(StandardCharsets.UTF_8);
        };
    }

    /** A valid document with one value (anywhere in it) replaced by a nasty one, or a key added. */
    static byte[] mutate(Random r, String json) {
        JsonNode doc = OpenApiDocument.JSON.readTree(json);
        List<JsonNode> containers = new ArrayList<>();
        collect(doc, containers);
        JsonNode target = pick(r, containers);
        if (target instanceof tools.jackson.databind.node.ObjectNode o) {
            List<String> keys = new ArrayList<>(o.propertyNames());
            String key = keys.isEmpty() || r.nextInt(4) == 0 ? pick(r, List.of("bogus", "", "cpu.max", "count", "levels"))
                    : pick(r, keys);
            o.set(key, nasty(r));
        } else if (target instanceof tools.jackson.databind.node.ArrayNode a) {
            if (a.isEmpty() || r.nextBoolean()) a.add(nasty(r));
            else a.set(r.nextInt(a.size()), nasty(r));
        }
        String text = OpenApiDocument.JSON.writeValueAsString(doc);
        if (r.nextInt(3) == 0) text = text.replace("\"" + RAW + "\"", pick(r, RAW_NUMBERS)); // numbers Jackson would not write
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static final String RAW = "__raw_number__";

    static JsonNode nasty(Random r) {
        var f = OpenApiDocument.JSON.getNodeFactory();
        return switch (r.nextInt(8)) {
            case 0 -> f.textNode(RAW);
            case 1 -> f.numberNode(new java.math.BigInteger(pick(r, List.of("123456789012345678901234567890",
                    "-123456789012345678901234567890", "9223372036854775808", "-9223372036854775809", "4294967296"))));
            case 2 -> f.numberNode(r.nextDouble() * 1e6);
            case 3 -> f.booleanNode(r.nextBoolean());
            case 4 -> f.nullNode();
            case 5 -> {
                try {
                    yield OpenApiDocument.JSON.readTree(randomJson(r, 2));
                } catch (tools.jackson.core.JacksonException notJson) { // NaN and friends: written raw instead
                    yield f.textNode(RAW);
                }
            }
            default -> f.textNode(String.valueOf(pick(r, NASTY_VALUES)));
        };
    }

    static void collect(JsonNode n, List<JsonNode> out) {
        if (n.isObject() || n.isArray()) {
            out.add(n);
            for (JsonNode c : n) collect(c, out);
        }
    }

    static String randomJson(Random r, int depth) {
        int kind = depth > 4 ? 2 + r.nextInt(4) : r.nextInt(6);
        return switch (kind) {
            case 0 -> {
                StringBuilder sb = new StringBuilder("{");
                int n = r.nextInt(5);
                for (int i = 0; i < n; i++) {
                    if (i > 0) sb.append(',');
                    sb.append('"').append(pick(r, List.of("name", "duration", "machine", "cgroups", "tasks", "path", "cpus",
                            "count", "workload", "kind", "at", "write", "value", "levels", "under", "scenarioId", "repeats", "x")))
                            .append("\":").append(randomJson(r, depth + 1));
                }
                yield sb.append('}').toString();
            }
            case 1 -> {
                StringBuilder sb = new StringBuilder("[");
                int n = r.nextInt(4);
                for (int i = 0; i < n; i++) sb.append(i > 0 ? "," : "").append(randomJson(r, depth + 1));
                yield sb.append(']').toString();
            }
            case 2 -> pick(r, RAW_NUMBERS);
            case 3 -> OpenApiDocument.JSON.writeValueAsString(String.valueOf(pick(r, NASTY_VALUES)));
            case 4 -> pick(r, List.of("true", "false", "null"));
            default -> Integer.toString(r.nextInt(2000) - 10);
        };
    }
}
