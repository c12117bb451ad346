package io.cfslab.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;

/**
 * A service with a token, in a real browser: the dashboard sends it to the sign-in page; after one sign-in
 * the pages' own fetches (reads, and writes with the CSRF token) and the run page's event stream work.
 * Skipped where Chromium is missing, like {@link DashboardBrowserTest}.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "spring.datasource.url=jdbc:h2:mem:tokenbrowser-${random.uuid};DB_CLOSE_DELAY=-1;WRITE_DELAY=0",
        "cfslab.runs.pool-size=1", "cfslab.runs.poll-interval=100ms", "cfslab.live.interval=100ms",
        "cfslab.security.token=" + TokenBrowserTest.TOKEN})
@DirtiesContext
class TokenBrowserTest {
    static final String TOKEN = "browser-t0ken";
    static WebDriver driver;

    @LocalServerPort int port;

    @BeforeAll
    static void browser() throws IOException {
        driver = Chromium.start();
    }

    @AfterAll
    static void quit() {
        if (driver != null) driver.quit();
    }

    @Test
    void signInOnceThenEditAndWatchARunLive() throws Exception {
        driver.get("http://localhost:" + port + "/scenarios/e1-one-hog-10pct");
        waitFor("the sign-in page", () -> driver.getCurrentUrl().endsWith("/login"));
        driver.findElement(By.id("token")).sendKeys("wrong", Keys.ENTER);
        waitFor("the error for a wrong token", () -> !driver.findElements(By.id("login-error")).isEmpty());
        screenshot("login-error");
        driver.findElement(By.id("token")).sendKeys(TOKEN, Keys.ENTER);
        // back to the page asked for, signed in; its own fetches load the scenario
        waitFor("the editor loaded", () -> driver.getCurrentUrl().endsWith("/scenarios/e1-one-hog-10pct")
                && "true".equals(attr("body", "data-loaded")));

        // a write from the editor: copy the ready-made scenario (POST) and change a cpu.max (PUT text/plain)
        driver.findElement(By.id("copy-to-edit")).click();
        waitFor("the copy opened", () -> !driver.getCurrentUrl().endsWith("e1-one-hog-10pct")
                && "true".equals(attr("body", "data-loaded")));
        WebElement cpuMax = driver.findElement(By.cssSelector(".tree-row[data-path='/e1'] input[data-file='cpu.max']"));
        // typed over a selection: clear() would leave the cell, which commits it emptied
        cpuMax.sendKeys(Keys.chord(Keys.CONTROL, "a"), "20000", Keys.ENTER);
        waitFor("the write accepted", () -> text("#editor-status").contains(": ok"));
        assertThat(cpuMax.getDomProperty("value")).isEqualTo("20000 100000");

        // a long run from the home page, watched live through the event stream on the session cookie, then
        // cancelled from its page (POST …/cancel with the CSRF token)
        String demo = "tr[data-scenario-id='dashboard-demo'] .run-btn";
        driver.get("http://localhost:" + port + "/");
        waitFor("the home page", () -> !driver.findElements(By.cssSelector(demo)).isEmpty());
        driver.findElement(By.cssSelector(demo)).click();
        waitFor("the run page", () -> driver.getCurrentUrl().contains("/runs/"));
        waitFor("live histogram updates", () -> "true".equals(attr("body", "data-live"))
                && Integer.parseInt(attr("#hist", "data-updates")) >= 2);
        screenshot("token-run-live");
        driver.findElement(By.id("cancel-run")).click();
        waitFor("the run cancelled", () -> "cancelled".equals(attr("#run-status", "data-status")));
        // its partial result, read on the same session
        waitFor("the partial result shown", () -> "true".equals(attr("body", "data-partial")));
    }

    String attr(String css, String name) { return Chromium.attr(driver, css, name); }

    String text(String css) { return Chromium.text(driver, css); }

    static void waitFor(String what, BooleanSupplier condition) throws InterruptedException {
        Chromium.waitFor(driver, Duration.ofSeconds(60), what, condition);
    }

    static void screenshot(String name) { Chromium.screenshot(driver, name); }
}
