package io.cfslab.api;

import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The running service's OpenAPI document ({@code /v3/api-docs}) as tests read it: every operation with its
 * parameters, request media types and documented answers, and a validator of bodies against the documented
 * schemas (JSON Schema 2020-12, OpenAPI 3.1; {@code $ref}s to {@code /schemas/scenario.json} resolve to the file
 * the service publishes there, fetched from it). Generic: an operation added to the document is checked with
 * no change here.
 */
final class OpenApiDocument {
    static final JsonMapper JSON = JsonMapper.builder().build();

    /** One documented operation. */
    record Operation(String method, String path, JsonNode node) {
        /** Parameter names of the path template, in order. */
        List<String> pathParameters() {
            List<String> out = new ArrayList<>();
            Matcher m = Pattern.compile("\\{([^}]+)}").matcher(path);
            while (m.find()) out.add(m.group(1));
            return out;
        }

        /** Parameters ({@code in}: path, query, header) with their schemas. */
        List<JsonNode> parameters() {
            List<JsonNode> out = new ArrayList<>();
            node.path("parameters").forEach(out::add);
            return out;
        }

        /** Media types of the request body (empty: none documented). */
        List<String> requestMediaTypes() {
            List<String> out = new ArrayList<>();
            node.path("requestBody").path("content").propertyNames().forEach(out::add);
            return out;
        }

        boolean bodyRequired() { return node.path("requestBody").path("required").asBoolean(false); }

        /** Documented statuses. */
        List<Integer> statuses() {
            List<Integer> out = new ArrayList<>();
            node.path("responses").propertyNames().forEach(s -> out.add(Integer.parseInt(s)));
            return out;
        }

        /** Media types documented for an answer of {@code status} (empty: no body). */
        List<String> mediaTypes(int status) {
            List<String> out = new ArrayList<>();
            node.path("responses").path(Integer.toString(status)).path("content").propertyNames().forEach(out::add);
            return out;
        }

        @Override
        public String toString() { return method + " " + path; }
    }

    final String base;
    final JsonNode doc;
    final String docText;
    private final SchemaRegistry registry;
    private final Map<String, Schema> schemas = new ConcurrentHashMap<>();

    OpenApiDocument(String base) throws IOException, InterruptedException {
        this.base = base;
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        this.docText = get(http, base + "/v3/api-docs");
        this.doc = JSON.readTree(docText);
        String scenarioSchema = get(http, base + "/schemas/scenario.json");
        Map<String, String> documents = Map.of(base + "/v3/api-docs", docText, base + "/schemas/scenario.json", scenarioSchema);
        this.registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12, b -> b.schemas(documents));
    }

    private static String get(HttpClient http, String uri) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(uri)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        if (r.statusCode() != 200) throw new IllegalStateException(uri + " answered " + r.statusCode());
        return r.body();
    }

    /** Every operation of the document under {@code /api}. */
    List<Operation> operations() {
        List<Operation> out = new ArrayList<>();
        for (Map.Entry<String, JsonNode> p : doc.path("paths").properties()) {
            if (!p.getKey().startsWith("/api")) continue;
            for (Map.Entry<String, JsonNode> m : p.getValue().properties()) {
                if (List.of("get", "put", "post", "delete", "options", "head", "patch").contains(m.getKey())) {
                    out.add(new Operation(m.getKey().toUpperCase(Locale.ROOT), p.getKey(), m.getValue()));
                }
            }
        }
        return out;
    }

    /**
     * Problems of an answer against the document: its status must be documented, its Content-Type one of the
     * media types documented for that status, and a JSON body must validate against that media type's schema.
     *
     * @return what is wrong, or an empty list
     */
    List<String> check(Operation op, int status, String contentType, String body) {
        List<String> out = new ArrayList<>();
        if (!op.statuses().contains(status)) {
            out.add("status " + status + " is not documented (documented: " + op.statuses() + ")");
            return out;
        }
        List<String> media = op.mediaTypes(status);
        if (media.isEmpty()) {
            if (body != null && !body.isEmpty()) out.add("status " + status + " documents no body, got " + abbreviate(body));
            return out;
        }
        String type = contentType == null ? "" : contentType.split(";")[0].strip().toLowerCase(Locale.ROOT);
        String matched = media.stream().filter(m -> m.equalsIgnoreCase(type)).findFirst().orElse(null);
        if (matched == null) {
            out.add("Content-Type " + contentType + " is not documented for " + status + " (documented: " + media + ")");
            return out;
        }
        if (!type.endsWith("json") || op.method().equals("HEAD")) return out; // a HEAD's answer has no body
        JsonNode node;
        try {
            node = JSON.readTree(body);
        } catch (RuntimeException e) {
            out.add("body is not JSON: " + abbreviate(body));
            return out;
        }
        String pointer = "/paths/" + escape(op.path()) + "/" + op.method().toLowerCase(Locale.ROOT) + "/responses/" + status
                + "/content/" + escape(matched) + "/schema";
        for (Error e : schema(pointer).validate(node)) out.add(e.toString());
        return out;
    }

    /** Validates {@code node} against the component schema {@code name}. */
    List<String> validate(String component, JsonNode node) {
        List<String> out = new ArrayList<>();
        for (Error e : schema("/components/schemas/" + component).validate(node)) out.add(e.toString());
        return out;
    }

    private Schema schema(String pointer) {
        return schemas.computeIfAbsent(pointer, p -> registry.getSchema(SchemaLocation.of(base + "/v3/api-docs#" + p)));
    }

    /** RFC 6901 escaping of one pointer segment. */
    static String escape(String segment) { return segment.replace("~", "~0").replace("/", "~1"); }

    static String abbreviate(String s) { return s == null ? "null" : s.length() <= 300 ? s : s.substring(0, 300) + "…"; }

    /** The schema of a path parameter (empty object if none). */
    static JsonNode parameterSchema(Operation op, String name) {
        for (JsonNode p : op.parameters()) if (name.equals(p.path("name").asString())) return p.path("schema");
        return JSON.createObjectNode();
    }

    static Map<String, String> headers(HttpResponse<?> r) {
        Map<String, String> out = new LinkedHashMap<>();
        r.headers().map().forEach((k, v) -> out.put(k, String.join(",", v)));
        return out;
    }
}
