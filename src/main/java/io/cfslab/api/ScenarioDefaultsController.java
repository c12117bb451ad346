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

    @Operation(summary = "The defaults of every scenario key for one kernel.version; 422 for a version the parser refuses")
    @ApiResponse(responseCode = "200", description = "the defaults", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ScenarioDefaults")))
    @Problems({400, 422})
    @GetMapping(path = "/api/scenario-defaults", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<ObjectNode> defaults(@Parameter(description = "a release (6.1), tip-2026 or a distribution alias (rhel9); 6.18 when left out")
                                     @RequestParam(required = false) String version) {
        // an unknown parameter (?versoin=5.4) or a repeat is refused as on every operation (QueryParameterFilter);
        // an empty version is the parser's to refuse at /kernel/version, as in a document (breaker 5 F11)
        return Mono.fromCallable(() -> ScenarioDefaults.of(version));
    }
}
