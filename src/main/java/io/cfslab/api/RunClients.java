package io.cfslab.api;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * Who a run request's "client" is, for the per-client queue bound ({@code cfslab.runs.queue.max-per-client}) and the
 * run's {@code submitted_by}.
 *
 * <p>Not the remote address: on loopback any 127.x.y.z reaches a service bound to 127.0.0.1, so one local caller
 * had as many shares as it cared to use addresses (a breaker's finding: 127.0.0.2 bypassed the bound), and behind a
 * proxy every caller has the proxy's address. The service knows one identity or none:
 * <ul>
 *   <li>with a token ({@code cfslab.security.token}), the holder of the token ({@value #TOKEN_HOLDER}): every request
 *       that reaches a controller carries it (or a session signed in with it), and all of them are that one
 *       holder;</li>
 *   <li>without one, the whole local service ({@value #LOCAL}): whoever can reach it is the same unauthenticated
 *       client, so {@code max-per-client} bounds all their queued runs together.</li>
 * </ul>
 */
@Component
public class RunClients {
    /** The client of every request when a token is set. */
    public static final String TOKEN_HOLDER = "token-holder";
    /** The client of every request without a token. */
    public static final String LOCAL = "local-service";

    private final boolean token;

    /** @param token {@code cfslab.security.token} (read here, not through the security package: api must not depend on it) */
    public RunClients(@Value("${cfslab.security.token:}") String token) {
        this.token = token != null && !token.isBlank();
    }

    /** @return the client every run request of this service counts against */
    public String client() {
        return token ? TOKEN_HOLDER : LOCAL;
    }
}
