package io.cfslab.api;

import io.netty.channel.Channel;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.util.AttributeKey;
import io.netty.util.ReferenceCountUtil;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.stereotype.Component;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

/**
 * Pipelined HTTP/1.1 requests are all answered, in order, when a later one says {@code Connection: close}
 * (RFC 9112 §9.3.2, §9.6: the connection closes after the answer to the request that asked for it, not before).
 *
 * <p>Why: Reactor Netty 1.3.6 (HttpTrafficHandler) keeps one keep-alive flag per connection and sets it from each
 * request as it arrives: a pipelined request with {@code Connection: close} (or an HTTP/1.0 one without
 * keep-alive) that arrived while an earlier one was still being answered made the earlier answer the last, and
 * the connection closed after it with the later requests unanswered (a breaker's finding; the same class as
 * reactor-netty issues 4347/4361, see {@link WholeRequestDecorator}). This pair of handlers lets such a request
 * through as keep-alive and puts {@code Connection: close} on its own answer, after which HttpTrafficHandler closes
 * the connection; anything sent after it is dropped (a client that sent close must send nothing more, §9.6).
 *
 * <p>It also tells {@link CloseAfterErrorFilter} whether later requests already wait on the connection: a refusal
 * then keeps the connection open, so that their answers are not lost ({@link #requestsWaiting}).
 */
@Component
public class PipelinedClose implements NettyServerCustomizer {
    private static final AttributeKey<State> STATE = AttributeKey.valueOf(PipelinedClose.class.getName());

    @Override
    public HttpServer apply(HttpServer server) {
        return server.doOnChannelInit((observer, channel, remote) -> {
            var p = channel.pipeline();
            if (p.get(NettyPipeline.HttpTrafficHandler) == null) return; // not HTTP/1.1 (h2c upgrade handled by Netty)
            State state = new State();
            channel.attr(STATE).set(state);
            p.addBefore(NettyPipeline.HttpTrafficHandler, "cfslab.pipelinedClose.in", new Inbound(state));
            p.addAfter(NettyPipeline.HttpTrafficHandler, "cfslab.pipelinedClose.out", new Outbound(state));
        });
    }

    /**
     * @param channel a server connection
     * @return the number of requests that arrived on it after the one being answered now (pipelined), 0 if none
     *         or unknown
     */
    static int requestsWaiting(Channel channel) {
        State s = channel.attr(STATE).get();
        return s == null ? 0 : Math.max(0, s.requests - s.responses - 1);
    }

    /** Per connection; touched on its event loop only (read elsewhere as a hint). */
    static final class State {
        /** Requests that arrived, answers that started (non-informational). */
        volatile int requests, responses;
        /** The number of the request that asked to close (1-based), 0 if none. */
        int closeAt;
        /** Everything after the request that asked to close is dropped. */
        boolean closing;
    }

    /** Before HttpTrafficHandler: counts requests, lets a pipelined close through as keep-alive, drops what follows it. */
    static final class Inbound extends ChannelInboundHandlerAdapter {
        private final State s;
        private boolean dropping;

        Inbound(State s) { this.s = s; }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest request) {
                if (s.closing) {
                    dropping = true;
                    ReferenceCountUtil.release(msg);
                    return;
                }
                s.requests++;
                if (!HttpUtil.isKeepAlive(request) && s.requests - s.responses > 1) {
                    // earlier answers still owed: keep the connection until this one's answer (Outbound)
                    s.closeAt = s.requests;
                    s.closing = true;
                    HttpUtil.setKeepAlive(request, true);
                } else if (!HttpUtil.isKeepAlive(request)) {
                    s.closing = true; // HttpTrafficHandler closes after its answer itself
                }
                dropping = false;
            } else if (dropping && msg instanceof HttpContent) {
                ReferenceCountUtil.release(msg);
                return;
            }
            ctx.fireChannelRead(msg);
        }
    }

    /** After HttpTrafficHandler (so its answers reach here first): marks the answer to the closing request. */
    static final class Outbound extends ChannelDuplexHandler {
        private final State s;

        Outbound(State s) { this.s = s; }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
            if (msg instanceof HttpResponse response && response.status().code() >= 200) {
                s.responses++;
                if (s.closeAt != 0 && s.responses >= s.closeAt) HttpUtil.setKeepAlive(response, false);
            }
            super.write(ctx, msg, promise);
        }
    }
}
