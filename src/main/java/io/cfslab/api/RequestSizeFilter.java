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
 *       4 MB): 413 at once, without reading the body (a client that sent {@code Expect: 100-continue} never
 *       sends it); the connection closes. A body without a length (chunked) is cut by the codec at the same
 *       limit, also 413.</li>
 *   <li>header fields of more than {@value #MAX_HEADER_BYTES} bytes in all: 431. Netty accepts up to
 *       {@code server.max-http-request-header-size} (64 KB) so that such requests get here with a problem
 *       body; beyond that Netty itself answers a bare 431.</li>
 * </ul>
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 2) // after CloseAfterErrorFilter and RequestTargetFilter, before security
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
            return refuse(exchange, HttpStatus.CONTENT_TOO_LARGE, "Content too large",
                    new FieldProblem("", "a body of " + length + " bytes exceeds the limit of " + maxBodyBytes
                            + " bytes (spring.http.codecs.max-in-memory-size)", "EFBIG"));
        }
        return chain.filter(exchange);
    }

    /** Answers without reading the body, and closes the connection (the unread body cannot be skipped). */
    private static Mono<Void> refuse(ServerWebExchange exchange, HttpStatus status, String title, FieldProblem p) {
        exchange.getResponse().getHeaders().set(HttpHeaders.CONNECTION, "close");
        var problem = ProblemHandler.problem(status, title, List.of(p), exchange);
        return ProblemHandler.write(exchange, problem);
    }
}
