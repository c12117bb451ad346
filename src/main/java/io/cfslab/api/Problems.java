package io.cfslab.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The refusals an API operation answers besides those every operation may answer ({@link ApiDocs#COMMON}),
 * each documented in the OpenAPI document as an {@code application/problem+json} {@code Problem} with the
 * standard description of {@link ApiDocs#DESCRIPTIONS} (or {@link #notes()} for this operation).
 *
 * <pre>{@code
 * @Operation(summary = "Store a scenario")
 * @ApiResponse(responseCode = "201", description = "stored", content = @Content(schema = @Schema(ref = "ScenarioView")))
 * @Problems({404, 409, 422})
 * @PostMapping(...)
 * }</pre>
 * {@code OpenApiContractTest} checks the running service against the result: every status an operation
 * answers must be documented, with a body that validates against its schema.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Problems {
    /** HTTP statuses, e.g. {@code {404, 409, 422}}. */
    int[] value();

    /** Descriptions for this operation, as {@code "409: a task of that name exists (EEXIST)"}; others get the standard one. */
    String[] notes() default {};
}
