package io.cfslab.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.ReactiveAuthenticationManager;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import reactor.core.publisher.Mono;

/**
 * Accepts a credential equal to the shared token (compared in constant time), from a bearer header or the
 * sign-in form alike; the user is always {@value #USER}. A wrong token is a {@link BadCredentialsException}.
 */
final class TokenAuthenticationManager implements ReactiveAuthenticationManager {
    /** The one principal: whoever holds the token. */
    static final String USER = "cfslab";

    private final byte[] token;

    TokenAuthenticationManager(String token) {
        this.token = token.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public Mono<Authentication> authenticate(Authentication authentication) {
        Object credentials = authentication.getCredentials();
        byte[] given = credentials == null ? new byte[0] : credentials.toString().getBytes(StandardCharsets.UTF_8);
        if (!MessageDigest.isEqual(given, token)) {
            return Mono.error(new BadCredentialsException("wrong token"));
        }
        return Mono.just(UsernamePasswordAuthenticationToken.authenticated(USER, null,
                List.of(new SimpleGrantedAuthority("ROLE_USER"))));
    }
}
