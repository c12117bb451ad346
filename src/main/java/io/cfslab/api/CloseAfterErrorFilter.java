package io.cfslab.api;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
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
 * Netty's client). Its cause, found since: a keep-alive request that Reactor Netty held back and then answered
 * at once left the connection unread; {@link WholeRequestDecorator} fixes that for every answer, and closing here stays
 * as cheap insurance).
 * Refusals are rare, so a new connection after one costs nothing that matters. Not when pipelined requests
 * already wait behind the refused one on the connection: they would go unanswered ({@link PipelinedClose}). Every refusal reads and drops
 * an unread request body before it answers ({@link ProblemHandler#afterBody}), so that closing the connection
 * does not reset a client that is still sending.
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

    /** Most of an unread request body that a refusal reads (and drops) before it answers ({@link ProblemHandler#afterBody}). */
    static final long MAX_DRAIN_BYTES = 16L << 20;

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!exchange.getRequest().getPath().value().startsWith("/api")) return chain.filter(exchange);
        var response = exchange.getResponse();
        response.beforeCommit(() -> {
            var status = response.getStatusCode();
            if (status != null && status.value() >= 400 && exchange.getAttribute(BODY_DRAINED) == null
                    && !laterRequestsWait(exchange)) {
                response.getHeaders().set(HttpHeaders.CONNECTION, "close");
            }
            return Mono.empty();
        });
        return chain.filter(exchange);
    }

    /**
     * Whether pipelined requests already wait behind this one on its connection ({@link PipelinedClose}): closing
     * would leave them unanswered, so the connection stays open for them.
     */
    private static boolean laterRequestsWait(ServerWebExchange exchange) {
        return org.springframework.http.server.reactive.ServerHttpRequestDecorator.getNativeRequest(exchange.getRequest())
                instanceof reactor.netty.Connection c && PipelinedClose.requestsWaiting(c.channel()) > 0;
    }
}
