package io.cfslab.api;

import io.cfslab.store.RunIds;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * The query parameters of the list endpoints ({@code GET /api/runs}, {@code /api/experiments}, {@code /api/scenarios}):
 * one rule for all three (breaker 4 F8). A parameter the endpoint does not take is 400 {@code EINVAL} at
 * {@code /<name>} naming the ones it takes (a misspelt {@code ?id_prefx=} once listed everything, as if it were a
 * filter that matched all); {@code id_prefix} filters every list the same way: at least {@link RunIds#MIN_PREFIX}
 * and at most 32 hex digits, in any form {@link RunIds#canonical} takes.
 */
final class ListParameters {
    private ListParameters() {}

    /**
     * @param known the parameters the endpoint takes
     * @throws ApiException 400 {@code EINVAL} at the first parameter {@code request} has that is not one of them
     */
    static void check(ServerHttpRequest request, Set<String> known) {
        for (String name : request.getQueryParams().keySet()) {
            if (!known.contains(name)) {
                throw ApiException.of(HttpStatus.BAD_REQUEST, "Invalid parameter", "/" + name.replace("~", "~0").replace("/", "~1"),
                        "unknown query parameter \"" + name + "\": " + request.getPath().value() + " takes "
                                + (known.isEmpty() ? "no parameter" : String.join(", ", new TreeSet<>(known))), "EINVAL");
            }
        }
    }

    /**
     * @return {@code idPrefix}, checked (null stays null)
     * @throws ApiException 400 {@code EINVAL} at {@code /id_prefix}: too few or too many hex digits, or not hex
     */
    static String idPrefix(String idPrefix) {
        if (idPrefix == null || RunIds.isPrefix(idPrefix)) return idPrefix;
        String hex = RunIds.trim(idPrefix).replace("-", "");
        String why = hex.matches("[0-9A-Fa-f]+") && hex.length() > 32
                ? "id_prefix has " + hex.length() + " hex digits; an id has at most 32"
                : "id_prefix needs at least " + RunIds.MIN_PREFIX + " hex digits (at most 32, dashes anywhere), e.g. 94a7cdbf";
        throw ApiException.of(HttpStatus.BAD_REQUEST, "Invalid parameter", "/id_prefix", why, "EINVAL");
    }
}
