package io.cfslab.api;

import java.net.URI;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * One reading of a query parameter given without {@code =} ({@code ?a}) on every route, pages and API alike: it is the
 * parameter with an empty value ({@code ?a=}). Spring parses {@code ?a} to a {@code null} value, which code reading
 * the parameters as strings dereferenced (breaker 7 N1: {@code /compare?a} was a 500, a NullPointerException in
 * {@link UuidPathFilter#controlCharacter}). Rewriting the query once, before anything reads it, means no route ever
 * sees a null value: the API then refuses {@code ?a} as it refuses {@code ?a=} (400 "has no value",
 * {@link ListParameters}), and a page answers {@code ?a} as it answers {@code ?a=}.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 5) // after RequestTargetFilter (+2), which refuses malformed percent-encoding
public class ValuelessParameterFilter implements WebFilter {
    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        URI uri = exchange.getRequest().getURI();
        String query = uri.getRawQuery();
        String rewritten = query == null ? null : withValues(query);
        if (rewritten == null || rewritten.equals(query)) return chain.filter(exchange);
        String whole = uri.toString();
        int at = whole.indexOf('?');
        String fragment = uri.getRawFragment();
        URI changed = URI.create(whole.substring(0, at + 1) + rewritten + (fragment == null ? "" : "#" + fragment));
        return chain.filter(exchange.mutate().request(exchange.getRequest().mutate().uri(changed).build()).build());
    }

    /** @return {@code rawQuery} with {@code =} after each non-empty element that has none ({@code a&b=1} as {@code a=&b=1}) */
    static String withValues(String rawQuery) {
        StringBuilder out = new StringBuilder(rawQuery.length() + 4);
        int start = 0;
        while (true) {
            int end = rawQuery.indexOf('&', start);
            String element = rawQuery.substring(start, end < 0 ? rawQuery.length() : end);
            out.append(element);
            if (!element.isEmpty() && element.indexOf('=') < 0) out.append('=');
            if (end < 0) return out.toString();
            out.append('&');
            start = end + 1;
        }
    }
}
