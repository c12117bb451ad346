package io.cfslab.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseCookie;
import org.springframework.test.web.reactive.server.EntityExchangeResult;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.web.reactive.function.BodyInserters;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * With {@code cfslab.security.token} set: bearer token or a signed-in session for {@code /api} (401 problem
 * otherwise), the sign-in page for the dashboard, CSRF for session writes, health details only when
 * authenticated.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:token-${random.uuid};DB_CLOSE_DELAY=-1;WRITE_DELAY=0",
        "cfslab.runs.pool-size=1", "cfslab.runs.poll-interval=100ms", "cfslab.live.interval=100ms",
        "cfslab.security.token=" + TokenSecurityTest.TOKEN})
class TokenSecurityTest {
    static final String TOKEN = "t0ken-for-tests";
    static final JsonMapper JSON = JsonMapper.builder().build();

    @LocalServerPort int port;

    WebTestClient web() {
        return WebTestClient.bindToServer().baseUrl("http://127.0.0.1:" + port).responseTimeout(Duration.ofSeconds(30))
                .build();
    }

    static JsonNode problem(WebTestClient.ResponseSpec spec, HttpStatus status) {
        byte[] body = spec.expectStatus().isEqualTo(status)
                .expectHeader().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON)
                .expectBody().returnResult().getResponseBody();
        JsonNode p = JSON.readTree(new String(body, StandardCharsets.UTF_8));
        assertThat(p.path("status").asInt()).isEqualTo(status.value());
        assertThat(p.path("detail").asString()).isNotBlank();
        return p;
    }

    @Test
    void everyApiOperationNeedsTheToken() {
        WebTestClient web = web();
        for (String uri : List.of("/api/scenarios", "/api/runs", "/api/runs/x", "/api/scenarios/e1-one-hog-10pct/cgroups",
                "/api/no-such-route", "/actuator/prometheus")) {
            var spec = web.get().uri(uri).exchange();
            spec.expectHeader().valueEquals(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"cfslab\"");
            assertThat(problem(spec, HttpStatus.UNAUTHORIZED).path("detail").asString()).contains("Authorization: Bearer");
        }
        problem(web.post().uri("/api/scenarios").contentType(MediaType.APPLICATION_JSON).bodyValue("{}").exchange(),
                HttpStatus.UNAUTHORIZED);
        // a client still sending a large body reads its 401 (the unread body is drained, not reset)
        problem(web.post().uri("/api/scenarios").contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"name\": \"" + "x".repeat(3_000_000) + "\"}").exchange(), HttpStatus.UNAUTHORIZED);
        problem(web.get().uri("/api/scenarios").header(HttpHeaders.AUTHORIZATION, "Bearer wrong").exchange(),
                HttpStatus.UNAUTHORIZED);
        problem(web.get().uri("/api/scenarios").header(HttpHeaders.AUTHORIZATION, "Bearer " + TOKEN + "x").exchange(),
                HttpStatus.UNAUTHORIZED);
        // with the token: the API as without security, writes included (no CSRF token needed without a session)
        web.get().uri("/api/scenarios").header(HttpHeaders.AUTHORIZATION, "Bearer " + TOKEN).exchange()
                .expectStatus().isOk();
        web.post().uri("/api/scenarios").header(HttpHeaders.AUTHORIZATION, "Bearer " + TOKEN)
                .contentType(MediaType.APPLICATION_JSON)
                .bodyValue("{\"name\": \"t\", \"duration\": \"200ms\", \"machine\": {\"cpus\": 1}}")
                .exchange().expectStatus().isCreated();
        web.get().uri("/actuator/prometheus").header(HttpHeaders.AUTHORIZATION, "bearer " + TOKEN).exchange()
                .expectStatus().isOk();
    }

    @Test
    void healthIsOpenButItsDetailsNeedTheToken() {
        WebTestClient web = web();
        JsonNode anonymous = JSON.readTree(web.get().uri("/actuator/health").exchange().expectStatus().isOk()
                .expectBody(String.class).returnResult().getResponseBody());
        assertThat(anonymous.path("status").asString()).isEqualTo("UP");
        assertThat(anonymous.has("components")).isFalse();
        JsonNode authenticated = JSON.readTree(web.get().uri("/actuator/health")
                .header(HttpHeaders.AUTHORIZATION, "Bearer " + TOKEN).exchange().expectStatus().isOk()
                .expectBody(String.class).returnResult().getResponseBody());
        assertThat(authenticated.path("components").path("db").path("details").path("database").asString()).isEqualTo("H2");
    }

    @Test
    void theDocumentAndSchemasStayOpen() {
        WebTestClient web = web();
        web.get().uri("/v3/api-docs").exchange().expectStatus().isOk();
        String login = web.get().uri("/login").exchange().expectStatus().isOk().expectBody(String.class).returnResult()
                .getResponseBody();
        assertThat(login).contains("name=\"password\"").doesNotContain("Signed out", "not this service's token");
        assertThat(web.get().uri("/login?error").exchange().expectBody(String.class).returnResult().getResponseBody())
                .contains("not this service's token");
        web.get().uri("/ui/app.js").exchange().expectStatus().isOk();
    }

    /** A browser: pages send it to /login; once signed in, its session cookie carries the API and the event stream. */
    @Test
    void aBrowserSignsInOnceAndThePagesFetchesAndStreamsWork() {
        WebTestClient web = web();
        web.get().uri("/runs/x").accept(MediaType.TEXT_HTML).exchange().expectStatus().isFound()
                .expectHeader().location("/login");
        // the sign-in form, with its CSRF field
        EntityExchangeResult<String> form = web.get().uri("/login").exchange().expectStatus().isOk()
                .expectBody(String.class).returnResult();
        String session = cookie(form, SecurityConfig.SESSION_COOKIE);
        String csrf = match(form.getResponseBody(), "name=\"_csrf\" value=\"([^\"]+)\"");
        // a wrong token goes back to the form with an error
        web.post().uri("/login").cookie(SecurityConfig.SESSION_COOKIE, session)
                .body(BodyInserters.fromFormData("username", "cfslab").with("password", "nope").with("_csrf", csrf))
                .exchange().expectStatus().isFound().expectHeader().location("/login?error");
        // the right one starts a session and returns to the dashboard
        EntityExchangeResult<byte[]> signedIn = web.post().uri("/login").cookie(SecurityConfig.SESSION_COOKIE, session)
                .body(BodyInserters.fromFormData("username", "cfslab").with("password", TOKEN).with("_csrf", csrf))
                .exchange().expectStatus().isFound().expectHeader().location("/").expectBody().returnResult();
        String authenticated = cookie(signedIn, SecurityConfig.SESSION_COOKIE);
        assertThat(authenticated).isNotEqualTo(session); // a new session id after sign-in (no fixation)

        String home = web.get().uri("/").cookie(SecurityConfig.SESSION_COOKIE, authenticated).exchange()
                .expectStatus().isOk().expectBody(String.class).returnResult().getResponseBody();
        String pageToken = match(home, "<meta name=\"_csrf\" content=\"([^\"]+)\"");
        assertThat(home).contains("<meta name=\"_csrf_header\" content=\"X-CSRF-TOKEN\">");

        // reads ride on the cookie; writes need the page's CSRF token as well
        web.get().uri("/api/runs").cookie(SecurityConfig.SESSION_COOKIE, authenticated).exchange().expectStatus().isOk();
        String run = "{\"scenarioId\": \"e1-one-hog-10pct\"}";
        problem(web.post().uri("/api/runs").cookie(SecurityConfig.SESSION_COOKIE, authenticated)
                .contentType(MediaType.APPLICATION_JSON).bodyValue(run).exchange(), HttpStatus.FORBIDDEN);
        URI location = web.post().uri("/api/runs").cookie(SecurityConfig.SESSION_COOKIE, authenticated)
                .header("X-CSRF-TOKEN", pageToken).contentType(MediaType.APPLICATION_JSON).bodyValue(run)
                .exchange().expectStatus().isAccepted().expectBody().returnResult().getResponseHeaders().getLocation();
        // the run page's event stream, on the same cookie, to its end
        List<String> events = web.get().uri(location + "/events").cookie(SecurityConfig.SESSION_COOKIE, authenticated)
                .accept(MediaType.TEXT_EVENT_STREAM).exchange().expectStatus().isOk()
                .returnResult(String.class).getResponseBody().collectList().block(Duration.ofSeconds(60));
        assertThat(String.join("\n", events)).contains("\"status\":\"done\"");

        // signing out ends the session
        web.post().uri("/logout").cookie(SecurityConfig.SESSION_COOKIE, authenticated).header("X-CSRF-TOKEN", pageToken)
                .exchange().expectStatus().isFound().expectHeader().location("/login?logout");
        problem(web.get().uri("/api/runs").cookie(SecurityConfig.SESSION_COOKIE, authenticated).exchange(),
                HttpStatus.UNAUTHORIZED);
    }

    static String cookie(EntityExchangeResult<?> r, String name) {
        ResponseCookie c = r.getResponseCookies().getFirst(name);
        assertThat(c).as("cookie " + name).isNotNull();
        return c.getValue();
    }

    static String match(String text, String regex) {
        Matcher m = Pattern.compile(regex).matcher(text);
        assertThat(m.find()).as(regex + " in " + text).isTrue();
        return m.group(1);
    }
}
