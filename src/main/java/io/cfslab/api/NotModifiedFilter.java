package io.cfslab.api;

import org.reactivestreams.Publisher;
import org.springframework.core.annotation.Order;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Conditional reads, one rule for every API resource with an {@code ETag} (breaker5 F10): a {@code GET}/{@code HEAD}
 * whose answer would be 200 with an {@code ETag} answers 304 Not Modified, with that {@code ETag} and no body, when
 * {@code If-None-Match} is {@code *} or lists that tag (weak comparison, RFC 9110 13.1.2). Decided on the answer, not
 * before the handler, so that a missing resource stays 404 and a stale {@code If-Match} 412 (RFC 9110 13.2.2 order:
 * If-Match first); a scenario's parts (its cgroups, tasks, timeline, files) answered 200 to a matching tag, and a
 * scenario to {@code *}. The header's syntax is {@link ConditionalSyntaxFilter}'s.
 */
@Component
@Order(-39) // after ConditionalSyntaxFilter (-40)
public class NotModifiedFilter implements WebFilter {
    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        var request = exchange.getRequest();
        String ifNoneMatch = String.join(",", request.getHeaders().getOrEmpty(HttpHeaders.IF_NONE_MATCH));
        if (ifNoneMatch.isBlank() || !request.getPath().value().startsWith("/api/")
                || !(request.getMethod() == HttpMethod.GET || request.getMethod() == HttpMethod.HEAD)) {
            return chain.filter(exchange);
        }
        var response = new ServerHttpResponseDecorator(exchange.getResponse()) {
            @Override
            public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
                if (!notModified(this, ifNoneMatch)) return super.writeWith(body);
                setStatusCode(HttpStatus.NOT_MODIFIED);
                getHeaders().remove(HttpHeaders.CONTENT_TYPE);
                getHeaders().remove(HttpHeaders.CONTENT_LENGTH);
                return Flux.from(body).doOnNext(DataBufferUtils::release).then(getDelegate().setComplete());
            }
        };
        return chain.filter(exchange.mutate().response(response).build());
    }

    private static boolean notModified(ServerHttpResponseDecorator response, String ifNoneMatch) {
        var status = response.getStatusCode();
        String etag = response.getHeaders().getETag();
        if (etag == null || (status != null && status.value() != 200)) return false;
        if (ifNoneMatch.strip().equals("*")) return true;
        return Preconditions.matchesWeakly(ifNoneMatch, etag.startsWith("W/") ? etag.substring(2) : etag);
    }
}
