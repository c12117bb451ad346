package io.cfslab.api;

import java.util.List;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.util.unit.DataSize;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Refuses, before anything reads them, requests larger than the service takes:
 * <ul>
 *   <li>a body whose {@code Content-Length} exceeds the codecs' limit ({@code spring.http.codecs.max-in-memory-size},
 *       4 MB): 413 at once, before any of it is parsed or kept. A client that sent {@code Expect: 100-continue}
 *       never sends it; otherwise the rest is read and dropped chunk by chunk while the answer goes out (up to
 *       {@value #MAX_DRAIN_BYTES} bytes, and the connection stays usable; beyond, it closes unread).
 *       A body without a length (chunked) is cut by the codec at the same limit, also 413.</li>
 *   <li>(more than two large bodies at once are {@link LargeBodyGate}'s: after authentication)</li>
 *   <li>header fields of more than {@value #MAX_HEADER_BYTES} bytes in all: 431. Netty accepts up to
 *       {@code server.max-http-request-header-size} (64 KB) so that such requests get here with a problem
 *       body; beyond that Netty itself answers a bare 431.</li>
 * </ul>
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1) // after CloseAfterErrorFilter, before RequestTargetFilter and security
public class RequestSizeFilter implements WebFilter {
    /** Largest header section the application reads (names, values, ": " and line ends). */
    public static final int MAX_HEADER_BYTES = 16 * 1024;

    private final long maxBodyBytes;

    public RequestSizeFilter(@Value("${spring.http.codecs.max-in-memory-size:4MB}") DataSize maxBody) {
        this.maxBodyBytes = maxBody.toBytes();
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        HttpHeaders headers = exchange.getRequest().getHeaders();
        long headerBytes = 0;
        for (var e : headers.headerSet()) {
            for (String v : e.getValue()) headerBytes += e.getKey().length() + v.length() + 4;
        }
        if (headerBytes > MAX_HEADER_BYTES) {
            return refuse(exchange, HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, "Request header fields too large",
                    new FieldProblem("/headers", "header fields of " + headerBytes + " bytes exceed the limit of "
                            + MAX_HEADER_BYTES + " bytes", "E2BIG"));
        }
        long length = headers.getContentLength();
        if (length > maxBodyBytes) {
            FieldProblem tooLarge = new FieldProblem("", "a body of " + length + " bytes exceeds the limit of "
                    + maxBodyBytes + " bytes (spring.http.codecs.max-in-memory-size)", "EFBIG");
            boolean waitsForContinue = "100-continue".equalsIgnoreCase(headers.getFirst(HttpHeaders.EXPECT));
            if (waitsForContinue || length > MAX_DRAIN_BYTES) { // body never sent / too much to read: close
                return refuse(exchange, HttpStatus.CONTENT_TOO_LARGE, "Content too large", tooLarge);
            }
            return answerWhileDraining(exchange, HttpStatus.CONTENT_TOO_LARGE, "Content too large", tooLarge);
        }
        return chain.filter(exchange);
    }

    /** Beyond this a refused body is not read at all: the connection closes (the client may see a reset). */
    static final long MAX_DRAIN_BYTES = CloseAfterErrorFilter.MAX_DRAIN_BYTES;

    /**
     * Answers at once and reads the rest of the body meanwhile, dropping each chunk as it arrives (nothing is
     * kept; at most {@link CloseAfterErrorFilter#MAX_DRAIN_BYTES}). The connection stays open: closed right
     * after the answer, it would reset a client that is still sending, and that client would never read it.
     */
    private static Mono<Void> answerWhileDraining(ServerWebExchange exchange, HttpStatus status, String title,
                                                  FieldProblem p) {
        exchange.getAttributes().put(CloseAfterErrorFilter.BODY_DRAINED, Boolean.TRUE);
        Mono<Void> answer = ProblemHandler.write(exchange, ProblemHandler.problem(status, title, List.of(p), exchange));
        return Mono.when(answer, ProblemHandler.afterBody(exchange, Mono.empty()));
    }

    /**
     * Answers once the body, if any, is read and dropped (a 413 that is sent this way was never sent: its body
     * was not read, see above), and closes the connection.
     */
    private static Mono<Void> refuse(ServerWebExchange exchange, HttpStatus status, String title, FieldProblem p) {
        return refuseAndClose(exchange, status, title, p, status == HttpStatus.CONTENT_TOO_LARGE);
    }

    /**
     * Answers with {@code Connection: close}: once the body is read and dropped (at most
     * {@link CloseAfterErrorFilter#MAX_DRAIN_BYTES}), or at once when it will never be sent ({@code unsent}: the
     * client waits for a 100 Continue, or a 413 whose body is not read).
     */
    static Mono<Void> refuseAndClose(ServerWebExchange exchange, HttpStatus status, String title, FieldProblem p,
                                     boolean unsent) {
        exchange.getResponse().getHeaders().set(HttpHeaders.CONNECTION, "close");
        Mono<Void> answer = Mono.defer(() -> ProblemHandler.write(exchange, ProblemHandler.problem(status, title, List.of(p),
                exchange)));
        return unsent ? answer : ProblemHandler.afterBody(exchange, answer);
    }
}
