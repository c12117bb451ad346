package io.cfslab.api;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import org.springframework.boot.reactor.netty.NettyServerCustomizer;
import org.springframework.stereotype.Component;
import reactor.netty.NettyPipeline;
import reactor.netty.http.server.HttpServer;

/**
 * The status line names the HTTP version this server speaks, not the client's (RFC 9110 §2.5: a server MUST NOT send
 * a version to which it is not conformant; RFC 9112 §2.3: it answers with the highest version it conforms to whose
 * major version is the request's). Reactor Netty echoed the request's version, so {@code GET … HTTP/9.9} was
 * answered {@code HTTP/9.9 404}.
 * <ul>
 *   <li>an HTTP/1.x request of a minor version above 1 ({@code HTTP/1.2}) is answered as HTTP/1.1, which it is
 *       compatible with; HTTP/1.0 and HTTP/1.1 are answered in their own version, as Netty does;</li>
 *   <li>any other major version ({@code HTTP/2.0}, {@code HTTP/3.0}, {@code HTTP/9.9} in an HTTP/1 request line) is
 *       505 (HTTP Version Not Supported, RFC 9110 §15.6.6), a problem naming HTTP/1.1, and the connection closes;
 *       the request never reaches the application.</li>
 * </ul>
 */
@Component
public class HttpVersions implements NettyServerCustomizer {
    @Override
    public HttpServer apply(HttpServer server) {
        return server.doOnChannelInit((observer, channel, remote) -> {
            var p = channel.pipeline();
            if (p.get(NettyPipeline.HttpCodec) == null) return;
            p.addAfter(NettyPipeline.HttpCodec, "cfslab.httpVersions", new Handler());
        });
    }

    /** Per connection, on its event loop. */
    static final class Handler extends ChannelDuplexHandler {
        /** Dropping the rest (body) of a request answered 505. */
        private boolean dropping;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest request) {
                HttpVersion v = request.protocolVersion();
                if (v.majorVersion() != 1) {
                    dropping = true;
                    ReferenceCountUtil.release(msg);
                    unsupported(ctx, request, v);
                    return;
                }
                dropping = false;
            } else if (dropping && msg instanceof HttpContent) {
                ReferenceCountUtil.release(msg);
                return;
            }
            ctx.fireChannelRead(msg);
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof HttpResponse r && r.protocolVersion().majorVersion() == 1 && r.protocolVersion().minorVersion() > 1) {
                r.setProtocolVersion(HttpVersion.HTTP_1_1);
            }
            ctx.write(msg, promise);
        }

        private static void unsupported(ChannelHandlerContext ctx, HttpRequest request, HttpVersion v) {
            String detail = v.text() + " is not supported: this server speaks HTTP/1.1 (and HTTP/1.0)";
            String uri = request.uri();
            String json = "{\"detail\":" + quote(detail) + ",\"instance\":" + quote(uri.length() > 4096 ? "" : uri)
                    + ",\"status\":505,\"title\":\"HTTP version not supported\",\"pointer\":\"/version\",\"errors\":[{"
                    + "\"pointer\":\"/version\",\"reason\":" + quote(detail) + "}]}";
            byte[] body = json.getBytes(StandardCharsets.UTF_8);
            var response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.HTTP_VERSION_NOT_SUPPORTED,
                    Unpooled.wrappedBuffer(body));
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/problem+json")
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, body.length).set(HttpHeaderNames.CONNECTION, "close");
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }

        /** A JSON string of {@code s}. */
        private static String quote(String s) {
            StringBuilder b = new StringBuilder("\"");
            for (char ch : s.toCharArray()) {
                if (ch == '"' || ch == '\\') b.append('\\').append(ch);
                else if (ch < 0x20 || ch > 0x7e) b.append(String.format("\\u%04x", (int) ch));
                else b.append(ch);
            }
            return b.append('"').toString();
        }
    }
}
