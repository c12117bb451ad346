package io.cfslab.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a newcomer met in the first hour (issue 12), each as a kind: the editor's defaults follow the chosen
 * {@code kernel.version} and are the parser's ({@code GET /api/scenario-defaults}); a new scenario stores only what
 * the user filled in; a required workload field is marked and named, never a silent placeholder; every workload form
 * shows the parser's defaults; chart legends are never a blank column; and no page is wider than the window, at
 * 1400 px and at 800 px. In Debian's headless Chromium (skipped where it is not installed); every wait polls for
 * a condition with a generous deadline, as the machine may be loaded.
 */
class NewcomerBrowserTest extends BrowserTestBase {
    static final Duration LONG = Duration.ofSeconds(90);

    @Test
    void theEditorsDefaultsFollowTheKernelVersionAndAreTheParsers() throws Exception {
        driver.get(url("/scenarios/new"));
        waitForDefaults("6.18");
        checkLabels(api("/api/scenario-defaults"));
        // the versions the parser accepts are offered, distributions with their base release
        List<String> offered = driver.findElements(By.cssSelector("#kernel-versions option")).stream()
                .map(o -> o.getDomAttribute("value")).toList();
        assertThat(offered).contains("4.14", "5.4", "6.18", "tip-2026", "rhel8", "rhel9", "ubuntu-22.04", "debian-12");
        // every select offers what the parser accepts (besides its "default (…)" entry)
        JsonNode choices = api("/api/scenario-defaults").path("choices");
        for (String key : List.of("kernel.throttle", "kernel.unthrottle", "kernel.hz", "kernel.timer_placement", "kind", "policy", "mode")) {
            List<String> shown = driver.findElements(By.cssSelector("#options-form select[name='" + key + "'] option, #task-form select[name='" + key + "'] option")).stream()
                    .map(o -> o.getDomProperty("value")).filter(v -> !v.isEmpty()).toList();
            List<String> accepted = new ArrayList<>();
            // a task's policy: "normal" is the select's default entry (left out of the task)
            choices.path(key).forEach(c -> { if (!(key.equals("policy") && c.asString().equals("normal"))) accepted.add(c.asString()); });
            assertThat(shown).as(key).isEqualTo(accepted);
        }

        for (String version : List.of("5.4", "rhel9", "tip-2026")) {
            WebElement v = driver.findElement(By.name("kernel.version"));
            v.clear();
            v.sendKeys(version);
            waitForDefaults(version);
            JsonNode d = api("/api/scenario-defaults?version=" + version);
            checkLabels(d);
            assertThat(Chromium.text(driver, "#kernel-effective")).startsWith(version + " also sets:")
                    .contains("throttled_list_insert " + d.at("/kernel/throttled_list_insert").asString());
        }
        assertThat(defaultOption("kernel.throttle")).isEqualTo("default (task-account, tip-2026's)");
        Chromium.screenshot(driver, "newcomer-editor-version");

        // a version the parser refuses is said at the field, in the parser's words
        WebElement v = driver.findElement(By.name("kernel.version"));
        v.clear();
        v.sendKeys("7.4");
        waitFor("the unknown version refused", () -> Chromium.text(driver, "#kernel-effective").contains("unknown kernel version \"7.4\""));
        assertThat(v.getDomAttribute("class")).contains("bad");
    }

    /** Every labelled field of the options form says the defaults {@code d} gives. */
    private void checkLabels(JsonNode d) {
        String version = d.path("version").asString();
        assertThat(defaultOption("kernel.throttle")).isEqualTo("default (" + d.at("/kernel/throttle").asString() + ", " + version + "'s)");
        assertThat(defaultOption("kernel.unthrottle")).isEqualTo("default (" + d.at("/kernel/unthrottle").asString() + ", " + version + "'s)");
        assertThat(defaultOption("kernel.timer_placement")).isEqualTo("default (" + d.at("/kernel/timer_placement").asString() + ", " + version + "'s)");
        assertThat(defaultOption("kernel.hz")).isEqualTo("default (" + d.at("/kernel/hz").asInt() + ")");
        Map<String, String> placeholders = Map.of(
                "kernel.bandwidth_slice_us", String.valueOf(d.at("/kernel/bandwidth_slice_us").asLong()),
                "machine.cpus", String.valueOf(d.at("/machine/cpus").asInt()),
                "machine.profile", d.at("/machine/profile").asString(),
                "record.interval", d.at("/record/interval").asString(),
                "seed", String.valueOf(d.path("seed").asLong()),
                "kernel.version", d.at("/versions/default").asString());
        placeholders.forEach((name, value) -> {
            WebElement field = driver.findElement(By.cssSelector("#options-form [name='" + name + "']"));
            // the whole default on hover; the placeholder is it, or (a rule too long for the field) its start and "…"
            assertThat(field.getDomAttribute("title")).as(name).isEqualTo("left empty: " + value);
            String placeholder = field.getDomAttribute("placeholder");
            if (!placeholder.equals("default: " + value)) {
                assertThat(placeholder).as(name).endsWith("…");
                assertThat("default: " + value).as(name).startsWith(placeholder.substring(0, placeholder.length() - 1));
            }
        });
    }

    private String defaultOption(String name) {
        return driver.findElement(By.cssSelector("#options-form select[name='" + name + "'] option[data-default]")).getText();
    }

    private void waitForDefaults(String version) throws InterruptedException {
        waitFor("the form labelled with " + version + "'s defaults",
                () -> version.equals(Chromium.attr(driver, "#options-form", "data-defaults")));
    }

    @Test
    void aNewScenarioStoresOnlyWhatTheUserChangedAndTheTaskFormSaysWhatIsRequired() throws Exception {
        driver.get(url("/scenarios/new"));
        waitForDefaults("6.18");
        WebElement name = driver.findElement(By.name("name"));
        name.clear();
        name.sendKeys("only what I chose");
        driver.findElement(By.name("duration")).sendKeys("5s");
        driver.findElement(By.name("kernel.version")).sendKeys("5.4");
        waitForDefaults("5.4");
        new Select(driver.findElement(By.name("kernel.hz"))).selectByVisibleText("250");
        driver.findElement(By.cssSelector("#options-form button[type='submit']")).click();
        waitFor("the new scenario opened", () -> driver.getCurrentUrl().matches(".*/scenarios/[0-9a-f-]{36}$")
                && "true".equals(Chromium.attr(driver, "body", "data-loaded")));
        String id = driver.getCurrentUrl().replaceAll(".*/scenarios/", "");
        JsonNode stored = api("/api/scenarios/" + id).path("scenario");
        assertThat(stored.toString()).isEqualTo("{\"name\":\"only what I chose\",\"duration\":\"5s\",\"kernel\":{\"version\":\"5.4\",\"hz\":250}}");
        // the stored scenario's editor labels 5.4's defaults, and a version switch is not overridden by a stored select
        assertThat(defaultOption("kernel.throttle")).isEqualTo("default (cfs_rq, 5.4's)");
        WebElement v = driver.findElement(By.name("kernel.version"));
        v.clear();
        v.sendKeys("6.18");
        waitForDefaults("6.18");
        driver.findElement(By.cssSelector("#options-form button[type='submit']")).click();
        waitFor("the options saved", () -> Chromium.text(driver, "#editor-status").contains("options saved"));
        assertThat(api("/api/scenarios/" + id).at("/scenario/kernel").toString()).isEqualTo("{\"version\":\"6.18\",\"hz\":250}");

        // the task form: every workload's fields say the parser's default, or that they are required
        JsonNode w = api("/api/scenario-defaults").path("workloads");
        WebElement form = driver.findElement(By.id("task-form"));
        Select kind = new Select(form.findElement(By.name("kind")));
        assertThat(form.findElement(By.name("count")).getDomAttribute("placeholder")).isEqualTo("count: 1");
        for (String k : List.of("periodic", "fixed-work", "hackbench", "netperf-udp-rr", "go-sleep-loop")) {
            kind.selectByVisibleText(k);
            for (JsonNode req : w.path(k).path("required")) {
                WebElement f = form.findElement(By.name(req.asString()));
                assertThat(f.isDisplayed()).as(k + " " + req).isTrue();
                assertThat(f.getDomAttribute("placeholder")).as(k + " " + req).isEqualTo(req.asString() + ": required");
                assertThat(f.getDomAttribute("class")).as(k + " " + req).contains("required");
            }
            for (Map.Entry<String, JsonNode> e : w.path(k).path("defaults").properties()) {
                if (k.equals("periodic")) continue; // kernel and loops: not in the form
                WebElement f = form.findElement(By.name(e.getKey()));
                assertThat(f.isDisplayed()).as(k + " " + e.getKey()).isTrue();
                String shown = f.getTagName().equals("select")
                        ? f.findElement(By.cssSelector("option[data-default]")).getText()
                        : f.getDomAttribute("placeholder");
                assertThat(shown).as(k + " " + e.getKey()).isEqualTo(f.getTagName().equals("select")
                        ? "default (" + e.getValue().asString() + ")" : e.getKey() + ": " + e.getValue().asString());
            }
        }
        // a required field left empty: marked and named, nothing sent
        driver.findElement(By.cssSelector("#mkdir-form input[name='path']")).sendKeys("/a\n");
        waitFor("the group created", () -> !driver.findElements(By.cssSelector(".tree-row[data-path='/a']")).isEmpty());
        form.findElement(By.name("name")).sendKeys("p");
        form.findElement(By.name("cgroup")).sendKeys("/a");
        kind.selectByVisibleText("periodic");
        form.findElement(By.name("run")).sendKeys("2ms");
        form.findElement(By.cssSelector("button[type='submit']")).click();
        waitFor("the missing field named", () -> driver.findElement(By.id("editor-error")).isDisplayed()
                && Chromium.text(driver, "#editor-error").contains("periodic needs sleep"));
        assertThat(form.findElement(By.name("sleep")).getDomAttribute("class")).contains("missing");
        assertThat(form.findElement(By.name("run")).getDomAttribute("class")).doesNotContain("missing");
        assertThat(Chromium.text(driver, "#tasks-table tbody")).contains("no tasks yet");
        Chromium.screenshot(driver, "newcomer-task-required");
        // a benchmark workload with its fields left empty is stored without them: the parser's defaults apply
        form.findElement(By.name("name")).clear();
        form.findElement(By.name("name")).sendKeys("hb");
        kind.selectByVisibleText("hackbench");
        form.findElement(By.name("fds")).sendKeys("4");
        form.findElement(By.cssSelector("button[type='submit']")).click();
        waitFor("the hackbench task added", () -> Chromium.text(driver, "#tasks-table tbody").contains("hb"));
        assertThat(api("/api/scenarios/" + id + "/tasks/hb").toString())
                .isEqualTo("{\"name\":\"hb\",\"cgroup\":\"/a\",\"workload\":{\"kind\":\"hackbench\",\"fds\":4}}");
    }

    @Test
    void chartLegendsShowValuesWhenTheCursorIsAway() throws Exception {
        String a = finishedRun(1);
        String b = finishedRun(2);
        String e = finishedExperiment();
        for (String page : List.of("/runs/" + a, "/compare?a=" + a + "&b=" + b, "/experiments/" + e)) {
            driver.manage().window().setSize(new Dimension(1400, 1800));
            driver.get(url(page));
            waitFor(page + " drew its charts", () -> driver.findElements(By.cssSelector(".u-legend")).size() >= 2
                    && ("true".equals(Chromium.attr(driver, "body", "data-final")) || !page.startsWith("/runs/")));
            // the cursor is on no chart: every legend cell still says something (latest value, total or "all buckets")
            waitFor(page + " legends filled", () -> blankLegendCells().isEmpty());
            assertThat(blankLegendCells()).as(page).isEmpty();
            assertThat(driver.findElements(By.cssSelector(".u-legend .u-value")).size()).as(page).isGreaterThanOrEqualTo(4);
        }
        Chromium.screenshot(driver, "newcomer-legends");
    }

    @SuppressWarnings("unchecked")
    private List<String> blankLegendCells() {
        return (List<String>) ((JavascriptExecutor) driver).executeScript("""
                const out = [];
                for (const row of document.querySelectorAll('.u-legend .u-series')) {
                  const v = row.querySelector('.u-value');
                  if (v && v.textContent.trim() === '') out.push(row.closest('[id]')?.id + ': ' + row.textContent.trim());
                }
                return out;""");
    }

    /**
     * At 1400 px and 800 px no page is wider than the window, and no page has a layout fault a newcomer saw
     * (src/test/resources/web/layout-faults.js): a table wider than its panel (home's runs table hid its Delete buttons,
     * the editor's tasks table its policy and cpus, the compare table scrolled), a header running into its neighbour
     * (the tree's cpu.max.burst and cpu.weight), an input whose value or placeholder is cut off (the editor's name, the
     * record interval's rule). Screenshots {@code wider-*.png} and {@code layout-*.png} where one is found.
     */
    @Test
    void noPageIsWiderThanTheWindowNorHasATableWiderThanItsPanel() throws Exception {
        String layoutFaults = new String(getClass().getResourceAsStream("/web/layout-faults.js").readAllBytes(),
                java.nio.charset.StandardCharsets.UTF_8);
        String demo = waitDone(api("POST", "/api/runs", "{\"scenarioId\": \"dashboard-demo\"}").path("id").asString());
        // a scenario with a long name in the runs table: the widest thing a newcomer's home page lists
        String longName = api("POST", "/api/scenarios", """
                {"name": "a scenario with a rather long name, as people give them", "duration": "2s",
                 "cgroups": [{"path": "/a", "cpu.max": "20000 100000"}],
                 "tasks": [{"name": "h", "cgroup": "/a", "count": 2, "workload": {"kind": "hog"}}]}""").path("id").asString();
        String run = waitDone(api("POST", "/api/runs", "{\"scenarioId\": \"" + longName + "\"}").path("id").asString());
        String other = finishedRun(1);
        String experiment = finishedExperiment();
        List<String> pages = List.of("/", "/scenarios/new", "/scenarios/" + longName, "/scenarios/seed01-large-tree-sync",
                "/scenarios/dashboard-demo", "/scenarios/seed03-functional",
                "/runs/" + run, "/runs/" + demo, "/experiments/" + experiment, "/compare?a=" + run + "&b=" + other,
                "/compare?a=" + demo + "&b=" + run, "/compare",
                "/no-such-page", "/login");
        List<String> wider = new ArrayList<>();
        try {
            for (int width : List.of(1400, 800)) {
                driver.manage().window().setSize(new Dimension(width, 1000));
                for (String page : pages) {
                    driver.get(url(page));
                    // the page's own scripts have drawn what they draw (tables filled, charts sized) when it is loaded
                    waitFor(page + " ready", () -> "complete".equals(js("return document.readyState"))
                            && !Chromium.text(driver, "body").contains("loading…"));
                    waitFor(page + " settled", settled());
                    long scroll = ((Number) js("return document.documentElement.scrollWidth")).longValue();
                    long client = ((Number) js("return document.documentElement.clientWidth")).longValue();
                    if (scroll > client) {
                        wider.add(page + " at " + width + " px: document " + scroll + " px > window " + client + " px, widest "
                                + js("""
                                        const w = document.documentElement.clientWidth; let worst = null;
                                        for (const e of document.querySelectorAll('body *')) {
                                          const r = e.getBoundingClientRect();
                                          if (r.right > w && (!worst || r.right > worst[1])) worst = [e.tagName + '#' + e.id + '.' + e.className, r.right];
                                        }
                                        return worst ? worst.join(' to ') : '';"""));
                        Chromium.screenshot(driver, "wider-" + width + page.replaceAll("\\W+", "-"));
                    }
                    @SuppressWarnings("unchecked")
                    List<String> faults = (List<String>) js(layoutFaults);
                    if (!faults.isEmpty()) {
                        for (String f : faults) wider.add(page + " at " + width + " px: " + f);
                        Chromium.screenshot(driver, "layout-" + width + page.replaceAll("\\W+", "-"));
                    }
                }
            }
        } finally {
            driver.manage().window().setSize(new Dimension(1400, 1800));
        }
        assertThat(wider).isEmpty();
    }

    /**
     * The run page's list of distribute calls says which calls it lists when the result kept fewer than the histogram
     * counts (the first record.max_distribute_calls: its "slowest" was not the run's, its "latest" not the latest), and
     * how many of the histogram's calls are slower than any listed; and the badge never says "running" beside a full
     * bar (the result is still being stored then: "storing").
     */
    @Test
    void theCallsListSaysWhatItListsAndTheBadgeIsNeverRunningAtAFullBar() throws Exception {
        String capped = waitDone(api("POST", "/api/runs", """
                {"scenario": {"name": "more calls than kept", "seed": 2, "duration": "3s", "machine": {"profile": "generic", "cpus": 2},
                 "record": {"max_distribute_calls": 20},
                 "cgroups": [{"path": "/a", "cpu.max": "2000 10000"}], "tasks": [{"name": "h", "cgroup": "/a", "count": 2}]}}
                """).path("id").asString());
        long total = api("/api/runs/" + capped + "/result").path("histograms").path("distribute_cfs_runtime_ns").path("count").asLong();
        assertThat(total).as("the run made more calls than it kept").isGreaterThan(20);
        driver.get(url("/runs/" + capped));
        waitFor("the stored result drawn", () -> "true".equals(Chromium.attr(driver, "body", "data-final")));
        assertThat(Chromium.text(driver, "#calls-title")).isEqualTo("Slowest of the first 20 distribute_cfs_runtime() calls");
        assertThat(Chromium.text(driver, "#calls-note")).contains("first 20 of the run's " + String.format(java.util.Locale.US, "%,d", total) + " calls")
                .contains("record.max_distribute_calls").containsAnyOf("slower than any listed", "None of the histogram's calls");
        driver.findElement(By.id("calls-recent")).click();
        waitFor("the latest kept", () -> Chromium.text(driver, "#calls-title").startsWith("Latest of the first 20"));
        assertThat(Chromium.text(driver, "#calls-note")).contains("after it are in the histogram only");
        Chromium.screenshot(driver, "calls-capped");

        // a 300 s, 16-CPU run watched from its start: every look at the status line, 50 ms apart
        String demo = api("POST", "/api/runs", "{\"scenarioId\": \"dashboard-demo\"}").path("id").asString();
        driver.get(url("/runs/" + demo));
        js("""
                window.__looks = [];
                window.__timer = setInterval(() => {
                  const b = document.getElementById('run-status');
                  window.__looks.push([b.textContent.trim(), Number(document.getElementById('run-progress').value)]);
                }, 50);""");
        waitFor("the demo done", () -> "done".equals(Chromium.text(driver, "#run-status")));
        @SuppressWarnings("unchecked")
        List<List<Object>> looks = (List<List<Object>>) js("clearInterval(window.__timer); return window.__looks;");
        assertThat(looks).as("looks at the status line").hasSizeGreaterThan(10)
                .noneMatch(l -> "running".equals(l.get(0)) && ((Number) l.get(1)).doubleValue() >= 100);
        assertThat(looks).anyMatch(l -> "running".equals(l.get(0)));
    }

    /** The page's width stays the same over two looks 300 ms apart (charts and tables drawn). */
    /**
     * The third walk's number and layout findings, on the pages themselves: every chart's y ticks as drawn (kept in
     * {@code data-yticks}) read as the tables write the same kind (2,000, never 2000 or 5K); every line chart's y scale
     * starts at 0 (CPU % per task, counts); the cgroup tree of one group is not a 480 px box; the runs list says what a
     * run ran with without breaking inside a value.
     */
    @Test
    void chartTicksReadAsTablesLineChartsStartAtZeroAndPanelsFitTheirContent() throws Exception {
        String demo = waitDone(api("POST", "/api/runs", "{\"scenarioId\": \"dashboard-demo\"}").path("id").asString());
        driver.manage().window().setSize(new Dimension(1400, 1800));
        driver.get(url("/runs/" + demo));
        waitFor("the charts drawn", () -> ((Number) js("return document.querySelectorAll('[data-yticks]').length")).intValue() >= 4
                && Chromium.attr(driver, "#chart-tasks", "data-ranges") != null && !Chromium.attr(driver, "#chart-tasks", "data-ranges").contains("null"));
        @SuppressWarnings("unchecked")
        List<String> charts = (List<String>) js("return [...document.querySelectorAll('[data-yticks]')].map((e) => e.id || e.className)");
        @SuppressWarnings("unchecked")
        List<String> drawn = (List<String>) js("return [...document.querySelectorAll('[data-yticks]')].map((e) => e.dataset.yticks)");
        java.util.regex.Pattern bare = java.util.regex.Pattern.compile("(^|[^\\d.,])\\d{4}");
        java.util.regex.Pattern abbreviated = java.util.regex.Pattern.compile("\\d[KMG]\\b");
        for (int i = 0; i < charts.size(); i++) {
            for (JsonNode label : JSON.readTree(drawn.get(i))) {
                assertThat(bare.matcher(label.asString()).find()).as(charts.get(i) + " tick " + label + ": 4 digits without a separator").isFalse();
                assertThat(abbreviated.matcher(label.asString()).find()).as(charts.get(i) + " tick " + label + ": abbreviated").isFalse();
            }
        }
        for (String chart : List.of("#chart-tasks", "#chart-nr-throttled", "#chart-throttled-usec", "#chart-usage")) {
            JsonNode ranges = JSON.readTree(Chromium.attr(driver, chart, "data-ranges"));
            assertThat(ranges.at("/y/0").asDouble()).as(chart + " y starts at 0: " + ranges).isEqualTo(0.0);
        }

        // every time axis starts at the run's t = 0, not at the first sample (E5a with record.interval 1s ran 1 s - 5 s,
        // nr_throttled starting "in mid-air" at 10), and a counter's line at its value then: 0 (newcomer walk 4)
        String e5a = waitDone(api("POST", "/api/runs", """
                {"scenario": {"name": "interval 1s", "duration": "5s", "record": {"interval": "1s"},
                 "cgroups": [{"path": "/a", "cpu.max": "10000 100000"}], "tasks": [{"name": "h", "cgroup": "/a"}]}}""")
                .path("id").asString());
        assertThat(api("/api/runs/" + e5a + "/result").at("/series/0/at_ns").asLong()).as("the first sample is 1 s in").isEqualTo(1_000_000_000L);
        String other = finishedRun(1);
        for (String page : List.of("/runs/" + e5a, "/compare?a=" + e5a + "&b=" + other)) {
            driver.get(url(page));
            waitFor(page + " charts drawn", () -> !driver.findElements(By.cssSelector(".chart[data-ranges]")).isEmpty()
                    && ("true".equals(Chromium.attr(driver, "body", "data-final")) || "true".equals(Chromium.attr(driver, "body", "data-loaded"))));
            // the compare page on each run's own scales too: each chart then fits its own data
            for (boolean own : page.startsWith("/compare") ? List.of(false, true) : List.of(false)) {
                if (own) driver.findElement(By.id("own-scales")).click();
                @SuppressWarnings("unchecked")
                List<String> xs = (List<String>) js("return [...document.querySelectorAll('.chart[data-ranges]')].map((e) => e.id + ' ' + e.dataset.ranges)");
                assertThat(xs).as(page).isNotEmpty();
                for (String x : xs) {
                    JsonNode ranges = JSON.readTree(x.substring(x.indexOf(' ') + 1));
                    assertThat(ranges.at("/x/0").asDouble()).as(page + " " + x + ": the time axis starts at 0").isEqualTo(0.0);
                }
            }
        }
        driver.get(url("/runs/" + e5a));
        waitFor("the result drawn", () -> "true".equals(Chromium.attr(driver, "body", "data-final")));
        // nr_throttled's line starts at (0 s, 0), not at its first sample's 10 (the legend with the cursor there)
        // the heading shows the 8-character short id, the full one on hover and copied by its button (newcomer walk 4)
        assertThat(Chromium.text(driver, "h1 .short-id")).isEqualTo(e5a.substring(0, 8));
        assertThat(Chromium.attr(driver, "h1 .short-id", "title")).isEqualTo(e5a);
        driver.findElement(By.cssSelector("h1 button.copy-id")).click();
        waitFor("the id copied", () -> Chromium.attr(driver, "h1 button.copy-id", "data-copied") != null);
        assertThat(Chromium.attr(driver, "h1 button.copy-id", "data-copied")).isEqualTo("true");
        // one line: every piece of the heading (name, id, button: each its own font size) overlaps the others vertically
        Boolean oneLine = (Boolean) js("const r = document.createRange(); r.selectNodeContents(document.querySelector('h1'));"
                + " const rs = [...r.getClientRects()].filter((x) => x.width > 0);"
                + " return Math.max(...rs.map((x) => x.top)) < Math.min(...rs.map((x) => x.bottom));");
        assertThat(oneLine).as("the heading on one line at 1400 px").isTrue();
        JsonNode start = JSON.readTree(Chromium.attr(driver, "#chart-nr-throttled", "data-start"));
        assertThat(start.path("x").asDouble()).isEqualTo(0.0);
        assertThat(start.at("/lines/~1a").asDouble(-1)).as("nr_throttled of /a at 0 s: " + start).isEqualTo(0.0);

        driver.get(url("/scenarios/e1-one-hog-10pct"));
        waitFor("the tree", () -> "true".equals(Chromium.attr(driver, "body", "data-loaded")));
        long tree = ((Number) js("return document.getElementById('tree').getBoundingClientRect().height")).longValue();
        assertThat(tree).as("a tree of 2 rows is sized to them").isLessThan(150);

        driver.manage().window().setSize(new Dimension(1400, 1000));
        driver.get(url("/"));
        waitFor("the runs list", () -> !driver.findElements(By.cssSelector("#runs td.ran-with [data-setting='machine']")).isEmpty());
        Object broken = js("""
                const out = [];
                for (const s of document.querySelectorAll('#runs td.ran-with [data-setting], #runs td.ran-with .nowrap')) {
                  const r = document.createRange();
                  r.selectNodeContents(s);
                  const tops = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
                  if (tops.size > 1) out.push(s.textContent);
                }
                return out;""");
        assertThat((List<?>) broken).as("values broken across lines").isEmpty();
    }

    private BooleanSupplier settled() {
        long[] last = {-1};
        return () -> {
            long w = ((Number) js("return document.documentElement.scrollWidth + document.body.scrollHeight")).longValue();
            boolean same = w == last[0];
            last[0] = w;
            if (!same) {
                try {
                    Thread.sleep(300);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return same;
        };
    }

    private Object js(String script) {
        return ((JavascriptExecutor) driver).executeScript(script);
    }

    private final Map<Integer, String> runs = new java.util.concurrent.ConcurrentHashMap<>();

    /** A finished run of a small scenario (seed {@code seed}); made once per seed. */
    private String finishedRun(int seed) throws Exception {
        String id = runs.get(seed);
        if (id != null) return id;
        String scenario = api("POST", "/api/scenarios", """
                {"name": "legends", "duration": "3s", "record": {"interval": "100ms"},
                 "cgroups": [{"path": "/web", "cpu.max": "50000 100000"}, {"path": "/batch", "cpu.max": "20000 100000"}],
                 "tasks": [{"name": "w", "cgroup": "/web", "count": 2, "workload": {"kind": "periodic", "run": "3ms", "sleep": "2ms"}},
                           {"name": "b", "cgroup": "/batch", "workload": {"kind": "hog"}}]}""").path("id").asString();
        id = waitDone(api("POST", "/api/runs", "{\"scenarioId\": \"" + scenario + "\", \"seed\": " + seed + "}").path("id").asString());
        runs.put(seed, id);
        return id;
    }

    private static String experiment;

    /** A finished experiment of two arms × 2 runs of a small scenario; made once. */
    private String finishedExperiment() throws Exception {
        if (experiment != null) return experiment;
        String id = api("POST", "/api/experiments", """
                {"name": "two arms", "repeats": 2,
                 "scenario": {"name": "two arms", "duration": "2s",
                   "cgroups": [{"path": "/a", "cpu.max": "20000 100000"}],
                   "tasks": [{"name": "h", "cgroup": "/a", "count": 2, "workload": {"kind": "hog"}}]},
                 "arms": [{"name": "task", "set": {"/kernel/throttle": "task"}},
                          {"name": "cfs_rq", "set": {"/kernel/throttle": "cfs_rq"}}]}""").path("id").asString();
        waitFor("the experiment finished", () -> api("/api/experiments/" + id).path("status").asString().equals("done"));
        experiment = id;
        return id;
    }

    private String waitDone(String run) throws InterruptedException {
        waitFor("run " + run + " done", () -> api("/api/runs/" + run).path("status").asString().equals("done"));
        return run;
    }

    private void waitFor(String what, BooleanSupplier condition) throws InterruptedException {
        Chromium.waitFor(driver, LONG, what, condition);
    }
}
