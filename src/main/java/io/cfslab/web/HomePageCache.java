package io.cfslab.web;

import io.cfslab.security.SecurityProperties;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.result.view.View;
import org.springframework.web.reactive.result.view.ViewResolver;
import org.reactivestreams.Publisher;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The home page's HTML, rendered by Thymeleaf once for each list of scenarios and kept until the list changes.
 *
 * <p>Why: the home page was the dearest request of the dashboard's mix (3.9 ms of CPU against 0.6–1.2 ms for the API
 * calls, 2026-11-30, docs/benchmarks.md "API under load"), nearly all of it Thymeleaf walking 70 rows of fragments, and
 * the page changes only when a scenario is stored, renamed or deleted. The key is everything the page is made of: the
 * scenario rows and the ready-made experiments (the runs and experiments tables are filled by the page's script).
 * With a token ({@code cfslab.security.token}) nothing is cached: the page then carries the session's CSRF token.
 */
@Component
class HomePageCache {
    private final ViewResolver views;
    private final boolean enabled;
    private final AtomicReference<Entry> last = new AtomicReference<>();

    private record Entry(Object key, byte[] html, MediaType type) { }

    HomePageCache(org.thymeleaf.spring6.view.reactive.ThymeleafReactiveViewResolver views, SecurityProperties security) {
        this.views = views;
        this.enabled = !security.enabled();
    }

    /**
     * The view for template {@code name} whose output is the same for the same {@code key}.
     *
     * @param key the page's content (records with value equality)
     */
    Mono<View> view(String name, Object key) {
        return views.resolveViewName(name, Locale.ROOT).map(view -> enabled ? new Cached(view, key) : view);
    }

    private final class Cached implements View {
        private final View rendering;
        private final Object key;

        Cached(View rendering, Object key) {
            this.rendering = rendering;
            this.key = key;
        }

        @Override
        public List<MediaType> getSupportedMediaTypes() { return rendering.getSupportedMediaTypes(); }

        @Override
        public Mono<Void> render(Map<String, ?> model, MediaType contentType, ServerWebExchange exchange) {
            Entry e = last.get();
            var response = exchange.getResponse();
            if (e != null && e.key().equals(key)) {
                response.getHeaders().setContentType(e.type());
                response.getHeaders().setContentLength(e.html().length);
                return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(e.html())));
            }
            ServerHttpResponseDecorator keep = new ServerHttpResponseDecorator(response) {
                @Override
                public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
                    return DataBufferUtils.join(Flux.from(body)).flatMap(joined -> {
                        byte[] html = new byte[joined.readableByteCount()];
                        joined.read(html);
                        DataBufferUtils.release(joined);
                        MediaType type = getHeaders().getContentType();
                        if (type != null && getStatusCode() != null && getStatusCode().is2xxSuccessful()) {
                            last.set(new Entry(key, html, type));
                        }
                        return super.writeWith(Mono.fromSupplier(() -> bufferFactory().wrap(html)));
                    });
                }
            };
            return rendering.render(model, contentType, exchange.mutate().response(keep).build());
        }
    }
}
