package io.cfslab.api;

import java.util.List;
import org.springframework.http.HttpStatus;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * JSON handling of scenario documents: strict reading (400 on syntax errors and duplicate keys) and the names the store
 * keeps. Trees and task counts over {@code scenario.Limits} are the parser's to refuse (from the numbers alone, before
 * anything expands them), so that one fault gives one problem in every document and route.
 */
final class ScenarioDocs {
    /** Refuses duplicate keys (400), as the scenario parser does: a body read here is re-serialized for it. */
    static final JsonMapper JSON = JsonMapper.builder().enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();

    private ScenarioDocs() {}

    /**
     * @param text     request body
     * @param pointer  where the body sits (for error pointers), {@code ""} for the whole body
     * @return the body as a JSON object
     * @throws ApiException 400 if it is not JSON (syntax, a duplicate key, empty), 422 if it is JSON but not an
     *                      object (as for every other body that is JSON but does not validate)
     */
    static ObjectNode readObject(String text, String pointer) {
        if (io.cfslab.scenario.ScenarioText.isBlank(text)) {
            throw ApiException.of(HttpStatus.BAD_REQUEST, "Malformed JSON", pointer, "empty body", "EINVAL");
        }
        JsonNode node;
        try {
            node = JSON.readTree(text);
        } catch (JacksonException e) {
            // in the writer's words (SyntaxWords): where, and what is wrong; a number of too many digits is a value out of
            // every field's range, at its pointer
            io.cfslab.scenario.Problem p = io.cfslab.scenario.SyntaxWords.of(e, text, JSON, false);
            if (!p.path().isEmpty()) {
                throw ApiException.of(HttpStatus.UNPROCESSABLE_CONTENT, "Invalid request body", pointer + p.path(),
                        p.reason(), p.errno());
            }
            throw ApiException.of(HttpStatus.BAD_REQUEST, "Malformed JSON", pointer, p.reason(), "EINVAL");
        }
        // 1e400 reads as an infinite double: refuse it here, before the tree is written back (as "Infinity")
        String range = io.cfslab.scenario.JsonNodeWords.firstOutOfRange(node, pointer);
        if (range != null) {
            throw ApiException.of(HttpStatus.UNPROCESSABLE_CONTENT, "Invalid request body", range,
                    io.cfslab.scenario.JsonNodeWords.OUT_OF_RANGE, "ERANGE");
        }
        // 1e-400 reads as 0.0: refuse it too, rather than run with a value nobody wrote
        String underflow = io.cfslab.scenario.JsonNodeWords.firstUnderflow(JSON, text, node, pointer);
        if (underflow != null) {
            throw ApiException.of(HttpStatus.UNPROCESSABLE_CONTENT, "Invalid request body", underflow,
                    io.cfslab.scenario.JsonNodeWords.UNDERFLOW, "ERANGE");
        }
        if (!(node instanceof ObjectNode obj)) {
            // well-formed JSON of the wrong shape is a validation error like a wrong type inside the object: 422
            throw ApiException.of(HttpStatus.UNPROCESSABLE_CONTENT, "Invalid request body", pointer,
                    io.cfslab.scenario.JsonNodeWords.notAnObject(node), "EINVAL");
        }
        return obj;
    }

    /** RFC 9512's media type for YAML, and the older names clients still send; each is read as YAML. */
    static final String YAML = "application/yaml";
    static final String X_YAML = "application/x-yaml";
    static final String TEXT_YAML = "text/yaml";
    static final String TEXT_X_YAML = "text/x-yaml";

    /** True if {@code type} is one of the YAML media types ({@link #YAML} and its older names). */
    static boolean isYaml(org.springframework.http.MediaType type) {
        if (type == null) return false;
        String t = type.getType() + "/" + type.getSubtype();
        return t.equalsIgnoreCase(YAML) || t.equalsIgnoreCase(X_YAML) || t.equalsIgnoreCase(TEXT_YAML)
                || t.equalsIgnoreCase(TEXT_X_YAML);
    }

    /**
     * A request body as an object by its {@code Content-Type}: YAML ({@link #isYaml}) as the scenario parser reads a
     * YAML file (duplicate keys, anchors and aliases, control characters, numbers beyond a double refused), then the
     * same checks as a JSON body; anything else as JSON ({@link #readObject(String, String)}). Whatever the body's
     * syntax, what is stored and validated is the same tree, so problems name the same JSON pointers.
     *
     * @throws ApiException 400 "Malformed YAML" (the line and column in the detail), 422 as for JSON
     */
    static ObjectNode readObject(String text, String pointer, org.springframework.http.MediaType type) {
        if (!isYaml(type)) return readObject(text, pointer);
        if (io.cfslab.scenario.ScenarioText.isBlank(text)) {
            throw ApiException.of(HttpStatus.BAD_REQUEST, "Malformed YAML", pointer, "empty body", "EINVAL");
        }
        if (text.startsWith("\uFEFF")) {
            // the body's byte order mark was dropped as it was read (StrictStringDecoder); a second one is text, which
            // the YAML reader dropped as well: refused as JSON refuses it (breaker 6 F13: two BOMs, YAML 201, JSON 400)
            throw ApiException.of(HttpStatus.BAD_REQUEST, "Malformed YAML", pointer, "malformed YAML at line 1, column 1:"
                    + " a second byte order mark (U+FEFF ZERO WIDTH NO-BREAK SPACE): a body may start with one only", "EINVAL");
        }
        JsonNode node;
        try {
            node = io.cfslab.scenario.ScenarioParser.readTree(text, true);
        } catch (io.cfslab.scenario.ScenarioException e) {
            io.cfslab.scenario.Problem p = e.problems().get(0);
            // syntax (pointer "") is 400 as malformed JSON is; a bad value (a control character, 1e400) is 422 at its pointer
            boolean value = p.path() != null && !p.path().isEmpty();
            throw ApiException.of(value ? HttpStatus.UNPROCESSABLE_CONTENT : HttpStatus.BAD_REQUEST,
                    value ? "Invalid request body" : "Malformed YAML", pointer + (p.path() == null ? "" : p.path()), p.reason(),
                    p.errno() == null ? "EINVAL" : p.errno());
        }
        // a YAML text that is a JSON object reads as JSON (ScenarioParser.readTree): the same checks either way
        return readObject(write(node), pointer);
    }

    /**
     * A request body read for its syntax only: a malformed one is 400 at once, but a refusal of what it says (422:
     * JSON that is not an object, {@code 1e400}, …) waits until {@link #object} is called, after the resource
     * (404), a ready-made scenario (409) and the conditions (412) were judged (breaker 8 F2: {@code [1]} with a false
     * {@code If-Match} answered 422 where {@code {"bogus":1}} answered 412). One rule for every operation with a
     * body: syntax 400, type 415, resource 404, 409 {@code EPERM}, 412, then content 422.
     *
     * @param parsed  the object, or null if it was refused
     * @param refusal the 422 to answer when the object is asked for, or null
     */
    record Body(ObjectNode parsed, ApiException refusal) {
        /** @return the body as an object @throws ApiException the 422 it was refused with */
        ObjectNode object() {
            if (refusal != null) throw refusal;
            return parsed;
        }
    }

    /**
     * {@link #readObject(String, String, org.springframework.http.MediaType)}, its 422 kept for later ({@link Body}).
     * @throws ApiException 400 for a body that is not JSON/YAML at all, or empty
     */
    static Body read(String text, org.springframework.http.MediaType type) {
        try {
            return new Body(readObject(text, "", type), null);
        } catch (ApiException e) {
            if (e.status() != HttpStatus.UNPROCESSABLE_CONTENT) throw e;
            return new Body(null, e);
        }
    }

    static String write(JsonNode node) { return JSON.writeValueAsString(node); }

    /**
     * The document as it is stored: every object member whose value is null left out, at any depth (docs/api.md and
     * docs/scenarios.md: a key given as null, YAML's {@code ~} among them, is the key left out, so the stored scenario
     * and every GET say so rather than keep {@code "hz": null}). Array elements are kept as they are.
     */
    static String writeStored(JsonNode node) { return write(withoutNullMembers(node)); }

    /** A copy of {@code node} without null-valued object members (recursively); other nodes unchanged. */
    static JsonNode withoutNullMembers(JsonNode node) {
        if (node instanceof ObjectNode o) {
            ObjectNode out = JSON.createObjectNode();
            for (var e : o.properties()) {
                if (!e.getValue().isNull()) out.set(e.getKey(), withoutNullMembers(e.getValue()));
            }
            return out;
        }
        if (node instanceof tools.jackson.databind.node.ArrayNode a) {
            tools.jackson.databind.node.ArrayNode out = JSON.createArrayNode();
            for (JsonNode x : a) out.add(withoutNullMembers(x));
            return out;
        }
        return node;
    }

    /**
     * The name the store keeps: the scenario's {@code name} as the parser judges it
     * ({@link io.cfslab.scenario.Names#scenarioNameProblem}, the same rule in the CLI), checked first so that a bad
     * name is the one problem answered. Task names (at most 255 bytes, not empty, {@code /}, {@code .} or
     * {@code ..}: segments of their URLs, {@link Locations}) are the parser's ({@code scenario.TasksSection}), the
     * same in every document and in the CLI. Any other character is allowed, and encoded in URLs.
     *
     * @throws ApiException 422 ({@code ENAMETOOLONG}, {@code EINVAL}) naming the name
     */
    static void checkNames(ObjectNode doc, String prefix) {
        JsonNode name = doc.get("name");
        io.cfslab.scenario.Problem p = name != null && name.isString()
                ? io.cfslab.scenario.Names.scenarioNameProblem(prefix + "/name", name.stringValue()) : null;
        if (p != null) {
            throw new ApiException(HttpStatus.UNPROCESSABLE_CONTENT, "Invalid name",
                    List.of(new FieldProblem(p.path(), p.reason(), p.errno())));
        }
    }

    /** The {@code name} of a document, or {@code fallback}. */
    static String name(ObjectNode doc, String fallback) {
        JsonNode n = doc.get("name");
        return n != null && n.isString() ? n.asString() : fallback;
    }
}
