package io.cfslab.api;

import io.cfslab.scenario.ScenarioDefaults;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code GET /api/scenario-defaults?version=5.4}: what each scenario key means when it is left out, for one
 * {@code kernel.version} ({@link ScenarioDefaults}, read back from the parser). The editor labels its empty fields
 * with it, so the forms, docs/scenarios.md and the parser say the same (ScenarioDefaultsTest).
 */
@RestController
public class ScenarioDefaultsController {

    @Operation(summary = "The defaults of every scenario key for one kernel.version; 400 for a version the parser refuses")
    @ApiResponse(responseCode = "200", description = "the defaults", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ScenarioDefaults")))
    @Problems(400)
    @GetMapping(path = "/api/scenario-defaults", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<ObjectNode> defaults(@Parameter(description = "a release (6.1), tip-2026 or a distribution alias (rhel9); 6.18 when left out")
                                     @RequestParam(required = false) String version) {
        // an unknown parameter (?versoin=5.4) or a repeat is refused as on every operation (QueryParameterFilter);
        // an empty version is the parser's to refuse at /kernel/version, as in a document (breaker 5 F11)
        // a version the parser refuses is a bad value of the parameter, 400 at /version as every bad query value
        // (breaker 7 N9: it was 422 at /kernel/version, ?status=zz 400), in the parser's words
        return Mono.fromCallable(() -> {
            try {
                return ScenarioDefaults.of(version);
            } catch (io.cfslab.scenario.ScenarioException e) {
                var p = e.problems().get(0);
                throw ApiException.of(org.springframework.http.HttpStatus.BAD_REQUEST, "Invalid parameter", "/version",
                        "parameter version: " + p.reason(), p.errno() == null ? "EINVAL" : p.errno());
            }
        });
    }
}
