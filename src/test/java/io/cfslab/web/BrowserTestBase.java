package io.cfslab.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.openqa.selenium.WebDriver;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a browser test of the dashboard needs: the service on a random port with a file database of its own (closed
 * with the class), quick run-queue polling, and Debian's headless Chromium started once per class ({@link Chromium};
 * the class is skipped where it is not installed).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "cfslab.runs.pool-size=2", "cfslab.runs.poll-interval=100ms", "cfslab.runs.progress-interval=50ms"})
@DirtiesContext // its run queue and file database are closed after the class
abstract class BrowserTestBase {
    static final JsonMapper JSON = JsonMapper.builder().build();
    static WebDriver driver;

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) throws IOException {
        Path dir = Files.createTempDirectory("cfslab-browser-db");
        registry.add("spring.datasource.url", () -> "jdbc:h2:file:" + dir.resolve("cfslab").toAbsolutePath() + ";WRITE_DELAY=0");
    }

    @BeforeAll
    static void browser() throws IOException {
        driver = Chromium.start();
    }

    @AfterAll
    static void quit() {
        if (driver != null) driver.quit();
        driver = null;
    }

    String url(String path) {
        return "http://localhost:" + port + path;
    }

    /** GET {@code path} of the service as JSON ({@link #api(String, String, String)}). */
    JsonNode api(String path) {
        return api("GET", path, null);
    }

    /**
     * One API call, as a script would make it: {@code body} (JSON, or null for none) sent with {@code method}; the
     * answer must be a success (below 300) and is returned as JSON (an empty object for an empty body, e.g. 204).
     */
    JsonNode api(String method, String path, String body) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url(path))).header("Accept", "application/json");
            b = body == null ? b.method(method, HttpRequest.BodyPublishers.noBody())
                    : b.header("Content-Type", "application/json").method(method, HttpRequest.BodyPublishers.ofString(body));
            HttpResponse<String> res = HttpClient.newHttpClient().send(b.build(), HttpResponse.BodyHandlers.ofString());
            assertThat(res.statusCode()).as(method + " " + path + ": " + res.body()).isLessThan(300);
            return res.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(res.body());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
