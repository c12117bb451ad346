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
        String raw = request.getURI().getRawQuery();
        for (String element : raw == null ? new String[0] : raw.split("&")) {
            if (element.startsWith("=")) {
                // "?=1": the name is empty, "1" is its value (breaker 6 F7: the parsed parameters name it "1", and it
                // was refused as the unknown parameter "1"), read from the query as sent
                String v;
                try {
                    v = java.net.URLDecoder.decode(element.substring(1), java.nio.charset.StandardCharsets.UTF_8);
                } catch (IllegalArgumentException badEscape) {
                    v = element.substring(1);
                }
                throw ApiException.of(HttpStatus.BAD_REQUEST, "Invalid parameter", "/", "a query parameter with no name"
                        + (v.isEmpty() ? "" : " (its value is \"" + v + "\")") + ": " + request.getMethod().name()
                        + " " + request.getPath().value() + " takes " + (known.isEmpty() ? "no parameter"
                        : String.join(", ", new TreeSet<>(known))), "EINVAL");
            }
        }
        for (String name : request.getQueryParams().keySet()) {
            if (!known.contains(name)) {
                throw ApiException.of(HttpStatus.BAD_REQUEST, "Invalid parameter", "/" + name.replace("~", "~0").replace("/", "~1"),
                        "unknown query parameter \"" + name + "\": " + request.getMethod().name() + " "
                                + request.getPath().value() + " takes "
                                + (known.isEmpty() ? "no parameter" : String.join(", ", new TreeSet<>(known))), "EINVAL");
            }
            // one rule for a parameter given without a value, "?repeat" as "?repeat=" (breaker 6 F7: 0, the default, or
            // 400, by parameter): a bad value, never the default; leave a parameter out for its default
            String v = request.getQueryParams().getFirst(name);
            if (v == null || v.isEmpty()) {
                throw ApiException.of(HttpStatus.BAD_REQUEST, "Invalid parameter", "/" + name.replace("~", "~0").replace("/", "~1"),
                        "parameter " + name + " has no value: give " + name + "=<value>, or leave it out for its default", "EINVAL");
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
