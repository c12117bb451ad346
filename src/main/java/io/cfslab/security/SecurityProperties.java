package io.cfslab.security;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code cfslab.security.*}.
 *
 * @param token the shared token (environment {@code CFSLAB_SECURITY_TOKEN}); blank or absent = no
 *              authentication at all, as for a service that listens on 127.0.0.1 only. When set, every
 *              {@code /api} request carries {@code Authorization: Bearer <token>} (or the session cookie of a
 *              browser that signed in at {@code /login} with it).
 */
@ConfigurationProperties("cfslab.security")
public record SecurityProperties(String token) {

    /** @return true if a token is configured */
    public boolean enabled() { return enabled(token); }

    static boolean enabled(String token) { return token != null && !token.isBlank(); }
}
