package io.cfslab.api;

import java.util.ArrayList;
import java.util.List;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.accept.HeaderContentTypeResolver;
import org.springframework.web.reactive.accept.RequestedContentTypeResolver;
import org.springframework.web.reactive.accept.RequestedContentTypeResolverBuilder;
import org.springframework.web.reactive.config.WebFluxConfigurer;
import org.springframework.web.server.ServerWebExchange;

/**
 * The media types an API request accepts, for Spring's content negotiation of every operation: as its {@code Accept}
 * header says, except that a range with {@code q=0} refuses what it names (RFC 9110 12.4.2: "not acceptable"), which
 * Spring's own header resolver ignores ({@code Accept: application/json;q=0} got JSON; a breaker's finding). When the
 * header has such a range, the request accepts exactly those of the API's types ({@link #API_TYPES}) that
 * {@link AcceptNegotiation} finds acceptable, best first; none: a type no operation writes, so Spring answers 406.
 * Pages and everything outside {@code /api} keep Spring's resolver.
 */
@Configuration(proxyBeanMethods = false)
public class RefusingAcceptResolver implements WebFluxConfigurer, RequestedContentTypeResolver {
    /** The types API operations write. */
    static final List<MediaType> API_TYPES = List.of(MediaType.APPLICATION_JSON, MediaType.TEXT_PLAIN,
            MediaType.TEXT_EVENT_STREAM);
    /** Accepted when nothing else is: no operation writes it. */
    static final MediaType NOTHING = new MediaType("application", "x-cfslab-nothing-acceptable");

    private final HeaderContentTypeResolver spring = new HeaderContentTypeResolver();

    @Override
    public void configureContentTypeResolver(RequestedContentTypeResolverBuilder builder) {
        builder.resolver(this);
    }

    @Override
    public List<MediaType> resolveMediaTypes(ServerWebExchange exchange) {
        List<MediaType> requested = spring.resolveMediaTypes(exchange);
        String path = exchange.getRequest().getPath().value();
        if (!path.startsWith("/api/") || requested.stream().noneMatch(t -> t.getQualityValue() == 0)) return requested;
        String accept = String.join(",", exchange.getRequest().getHeaders().getOrEmpty(HttpHeaders.ACCEPT));
        List<MediaType> left = new ArrayList<>(API_TYPES);
        List<MediaType> accepted = new ArrayList<>();
        while (!left.isEmpty()) {
            MediaType best;
            try {
                best = AcceptNegotiation.best(accept, left);
            } catch (ApiException | InvalidMediaTypeException none) {
                break;
            }
            accepted.add(best);
            left.remove(best);
        }
        return accepted.isEmpty() ? List.of(NOTHING) : accepted;
    }
}
