package io.cfslab.api;

import io.cfslab.store.Jdbc;
import io.cfslab.store.ScenarioEntry;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;

/**
 * {@code /api/scenarios}: contract scenarios (JSON). A scenario view is
 * {@code {"id", "name", "readyMade", "version", "scenario": {...the contract document...}}}; the list
 * leaves out {@code scenario}.
 */
@RestController
@RequestMapping("/api/scenarios")
public class ScenarioController {
    private final ScenarioService scenarios;
    private final Jdbc jdbc;

    public ScenarioController(ScenarioService scenarios, Jdbc jdbc) {
        this.scenarios = scenarios;
        this.jdbc = jdbc;
    }

    @Operation(summary = "Store a scenario (201 + Location); 400 bad JSON, 422 invalid with JSON pointers")
    @ApiResponse(responseCode = "201", description = "stored; Location names it", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ScenarioView")))
    @Problems({404, 409, 422})
    @PostMapping(consumes = {MediaType.APPLICATION_JSON_VALUE, ScenarioDocs.YAML, ScenarioDocs.X_YAML, ScenarioDocs.TEXT_YAML, ScenarioDocs.TEXT_X_YAML})
    public Mono<ResponseEntity<Map<String, Object>>> create(@io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = {@Content(mediaType = "application/json", schema = @Schema(ref = "Scenario")), @Content(mediaType = "application/yaml", schema = @Schema(ref = "Scenario"))}) @RequestBody(required = false) String body,
            org.springframework.http.server.reactive.ServerHttpRequest request) {
        return jdbc.call(() -> {
                    ScenarioDocs.Body doc = ScenarioDocs.read(body, request.getHeaders().getContentType());
                    Preconditions.requireOnCollection(request); // 412 before the content's 422 (ScenarioDocs.Body)
                    return scenarios.create(doc.object());
                })
                .map(e -> ResponseEntity.created(Locations.api("scenarios", e.id())).eTag(ScenarioService.etag(e))
                        .body(view(e, true)));
    }

    @Operation(summary = "List ready-made and stored scenarios")
    @ApiResponse(responseCode = "200", description = "every scenario, without its document", content = @Content(mediaType = "application/json", array = @ArraySchema(schema = @Schema(ref = "ScenarioSummary"))))
    @GetMapping
    public Mono<List<Map<String, Object>>> list(@io.swagger.v3.oas.annotations.Parameter(description = "only stored scenarios whose id starts with this (at least 8 hex digits), as for runs") @org.springframework.web.bind.annotation.RequestParam(name = "id_prefix", required = false) String idPrefix) {
        ListParameters.idPrefix(idPrefix);
        return jdbc.call(() -> (idPrefix == null ? scenarios.list() : scenarios.startingWith(idPrefix)).stream()
                .map(e -> view(e, false)).toList());
    }

    @Operation(summary = "One scenario with its document; 404 ENOENT")
    @ApiResponse(responseCode = "200", description = "the scenario; ETag is its version", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ScenarioView")))
    @Problems(404)
    @GetMapping("/{id}")
    public Mono<ResponseEntity<Map<String, Object>>> get(@PathVariable String id,
                                                          org.springframework.web.server.ServerWebExchange exchange) {
        return jdbc.call(() -> withEtag(ScenarioService.tagged(scenarios.get(id), exchange)));
    }

    @Operation(summary = "Replace a stored scenario; 409 for ready-made ones, 412 if If-Match names another version")
    @ApiResponse(responseCode = "200", description = "replaced", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ScenarioView")))
    @Problems({404, 409, 412, 422})
    @PutMapping(path = "/{id}", consumes = {MediaType.APPLICATION_JSON_VALUE, ScenarioDocs.YAML, ScenarioDocs.X_YAML, ScenarioDocs.TEXT_YAML, ScenarioDocs.TEXT_X_YAML})
    public Mono<ResponseEntity<Map<String, Object>>> replace(@PathVariable String id,
            @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = {@Content(mediaType = "application/json", schema = @Schema(ref = "Scenario")), @Content(mediaType = "application/yaml", schema = @Schema(ref = "Scenario"))}) @RequestBody(required = false) String body,
            @RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch, @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch,
            org.springframework.http.server.reactive.ServerHttpRequest request) {
        return jdbc.call(() -> withEtag(scenarios.replace(id, ScenarioDocs.read(body, request.getHeaders().getContentType()),
                new Preconditions(ifMatch, ifNoneMatch))));
    }

    @Operation(summary = "Delete a stored scenario (204); 409 for ready-made ones, 412 if If-Match names another version")
    @ApiResponse(responseCode = "204", description = "deleted")
    @Problems({404, 409, 412})
    @DeleteMapping("/{id}")
    public Mono<ResponseEntity<Void>> delete(@PathVariable String id,
            @RequestHeader(name = HttpHeaders.IF_MATCH, required = false) String ifMatch, @RequestHeader(name = HttpHeaders.IF_NONE_MATCH, required = false) String ifNoneMatch) {
        return jdbc.call(() -> {
            scenarios.delete(id, new Preconditions(ifMatch, ifNoneMatch));
            return ResponseEntity.noContent().<Void>build();
        });
    }

    private static ResponseEntity<Map<String, Object>> withEtag(ScenarioEntry e) {
        return ResponseEntity.ok().eTag(ScenarioService.etag(e)).body(view(e, true));
    }

    static Map<String, Object> view(ScenarioEntry e, boolean withDocument) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", e.id());
        m.put("name", e.name());
        m.put("readyMade", e.readyMade());
        m.put("version", e.version());
        if (withDocument) {
            JsonNode doc = ScenarioDocs.JSON.readTree(e.document());
            m.put("scenario", doc);
        }
        return m;
    }
}
