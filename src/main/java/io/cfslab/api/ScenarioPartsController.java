package io.cfslab.api;

import io.cfslab.scenario.TimelineRefs;
import io.cfslab.store.Jdbc;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The task entries and timeline of a stored scenario as sub-resources, each a contract entry as written:
 * {@code GET|POST /api/scenarios/{id}/tasks}, {@code GET|DELETE …/tasks/{name}} (409 {@code EEXIST} for a
 * duplicate name), {@code GET|POST /api/scenarios/{id}/timeline}, {@code GET|DELETE …/timeline/{index}}.
 * Every change is validated as a whole scenario (problems point into the document, e.g. {@code /tasks/1/cgroup}).
 */
@RestController
@RequestMapping("/api/scenarios/{id}")
public class ScenarioPartsController {
    private final ScenarioService scenarios;
    private final Jdbc jdbc;

    public ScenarioPartsController(ScenarioService scenarios, Jdbc jdbc) {
        this.scenarios = scenarios;
        this.jdbc = jdbc;
    }

    @Operation(summary = "Task entries as written")
    @ApiResponse(responseCode = "200", description = "the task entries", content = @Content(mediaType = "application/json", array = @ArraySchema(schema = @Schema(ref = "Task"))))
    @Problems(404)
    @GetMapping("/tasks")
    public Mono<JsonNode> tasks(@PathVariable String id, ServerWebExchange exchange) {
        return jdbc.call(() -> part(id, "tasks", exchange));
    }

    @Operation(summary = "One task entry; 404 ENOENT")
    @ApiResponse(responseCode = "200", description = "the entry", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Task")))
    @Problems(404)
    @GetMapping("/tasks/{name}")
    public Mono<JsonNode> task(@PathVariable String id, @PathVariable String name, ServerWebExchange exchange) {
        return jdbc.call(() -> {
            ArrayNode tasks = part(id, "tasks", exchange);
            int i = indexOfTask(tasks, name);
            if (i < 0) throw ApiException.notFound("task " + name, "/name");
            return tasks.get(i);
        });
    }

    @Operation(summary = "Add a task entry (201); 409 EEXIST if the name is taken")
    @ApiResponse(responseCode = "201", description = "added; Location names it (path segments percent-encoded)", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Task")))
    @Problems(value = {404, 409, 412, 422}, notes = "409: a task of that name exists (EEXIST), or too many concurrent writes")
    @PostMapping(path = "/tasks", consumes = {MediaType.APPLICATION_JSON_VALUE, ScenarioDocs.YAML, ScenarioDocs.X_YAML, ScenarioDocs.TEXT_YAML, ScenarioDocs.TEXT_X_YAML})
    public Mono<ResponseEntity<JsonNode>> addTask(@PathVariable String id, @RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch, @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch, @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = {@Content(mediaType = "application/json", schema = @Schema(ref = "Task")), @Content(mediaType = "application/yaml", schema = @Schema(ref = "Task"))}) @RequestBody(required = false) String body,
            org.springframework.http.server.reactive.ServerHttpRequest request) {
        return Mono.fromCallable(() -> ScenarioDocs.read(body, request.getHeaders().getContentType())).flatMap(read -> {
            return scenarios.edit(id, new Preconditions(ifMatch, ifNoneMatch), (doc, s) -> {
                ObjectNode entry = read.object(); // its content's 422 after the 404, 409 and 412 (ScenarioDocs.Body)
                String name = entry.path("name").asString("");
                ArrayNode tasks = doc.get("tasks") instanceof ArrayNode a ? a : doc.putArray("tasks");
                if (!name.isEmpty() && indexOfTask(tasks, name) >= 0) {
                    throw ApiException.of(HttpStatus.CONFLICT, "Task exists", "/name", "a task " + name + " exists", "EEXIST");
                }
                tasks.add(entry.deepCopy());
                return ResponseEntity.created(Locations.api("scenarios", id, "tasks", name)).<JsonNode>body(entry);
            });
        });
    }

    @Operation(summary = "Remove a task entry (204); 404 ENOENT; 409 EBUSY while a timeline entry names it")
    @ApiResponse(responseCode = "204", description = "removed")
    @Problems(value = {404, 409, 412, 422}, notes = "409: a timeline entry names the task (EBUSY)")
    @DeleteMapping("/tasks/{name}")
    public Mono<ResponseEntity<Void>> removeTask(@PathVariable String id, @PathVariable String name, @RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch, @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch) {
        return scenarios.edit(id, new Preconditions(ifMatch, ifNoneMatch), (doc, s) -> {
            int i = doc.get("tasks") instanceof ArrayNode a ? indexOfTask(a, name) : -1;
            if (i < 0) throw ApiException.notFound("task " + name, "/name");
            if (doc.get("timeline") instanceof ArrayNode tl) {
                for (int k = 0; k < tl.size(); k++) {
                    String key = TimelineRefs.namingTask(tl.get(k), name); // every kind that names a task (kill too)
                    if (key != null) {
                        throw ApiException.of(HttpStatus.CONFLICT, "Busy", "/name",
                                "task " + name + " is used by timeline entry " + k + " (" + key
                                        + "); remove that entry first", "EBUSY");
                    }
                }
            }
            ((ArrayNode) doc.get("tasks")).remove(i);
            return ResponseEntity.noContent().<Void>build();
        });
    }

    @Operation(summary = "Timeline entries as written")
    @ApiResponse(responseCode = "200", description = "the timeline", content = @Content(mediaType = "application/json", array = @ArraySchema(schema = @Schema(ref = "TimelineAction"))))
    @Problems(404)
    @GetMapping("/timeline")
    public Mono<JsonNode> timeline(@PathVariable String id, ServerWebExchange exchange) {
        return jdbc.call(() -> part(id, "timeline", exchange));
    }

    @Operation(summary = "One timeline entry by index; 404 ENOENT")
    @ApiResponse(responseCode = "200", description = "the entry", content = @Content(mediaType = "application/json", schema = @Schema(ref = "TimelineAction")))
    @Problems(404)
    @GetMapping("/timeline/{index}")
    public Mono<JsonNode> timelineEntry(@PathVariable String id, @PathVariable int index, ServerWebExchange exchange) {
        return jdbc.call(() -> {
            ArrayNode tl = part(id, "timeline", exchange);
            if (index < 0 || index >= tl.size()) throw ApiException.notFound("timeline entry " + index, "/index");
            return tl.get(index);
        });
    }

    @Operation(summary = "Append a timeline entry (201, Location names its index)")
    @ApiResponse(responseCode = "201", description = "appended; Location names its index", content = @Content(mediaType = "application/json", schema = @Schema(ref = "TimelineAction")))
    @Problems({404, 409, 412, 422})
    @PostMapping(path = "/timeline", consumes = {MediaType.APPLICATION_JSON_VALUE, ScenarioDocs.YAML, ScenarioDocs.X_YAML, ScenarioDocs.TEXT_YAML, ScenarioDocs.TEXT_X_YAML})
    public Mono<ResponseEntity<JsonNode>> addTimeline(@PathVariable String id, @RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch, @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch, @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = {@Content(mediaType = "application/json", schema = @Schema(ref = "TimelineAction")), @Content(mediaType = "application/yaml", schema = @Schema(ref = "TimelineAction"))}) @RequestBody(required = false) String body,
            org.springframework.http.server.reactive.ServerHttpRequest request) {
        return Mono.fromCallable(() -> ScenarioDocs.read(body, request.getHeaders().getContentType())).flatMap(read ->
                scenarios.edit(id, new Preconditions(ifMatch, ifNoneMatch), (doc, s) -> {
                    ObjectNode entry = read.object(); // its content's 422 after the 404, 409 and 412 (ScenarioDocs.Body)
                    ArrayNode tl = doc.get("timeline") instanceof ArrayNode a ? a : doc.putArray("timeline");
                    tl.add(entry.deepCopy());
                    return ResponseEntity.created(Locations.api("scenarios", id, "timeline", Integer.toString(tl.size() - 1)))
                            .<JsonNode>body(entry);
                }));
    }

    @Operation(summary = "Remove a timeline entry (204); 404 ENOENT")
    @ApiResponse(responseCode = "204", description = "removed")
    @Problems({404, 409, 412, 422})
    @DeleteMapping("/timeline/{index}")
    public Mono<ResponseEntity<Void>> removeTimeline(@PathVariable String id, @PathVariable int index, @RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch, @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch) {
        return scenarios.edit(id, new Preconditions(ifMatch, ifNoneMatch), (doc, s) -> {
            if (!(doc.get("timeline") instanceof ArrayNode tl) || index < 0 || index >= tl.size()) {
                throw ApiException.notFound("timeline entry " + index, "/index");
            }
            tl.remove(index);
            return ResponseEntity.noContent().<Void>build();
        });
    }

    /** Section {@code key} of scenario {@code id}'s document; the answer carries the scenario's ETag. */
    private ArrayNode part(String id, String key, ServerWebExchange exchange) {
        ObjectNode doc = ScenarioDocs.readObject(ScenarioService.tagged(scenarios.get(id), exchange).document(), "");
        return doc.get(key) instanceof ArrayNode a ? a : ScenarioDocs.JSON.createArrayNode();
    }

    private static int indexOfTask(ArrayNode tasks, String name) {
        for (int i = 0; i < tasks.size(); i++) if (name.equals(tasks.get(i).path("name").asString(""))) return i;
        return -1;
    }
}
