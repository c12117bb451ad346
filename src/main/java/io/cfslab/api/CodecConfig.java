package io.cfslab.api;

import org.springframework.context.annotation.Configuration;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.web.reactive.config.WebFluxConfigurer;

/**
 * Request bodies read as text ({@code @RequestBody String}) are decoded strictly ({@link StrictStringDecoder}),
 * within the codecs' {@code spring.http.codecs.max-in-memory-size} like every other body.
 */
@Configuration(proxyBeanMethods = false)
public class CodecConfig implements WebFluxConfigurer {
    @Override
    public void configureHttpMessageCodecs(ServerCodecConfigurer configurer) {
        configurer.customCodecs().registerWithDefaultConfig(new StrictStringDecoder());
    }
}
