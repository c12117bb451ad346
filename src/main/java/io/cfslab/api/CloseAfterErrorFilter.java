package io.cfslab.api;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Every refusal under {@code /api} (status 400 and above) closes its connection ({@code Connection: close}).
 *
 * <p>Why: a client reusing a keep-alive connection after some refusals (a 404 for a missing run asked for
 * with an odd Accept, an unknown route) occasionally sent its next request into a connection the server no
 * longer read: about one request sequence in 300 hung until the client gave up (reproduced with Reactor
 * Netty's client; the cause inside the server is not yet found, see the closing note of 2026-11-30).
 * Refusals are rare, so a new connection after one costs nothing that matters. Before any refusal (under
 * {@code /api} or not) is sent, an unread request body is read and dropped ({@link #drain}).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE) // before RequestTargetFilter, whose refusals close too
public class CloseAfterErrorFilter implements WebFilter {
    /**
     * Exchange attribute of a refusal that reads the whole request body while it answers
     * ({@link RequestSizeFilter}): its connection is left open, since closing it as soon as the answer is
     * written would reset a client that is still sending.
     */
    static final String BODY_DRAINED = CloseAfterErrorFilter.class.getName() + ".drained";

    /** Most of an unread request body that is read (and dropped) after a refusal; beyond it the connection just closes. */
    static final long MAX_DRAIN_BYTES = 16L << 20;

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        var response = exchange.getResponse();
        boolean api = exchange.getRequest().getPath().value().startsWith("/api");
        response.beforeCommit(() -> {
            var status = response.getStatusCode();
            if (status == null || status.value() < 400 || exchange.getAttribute(BODY_DRAINED) != null) return Mono.empty();
            if (api) response.getHeaders().set(HttpHeaders.CONNECTION, "close");
            return drain(exchange);
        });
        return chain.filter(exchange);
    }

    /**
     * Before a refusal is sent that left the request body unread (security's 401 and 403, the firewall's 400,
     * routing's 404, 405 and 415: none of them reads it), reads and drops the body, chunk by chunk (the refusal
     * waits for it: the commit of the answer waits for this Mono). Closed with unread data, the connection would
     * be reset, and a client still sending would never read its answer. A body that was read already is not
     * read again (the second subscription fails at once and is ignored); one read in part (a chunked body cut at
     * the codec's limit) cannot be finished, and its client may still see a reset.
     */
    private static Mono<Void> drain(ServerWebExchange exchange) {
        return Mono.defer(() -> {
            var status = exchange.getResponse().getStatusCode();
            var headers = exchange.getRequest().getHeaders();
            boolean hasBody = headers.getContentLength() > 0 || headers.containsHeader(HttpHeaders.TRANSFER_ENCODING);
            boolean waitsForContinue = "100-continue".equalsIgnoreCase(headers.getFirst(HttpHeaders.EXPECT)); // never sent
            if (status == null || status.value() < 400 || !hasBody || waitsForContinue
                    || headers.getContentLength() > MAX_DRAIN_BYTES) {
                return Mono.empty();
            }
            long[] read = {0};
            return exchange.getRequest().getBody()
                    .takeWhile(b -> (read[0] += b.readableByteCount()) <= MAX_DRAIN_BYTES || release(b))
                    .doOnNext(DataBufferUtils::release)
                    .onErrorResume(e -> Mono.empty())
                    .then();
        });
    }

    private static boolean release(org.springframework.core.io.buffer.DataBuffer b) {
        DataBufferUtils.release(b);
        return false;
    }
}
