package io.cfslab.api;

import io.cfslab.store.RunIds;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * The query parameters of the API: one rule for every operation and method (breaker 4 F8, breaker 5 F9), applied by
 * {@link QueryParameterFilter} with the parameters each operation declares. A parameter the operation does not take is
 * 400 {@code EINVAL} at {@code /<name>} naming the ones it takes (a misspelt {@code ?id_prefx=} once listed everything,
 * as if it were a filter that matched all); {@code id_prefix} filters every list the same way: at least
 * {@link RunIds#MIN_PREFIX} and at most 32 hex digits, in any form {@link RunIds#canonical} takes.
 */
final class ListParameters {
    private ListParameters() {}

    /**
     * @param known the parameters the endpoint takes
     * @throws ApiException 400 {@code EINVAL} at the first parameter {@code request} has that is not one of them
     */
    static void check(ServerHttpRequest request, Set<String> known) {
        for (var given : request.getQueryParams().entrySet()) {
            // a repeat is refused whatever the parameter (breaker 5 F9: "id_prefix=a&id_prefix=b" was refused for a
            // wrong reason, "standalone=true&standalone=false" took the first)
            if (known.contains(given.getKey()) && given.getValue().size() > 1) {
                String name = given.getKey();
                throw ApiException.of(HttpStatus.BAD_REQUEST, "Invalid parameter", "/" + name.replace("~", "~0").replace("/", "~1"),
                        "parameter " + name + " given " + given.getValue().size() + " times: give it once", "EINVAL");
            }
        }
        for (String name : request.getQueryParams().keySet()) {
            if (!known.contains(name)) {
                throw ApiException.of(HttpStatus.BAD_REQUEST, "Invalid parameter", "/" + name.replace("~", "~0").replace("/", "~1"),
                        "unknown query parameter \"" + name + "\": " + request.getMethod().name() + " "
                                + request.getPath().value() + " takes "
                                + (known.isEmpty() ? "no parameter" : String.join(", ", new TreeSet<>(known))), "EINVAL");
            }
        }
    }

    /**
     * A boolean parameter in its one spelling, {@code true} or {@code false} (breaker 5 F9: Spring's binding took
     * {@code yes}, {@code on}, {@code 1}, {@code TRUE}, and an empty value as the default).
     *
     * @throws ApiException 400 {@code EINVAL} naming it
     */
    static void strictBoolean(ServerHttpRequest request, String name) {
        String v = request.getQueryParams().getFirst(name);
        if (request.getQueryParams().containsKey(name) && !"true".equals(v) && !"false".equals(v)) {
            throw ApiException.of(HttpStatus.BAD_REQUEST, "Invalid parameter", "/" + name,
                    "parameter " + name + " '" + (v == null ? "" : v) + "' is not true or false", "EINVAL");
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
