package io.cfslab.api;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.reactivestreams.Publisher;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Content negotiation of every read under {@code /api} ({@code GET}, {@code HEAD}) as RFC 9110 §12.5.1 means it, in
 * one place, after the operation has found its resource: the type the answer is written in must be one that the
 * client's {@code Accept} takes, q-values included ({@link AcceptNegotiation}): {@code application/json;q=0}, or
 * {@code text/*} alone, is 406 for a JSON answer; {@code text/*, *}{@code /*;q=0.1} gets the JSON; {@code text/*}
 * gets the {@code text/plain} of an operation that has one.
 *
 * <p>Order: an unknown id is 404 whatever the {@code Accept} (a refusal is a problem whatever it says: statuses of
 * 400 and above are not negotiated), and 406 comes only for a resource that exists. RFC 9110 §15.5.7 leaves the
 * order of the checks to the server; answering 404 first tells a client with an odd Accept what is actually wrong.
 * How: Spring's own negotiation took a {@code q=0} range as acceptable, ordered ranges by specificity before q-value
 * ({@code text/*;q=0.5, application/json} got an event stream of the JSON) and refused in its request mapping, before
 * the operation ran, for an operation with {@code produces}. So Spring sees {@code application/json, *}{@code /*;q=0.0001}
 * (JSON for a value, an operation's own type otherwise, never a refusal), the operations that offer text choose
 * between it and JSON by the client's header ({@link #CLIENT_ACCEPT}, {@link AcceptNegotiation#choose}), and the
 * answer's first write is checked against the client's header: an unacceptable answer is dropped and replaced by the
 * 406 problem, naming the types the operation offers. Writes are checked
 * before they run ({@link RequestTargetFilter}): their 406 comes before anything is stored, so before a 404.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 3) // after RequestTargetFilter, which drops an unparseable Accept and problem+json
public class AcceptChecked implements WebFilter {
    /** What Spring's negotiation sees: JSON, else whatever the operation writes (q lower than any a client writes). */
    static final String SPRING_SEES = "application/json, */*;q=0.0001";
    /** Exchange attribute: the client's own {@code Accept}, for an operation that chooses between types itself. */
    public static final String CLIENT_ACCEPT = "io.cfslab.api.AcceptChecked.accept";

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        var request = exchange.getRequest();
        HttpMethod method = request.getMethod();
        List<String> header = request.getHeaders().getOrEmpty(HttpHeaders.ACCEPT);
        if ((method != HttpMethod.GET && method != HttpMethod.HEAD) || !request.getPath().value().startsWith("/api/")
                || header.isEmpty()) {
            return chain.filter(exchange);
        }
        String accept = String.join(",", header);
        try {
            MediaType.parseMediaTypes(accept);
        } catch (InvalidMediaTypeException e) {
            return chain.filter(exchange); // RequestTargetFilter drops these before
        }
        Checked response = new Checked(exchange, accept);
        ServerWebExchange checked = exchange.mutate()
                .request(r -> r.headers(h -> h.set(HttpHeaders.ACCEPT, SPRING_SEES)))
                .response(response).build();
        checked.getAttributes().put(CLIENT_ACCEPT, accept);
        response.exchange = checked;
        return chain.filter(checked);
    }

    /**
     * Whether the client's {@code Accept}, as this filter kept it ({@link #CLIENT_ACCEPT}), refuses an answer of
     * {@code type}: such an answer becomes the 406, so the conditions of a read are not evaluated on it
     * ({@link NotModifiedFilter}, RFC 9110 13.2.1). False when the request had no {@code Accept}.
     */
    static boolean refuses(ServerWebExchange exchange, MediaType type) {
        String accept = exchange.getAttribute(CLIENT_ACCEPT);
        return accept != null && type != null && refuses(accept, type);
    }

    private static boolean refuses(String accept, MediaType type) {
        try {
            AcceptNegotiation.best(accept, List.of(type));
            return false;
        } catch (ApiException notAcceptable) {
            return true;
        }
    }

    /** Checks the answer's type at its first write; a 2xx answer of a type the client refused becomes the 406 problem. */
    private static final class Checked extends ServerHttpResponseDecorator {
        private final String accept;
        private final AtomicBoolean decided = new AtomicBoolean();
        private final ServerWebExchange original;
        ServerWebExchange exchange;

        Checked(ServerWebExchange original, String accept) {
            super(original.getResponse());
            this.original = original;
            this.accept = accept;
        }

        @Override
        public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
            return refused() ? drop(body) : super.writeWith(body);
        }

        @Override
        public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
            return refused() ? drop(Flux.from(body).flatMap(p -> p)) : super.writeAndFlushWith(body);
        }

        /** Whether this answer (its first write decides) is refused by the client's Accept. */
        private boolean refused() {
            if (!decided.compareAndSet(false, true)) return false;
            var status = getStatusCode();
            MediaType type = getHeaders().getContentType();
            if (status != null && !status.is2xxSuccessful() || type == null) return false;
            return refuses(accept, type);
        }

        /** Drops the answer's body (releasing its buffers) and writes the 406 problem instead. */
        private Mono<Void> drop(Publisher<? extends DataBuffer> body) {
            List<MediaType> offered = offered(getHeaders().getContentType());
            HttpHeaders h = getHeaders();
            for (String name : List.of(HttpHeaders.ETAG, HttpHeaders.LAST_MODIFIED, HttpHeaders.CONTENT_LENGTH,
                    HttpHeaders.CONTENT_DISPOSITION, HttpHeaders.LOCATION)) {
                h.remove(name);
            }
            // the first buffer is taken and released, the rest cancelled (never produced: encoders are lazy); not the
            // whole body: an event stream never ends, and one that has nothing yet is not waited for beyond a moment
            return Mono.from(body).doOnNext(DataBufferUtils::release).timeout(java.time.Duration.ofMillis(500), Mono.empty())
                    .onErrorResume(e -> Mono.empty())
                    .then(Mono.defer(() -> ProblemHandler.write(exchange, ProblemHandler.problem(HttpStatus.NOT_ACCEPTABLE,
                            "Not acceptable", List.of(new FieldProblem("/headers/Accept", ProblemHandler.acceptsNoneOf(offered)
                                    + " (Accept: " + accept + ")", "EINVAL")), original))));
        }

        /** The types the operation answers with: its mapping's {@code produces}, else the one it chose. */
        private List<MediaType> offered(MediaType chosen) {
            Object producible = exchange.getAttribute(HandlerMapping.PRODUCIBLE_MEDIA_TYPES_ATTRIBUTE);
            if (producible instanceof Collection<?> c && !c.isEmpty()) {
                return c.stream().filter(MediaType.class::isInstance).map(MediaType.class::cast).toList();
            }
            return List.of(chosen);
        }
    }
}
