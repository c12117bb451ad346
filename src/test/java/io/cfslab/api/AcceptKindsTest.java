package io.cfslab.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.api.OpenApiDocument.Operation;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Content negotiation of every read in the OpenAPI document (issue 13): RFC 9110 §12.5.1, q-values included. For each
 * {@code GET} operation, on a resource that exists: {@code application/json;q=0} (alone) and {@code image/png} are 406
 * problems; {@code text/*} is the operation's text type if it has one, else 406 (never XML or JSON); {@code text/*,
 * *}{@code /*;q=0.1} is answered; {@code application/json;q=0, *}{@code /*} is the text type, or 406 for a JSON-only
 * operation. On an unknown id each of these is the 404 (RFC 9110 leaves the order to the server: 404 first, see
 * {@link AcceptChecked}).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:accept-kinds-${random.uuid};DB_CLOSE_DELAY=-1;WRITE_DELAY=0",
        "cfslab.runs.pool-size=1", "cfslab.runs.poll-interval=100ms", "cfslab.runs.progress-interval=50ms"})
class AcceptKindsTest {
    @LocalServerPort int port;

    record Answer(int status, String contentType, String body) { }

    Answer get(HttpClient http, String uri, String accept) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + uri))
                .timeout(Duration.ofSeconds(60));
        if (accept != null) b.header("Accept", accept);
        HttpResponse<String> r = http.send(b.GET().build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.headers().firstValue("Content-Type").orElse(""), r.body());
    }

    @Test
    void everyReadNegotiatesByQValuesAfterFindingItsResource() throws Exception {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        OpenApiDocument api = new OpenApiDocument("http://127.0.0.1:" + port);
        OpenApiContractTest fixture = new OpenApiContractTest();
        fixture.port = port;
        fixture.document();
        String scenario = fixture.created(fixture.send("POST", "/api/scenarios", "application/json",
                OpenApiContractTest.SCENARIO, null));
        String run = fixture.finishedRun(scenario);
        String experiment = fixture.finishedExperiment();
        List<String> failures = new ArrayList<>();
        int reads = 0;
        for (Operation op : api.operations()) {
            if (!op.method().equals("GET") || op.path().endsWith("/events")) continue; // events: RunEventsTest
            String uri = op.path(), missing = op.path();
            for (String p : op.pathParameters()) {
                String v = switch (p) {
                    case "id" -> op.path().startsWith("/api/runs") ? run : op.path().startsWith("/api/scenarios") ? scenario
                            : op.path().startsWith("/api/experiments/ready-made") ? "seed04-task-vs-task-account"
                            : experiment;
                    case "name" -> op.path().contains("/histograms/") ? "distribute_cfs_runtime_ns" : "nop";
                    case "index" -> "0";
                    case "path" -> "a";
                    case "file" -> "cpu.max";
                    default -> throw new IllegalStateException(op + ": parameter " + p);
                };
                uri = uri.replace("{" + p + "}", v);
                missing = missing.replace("{" + p + "}", p.equals("file") ? "cpu.max" : p.equals("index") ? "99" : "nope");
            }
            List<String> types = op.mediaTypes(200);
            String text = types.stream().filter(t -> t.startsWith("text/")).findFirst().orElse(null);
            boolean json = types.contains("application/json");
            reads++;
            check(failures, op, get(http, uri, "application/json;q=0"), 406, null);
            check(failures, op, get(http, uri, "image/png"), 406, null);
            check(failures, op, get(http, uri, "text/*"), text == null ? 406 : 200, text);
            check(failures, op, get(http, uri, "text/*, */*;q=0.1"), 200, text != null ? text : types.get(0));
            check(failures, op, get(http, uri, "application/json;q=0, */*"), text == null ? 406 : 200, text);
            if (json) check(failures, op, get(http, uri, "text/*;q=0.5, application/json"), 200, "application/json");
            if (!op.pathParameters().isEmpty()) {
                for (String accept : List.of("application/json;q=0", "image/png", "text/*")) {
                    check(failures, op, get(http, missing, accept), 404, null);
                }
            }
        }
        assertThat(failures).isEmpty();
        assertThat(reads).isGreaterThanOrEqualTo(15);
    }

    private static void check(List<String> failures, Operation op, Answer a, int status, String type) {
        boolean ok = a.status() == status && (status >= 400 ? a.contentType().startsWith("application/problem+json")
                : type == null || a.contentType().startsWith(type));
        if (status == 406 && ok) {
            ok = a.body().contains("\"pointer\":\"/headers/Accept\"") && a.body().contains("\"title\":\"Not acceptable\"");
        }
        if (!ok) failures.add(op + ": " + a.status() + " " + a.contentType() + " (wanted " + status + (type == null ? ""
                : " " + type) + "): " + OpenApiDocument.abbreviate(a.body()));
    }
}
