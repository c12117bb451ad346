package io.cfslab.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import tools.jackson.databind.JsonNode;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The dashboard in a real headless Chromium (Debian's {@code chromium} and {@code chromium-driver}, driven by
 * Selenium; nothing is downloaded): start a ready-made scenario from the home page, watch the run page update
 * and finish with the final cpu.stat table, then get the kernel's refusal of a bad cpu.max in the editor; an
 * experiment's page with progress per arm, the table, overlaid histograms and a strip/box plot per metric; the
 * settings a run ran with on its page, the runs list and the compare page; deleting finished runs and experiments.
 * Screenshots go to {@code target/screenshots/}. Skipped where /usr/bin/chromium or /usr/bin/chromedriver is
 * missing ({@code .ci/run} installs both).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "cfslab.runs.pool-size=2", "cfslab.runs.poll-interval=100ms", "cfslab.runs.progress-interval=50ms",
        // the events stream's update interval (GET /api/runs/{id}/events): more updates in a short run
        "cfslab.live.interval=100ms",
        // two paced runs hold both queue threads on purpose (a run waits in the queue behind them): no paced-run limit
        "cfslab.runs.max-paced=0"})
@DirtiesContext // its run queue and file database are closed after the class, not kept for later tests
class DashboardBrowserTest {
    static final Path SCREENSHOTS = Path.of("target", "screenshots");
    static final String SCENARIO = "dashboard-demo";

    static WebDriver driver;

    @LocalServerPort
    int port;

    @org.springframework.beans.factory.annotation.Autowired
    io.cfslab.store.RunRepository runs;

    @DynamicPropertySource
    static void database(DynamicPropertyRegistry registry) throws IOException {
        Path dir = Files.createTempDirectory("cfslab-browser-db");
        registry.add("spring.datasource.url", () -> "jdbc:h2:file:" + dir.resolve("cfslab").toAbsolutePath() + ";WRITE_DELAY=0");
    }

    @BeforeAll
    static void browser() throws IOException {
        driver = Chromium.start();
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    static void quit() {
        if (driver != null) driver.quit();
    }

    String url(String path) {
        return "http://localhost:" + port + path;
    }

    @Test
    void runFromTheHomePageUpdatesLiveAndEndsWithTheCpuStatTable() throws Exception {
        driver.get(url("/"));
        waitFor(Duration.ofSeconds(20), "the runs table loaded",
                () -> !text("#runs tbody").contains("loading"));
        WebElement run = driver.findElement(By.cssSelector("tr[data-scenario-id='" + SCENARIO + "'] .run-btn"));
        screenshot("home");
        run.click();
        waitFor(Duration.ofSeconds(20), "the run page opened", () -> driver.getCurrentUrl().contains("/runs/"));
        String runId = driver.getCurrentUrl().replaceAll(".*/runs/", "");

        // Watch the page: progress values and histogram update counts as the DOM shows them.
        TreeSet<Double> progress = new TreeSet<>();
        List<Integer> histUpdates = new ArrayList<>();
        boolean runningShot = false;
        // generous: the run simulates while other builds share the 2 cores (at load 32 it took over 120 s)
        long deadline = System.nanoTime() + Duration.ofSeconds(600).toNanos();
        while (System.nanoTime() < deadline) {
            String status = attr("#run-status", "data-status");
            String p = attr("#run-progress", "data-progress");
            if (p != null && !p.isEmpty()) progress.add(Double.parseDouble(p));
            String u = attr("#hist", "data-updates");
            int updates = u == null || u.isEmpty() ? 0 : Integer.parseInt(u);
            if (histUpdates.isEmpty() || histUpdates.get(histUpdates.size() - 1) != updates) histUpdates.add(updates);
            if (!runningShot && "running".equals(status) && p != null
                    && (updates >= 3 || Double.parseDouble(p) >= 30 && !"true".equals(attr("body", "data-live")))) {
                screenshot("running");
                runningShot = true;
            }
            if ("true".equals(attr("body", "data-final"))) break;
            Thread.sleep(50);
        }
        assertThat(attr("body", "data-final")).as("the run page showed the final result").isEqualTo("true");
        assertThat(attr("#run-status", "data-status")).isEqualTo("done");
        assertThat(progress).as("progress values seen").contains(100.0);
        assertThat(progress.stream().filter(v -> v > 0 && v < 100).count())
                .as("the progress bar moved through intermediate values: " + progress).isGreaterThanOrEqualTo(1);
        assertThat(progress.size()).as("distinct progress values " + progress).isGreaterThanOrEqualTo(2);

        boolean live = eventsEndpointPresent(runId);
        System.out.printf("dashboard run %s: events endpoint %s, progress values %s, histogram updates %s%n",
                runId, live ? "present" : "missing", progress, histUpdates);
        // The live stream (GET /api/runs/{id}/events): the page stayed on it (no fall back to polling) and
        // the histogram redrew from at least two `histogram` events while the run went on.
        assertThat(live).as("GET /api/runs/{id}/events answers text/event-stream").isTrue();
        assertThat(attr("body", "data-live")).as("the run page used the events stream").isEqualTo("true");
        assertThat(histUpdates.get(histUpdates.size() - 1))
                .as("histogram updates seen " + histUpdates).isGreaterThanOrEqualTo(2);
        // the per-CPU timeline, drawn from the stored result once done: all 16 CPUs, every column of cpu_timeline
        JsonNode result = JSON.readTree(get("/api/runs/" + runId + "/result"));
        assertThat(attr("#cpu-timeline", "data-source")).isEqualTo("result");
        assertThat(attr("#cpu-timeline", "data-cpus")).isEqualTo("16");
        assertThat(attr("#cpu-timeline", "data-columns"))
                .isEqualTo(String.valueOf(result.path("cpu_timeline").path("cpus").get(0).asString().length()));
        assertThat(driver.findElements(By.cssSelector("#cpu-timeline canvas"))).hasSize(1);
        assertChartsReadable();
        // a finished run reopened: the timeline comes from the stored data, not from a stream
        driver.navigate().refresh();
        waitFor(Duration.ofSeconds(20), "the reopened run showed its result", () -> "true".equals(attr("body", "data-final")));
        assertThat(attr("body", "data-live")).as("no stream for a finished run").isNotEqualTo("true");
        assertThat(attr("#cpu-timeline", "data-source")).isEqualTo("result");
        assertThat(attr("#cpu-timeline", "data-columns"))
                .isEqualTo(String.valueOf(result.path("cpu_timeline").path("cpus").get(0).asString().length()));
        assertChartsReadable();
        assertThat(driver.findElements(By.cssSelector("#slowest tbody tr"))).isNotEmpty();

        // The final cpu.stat table, one row per group, as GET /api/runs/{id}/cpu.stat gives it.
        WebElement panel = driver.findElement(By.id("final-panel"));
        assertThat(panel.isDisplayed()).isTrue();
        List<WebElement> rows = driver.findElements(By.cssSelector("#cpustat-final tbody tr"));
        assertThat(rows).hasSizeGreaterThanOrEqualTo(7);
        assertThat(text("#cpustat-final")).contains("/web/frontend", "nr_throttled", "throttled_usec");
        assertThat(text("#hist-meta")).contains("calls");
        // per-task latency: a row per task with its percentiles, and the chosen task's histogram
        assertThat(driver.findElement(By.id("latency-panel")).isDisplayed()).isTrue();
        assertThat(driver.findElements(By.cssSelector("#task-latency tbody tr"))).isNotEmpty();
        assertThat(driver.findElements(By.cssSelector("#task-latency tbody tr.selected"))).hasSize(1);
        assertThat(text("#latency-hist-title")).contains("wake-up latency");
        assertThat(driver.findElements(By.cssSelector("#latency-hist .uplot"))).as("the first task with wake-ups is charted").hasSize(1);
        // its buckets count µs (as runqlat), and its x axis says so; the distribute histogram's count ns
        assertThat(attr("#latency-hist", "data-axes")).contains("duration, µs");
        assertThat(attr("#hist", "data-axes")).contains("duration, ns");
        // the bpftrace text view of the same histogram
        driver.findElement(By.id("hist-as-text")).click();
        assertThat(text("#hist-text")).startsWith("@distribute_cfs_runtime_ns:\n[").contains(" |@");
        driver.findElement(By.id("hist-as-text")).click();
        screenshot("finished-top");
        ((JavascriptExecutor) driver).executeScript("document.getElementById('final-panel').scrollIntoView()");
        screenshot("finished");
    }

    /** A refused action is said beside its button, in view (a refused Run looked like a button that did nothing). */
    @Test
    void aRefusedRunIsSaidBesideItsButton() throws Exception {
        driver.get(url("/"));
        var btn = driver.findElements(By.cssSelector(".run-btn")).get(0);
        ((org.openqa.selenium.JavascriptExecutor) driver).executeScript("arguments[0].dataset.scenarioId = 'no-such-scenario'", btn);
        btn.click();
        By note = By.cssSelector(".run-btn + .action-error");
        waitFor(Duration.ofSeconds(20), "the refusal beside the button",
                () -> !driver.findElements(note).isEmpty() && !driver.findElement(note).getText().isBlank());
        assertThat(driver.findElement(note).getText()).contains("no-such-scenario");
        assertThat(driver.getCurrentUrl()).isEqualTo(url("/"));
        Object inView = ((org.openqa.selenium.JavascriptExecutor) driver).executeScript(
                "const r = arguments[0].getBoundingClientRect(); return r.top >= 0 && r.bottom <= window.innerHeight;",
                driver.findElement(note));
        assertThat(inView).isEqualTo(Boolean.TRUE);
        screenshot("home-refused-run");
    }

    @Test
    void aBadCpuMaxShowsTheKernelError() throws Exception {
        driver.get(url("/scenarios/e1-one-hog-10pct"));
        waitFor(Duration.ofSeconds(20), "the editor loaded", () -> "true".equals(attr("body", "data-loaded")));
        // ready-made: read-only until copied
        assertThat(driver.findElement(By.cssSelector(".tree-row[data-path='/e1'] input[data-file='cpu.max']"))
                .getAttribute("readonly")).isNotNull();
        driver.findElement(By.id("copy-to-edit")).click();
        waitFor(Duration.ofSeconds(20), "the copy opened",
                () -> !driver.getCurrentUrl().endsWith("e1-one-hog-10pct") && "true".equals(attr("body", "data-loaded")));

        WebElement cpuMax = driver.findElement(By.cssSelector(".tree-row[data-path='/e1'] input[data-file='cpu.max']"));
        assertThat(cpuMax.getDomProperty("value")).isEqualTo("10000 100000");
        // typed over a selection: clear() would leave the cell, which commits it emptied
        cpuMax.sendKeys(Keys.chord(Keys.CONTROL, "a"), "500 100000", Keys.ENTER);
        waitFor(Duration.ofSeconds(20), "the error shown", () -> driver.findElement(By.id("editor-error")).isDisplayed());
        String error = text("#editor-error");
        assertThat(error).contains("quota 500 us is below the 1000 us minimum").contains("(EINVAL)");
        assertThat(text(".tree-row[data-path='/e1'] .row-error")).contains("EINVAL");
        // the kernel kept its value: the field shows it again, and no stale "ok" stands beside the error
        waitFor(Duration.ofSeconds(10), "the field reset to the kernel's value",
                () -> "10000 100000".equals(driver.findElement(By.cssSelector(".tree-row[data-path='/e1'] input[data-file='cpu.max']")).getDomProperty("value")));
        assertThat(text("#editor-status")).doesNotContain("ok");
        screenshot("error");

        // a good value is written and read back as cat shows it
        cpuMax = driver.findElement(By.cssSelector(".tree-row[data-path='/e1'] input[data-file='cpu.max']"));
        // typed over a selection: clear() would leave the cell, which commits it emptied
        cpuMax.sendKeys(Keys.chord(Keys.CONTROL, "a"), "20000", Keys.ENTER);
        waitFor(Duration.ofSeconds(20), "the write accepted", () -> text("#editor-status").contains(": ok"));
        assertThat(cpuMax.getDomProperty("value")).isEqualTo("20000 100000");
        assertThat(driver.findElement(By.id("editor-error")).isDisplayed()).isFalse();
    }

    @Test
    void theEditorKeepsSeed01sTreeOf2202GroupsVirtual() throws Exception {
        driver.get(url("/scenarios/seed01-large-tree-sync"));
        waitFor(Duration.ofSeconds(30), "the editor loaded", () -> "true".equals(attr("body", "data-loaded")));
        assertThat(text("#tree-count")).isEqualTo("2,202 groups");
        long start = System.nanoTime();
        driver.findElement(By.id("expand-all")).click();
        waitFor(Duration.ofSeconds(10), "all expanded", () -> "2203".equals(attr("#tree", "data-rows")));
        long expandMs = (System.nanoTime() - start) / 1_000_000;
        // only the rows in view (and a few around them) exist in the DOM
        assertThat(driver.findElements(By.cssSelector("#tree .tree-row")).size()).isLessThan(80);
        ((JavascriptExecutor) driver).executeScript("document.getElementById('tree').scrollTop = 30 * 1500");
        waitFor(Duration.ofSeconds(10), "rows near the 1500th drawn",
                () -> !driver.findElements(By.cssSelector("#tree .tree-row[data-path^='/2/']")).isEmpty());
        assertThat(driver.findElements(By.cssSelector("#tree .tree-row")).size()).isLessThan(80);
        assertThat(expandMs).as("expand all of 2,202 groups, ms").isLessThan(5000);
        screenshot("large-tree");
    }

    @Test
    void aNewScenarioIsBuiltInTheEditorAndOneIsImported() throws Exception {
        driver.get(url("/scenarios/new"));
        // a new scenario starts from docs/scenarios.md's defaults: 2 CPUs, HZ 1000, slice 5000 µs, shown in empty fields
        // (left out of the stored document: NewcomerBrowserTest)
        waitFor(Duration.ofSeconds(30), "the defaults labelled", () -> "6.18".equals(attr("#options-form", "data-defaults")));
        assertThat(driver.findElement(By.cssSelector("#options-form input[name='machine.cpus']")).getDomAttribute("placeholder")).isEqualTo("default: 2");
        assertThat(driver.findElement(By.cssSelector("#options-form select[name='kernel.hz'] option[data-default]")).getText()).isEqualTo("default (1000)");
        assertThat(driver.findElement(By.cssSelector("#options-form input[name='kernel.bandwidth_slice_us']")).getDomAttribute("placeholder")).isEqualTo("default: 5000");
        WebElement name = driver.findElement(By.cssSelector("#options-form [name='name']"));
        name.clear();
        name.sendKeys("built in the browser");
        driver.findElement(By.cssSelector("#options-form input[name='duration']")).sendKeys("5s");
        driver.findElement(By.cssSelector("#options-form button[type='submit']")).click();
        waitFor(Duration.ofSeconds(20), "the new scenario opened",
                () -> driver.getCurrentUrl().matches(".*/scenarios/[0-9a-f-]{36}$") && "true".equals(attr("body", "data-loaded")));
        assertThat(text("#scenario-title")).isEqualTo("built in the browser");

        WebElement mkdir = driver.findElement(By.cssSelector("#mkdir-form input[name='path']"));
        mkdir.sendKeys("/web/frontend", Keys.ENTER);
        waitFor(Duration.ofSeconds(20), "the groups created",
                () -> !driver.findElements(By.cssSelector(".tree-row[data-path='/web/frontend']")).isEmpty());
        WebElement cpuMax = driver.findElement(By.cssSelector(".tree-row[data-path='/web'] input[data-file='cpu.max']"));
        // typed over a selection: clear() would leave the cell, which commits it emptied
        cpuMax.sendKeys(Keys.chord(Keys.CONTROL, "a"), "50000", Keys.ENTER);
        waitFor(Duration.ofSeconds(20), "cpu.max read back", () -> "50000 100000".equals(cpuMax.getDomProperty("value")));
        assertThat(text("#tasks-table tbody")).contains("no tasks yet");

        // a periodic RT task with its own parameters, policy, priority and allowed CPUs; the form is empty afterwards
        WebElement form = driver.findElement(By.id("task-form"));
        form.findElement(By.name("name")).sendKeys("tick");
        form.findElement(By.name("cgroup")).sendKeys("/web/frontend");
        new org.openqa.selenium.support.ui.Select(form.findElement(By.name("kind"))).selectByVisibleText("periodic");
        form.findElement(By.name("run")).sendKeys("2ms");
        form.findElement(By.name("sleep")).sendKeys("8ms");
        new org.openqa.selenium.support.ui.Select(form.findElement(By.name("policy"))).selectByVisibleText("rr");
        form.findElement(By.name("priority")).sendKeys("10");
        form.findElement(By.name("cpus_allowed")).sendKeys("0-1");
        form.findElement(By.cssSelector("button[type='submit']")).click();
        waitFor(Duration.ofSeconds(20), "the task added", () -> text("#tasks-table tbody").contains("tick"));
        assertThat(text("#tasks-table tbody")).contains("periodic · run 2ms, sleep 8ms", "rr 10", "0-1");
        waitFor(Duration.ofSeconds(5), "the form reset", () -> form.findElement(By.name("name")).getDomProperty("value").isEmpty());
        for (String field : List.of("cgroup", "priority", "cpus_allowed")) {
            assertThat(form.findElement(By.name(field)).getDomProperty("value")).as(field).isEmpty();
        }
        assertThat(form.findElement(By.name("kind")).getDomProperty("value")).isEqualTo("hog");
        assertThat(form.findElement(By.name("run")).isDisplayed()).as("periodic's fields hidden again").isFalse();
        screenshot("editor-task-added");

        Path file = Files.createTempFile("imported", ".json");
        Files.writeString(file, """
                {"name": "imported from a file", "seed": 5, "duration": "1s",
                 "machine": {"profile": "generic", "cpus": 2},
                 "cgroups": [{"path": "/x", "cpu.max": "20000 100000"}],
                 "tasks": [{"name": "hog", "cgroup": "/x", "workload": {"kind": "hog"}}]}
                """);
        driver.get(url("/scenarios/new"));
        driver.findElement(By.id("import-json")).sendKeys(file.toAbsolutePath().toString());
        waitFor(Duration.ofSeconds(20), "the imported scenario opened",
                () -> "imported from a file".equals(text("#scenario-title")) && "true".equals(attr("body", "data-loaded")));
        assertThat(driver.findElement(By.cssSelector(".tree-row[data-path='/x'] input[data-file='cpu.max']"))
                .getDomProperty("value")).isEqualTo("20000 100000");
        assertThat(text("#tasks-table")).contains("hog");

        // seed 03 (it names neither timer placement nor slice): the fields say what the run will use, not a blank
        driver.get(url("/scenarios/seed03-functional"));
        waitFor(Duration.ofSeconds(20), "the editor loaded", () -> "true".equals(attr("body", "data-loaded")));
        WebElement timer = driver.findElement(By.cssSelector("#options-form select[name='kernel.timer_placement']"));
        assertThat(new org.openqa.selenium.support.ui.Select(timer).getFirstSelectedOption().getText()).startsWith("default (").contains("random");
        assertThat(driver.findElement(By.cssSelector("#options-form input[name='kernel.bandwidth_slice_us']")).getDomAttribute("placeholder"))
                .isEqualTo("default: 5000");
    }

    @Test
    void unknownPagesAndCompareWithoutRunsExplainThemselves() throws Exception {
        for (String path : List.of("/no-such-page", "/runs/no-such-run")) {
            driver.get(url(path));
            assertThat(attr("body", "data-page")).as(path).isEqualTo("error");
            assertThat(driver.findElements(By.cssSelector("header.top nav a"))).as(path + ": the navigation bar").hasSizeGreaterThanOrEqualTo(4);
            assertThat(text("#error-title")).contains("404");
            assertThat(driver.getPageSource()).doesNotContain("\"status\":404");
        }
        screenshot("not-found");
        driver.get(url("/compare"));
        assertThat(text("#compare-empty")).contains("Nothing to compare yet");
        assertThat(driver.findElements(By.id("compare-hist"))).isEmpty();
    }

    @Test
    void twoFinishedRunsAreComparedFromTheHomePage() throws Exception {
        String a = startRun("{\"scenarioId\": \"e1-one-hog-10pct\"}");
        String b = startRun("{\"scenarioId\": \"e1-one-hog-10pct\", \"seed\": 99}");
        driver.get(url("/"));
        for (String id : List.of(a, b)) {
            waitFor(Duration.ofSeconds(60), "run " + id + " done",
                    () -> "done".equals(text("tr[data-run-id='" + id + "'] .badge")));
            driver.findElement(By.cssSelector("tr[data-run-id='" + id + "'] input[type='checkbox']")).click();
        }
        screenshot("home-runs");
        driver.findElement(By.cssSelector("#compare-form button")).click();
        waitFor(Duration.ofSeconds(20), "the comparison loaded", () -> "true".equals(attr("body", "data-loaded")));
        assertThat(driver.getCurrentUrl()).contains("a=" + a).contains("b=" + b);
        assertThat(text("#compare-table")).contains("/e1", "nr_throttled", "B − A");
        assertThat(text("#hist-text-a")).contains("@distribute_cfs_runtime_ns:");
        assertThat(driver.findElements(By.cssSelector("#compare-hist canvas"))).isNotEmpty();
        // the settings each ran with, and the one that differs: the seed
        assertThat(text("#compare-settings tr[data-run='a']")).contains("task", "async", "250", "generic, 2 CPUs");
        assertThat(driver.findElements(By.cssSelector("#settings-diff tr[data-key]")))
                .extracting(e -> e.getAttribute("data-key")).containsExactly("seed");
        // one colour per group in A's and B's charts, and each chart's axes titled
        Map<String, String> colorsA = colors("#compare-throttled-a");
        Map<String, String> colorsB = colors("#compare-throttled-b");
        assertThat(colorsA).isNotEmpty().containsKey("/e1");
        colorsA.forEach((name, color) -> { if (colorsB.containsKey(name)) assertThat(colorsB.get(name)).as(name).isEqualTo(color); });
        for (String chart : List.of("#compare-hist", "#compare-throttled-a", "#compare-throttled-b")) {
            assertThat(JSON.readTree(attr(chart, "data-axes")).valueStream().map(JsonNode::asString)).as(chart)
                    .hasSize(2).allMatch(t -> !t.isBlank());
        }
        // the same group has that colour on each run's own page too
        driver.get(url("/runs/" + a));
        waitFor(Duration.ofSeconds(20), "run A's page showed its result", () -> "true".equals(attr("body", "data-final")));
        assertThat(colors("#chart-throttled-usec")).containsEntry("/e1", colorsA.get("/e1"));
        screenshot("compare");
    }

    /**
     * At a phone's width (420 px) no page is wider than the window: the header wraps, wide tables and the cgroup tree
     * scroll inside their panel, and every chart and the CPU timeline are drawn at their panel's width, also after the
     * window changes size. Then, back at 1400 px, the charts widen again.
     */
    @Test
    void narrowWindowsGetPagesNoWiderThanTheWindow() throws Exception {
        String id = startRun("{\"scenarioId\": \"seed03-functional\"}");
        org.openqa.selenium.Dimension wide = driver.manage().window().getSize();
        try {
            driver.get(url("/runs/" + id));
            waitFor(Duration.ofSeconds(90), "the run's result shown", () -> "true".equals(attr("body", "data-final")));
            driver.manage().window().setSize(new org.openqa.selenium.Dimension(420, 900));
            for (String path : List.of("/runs/" + id, "/", "/scenarios/seed03-functional", "/scenarios/new",
                    "/compare?a=" + id + "&b=" + id, "/compare", "/no-such-page")) {
                if (!path.equals("/runs/" + id)) driver.get(url(path)); // the run page: resized in place
                if (path.startsWith("/runs/")) {
                    waitFor(Duration.ofSeconds(20), "the result shown", () -> "true".equals(attr("body", "data-final")));
                }
                if (path.startsWith("/compare?")) waitFor(Duration.ofSeconds(20), "compared", () -> "true".equals(attr("body", "data-loaded")));
                waitFor(Duration.ofSeconds(5), path + " no wider than the window", () -> wider().isEmpty());
                assertThat(wider()).as(path + ": elements beyond the window's right edge").isEmpty();
                if (path.startsWith("/runs/")) {
                    screenshot("narrow-run");
                    long viewport = (Long) js("return document.documentElement.clientWidth");
                    for (String chart : List.of("#hist .uplot", "#chart-usage .uplot", "#cpu-timeline canvas")) {
                        long w = (Long) js("return Math.round(document.querySelector(arguments[0]).getBoundingClientRect().width)", chart);
                        assertThat(w).as(chart + " width").isLessThanOrEqualTo(viewport).isGreaterThan(200);
                    }
                }
            }
            screenshot("narrow-not-found");
        } finally {
            driver.manage().window().setSize(wide);
        }
        driver.get(url("/runs/" + id));
        waitFor(Duration.ofSeconds(20), "the result shown", () -> "true".equals(attr("body", "data-final")));
        long usage = (Long) js("return Math.round(document.querySelector('#chart-usage .uplot').getBoundingClientRect().width)");
        assertThat(usage).as("a chart at 1400 px").isGreaterThan(500);
        assertThat(wider()).as("the run page at 1400 px").isEmpty();
        // per-task latency: run_delay over a second reads in seconds, not thousands of ms
        assertThat(text("#task-latency tbody")).doesNotContainPattern("\\d{4,}\\.\\d+ ms").containsPattern("\\d s");
        // at 1400 px too: the home page's runs table (14 columns, long scenario names) and the editor's tasks
        for (String path : List.of("/", "/scenarios/seed03-functional", "/scenarios/dashboard-demo")) {
            driver.get(url(path));
            if (path.equals("/")) waitFor(Duration.ofSeconds(20), "the runs listed", () -> !text("#runs tbody").contains("loading"));
            else waitFor(Duration.ofSeconds(20), "the editor loaded", () -> "true".equals(attr("body", "data-loaded")));
            assertThat(wider()).as(path + " at 1400 px").isEmpty();
        }
    }

    /** Elements whose right edge is past the window's, outside any element that scrolls or clips them. */
    @SuppressWarnings("unchecked")
    List<String> wider() {
        return (List<String>) js("""
                const vw = document.documentElement.clientWidth, out = [];
                for (const e of document.querySelectorAll('body *')) {
                  const r = e.getBoundingClientRect();
                  if (r.width === 0 || r.right <= vw + 1) continue;
                  let p = e.parentElement, clipped = false;
                  while (p && p !== document.body) {
                    if (getComputedStyle(p).overflowX !== 'visible' && p.getBoundingClientRect().right <= vw + 1) { clipped = true; break; }
                    p = p.parentElement;
                  }
                  if (!clipped) out.push(e.tagName + '#' + e.id + '.' + e.className + ' right ' + Math.round(r.right) + ' > ' + vw);
                }
                return out.slice(0, 10);""");
    }

    Object js(String script, Object... args) { return ((JavascriptExecutor) driver).executeScript(script, args); }

    @Test
    void anExperimentShowsProgressPerArmTheTableAndEveryRun() throws Exception {
        // dashboard-demo shortened to 60 s simulated (its timeline at 100 s and 200 s dropped): about a second of
        // wall time per run here
        String id = post("/api/experiments", """
                {"name": "demo: task vs cfs_rq", "scenario_id": "dashboard-demo", "seed": 2, "repeats": 3,
                 "set": {"/duration": "60s", "/timeline": []},
                 "arms": [{"name": "task", "set": {"/kernel/throttle": "task"}},
                          {"name": "cfs_rq", "set": {"/kernel/throttle": "cfs_rq"}}]}""", 202);
        driver.get(url("/experiments/" + id));
        TreeSet<Double> armProgress = new TreeSet<>();
        boolean runningShot = false;
        long deadline = System.nanoTime() + Duration.ofSeconds(180).toNanos();
        while (System.nanoTime() < deadline && !"true".equals(attr("body", "data-loaded"))) {
            // read in one script: the page redraws the arms table on every poll
            Object values = ((JavascriptExecutor) driver).executeScript("return [...document.querySelectorAll("
                    + "'#arms progress.arm-progress')].map(e => e.dataset.progress)");
            for (Object p : (List<?>) values) if (p != null && !p.toString().isEmpty()) armProgress.add(Double.parseDouble(p.toString()));
            if (!runningShot && "running".equals(attr("#exp-status", "data-status"))) {
                screenshot("experiment-running");
                runningShot = true;
            }
            Thread.sleep(50);
        }
        assertThat(attr("body", "data-loaded")).as("the experiment page showed the result").isEqualTo("true");
        assertThat(attr("#exp-status", "data-status")).isEqualTo("done");
        assertThat(armProgress).as("progress per arm seen").contains(100.0);
        assertThat(armProgress.stream().filter(v -> v > 0 && v < 100).count())
                .as("an arm's progress bar moved through intermediate values: " + armProgress).isGreaterThanOrEqualTo(1);
        assertThat(driver.findElements(By.cssSelector("#arms tr[data-arm]"))).hasSize(2);
        assertThat(driver.findElements(By.cssSelector("#arms tr[data-arm='cfs_rq'] .run-dot.done"))).hasSize(3);

        // the table: one row per metric, the verdict per non-base arm
        List<WebElement> rows = driver.findElements(By.cssSelector("#summary-table tbody tr[data-metric]"));
        assertThat(rows).isNotEmpty();
        assertThat(text("#summary-table thead")).contains("metric", "task", "cfs_rq", "diff", "p (Welch)");
        assertThat(text("#summary-table tbody")).contains("/cpu.stat/throttled_usec").containsPattern("±\\d+\\.\\d\\d%");
        // metric names as a person reads them: a group's path in brackets, never RFC 6901's ~1 / ~0 escapes
        assertThat(text("#summary-table tbody") + text("#metric-plots") + text("#arms")).contains("cgroups[/")
                .doesNotContain("~1", "~0");
        assertThat(rows.get(0).findElements(By.tagName("td")).get(3).getText()).matches("noise|[+-]\\d+\\.\\d%");
        driver.findElement(By.id("table-as-text")).click();
        assertThat(text("#table-text")).startsWith("Experiment: demo: task vs cfs_rq").contains("AMean CoefVar", "p (Welch)")
                .contains("cgroups[/").doesNotContain("~1");
        driver.findElement(By.id("table-as-text")).click();
        // overlaid histograms (one series per arm) and a strip/box plot per metric
        assertThat(driver.findElements(By.cssSelector("#exp-hist canvas"))).isNotEmpty();
        assertThat(attr("#exp-hist", "data-arms")).isEqualTo("2");
        assertThat(text("#exp-hist-text")).contains("task\n@distribute_cfs_runtime_ns:", "cfs_rq\n@distribute_cfs_runtime_ns:");
        List<WebElement> plots = driver.findElements(By.cssSelector("#metric-plots .metric-plot"));
        assertThat(plots).hasSize(rows.size());
        for (WebElement plot : plots) {
            assertThat(plot.findElements(By.tagName("canvas"))).isNotEmpty();
            // each plot's y axis names its metric and what it measures; a *_usec metric reads as time, its ticks the raw
            // µs of its legend and the table (metricFormat; layout-faults.js checks the two agree)
            String metric = plot.getAttribute("data-metric");
            List<String> axes = JSON.readTree(plot.findElement(By.cssSelector(".chart")).getAttribute("data-axes"))
                    .valueStream().map(JsonNode::asString).toList();
            assertThat(axes).as(metric).hasSize(2);
            assertThat(axes.get(1)).as(metric).endsWith(metric.endsWith("_usec") ? "(time)" : ")")
                    .startsWith(metric.substring(metric.lastIndexOf('/') + 1));
        }
        screenshot("experiment");
        ((JavascriptExecutor) driver).executeScript("document.getElementById('metrics-panel').scrollIntoView()");
        screenshot("experiment-plots");

        // a run of the experiment shows the settings it ran with
        String runHref = driver.findElement(By.cssSelector("#arms tr[data-arm='cfs_rq'] .run-dot")).getAttribute("href");
        driver.get(runHref);
        waitFor(Duration.ofSeconds(20), "the run page loaded", () -> "true".equals(attr("body", "data-final")));
        assertThat(text("[data-setting='throttle']")).isEqualTo("cfs_rq");
        assertThat(text("[data-setting='unthrottle']")).isEqualTo("async");
        assertThat(text("[data-setting='hz']")).isEqualTo("1000");
        assertThat(text("[data-setting='version']")).as("kernel.version: 6.18 when not given").isEqualTo("6.18");
        assertThat(text("[data-setting='machine']")).isEqualTo("generic, 16 CPUs");
        assertThat(text("#run-experiment")).isEqualTo("experiment: arm cfs_rq, run 1");
        assertThat(driver.findElement(By.id("cancel-run")).isDisplayed()).isFalse();
        driver.findElement(By.cssSelector("#settings-panel summary")).click();
        assertThat(text("#settings tr[data-key='kernel.bandwidth_slice_us']")).contains("5000");
        assertThat(text("#settings tr[data-key='seed']")).contains(String.valueOf(io.cfslab.experiment.SeedSequence.seed(2, 0)));
        screenshot("run-settings");

        // the home page lists it, with the ready-made experiments, and deletes it
        driver.get(url("/"));
        waitFor(Duration.ofSeconds(20), "the experiments table loaded",
                () -> !driver.findElements(By.cssSelector("#experiments-table tr[data-experiment-id='" + id + "']")).isEmpty());
        assertThat(driver.findElements(By.cssSelector("#ready-made-experiments .run-experiment-btn"))
                .stream().map(e -> e.getAttribute("data-experiment-id")).toList())
                .contains("seed04-task-vs-task-account", "throttle-models-large-tree");
        assertThat(text("#experiments-table tr[data-experiment-id='" + id + "']")).contains("demo: task vs cfs_rq", "done", "6/6");
        driver.findElement(By.cssSelector("#experiments-table tr[data-experiment-id='" + id + "'] .delete-btn")).click();
        driver.switchTo().alert().accept();
        waitFor(Duration.ofSeconds(20), "the experiment deleted",
                () -> driver.findElements(By.cssSelector("#experiments-table tr[data-experiment-id='" + id + "']")).isEmpty());
        HttpResponse<String> gone = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url("/api/experiments/" + id)))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(gone.statusCode()).isEqualTo(404);
    }

    /**
     * An arm lists what follows from its settings beside what it sets: setting only /kernel/throttle to task moves the
     * model's throttled_lb default (pair for cfs_rq, dst for the task models) too, shown as following from the arm's
     * settings (the runs' effective settings, as the compare page's "Settings that differ" has them); the base arm,
     * named base, is not marked "(base)" twice.
     */
    @Test
    void anArmShowsTheSettingsThatFollowFromItsOwn() throws Exception {
        HttpResponse<String> res = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url("/api/experiments")))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("""
                        {"name": "derived", "scenario_id": "e1-one-hog-10pct", "repeats": 1,
                         "arms": [{"name": "base (cfs_rq)", "set": {"/kernel/throttle": "cfs_rq"}},
                                  {"name": "head", "set": {"/kernel/throttle": "task"}}]}""")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(res.statusCode()).as(res.body()).isIn(200, 201, 202);
        String id = JSON.readTree(res.body()).path("id").asString();
        driver.get(url("/experiments/" + id));
        waitFor(Duration.ofSeconds(60), "the derived settings shown", () -> !driver.findElements(By.cssSelector("#arms tr[data-arm='head'] .derived")).isEmpty());
        assertThat(attr("#arms tr[data-arm='head'] .derived", "data-derived").split(" ")).contains("kernel.throttled_lb")
                .doesNotContain("kernel.throttle", "seed");
        assertThat(text("#arms tr[data-arm='head'] .derived")).startsWith("and, following from these: ").contains("kernel.throttled_lb pair → dst");
        assertThat(text("#arms tr[data-arm='base (cfs_rq)'] td")).isEqualTo("base (cfs_rq)");
    }

    @Test
    void aReadyMadeExperimentStartsFromTheHomePageAndAFinishedRunIsDeleted() throws Exception {
        String run = startRun("{\"scenarioId\": \"e1-one-hog-10pct\"}");
        driver.get(url("/"));
        waitFor(Duration.ofSeconds(60), "run " + run + " done", () -> "done".equals(text("tr[data-run-id='" + run + "'] .badge")));
        assertThat(text("tr[data-run-id='" + run + "'] [data-setting='throttle']")).isEqualTo("task");
        assertThat(text("tr[data-run-id='" + run + "'] [data-setting='hz']")).isEqualTo("250");
        assertThat(text("tr[data-run-id='" + run + "'] [data-setting='machine']")).isEqualTo("generic, 2 CPUs");
        driver.findElement(By.cssSelector("tr[data-run-id='" + run + "'] .delete-btn")).click();
        driver.switchTo().alert().accept();
        waitFor(Duration.ofSeconds(20), "the run deleted", () -> driver.findElements(By.cssSelector("tr[data-run-id='" + run + "']")).isEmpty());

        driver.findElement(By.cssSelector(".run-experiment-btn[data-experiment-id='seed04-task-vs-task-account']")).click();
        waitFor(Duration.ofSeconds(20), "the experiment page opened", () -> driver.getCurrentUrl().contains("/experiments/"));
        String id = driver.getCurrentUrl().replaceAll(".*/experiments/", "");
        waitFor(Duration.ofSeconds(20), "progress per arm shown",
                () -> driver.findElements(By.cssSelector("#arms tr[data-arm]")).size() == 2);
        assertThat(text("#arms")).contains("task (base)", "/kernel/throttle = \"task-account\"");
        // not waited for: cancelled, so that the test stays short
        HttpResponse<String> cancel = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url("/api/experiments/" + id + "/cancel")))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(cancel.statusCode()).isIn(200, 202); // 200: it had already ended
        waitFor(Duration.ofSeconds(30), "the page shows it cancelled or done",
                () -> List.of("cancelled", "done").contains(attr("#exp-status", "data-status")));
        if ("cancelled".equals(attr("#exp-status", "data-status"))) {
            assertThat(text("#results-note")).as("why there are no results").contains("No results: the experiment was cancelled");
        }
    }

    /** One throttled group on two CPUs for {@code duration}; {@code extra} adds top-level members. */
    static String pacedScenario(String name, String duration) {
        return """
                {"name": "%s", "seed": 3, "duration": "%s", "machine": {"cpus": 2},
                 "cgroups": [{"path": "/a", "cpu.max": "50000 100000"}],
                 "tasks": [{"name": "hog", "cgroup": "/a", "count": 2, "workload": {"kind": "hog"}}]}""".formatted(name, duration);
    }

    /**
     * The status badge and the progress bar move together, whatever source reports (the server-rendered page, the
     * first GET, the events stream, its end, the final GET): a run page opened while the run is queued behind two
     * paced runs is watched through queued, running and done, every change of either element recorded in the page.
     * Also: the pace chosen on the home page starts the run at that pace, and its page shows it.
     */
    @Test
    void theStatusBadgeAndTheProgressBarMoveTogetherFromQueuedToDone() throws Exception {
        // both queue threads busy for about 2 s: the third run waits in the queue
        for (int i = 0; i < 2; i++) startRun("{\"scenario\": " + pacedScenario("blocker", "4s") + ", \"pace\": 2}");
        String id = startRun("{\"scenario\": " + pacedScenario("watched", "3s") + ", \"pace\": 3}");
        driver.get(url("/runs/" + id));
        ((JavascriptExecutor) driver).executeScript("""
                window.statusLog = [];
                const badge = document.getElementById('run-status'), bar = document.getElementById('run-progress');
                const record = () => window.statusLog.push([badge.dataset.status, Number(bar.dataset.progress)]);
                record();
                const o = new MutationObserver(record);
                o.observe(badge, {attributes: true, childList: true, characterData: true, subtree: true});
                o.observe(bar, {attributes: true});""");
        waitFor(Duration.ofSeconds(60), "the watched run's page showed its result", () -> "true".equals(attr("body", "data-final")));
        List<?> log = (List<?>) ((JavascriptExecutor) driver).executeScript("return window.statusLog");
        System.out.println("status log of run " + id + ": " + log);
        Map<String, Integer> rank = Map.of("queued", 0, "running", 1, "done", 2, "failed", 2, "cancelled", 2);
        int last = -1;
        List<String> seen = new ArrayList<>();
        for (Object entry : log) {
            List<?> pair = (List<?>) entry;
            String status = (String) pair.get(0);
            double progress = ((Number) pair.get(1)).doubleValue();
            if (!seen.contains(status)) seen.add(status);
            assertThat(rank).as("a status word").containsKey(status);
            if (status.equals("queued")) assertThat(progress).as("a queued run shows no progress: " + log).isZero();
            if (status.equals("done")) assertThat(progress).as("a done run shows a full bar: " + log).isEqualTo(100.0);
            assertThat(rank.get(status)).as("the status never goes back: " + log).isGreaterThanOrEqualTo(last);
            last = rank.get(status);
        }
        assertThat(seen).as("statuses seen while watching").contains("running", "done");
        assertThat(attr("#run-status", "data-status")).isEqualTo("done");
        assertThat(attr("#run-progress", "data-progress")).isEqualTo("100");

        // the home page's pace: chosen once, the run starts at it and its page says so
        driver.get(url("/"));
        new org.openqa.selenium.support.ui.Select(driver.findElement(By.cssSelector("select.run-pace"))).selectByValue("10");
        driver.findElement(By.cssSelector("tr[data-scenario-id='e1-one-hog-10pct'] .run-btn")).click();
        waitFor(Duration.ofSeconds(20), "the run page opened", () -> driver.getCurrentUrl().contains("/runs/"));
        String paced = driver.getCurrentUrl().replaceAll(".*/runs/", "");
        waitFor(Duration.ofSeconds(60), "the paced run done", () -> "true".equals(attr("body", "data-final")));
        JsonNode view = JSON.readTree(get("/api/runs/" + paced));
        assertThat(view.path("pace").asDouble()).isEqualTo(10.0);
        assertThat(view.path("wallMs").asLong()).as("5 s simulated at 10x real time").isGreaterThanOrEqualTo(500);
        assertThat(text("#run-pace")).contains("10× real time");
        driver.get(url("/"));
        assertThat(driver.findElement(By.cssSelector("select.run-pace")).getDomProperty("value"))
                .as("the pace chosen is remembered").isEqualTo("10");
        new org.openqa.selenium.support.ui.Select(driver.findElement(By.cssSelector("select.run-pace"))).selectByValue("");
        screenshot("run-paced");
    }

    /**
     * Every panel of the run page that has nothing to draw says why: what the scenario's record section kept out
     * (naming the limit and the value), that nothing could be throttled, that the run failed or was cancelled before
     * it started; a run cancelled while it ran shows its partial result under one banner, live and on reload alike;
     * the compare page names a run that has no whole result.
     */
    @Test
    void emptyPanelsSayWhy() throws Exception {
        List<String> panels = List.of("hist", "chart-nr-throttled", "chart-throttled-usec", "chart-usage", "chart-tasks",
                "cpu-timeline", "slowest", "latency-panel", "final-panel");
        // 300 tasks, no quota, per-task series kept only up to 100 tasks, an interval as long as the run (the default
        // interval, chosen from the duration, would give 200 samples)
        String done = startRun("""
                {"scenario": {"name": "many tasks, no quota", "duration": "1s", "machine": {"cpus": 2},
                 "record": {"max_series_tasks": 100, "interval": "1s"},
                 "cgroups": [{"path": "/free"}],
                 "tasks": [{"name": "sleeper", "cgroup": "/free", "count": 300,
                            "workload": {"kind": "periodic", "run": "1ms", "sleep": "20ms"}}]}}""");
        driver.get(url("/runs/" + done));
        waitFor(Duration.ofSeconds(60), "the run's result shown", () -> "true".equals(attr("body", "data-final")));
        assertThat(note("chart-tasks")).contains("Not recorded: 300 tasks > record.max_series_tasks (100)");
        assertThat(note("hist")).contains("no group has a quota");
        assertThat(note("chart-usage")).contains("record.interval (1s) leaves 1 sample in a 1s run");
        assertThat(note("slowest")).contains("no group has a quota");
        assertThat(driver.findElement(By.id("hist")).isDisplayed()).isFalse();
        screenshot("run-empty-panels");

        // cancelled while running: it keeps what it recorded. Opened afterwards, the page draws the partial result
        // under one statement at the top: where it stopped, of the duration, that the result is partial
        String cancelled = startRun("{\"scenario\": " + pacedScenario("cancelled", "60s") + ", \"pace\": 1}");
        waitFor(Duration.ofSeconds(30), "the paced run past 1.5 s simulated (five samples)", () -> {
            try {
                return JSON.readTree(get("/api/runs/" + cancelled)).path("simulatedNs").asLong() >= 1_500_000_000L;
            } catch (Exception e) {
                return false;
            }
        });
        HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url("/api/runs/" + cancelled + "/cancel"))).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        waitFor(Duration.ofSeconds(10), "the run cancelled", () -> {
            try {
                return JSON.readTree(get("/api/runs/" + cancelled)).path("status").asString().equals("cancelled");
            } catch (Exception e) {
                return false;
            }
        });
        driver.get(url("/runs/" + cancelled));
        waitFor(Duration.ofSeconds(30), "the partial result shown", () -> "true".equals(attr("body", "data-final")));
        assertThat(attr("body", "data-partial")).isEqualTo("true");
        assertThat(attr("body", "data-ended")).isEqualTo("cancelled");
        assertThat(attr("#run-status", "data-status")).isEqualTo("cancelled");
        // the banner says it once, as a notice (a cancel is no error)
        assertThat(text("#run-error")).startsWith("cancelled by request at ").contains(" of 60.0 s simulated: partial result.")
                .doesNotContain("(cancelled").doesNotContain("keeps no result");
        assertThat(attr("#run-error", "class")).contains("notice");
        assertPartialPanels();
        screenshot("run-cancelled");

        // watched live and cancelled from its page: it keeps its charts, redrawn from the stored partial result, and
        // says and draws what a reload says and draws
        String watched = startRun("{\"scenario\": " + pacedScenario("watched", "60s") + ", \"pace\": 1}");
        driver.get(url("/runs/" + watched));
        waitFor(Duration.ofSeconds(30), "live samples drawn", () -> "true".equals(attr("body", "data-live"))
                && !driver.findElements(By.cssSelector("#chart-usage .u-over")).isEmpty());
        driver.findElement(By.id("cancel-run")).click();
        waitFor(Duration.ofSeconds(30), "the live page shows the partial result", () -> "true".equals(attr("body", "data-final")));
        assertThat(attr("body", "data-ended")).isEqualTo("cancelled");
        assertPartialPanels();
        String live = text("#run-error");
        String liveTable = text("#cpustat-final");
        assertThat(live).contains(": partial result.");
        screenshot("run-cancelled-live");
        driver.navigate().refresh();
        waitFor(Duration.ofSeconds(30), "the reloaded page shows the partial result", () -> "true".equals(attr("body", "data-final")));
        assertPartialPanels();
        assertThat(text("#run-error")).as("the live page and the reloaded one agree").isEqualTo(live);
        assertThat(text("#cpustat-final")).as("the live page and the reloaded one draw the same").isEqualTo(liveTable);

        // cancelled while queued: no result, one statement and no panels
        String neverRan = java.util.UUID.randomUUID().toString();
        runs.insert(neverRan, null, "never ran", pacedScenario("never ran", "10s"), 3L, 1);
        runs.cancelQueued(neverRan, "cancelled while queued");
        driver.get(url("/runs/" + neverRan));
        waitFor(Duration.ofSeconds(20), "the page ended", () -> "cancelled".equals(attr("body", "data-ended")));
        assertNoPanelsButOneStatement(panels);
        assertThat(text("#run-error")).isEqualTo("cancelled while queued. A run cancelled before it started keeps no result,"
                + " so this page draws nothing: run the scenario again to see it.");

        // failed (the event budget): a row as the worker leaves it
        String failed = java.util.UUID.randomUUID().toString();
        runs.insert(failed, null, "failed run", pacedScenario("failed run", "10s"), 3L, 1);
        runs.start(failed, "test", 10_000_000_000L);
        runs.finish(failed, io.cfslab.store.RunStatus.FAILED, "max events exceeded (1000): event budget of 1000 events"
                + " exceeded at 1000000 ns simulated", 0.01, 1_000_000, 1001, 3);
        driver.get(url("/runs/" + failed));
        waitFor(Duration.ofSeconds(20), "the page ended", () -> "failed".equals(attr("body", "data-ended")));
        assertNoPanelsButOneStatement(panels);
        assertThat(text("#run-error")).isEqualTo("failed: max events exceeded (1000): event budget of 1000 events exceeded at 1000000 ns"
                + " simulated. A failed run keeps no result, so this page draws nothing.");
        screenshot("run-failed");

        // compare: a run without a whole result is named, with why (a partial one covers less simulated time)
        driver.get(url("/compare?a=" + done + "&b=" + cancelled));
        assertThat(text("#compare-unavailable")).contains("B (cancelled) cancelled by request at ")
                .contains(" of 60.0 s simulated; its result is partial").contains("only a done run can be compared");
        assertThat(driver.findElements(By.id("compare-hist"))).isEmpty();
        driver.get(url("/compare?a=" + done + "&b=" + neverRan));
        assertThat(text("#compare-unavailable")).contains("B (never ran) cancelled while queued; it kept no result");
        assertThat(driver.findElements(By.id("compare-hist"))).isEmpty();
        driver.get(url("/compare?a=no-such-run&b=" + done));
        assertThat(text("#compare-unavailable")).contains("A: there is no run no-such-run");
        assertThat(driver.findElements(By.id("no-differences"))).as("no claim that unknown settings are equal").isEmpty();
        screenshot("compare-unavailable");
    }

    /** A cancelled run's page with its partial result: the charts drawn from it, the cpu.stat table filled, no live panel. */
    void assertPartialPanels() {
        assertThat(driver.findElements(By.cssSelector("#chart-usage .u-over"))).as("the usage chart drawn").isNotEmpty();
        assertThat(driver.findElement(By.id("final-panel")).isDisplayed()).isTrue();
        assertThat(driver.findElements(By.cssSelector("#cpustat-final tbody tr"))).as("cpu.stat rows").isNotEmpty();
        assertThat(driver.findElement(By.id("live-panel")).isDisplayed()).isFalse();
        assertThat(driver.findElement(By.tagName("main")).getText().split("partial result", -1)).as("said once").hasSize(2);
        // every time axis ends where the cancel stopped it (the CPUs timeline ran to the full duration, blank past the
        // stop), and the final table says where its values are from, not "at the end"
        String id = driver.getCurrentUrl().replaceAll(".*/runs/", "").replaceAll("[?#].*", "");
        long stoppedNs;
        try {
            stoppedNs = JSON.readTree(get("/api/runs/" + id + "/result")).path("partial").path("stopped_at_ns").asLong();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        assertThat(stoppedNs).as("the result's stop").isPositive();
        assertThat(text("#final-heading")).startsWith("cpu.stat at ").endsWith(" (cancelled)").doesNotContain("the end");
        for (String chart : List.of("chart-usage", "chart-nr-throttled", "chart-throttled-usec", "chart-tasks")) {
            String ranges = attr("#" + chart, "data-ranges");
            if (ranges == null || ranges.isEmpty() || "null".equals(ranges)) continue;
            double xMaxS;
            try {
                xMaxS = JSON.readTree(ranges).path("x").path(1).asDouble();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
            assertThat(xMaxS * 1e9).as(chart + "'s time axis ends at the stop").isLessThanOrEqualTo(stoppedNs * 1.01 + 1e9);
        }
        String spanNs = attr("#cpu-timeline", "data-span-ns");
        if (spanNs != null && !spanNs.isEmpty()) {
            long interval = Long.parseLong(attr("#cpu-timeline", "data-interval-ns"));
            assertThat(Long.parseLong(spanNs)).as("the CPUs timeline ends at the stop").isLessThanOrEqualTo(stoppedNs + interval);
        }
    }

    /** A run page without a result: none of its panels shows, none says the run's outcome again (it is said once, above). */
    void assertNoPanelsButOneStatement(List<String> panels) {
        for (String id : panels) assertThat(driver.findElement(By.id(id)).isDisplayed()).as(id + " not shown").isFalse();
        assertThat(driver.findElements(By.cssSelector("main section.panel")).stream().filter(WebElement::isDisplayed).toList())
                .as("no panel shown").isEmpty();
        assertThat(driver.findElement(By.id("run-error")).isDisplayed()).isTrue();
        assertThat(driver.findElement(By.tagName("main")).getText().split("keeps no result", -1)).as("said once").hasSize(2);
    }

    /** The note that panel {@code id} shows instead of its content. */
    String note(String id) {
        List<WebElement> p = driver.findElements(By.cssSelector("p.empty-note[data-for='" + id + "']"));
        if (p.isEmpty()) p = driver.findElements(By.cssSelector("#" + id + " p.empty-note"));
        assertThat(p).as("a note for panel " + id).isNotEmpty();
        return p.get(0).getText();
    }

    static final tools.jackson.databind.ObjectMapper JSON = tools.jackson.databind.json.JsonMapper.builder().build();

    /** A chart's series colours by name, as it drew them ({@code data-colors}). */
    Map<String, String> colors(String css) throws Exception {
        String json = attr(css, "data-colors");
        assertThat(json).as(css + " data-colors").isNotBlank();
        Map<String, String> out = new LinkedHashMap<>();
        JSON.readTree(json).properties().forEach(e -> out.put(e.getKey(), e.getValue().asString()));
        return out;
    }

    /**
     * Every chart of the run page: both axes titled (the unit in the y title or its ticks), one colour per series name
     * across the panels, and distinct colours within a chart.
     */
    void assertChartsReadable() throws Exception {
        Map<String, String> seen = new LinkedHashMap<>();
        for (String chart : List.of("#chart-nr-throttled", "#chart-throttled-usec", "#chart-usage", "#chart-tasks")) {
            assertThat(JSON.readTree(attr(chart, "data-axes")).valueStream().map(JsonNode::asString)).as(chart + " axis titles")
                    .hasSize(2).allMatch(t -> !t.isBlank());
            Map<String, String> c = colors(chart);
            assertThat(new java.util.HashSet<>(c.values())).as(chart + ": distinct colours").hasSameSizeAs(c.values());
            c.forEach((name, color) -> {
                String before = seen.putIfAbsent(name, color);
                if (before != null) assertThat(color).as(name + " in " + chart).isEqualTo(before);
            });
        }
        assertThat(JSON.readTree(attr("#hist", "data-axes")).size()).isEqualTo(2);
        // the y axes show durations as durations (uPlot draws tick text on the canvas; the legend shows values)
        assertThat(attr("#chart-throttled-usec", "data-axes")).contains("throttled_usec (time)");
        assertThat(driver.findElements(By.cssSelector("input.series-filter"))).hasSizeGreaterThanOrEqualTo(4);
    }

    String get(String path) throws Exception {
        HttpResponse<String> res = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url(path))).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(res.statusCode()).as(path + ": " + res.body()).isEqualTo(200);
        return res.body();
    }

    /** POSTs JSON, asserts the status, returns the new resource's id. */
    String post(String path, String body, int status) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(url(path)))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
        HttpResponse<String> res = HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofString());
        assertThat(res.statusCode()).as(res.body()).isEqualTo(status);
        return res.body().replaceAll("(?s).*?\"id\":\"([^\"]+)\".*", "$1");
    }

    String startRun(String body) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(url("/api/runs")))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build();
        HttpResponse<String> res = HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofString());
        assertThat(res.statusCode()).isEqualTo(202);
        return res.body().replaceAll("(?s).*?\"id\":\"([^\"]+)\".*", "$1");
    }

    /** Whether GET /api/runs/{id}/events answers an event stream (it lands separately from the pages). */
    boolean eventsEndpointPresent(String runId) throws Exception {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest req = HttpRequest.newBuilder(URI.create(url("/api/runs/" + runId + "/events")))
                .header("Accept", "text/event-stream").timeout(Duration.ofSeconds(10)).GET().build();
        // only the status and headers: the body is a stream
        HttpResponse<java.io.InputStream> res = client.send(req, HttpResponse.BodyHandlers.ofInputStream());
        try (java.io.InputStream body = res.body()) {
            return res.statusCode() == 200
                    && res.headers().firstValue("Content-Type").orElse("").startsWith("text/event-stream");
        }
    }

    String attr(String css, String name) { return Chromium.attr(driver, css, name); }

    String text(String css) { return Chromium.text(driver, css); }

    static void waitFor(Duration timeout, String what, BooleanSupplier condition) throws InterruptedException {
        Chromium.waitFor(driver, timeout, what, condition);
    }

    static void screenshot(String name) { Chromium.screenshot(driver, name); }
}
