package io.cfslab.api;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeoutException;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.annotation.Order;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * At most {@value #LARGE_PERMITS} writes with bodies over {@value #LARGE_BODY_BYTES} bytes (or of unknown length)
 * are read, parsed and checked at once; the others are refused at once (429, {@code Retry-After: 1}; not a 5xx:
 * nothing is wrong with the service) rather than queued, so that memory stays bounded and every answer is quick.
 * Such a body costs far more memory while it is read, parsed as a tree, validated and stored (about 40 times its
 * size for a scenario of 60,000 task entries) than the bytes themselves, and seconds of CPU.
 *
 * <p>A slot is a scarce thing, so nobody holds one for free:
 * <ul>
 *   <li>this filter runs after Spring Security's chain (order 0, after its -100): when the service has a token, a
 *       request without it is answered 401 before it can take a slot;</li>
 *   <li>a body must arrive within {@code cfslab.http.large-body-timeout} (default 10 s: 4 MB at 400 KB/s) of taking
 *       the slot, in all, not per chunk: a client that stalls or trickles gets 408 and its slot back is given to
 *       the next request.</li>
 * </ul>
 * Size limits that need no slot (413, 431) are {@link RequestSizeFilter}'s, before anything else.
 */
@Component
@Order(0) // after Spring Security's WebFilterChainProxy (-100): authenticated before a slot is taken
public class LargeBodyGate implements WebFilter {
    /** Bodies over this many bytes are "large" (a scenario of a few thousand groups or tasks). */
    static final long LARGE_BODY_BYTES = 256 * 1024;
    /** Large bodies handled at once (about one per core of the 2-core machines this runs on). */
    static final int LARGE_PERMITS = 2;

    private final Semaphore slots = new Semaphore(LARGE_PERMITS);
    private final Duration bodyTimeout;

    public LargeBodyGate(@Value("${cfslab.http.large-body-timeout:10s}") Duration bodyTimeout) {
        this.bodyTimeout = bodyTimeout;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (!large(exchange)) return chain.filter(exchange);
        if (!slots.tryAcquire()) {
            exchange.getResponse().getHeaders().set(HttpHeaders.RETRY_AFTER, "1");
            FieldProblem busy = new FieldProblem("", LARGE_PERMITS + " requests with bodies over " + LARGE_BODY_BYTES / 1024
                    + " KB are being read and checked; try again in a second", "EAGAIN");
            // closed, as every refusal under /api (CloseAfterErrorFilter): the body is read and dropped first, so that
            // closing does not reset a client still sending it; a client that waits for 100 Continue never sends it
            return RequestSizeFilter.refuseAndClose(exchange, HttpStatus.TOO_MANY_REQUESTS, "Busy", busy,
                    "100-continue".equalsIgnoreCase(exchange.getRequest().getHeaders().getFirst(HttpHeaders.EXPECT)));
        }
        ServerWebExchange timed = exchange.mutate().request(new DeadlineRequest(exchange, bodyTimeout)).build();
        return chain.filter(timed).doFinally(signal -> slots.release());
    }

    /** @return the slots free now (tests) */
    int freeSlots() { return slots.availablePermits(); }

    /** A write whose body is over {@value #LARGE_BODY_BYTES} bytes, or of unknown length (chunked). */
    static boolean large(ServerWebExchange exchange) {
        var m = exchange.getRequest().getMethod();
        if (m != HttpMethod.POST && m != HttpMethod.PUT && m != HttpMethod.PATCH) return false;
        long length = exchange.getRequest().getHeaders().getContentLength();
        return length > LARGE_BODY_BYTES
                || length < 0 && exchange.getRequest().getHeaders().containsHeader(HttpHeaders.TRANSFER_ENCODING);
    }

    /** The request whose body must have arrived in full within the deadline, counted from the slot's taking. */
    private static final class DeadlineRequest extends ServerHttpRequestDecorator {
        private final long deadlineNanos;
        private final Duration timeout;

        DeadlineRequest(ServerWebExchange exchange, Duration timeout) {
            super(exchange.getRequest());
            this.timeout = timeout;
            this.deadlineNanos = System.nanoTime() + timeout.toNanos();
        }

        @Override
        public Flux<DataBuffer> getBody() {
            return super.getBody()
                    .timeout(Mono.delay(left()), chunk -> Mono.delay(left()))
                    .onErrorMap(TimeoutException.class, e -> ApiException.of(HttpStatus.REQUEST_TIMEOUT,
                            "Request body too slow", "", "the body did not arrive within " + timeout.toMillis()
                            + " ms (cfslab.http.large-body-timeout); its slot for a large body goes to the next request",
                            "ETIMEDOUT"));
        }

        private Duration left() { return Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime())); }
    }
}
