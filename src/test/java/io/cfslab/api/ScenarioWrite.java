package io.cfslab.api;

import org.springframework.http.HttpMethod;
import org.springframework.http.MediaType;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * One write below a stored scenario, for the tests that enumerate every kind of write (conditional headers, ETags,
 * no-op writes): {@code path} is relative to {@code /api/scenarios/{id}} ({@code ""} is the scenario itself),
 * {@code type} and {@code body} null for a bodiless write.
 */
record ScenarioWrite(String name, HttpMethod method, String path, MediaType type, String body) {
    @Override public String toString() { return name; }

    /** Sends the write to scenario {@code id}, with {@code header: value} unless {@code header} is null. */
    EntityExchangeResult<byte[]> send(WebTestClient web, String id, String header, String value) {
        var spec = web.method(method).uri("/api/scenarios/" + id + path);
        if (header != null) spec = spec.header(header, value);
        var req = body == null ? spec : spec.contentType(type).bodyValue(body);
        return req.exchange().expectBody().returnResult();
    }

    /** The stored scenario's current ETag, as {@code GET /api/scenarios/{id}} answers it. */
    static String etag(WebTestClient web, String id) {
        return web.get().uri("/api/scenarios/" + id).exchange().expectStatus().isOk().expectBody().returnResult()
                .getResponseHeaders().getETag();
    }
}
