package io.cfslab.web;

import java.io.IOException;
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

/**
 * What a browser test of the dashboard needs: the service on a random port with a file database of its own (closed
 * with the class), quick run-queue polling, and Debian's headless Chromium started once per class ({@link Chromium};
 * the class is skipped where it is not installed).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "cfslab.runs.pool-size=2", "cfslab.runs.poll-interval=100ms", "cfslab.runs.progress-interval=50ms"})
@DirtiesContext // its run queue and file database are closed after the class
abstract class BrowserTestBase {
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
}
