package io.cfslab.api;

import org.reactivestreams.Publisher;
import org.springframework.core.annotation.Order;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Conditional reads, one rule for every API resource (breaker5 F10, breaker6 F4), decided on the answer, not before
 * the handler, so that a missing resource stays 404 (RFC 9110 13.2.2 order: If-Match first, then If-None-Match):
 * <ul>
 *   <li>{@code If-Match} (RFC 9110 13.1.1) on a {@code GET}/{@code HEAD} whose answer would be 2xx: {@code *} holds
 *       (the resource exists); a list holds only if it names the answer's {@code ETag} (strong comparison); a
 *       resource answered without an {@code ETag} (a run's or an experiment's {@code /result}, {@code /table}, …) has
 *       no current tag a list can name, so the list is false: 412, with no body of the resource.</li>
 *   <li>{@code If-None-Match} (13.1.2): {@code *} on an existing resource, or a list naming its {@code ETag} (weak
 *       comparison): 304 Not Modified with that {@code ETag} (if any) and no body; a scenario's parts answered 200 to
 *       a matching tag, and a scenario to {@code *}, and the reads below a run or an experiment to either.</li>
 * </ul>
 * The header's syntax is {@link ConditionalSyntaxFilter}'s.
 */
@Component
@Order(-39) // after ConditionalSyntaxFilter (-40)
public class NotModifiedFilter implements WebFilter {
    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        var request = exchange.getRequest();
        // null: not sent; "" or ",": a list of no tag (If-Match false, If-None-Match true; breaker 8 F6)
        String ifNoneMatch = joined(request.getHeaders().get(HttpHeaders.IF_NONE_MATCH));
        String ifMatch = joined(request.getHeaders().get(HttpHeaders.IF_MATCH));
        if ((ifNoneMatch == null && ifMatch == null) || !request.getPath().value().startsWith("/api/")
                || !(request.getMethod() == HttpMethod.GET || request.getMethod() == HttpMethod.HEAD)) {
            return chain.filter(exchange);
        }
        var response = new ServerHttpResponseDecorator(exchange.getResponse()) {
            @Override
            public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
                if (exists(this) && AcceptChecked.refuses(exchange, getHeaders().getContentType())) {
                    // RFC 9110 13.2.1: the conditions are evaluated only for an answer that would be 2xx; one the
                    // client's Accept refuses is 406 (AcceptChecked), whatever they say (breaker 8 F3: a 304 or 412)
                    return super.writeWith(body);
                }
                String failed = ifMatchFails(this, ifMatch);
                if (failed != null) {
                    getHeaders().remove(HttpHeaders.CONTENT_LENGTH);
                    return dropped(this, body).then(ProblemHandler.write(exchange,
                            ProblemHandler.problem(HttpStatus.PRECONDITION_FAILED, "Precondition failed",
                                    java.util.List.of(new FieldProblem("/id", failed, null)), exchange)));
                }
                if (!notModified(this, ifNoneMatch)) return super.writeWith(body);
                Mono<Void> drop = dropped(this, body); // on the answer's type, before it is removed
                setStatusCode(HttpStatus.NOT_MODIFIED);
                getHeaders().remove(HttpHeaders.CONTENT_TYPE);
                getHeaders().remove(HttpHeaders.CONTENT_LENGTH);
                return drop.then(getDelegate().setComplete());
            }
        };
        return chain.filter(new OneDecider(exchange.mutate().response(response).build()));
    }

    /**
     * The exchange as the handlers see it: Spring's own conditional check ({@code ResponseEntityResultHandler} calls
     * {@code checkNotModified} on an answer with an {@code ETag}) is switched off, so that this filter alone decides,
     * on the answer, with the {@code Accept} judged first (breaker 9 F19: an {@code If-None-Match} naming the current
     * tag was 304 before the 406 of a refused {@code Accept} could be written; only {@code *} reached this filter).
     */
    private static final class OneDecider extends org.springframework.web.server.ServerWebExchangeDecorator {
        OneDecider(ServerWebExchange delegate) { super(delegate); }
        @Override public boolean checkNotModified(java.time.Instant lastModified) { return false; }
        @Override public boolean checkNotModified(String etag) { return false; }
        @Override public boolean checkNotModified(String etag, java.time.Instant lastModified) { return false; }
    }

    /**
     * The answer's body, dropped: a finite one read and released (a pre-made buffer must not leak), a stream never
     * subscribed (breaker 7 N2: {@code GET /api/runs/{id}/events} with a false {@code If-Match} was drained until the
     * run ended, a held connection with no status line for minutes, then 412). The conditions are decided when the
     * handler starts writing, on the status and {@code ETag} it set, so a stream's are decided before its first event.
     */
    private static Mono<Void> dropped(ServerHttpResponseDecorator response, Publisher<? extends DataBuffer> body) {
        var type = response.getHeaders().getContentType();
        boolean stream = type != null && (MediaType.TEXT_EVENT_STREAM.isCompatibleWith(type)
                || MediaType.APPLICATION_NDJSON.isCompatibleWith(type));
        return stream ? Mono.empty() : Flux.from(body).doOnNext(DataBufferUtils::release).then();
    }

    /** Whether the answer is a 2xx: a representation exists, so the conditions apply to it. */
    private static boolean exists(ServerHttpResponseDecorator response) {
        var status = response.getStatusCode();
        return status == null || status.is2xxSuccessful();
    }

    /** The reason {@code If-Match} is false for this answer, or null if it holds (or does not apply). */
    private static String ifMatchFails(ServerHttpResponseDecorator response, String ifMatch) {
        if (ifMatch == null || !exists(response) || ifMatch.strip().equals("*")) return null;
        String etag = response.getHeaders().getETag();
        if (Preconditions.noTag(ifMatch)) {
            return "If-Match is a list of no entity-tag, so no tag can match (RFC 9110 13.1.1); send If-Match: * or none";
        }
        if (etag == null) {
            return "If-Match " + Preconditions.shown(ifMatch.strip()) + " names a tag, but this resource has none"
                    + " (it answers no ETag), so no tag can match (RFC 9110 13.1.1); send If-Match: * or none";
        }
        if (Preconditions.matchesStrongly(ifMatch, etag)) return null;
        return "If-Match " + Preconditions.shown(ifMatch.strip()) + " does not match the current tag " + etag;
    }

    private static String joined(java.util.List<String> values) {
        return values == null || values.isEmpty() ? null : String.join(",", values);
    }

    private static boolean notModified(ServerHttpResponseDecorator response, String ifNoneMatch) {
        if (ifNoneMatch == null) return false;
        var status = response.getStatusCode();
        if (status != null && status.value() != 200) return false;
        if (ifNoneMatch.strip().equals("*")) return true;
        String etag = response.getHeaders().getETag();
        if (etag == null) return false;
        return Preconditions.matchesWeakly(ifNoneMatch, etag.startsWith("W/") ? etag.substring(2) : etag);
    }
}
