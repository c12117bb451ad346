package io.cfslab.web;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/** Debian's headless Chromium for the browser tests; skips the test where it is not installed. */
final class Chromium {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

    private Chromium() {}

    /** A new browser with an empty profile (no cookies), or the test is skipped. */
    static WebDriver start() throws IOException {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "needs Debian's chromium and chromium-driver (/usr/bin/chromium, /usr/bin/chromedriver)");
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString());
        Path profile = Files.createTempDirectory("cfslab-chromium");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + profile.toAbsolutePath(), "--window-size=1400,1800");
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort().build();
        WebDriver driver = new ChromeDriver(service, options);
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(10));
        return driver;
    }

    static final Path SCREENSHOTS = Path.of("target", "screenshots");

    /** An attribute of the first element matching {@code css}, or null. */
    static String attr(WebDriver driver, String css, String name) {
        List<WebElement> found = driver.findElements(By.cssSelector(css));
        return found.isEmpty() ? null : found.get(0).getAttribute(name);
    }

    /** The text of the first element matching {@code css}, or "". */
    static String text(WebDriver driver, String css) {
        List<WebElement> found = driver.findElements(By.cssSelector(css));
        return found.isEmpty() ? "" : found.get(0).getText();
    }

    /** Waits for {@code condition}; on time-out saves a screenshot named after {@code what} and fails. */
    static void waitFor(WebDriver driver, Duration timeout, String what, BooleanSupplier condition)
            throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            try {
                if (condition.getAsBoolean()) return;
            } catch (RuntimeException notYet) {
                // element not there yet
            }
            Thread.sleep(50);
        }
        screenshot(driver, "timeout-" + what.replaceAll("\\W+", "-"));
        throw new AssertionError("timed out waiting for: " + what);
    }

    /** Saves the page as target/screenshots/NAME.png. */
    static void screenshot(WebDriver driver, String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            Files.write(SCREENSHOTS.resolve(name + ".png"), ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
