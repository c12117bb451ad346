package io.cfslab.api;

import io.netty.channel.EventLoop;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.HttpHandlerDecoratorFactory;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.Connection;

/**
 * Two rules for every request (page, API, actuator), applied around the whole of WebFlux's handling:
 * <ol>
 *   <li><b>A body arrives within a bounded time.</b> A request body must have arrived in full within
 *       {@code cfslab.http.body-timeout} (default 10 s: 4 MB, the largest body taken, at 400 KB/s) of the request's
 *       start; a client that stalls or trickles gets 408 {@code ETIMEDOUT} (and its connection closes) instead of
 *       holding the connection open for ever. The time left is never less than {@value #MIN_LEFT_MS} ms when the
 *       service starts reading, so that a loaded service reading late does not blame a client that sent long ago.</li>
 *   <li><b>An exchange starts in a task of its own</b> on its connection's event loop, never inside the task that
 *       read the request. Why: Reactor Netty 1.3.6 holds back a keep-alive request that arrives before the previous
 *       exchange has completed, together with its end-of-request marker (every request has one, with a body or
 *       not), and dispatches it later from that queue. When its answer was written at once, inside that dispatch
 *       (an {@code OPTIONS}, the OpenAPI document, the ready-made experiments: anything answered on the event loop
 *       without a database read), the marker was still queued, Reactor Netty scheduled one more dispatch that found
 *       the queue empty, and nothing asked the connection to read again: the client's next request on it got no
 *       answer at all (reactor-netty issues 4347 and 4361, fixed after 1.3.8, the newest release that resolves
 *       here). ApiFuzzTest lost about one request in 3,000 so once nothing on the way hopped to another thread (a
 *       session lookup did, on every request, until commit 1bf36a2). Started in a later task, the exchange answers
 *       after the dispatch has taken the marker. Cost: one event-loop task per request, no thread switch.
 *       {@code KeepAliveAfterUnreadBodyTest} sends such request pairs.</li>
 *   <li><b>A request Netty has already answered is not answered twice.</b> A body that Netty cannot decode (a
 *       malformed chunk size, a chunk over the limits) is answered by Reactor Netty itself, 400 with an empty body,
 *       and its connection closed, while the exchange goes on with the body cut short. The service's own answer to
 *       it (422 "empty body", say) then failed with "Status and headers already sent", which WebFlux logged at ERROR
 *       as a 500 and counted as a 500 in {@code http.server.requests}, though the client got 400 (a breaker's
 *       finding). {@link AnsweredByNetty} drops that second answer, reports 400 (what the client got) to the
 *       metrics, and logs the client's error at DEBUG ({@code io.cfslab.api.disconnected}).</li>
 * </ol>
 * Size limits are {@link RequestSizeFilter}'s; large bodies' slots and their own deadline {@link LargeBodyGate}'s.
 */
@Component
public class WholeRequestDecorator implements HttpHandlerDecoratorFactory {
    /** Least time a body is given once the service starts reading it, ms. */
    static final long MIN_LEFT_MS = 1000;

    private final Duration bodyTimeout;

    public WholeRequestDecorator(@Value("${cfslab.http.body-timeout:10s}") Duration bodyTimeout) {
        this.bodyTimeout = bodyTimeout;
    }

    @Override
    public HttpHandler apply(HttpHandler handler) {
        return (request, response) -> inALaterTask(request,
                Mono.defer(() -> handler.handle(new TimedRequest(request, bodyTimeout), new AnsweredByNetty(request, response))));
    }

    /** {@code exchange}, subscribed to in a later task of the request's event loop (see the class comment). */
    static Mono<Void> inALaterTask(ServerHttpRequest request, Mono<Void> exchange) {
        if (!(ServerHttpRequestDecorator.getNativeRequest(request) instanceof Connection c)) return exchange;
        EventLoop loop = c.channel().eventLoop();
        return Mono.<Void>create(sink -> {
            try {
                loop.execute(sink::success);
            } catch (RejectedExecutionException shuttingDown) {
                sink.success();
            }
        }).then(exchange);
    }

    /**
     * The response of an exchange, unless Reactor Netty has already answered its request itself (a body it could not
     * decode): then nothing more is written, and the status is 400, what the client got.
     */
    static final class AnsweredByNetty extends org.springframework.http.server.reactive.ServerHttpResponseDecorator {
        private final Object nativeRequest;
        private volatile boolean byNetty;

        AnsweredByNetty(ServerHttpRequest request, org.springframework.http.server.reactive.ServerHttpResponse response) {
            super(response);
            this.nativeRequest = ServerHttpRequestDecorator.getNativeRequest(request);
        }

        /** Whether Netty sent an answer before this exchange wrote any: checked when the exchange starts writing. */
        private boolean answeredByNetty() {
            if (!byNetty && !getDelegate().isCommitted()
                    && nativeRequest instanceof reactor.netty.http.server.HttpServerResponse r && r.hasSentHeaders()) {
                byNetty = true;
                ProblemHandler.DISCONNECTED_LOG.debug("{}: Netty answered 400 itself (a request body it could not"
                        + " decode); the service's own answer is dropped", r.fullPath());
            }
            return byNetty;
        }

        @Override
        public org.springframework.http.HttpStatusCode getStatusCode() {
            return byNetty ? HttpStatus.BAD_REQUEST : super.getStatusCode();
        }

        @Override
        public boolean setStatusCode(org.springframework.http.HttpStatusCode status) {
            return !byNetty && super.setStatusCode(status);
        }

        @Override
        public Mono<Void> writeWith(org.reactivestreams.Publisher<? extends DataBuffer> body) {
            if (answeredByNetty()) return Flux.from(body).doOnNext(org.springframework.core.io.buffer.DataBufferUtils::release).then();
            return super.writeWith(body);
        }

        @Override
        public Mono<Void> writeAndFlushWith(org.reactivestreams.Publisher<? extends org.reactivestreams.Publisher<? extends DataBuffer>> body) {
            if (answeredByNetty()) {
                return Flux.from(body).concatMap(Flux::from).doOnNext(org.springframework.core.io.buffer.DataBufferUtils::release).then();
            }
            return super.writeAndFlushWith(body);
        }

        @Override
        public Mono<Void> setComplete() {
            if (answeredByNetty()) return Mono.empty();
            return super.setComplete();
        }
    }

    /** The request whose body must arrive within the deadline, counted from the request's start. */
    static final class TimedRequest extends ServerHttpRequestDecorator {
        private final long deadlineNanos;
        private final Duration timeout;

        TimedRequest(ServerHttpRequest request, Duration timeout) {
            super(request);
            this.timeout = timeout;
            this.deadlineNanos = System.nanoTime() + timeout.toNanos();
        }

        @Override
        public Flux<DataBuffer> getBody() {
            return super.getBody()
                    .timeout(Mono.defer(() -> Mono.delay(left())), chunk -> Mono.delay(left()))
                    .onErrorMap(TimeoutException.class, e -> ApiException.of(HttpStatus.REQUEST_TIMEOUT,
                            "Request body too slow", "", "the body did not arrive within " + timeout.toMillis()
                                    + " ms of the request (cfslab.http.body-timeout)", "ETIMEDOUT"));
        }

        private Duration left() {
            return Duration.ofNanos(Math.max(MIN_LEFT_MS * 1_000_000, deadlineNanos - System.nanoTime()));
        }
    }
}
