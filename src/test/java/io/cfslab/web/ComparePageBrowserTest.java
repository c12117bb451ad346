package io.cfslab.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The last newcomer walk's findings on the compare and run pages (issue 12), each as a kind: "settings that differ"
 * pairs cgroups by path and tasks by name (the same groups in another order are no difference; a group only one run
 * has is one row); the overlaid histograms compare shares of each run's calls by default, raw counts one click
 * away, the axis saying which; and no table column of a finished seed scenario's run page is empty throughout (the
 * "slack" column was: it now says which timer ran each call). In Debian's headless Chromium (skipped where it is
 * not installed); every wait polls a condition with a generous deadline.
 */
class ComparePageBrowserTest extends BrowserTestBase {
    static final Duration LONG = Duration.ofSeconds(120);

    static final String A = """
            {"name": "web and db", "seed": 5, "duration": "1s", "machine": {"profile": "generic", "cpus": 2},
             "cgroups": [{"path": "/web", "cpu.max": "20000 100000"}, {"path": "/db", "cpu.max": "30000 100000"}],
             "tasks": [{"name": "fe", "cgroup": "/web", "count": 2}, {"name": "be", "cgroup": "/db"}]}""";
    /** A's groups and tasks in the other order, one more group, a longer run (more calls). */
    static final String B = """
            {"name": "db and web", "seed": 5, "duration": "3s", "machine": {"profile": "generic", "cpus": 2},
             "cgroups": [{"path": "/db", "cpu.max": "30000 100000"}, {"path": "/web", "cpu.max": "20000 100000"},
                         {"path": "/batch", "cpu.max": "10000 100000"}],
             "tasks": [{"name": "be", "cgroup": "/db"}, {"name": "fe", "cgroup": "/web", "count": 2}]}""";

    @Test
    void settingsPairGroupsByPathAndHistogramsCompareSharesByDefault() throws Exception {
        String a = doneRun("{\"scenario\": " + A + "}");
        String b = doneRun("{\"scenario\": " + B + "}");
        driver.get(url("/compare?a=" + a + "&b=" + b));
        waitFor("the compare page loaded", () -> "true".equals(Chromium.attr(driver, "body", "data-loaded")));

        List<String> keys = driver.findElements(By.cssSelector("#settings-diff tr[data-key]")).stream()
                .map(e -> e.getDomAttribute("data-key")).toList();
        assertThat(keys).as("the groups in another order are no difference; /batch is one row")
                .contains("duration", "/cgroups[/batch]")
                .noneMatch(k -> k.matches("/(cgroups|tasks)/\\d+.*"))
                .noneMatch(k -> k.startsWith("/cgroups[/web]") || k.startsWith("/cgroups[/db]") || k.startsWith("/tasks["));
        WebElement batch = driver.findElement(By.cssSelector("#settings-diff tr[data-key='/cgroups[/batch]']"));
        List<WebElement> cells = batch.findElements(By.tagName("td"));
        assertThat(cells.get(1).getText()).isEqualTo("(absent)");
        assertThat(cells.get(2).getText()).contains("10000 100000");

        // shares by default: the y axis says so; raw counts one click away, and back
        assertThat(Chromium.attr(driver, "#compare-hist", "data-scale")).isEqualTo("share");
        assertThat(yTitle()).startsWith("share of calls, %");
        assertThat(Chromium.text(driver, "#hist-totals")).matches("A: [\\d,]+ calls · B: [\\d,]+ calls");
        driver.findElement(By.cssSelector("input[name='hist-scale'][value='count']")).click();
        waitFor("raw counts", () -> "count".equals(Chromium.attr(driver, "#compare-hist", "data-scale")));
        assertThat(yTitle()).isEqualTo("calls (raw counts)");
        driver.findElement(By.cssSelector("input[name='hist-scale'][value='share']")).click();
        waitFor("shares again", () -> "share".equals(Chromium.attr(driver, "#compare-hist", "data-scale")));
        Chromium.screenshot(driver, "compare-shares");
    }

    /** The columns shown (not hidden) of the page's tables in which no body row has anything to read or draw. */
    @SuppressWarnings("unchecked")
    private List<String> emptyColumns() {
        return (List<String>) ((JavascriptExecutor) driver).executeScript("""
                const out = [];
                for (const t of document.querySelectorAll('main table')) {
                  if (t.closest('[hidden]') || !t.tBodies[0] || t.tBodies[0].rows.length === 0) continue;
                  const headRows = t.tHead ? [...t.tHead.rows] : [];
                  const head = headRows.length ? [...headRows[headRows.length - 1].cells] : [];
                  const rows = [...t.tBodies[0].rows].map((r) => [...r.cells]).filter((r) => !(r.length === 1 && r[0].colSpan > 1));
                  if (rows.length === 0) continue;
                  const width = Math.max(...rows.map((r) => r.length));
                  for (let i = 0; i < width; i++) {
                    if (rows.every((r) => !r[i] || r[i].hidden)) continue;
                    const filled = rows.some((r) => r[i] && !r[i].hidden && (!['', '–', '-'].includes(r[i].textContent.trim())
                      || r[i].querySelector('div, canvas, svg, progress, a, input, button, time')));
                    if (!filled) out.push((t.id || 'table') + ': ' + (head[i] ? head[i].textContent.trim() || 'column ' + (i + 1) : 'column ' + (i + 1)));
                  }
                }
                return out;""");
    }

    /**
     * The last newcomer walk's chart and table findings, each as its kind: one colour per group in A's and B's charts
     * and on the run page, A and B on one x and one y scale; the cpu.stat table says "–" where a side lacks the value,
     * counts as integers, colour only where lower is better; every table of the compare, run, home and experiment
     * pages in one format per quantity kind, and no column of theirs empty throughout; the home page says each run's
     * pace and when it was created (with the zone; ISO 8601 on hover); an experiment's description is a summary
     * with the rest behind "details".
     */
    @Test
    void oneColourPerGroupSharedScalesAndOneFormatPerQuantityKindOnEveryPage() throws Exception {
        String a = doneRun("{\"scenario\": " + A + "}");
        String b = doneRun("{\"scenario\": " + B + ", \"pace\": 100}");
        driver.get(url("/compare?a=" + a + "&b=" + b));
        waitFor("the compare page loaded", () -> "true".equals(Chromium.attr(driver, "body", "data-loaded")));
        JsonNode ca = JSON.readTree(Chromium.attr(driver, "#compare-throttled-a", "data-colors"));
        JsonNode cb = JSON.readTree(Chromium.attr(driver, "#compare-throttled-b", "data-colors"));
        assertThat(ca.propertyNames()).contains("/web", "/db");
        for (String g : ca.propertyNames()) {
            if (cb.has(g)) assertThat(cb.path(g).asString()).as(g + " in A and B").isEqualTo(ca.path(g).asString());
        }
        assertThat(Chromium.attr(driver, "#compare-throttled-a", "data-ranges")).as("A and B on one scale")
                .isEqualTo(Chromium.attr(driver, "#compare-throttled-b", "data-ranges"));
        // the cpu.stat table: /batch is only B's, so A's values and B − A are "–"; counts are integers; periods neutral
        List<String> batch = sides(groupRow("/batch"));
        for (int k = 0; k < 5; k++) {
            assertThat(batch.get(3 * k)).as("A's value of a group A lacks").isEqualTo("–");
            assertThat(batch.get(2 + 3 * k)).as("B − A of a group A lacks").isEqualTo("–");
        }
        for (WebElement side : driver.findElements(By.cssSelector("#compare-table tbody td [data-side]"))) {
            assertThat(side.getText()).matches("–|[+-]?\\d{1,3}(,\\d{3})*");
        }
        for (WebElement d : driver.findElements(By.cssSelector("#compare-table td[data-key='nr_periods'] [data-side='d'], #compare-table td[data-key='usage_usec'] [data-side='d']"))) {
            assertThat(d.getDomAttribute("class")).as("no better direction: neutral").isEqualTo("neutral");
        }
        assertThat(emptyColumns()).as("compare: columns empty in every row").isEmpty();
        Chromium.screenshot(driver, "compare-scales");

        // the run page gives A's groups the colours the compare page gave them
        driver.get(url("/runs/" + a));
        waitFor("the stored result drawn", () -> "true".equals(Chromium.attr(driver, "body", "data-final")));
        JsonNode run = JSON.readTree(Chromium.attr(driver, "#chart-throttled-usec", "data-colors"));
        for (String g : run.propertyNames()) {
            if (ca.has(g)) assertThat(run.path(g).asString()).as(g + " on the run page and the compare page").isEqualTo(ca.path(g).asString());
        }
        // one rule per kind in the run page's tables: integers, durations with 3 significant digits, percentages
        String duration = "0 (ns|µs|ms|s)|(\\d{3}|\\d{2}\\.\\d|\\d\\.\\d{2}|\\d{1,3}(,\\d{3})+) (ns|µs|ms|s)";
        for (WebElement td : driver.findElements(By.cssSelector("#cpustat-final tbody td:not(.path)"))) {
            if (td.isDisplayed()) assertThat(td.getText()).as("cpu.stat").matches("–|\\d{1,3}(,\\d{3})*");
        }
        for (WebElement tr : driver.findElements(By.cssSelector("#slowest tbody tr"))) {
            List<WebElement> td = tr.findElements(By.tagName("td"));
            assertThat(td.get(0).getText()).as("at").matches(duration);
            assertThat(td.get(3).getText()).as("duration").matches(duration);
        }
        for (WebElement tr : driver.findElements(By.cssSelector("#cpu-totals tbody tr"))) {
            assertThat(tr.findElements(By.tagName("td")).get(4).getText()).as("busy").matches("\\d{1,3}\\.\\d %");
        }

        // home: each run's pace and when it was created, in the browser's zone, ISO 8601 on hover
        driver.get(url("/"));
        waitFor("the runs listed", () -> driver.findElements(By.cssSelector("#runs tbody tr[data-run-id]")).size() >= 2);
        WebElement paced = driver.findElement(By.cssSelector("#runs tbody tr[data-run-id='" + b + "']"));
        assertThat(paced.findElement(By.cssSelector("td.pace")).getText()).isEqualTo("100× real time");
        assertThat(driver.findElement(By.cssSelector("#runs tbody tr[data-run-id='" + a + "'] td.pace")).getText()).isEqualTo("as fast as possible");
        WebElement when = paced.findElement(By.cssSelector("td.when time"));
        assertThat(when.getText()).matches("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2} \\S+");
        assertThat(when.getDomAttribute("title")).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z")
                .isEqualTo(when.getDomAttribute("datetime"));
        // ready-made experiments: a summary, the rest behind "details", no build notes
        for (WebElement td : driver.findElements(By.cssSelector("#ready-made-experiments td.description"))) {
            assertThat(td.findElement(By.tagName("span")).getText()).hasSizeLessThanOrEqualTo(320);
            assertThat(td.findElements(By.cssSelector("details summary"))).hasSize(1);
        }
        assertThat(emptyColumns()).as("home: columns empty in every row").isEmpty();
        Chromium.screenshot(driver, "home-pace-created");

        // an experiment: a summary and details; its tables in the same formats, no column empty throughout
        String x = api("POST", "/api/experiments", """
                {"name": "two quotas", "description": ["What it shows, in one line.", "How it is set up, at length."],
                 "scenario": %s, "repeats": 2,
                 "arms": [{"name": "20%%", "set": {"/cgroups/0/cpu.max": "20000 100000"}}, {"name": "40%%", "set": {"/cgroups/0/cpu.max": "40000 100000"}}]}
                """.formatted(A)).path("id").asString();
        driver.get(url("/experiments/" + x));
        waitFor("the experiment's table", () -> !driver.findElements(By.cssSelector("#summary-table tbody tr[data-metric]")).isEmpty());
        assertThat(Chromium.text(driver, "#exp-description")).isEqualTo("What it shows, in one line.");
        assertThat(driver.findElement(By.id("exp-details")).isDisplayed()).isTrue();
        for (WebElement tr : driver.findElements(By.cssSelector("#summary-table tbody tr[data-metric]"))) {
            String metric = tr.getDomAttribute("data-metric");
            String mean = tr.findElements(By.tagName("td")).get(1).getText();
            if (metric.endsWith("nr_periods") || metric.endsWith("nr_throttled")) {
                assertThat(mean).as(metric + ": a count").matches("\\d{1,3}(,\\d{3})*(\\.\\d)?±.*");
            }
        }
        assertThat(emptyColumns()).as("experiment: columns empty in every row").isEmpty();
        Chromium.screenshot(driver, "experiment-formats");
    }

    /** colors.ts's nameHash (FNV-1a over UTF-16 code units) modulo the palette's 32: a name's first choice. */
    static int firstChoice(String name) {
        int h = 0x811c9dc5;
        for (int i = 0; i < name.length(); i++) {
            h ^= name.charAt(i);
            h *= 0x01000193;
        }
        return (int) (Integer.toUnsignedLong(h) % 32);
    }

    /** Two group names whose first choices are one colour: which of them a page probes past depends on the page. */
    static String[] collidingNames() {
        java.util.Map<Integer, String> seen = new java.util.HashMap<>();
        for (int i = 0; ; i++) {
            String n = "/web/g" + i;
            String other = seen.putIfAbsent(firstChoice(n), n);
            if (other != null) return new String[] {other, n};
        }
    }

    /**
     * Every chart of the page that drew (its {@code data-colors}): its series' colours, pairwise at least ΔE2000 15
     * apart, and 30 for a histogram's few roles (calls; wake-up latency and run-stretch time; A and B; arms), which
     * take the palette's most distinct first colours (two close greens in the latency histograms, a walk's finding).
     */
    private java.util.Map<String, JsonNode> chartColours(String page) {
        java.util.Map<String, JsonNode> out = new java.util.LinkedHashMap<>();
        for (WebElement chart : driver.findElements(By.cssSelector("[data-colors]"))) {
            String cls = String.valueOf(chart.getDomAttribute("class"));
            String id = chart.getDomAttribute("id") != null ? chart.getDomAttribute("id") : cls + " " + out.size();
            JsonNode colours = JSON.readTree(chart.getDomAttribute("data-colors"));
            List<String> cs = colours.propertyNames().stream().map(n -> colours.path(n).asString()).toList();
            boolean roles = id.endsWith("hist") || cls.contains("strip");
            double floor = roles && cs.size() <= 3 ? 30 : 15;
            for (int i = 0; i < cs.size(); i++) {
                for (int j = 0; j < i; j++) {
                    assertThat(Ciede2000.distance(cs.get(i), cs.get(j))).as(page + " #" + id + ": " + cs.get(j) + " and " + cs.get(i))
                            .isGreaterThanOrEqualTo(floor);
                }
            }
            out.put(id, colours);
        }
        return out;
    }

    private static void sameColours(String what, JsonNode seen, JsonNode now) {
        int shared = 0;
        for (String g : now.propertyNames()) {
            if (!seen.has(g)) continue;
            shared++;
            assertThat(now.path(g).asString()).as(g + ": " + what).isEqualTo(seen.path(g).asString());
        }
        assertThat(shared).as(what + ": groups in common").isPositive();
    }

    /**
     * This session's walk, as kinds: a group's colour is the same on the run page, another run's page, the compare
     * page and an experiment's run (the browser remembers it; each page had given it by its own set of names), every
     * chart's colours distinct, a histogram's roles the most distinct; the compare table shows every cpu.stat and
     * cpu.stat.local key either run has ("–" on the side that lacks it); the shared scales say why, with a toggle.
     */
    @Test
    void aGroupKeepsItsColourOnEveryPageAndTheCompareTableHasEveryKey() throws Exception {
        String[] xy = collidingNames();
        String periodic = "\"workload\": {\"kind\": \"periodic\", \"run\": \"3ms\", \"sleep\": \"4ms\"}";
        String one = """
                {"name": "colours one", "seed": 3, "duration": "1s", "machine": {"profile": "generic", "cpus": 2}, "kernel": {"version": "5.4"},
                 "cgroups": [{"path": "/web"}, {"path": "%1$s", "cpu.max": "20000 100000"}, {"path": "%2$s", "cpu.max": "30000 100000"}, {"path": "/db", "cpu.max": "10000 100000"}],
                 "tasks": [{"name": "x", "cgroup": "%1$s", "count": 2, %3$s}, {"name": "y", "cgroup": "%2$s", "count": 2}, {"name": "d", "cgroup": "/db"}]}"""
                .formatted(xy[0], xy[1], periodic);
        String two = """
                {"name": "colours two", "seed": 3, "duration": "3s", "machine": {"profile": "generic", "cpus": 2},
                 "cgroups": [{"path": "/web"}, {"path": "%1$s", "cpu.max": "30000 100000"}, {"path": "/batch", "cpu.max": "10000 100000"}],
                 "tasks": [{"name": "y", "cgroup": "%1$s", "count": 2}, {"name": "b", "cgroup": "/batch"}]}""".formatted(xy[1]);
        String r1 = doneRun("{\"scenario\": " + one + "}");
        String r2 = doneRun("{\"scenario\": " + two + "}");

        driver.get(url("/runs/" + r1));
        waitFor("run 1 drawn", () -> "true".equals(Chromium.attr(driver, "body", "data-final")));
        waitFor("its latency histogram", () -> Chromium.attr(driver, "#latency-hist", "data-colors") != null);
        java.util.Map<String, JsonNode> run1 = chartColours("run 1");
        JsonNode groups1 = run1.get("chart-throttled-usec");
        assertThat(groups1.propertyNames()).contains(xy[0], xy[1]);

        driver.get(url("/runs/" + r2));
        waitFor("run 2 drawn", () -> "true".equals(Chromium.attr(driver, "body", "data-final")));
        sameColours("run 2's page and run 1's", groups1, chartColours("run 2").get("chart-throttled-usec"));
        // one name per quantity (newcomer walk 4, item 8): the run page's table names cpu.stat.local's throttled_usec as
        // the compare page does, its nr_throttled axis counts periods as an experiment's strip plot does, and a note
        // under the table says why the local value can exceed cpu.stat's or be non-zero for a group without a quota
        String local = "throttled_usec (cpu.stat.local)";
        assertThat(Chromium.text(driver, "#cpustat-final thead")).contains(local).doesNotContain("local throttled_usec");
        assertThat(Chromium.attr(driver, "#chart-nr-throttled", "data-axes")).contains("nr_throttled (periods)");
        assertThat(Chromium.text(driver, "#cpustat-final-local-note")).startsWith(local).contains("an ancestor's")
                .contains("a group without a quota under a limited parent");
        driver.get(url("/runs/" + r1)); // 5.4: no cpu.stat.local, no column, no note
        waitFor("run 1 drawn", () -> "true".equals(Chromium.attr(driver, "body", "data-final")));
        assertThat(driver.findElements(By.id("cpustat-final-local-note"))).isEmpty();

        driver.get(url("/compare?a=" + r1 + "&b=" + r2));
        waitFor("the compare page loaded", () -> "true".equals(Chromium.attr(driver, "body", "data-loaded")));
        java.util.Map<String, JsonNode> cmp = chartColours("compare");
        sameColours("compare A and run 1", groups1, cmp.get("compare-throttled-a"));
        sameColours("compare B and run 1", groups1, cmp.get("compare-throttled-b"));
        // every key either run has: 5.4 prints no burst keys and no cpu.stat.local, 6.18 both
        List<String> heads = driver.findElements(By.cssSelector("#compare-table thead tr:first-child th[data-key]")).stream()
                .map(e -> e.getDomAttribute("data-file") + "/" + e.getDomAttribute("data-key")).toList();
        assertThat(heads).containsExactly("cpu.stat/usage_usec", "cpu.stat/user_usec", "cpu.stat/system_usec", "cpu.stat/nr_periods",
                "cpu.stat/nr_throttled", "cpu.stat/throttled_usec", "cpu.stat/nr_bursts", "cpu.stat/burst_usec", "cpu.stat.local/throttled_usec");
        assertThat(Chromium.text(driver, "#compare-table thead")).contains(local);
        assertThat(Chromium.text(driver, "#compare-table-local-note")).startsWith(local);
        assertThat(Chromium.attr(driver, "#compare-throttled-a", "data-axes")).contains("throttled_usec (time)");
        List<String> y = sides(groupRow(xy[1]));
        for (int k : new int[] {6, 7, 8}) { // nr_bursts, burst_usec, cpu.stat.local's throttled_usec: A's 5.4 lacks them
            assertThat(y.get(3 * k)).as("A's " + heads.get(k)).isEqualTo("–");
            assertThat(y.get(1 + 3 * k)).as("B's " + heads.get(k)).matches("\\d{1,3}(,\\d{3})*");
            assertThat(y.get(2 + 3 * k)).as("B − A of " + heads.get(k)).isEqualTo("–");
        }
        // the shared scales say why the 1 s run takes a third of the axis, and each run can have its own
        assertThat(Chromium.text(driver, "#scales-note")).contains("share one time axis").contains("fills 33 % of the time axis");
        String shared = Chromium.attr(driver, "#compare-throttled-a", "data-ranges");
        assertThat(shared).isEqualTo(Chromium.attr(driver, "#compare-throttled-b", "data-ranges"));
        driver.findElement(By.id("own-scales")).click();
        waitFor("own scales", () -> !shared.equals(Chromium.attr(driver, "#compare-throttled-a", "data-ranges")));
        assertThat(Chromium.attr(driver, "#compare-throttled-a", "data-ranges")).isNotEqualTo(Chromium.attr(driver, "#compare-throttled-b", "data-ranges"));
        assertThat(Chromium.text(driver, "#scales-note")).contains("own scales");
        sameColours("compare A on its own scales", groups1, chartColours("compare, own scales").get("compare-throttled-a"));
        Chromium.screenshot(driver, "compare-every-key");

        // an experiment of scenario one: its arms the palette's first colours on every chart; its run's groups as before
        String x = api("POST", "/api/experiments", """
                {"name": "colours", "scenario": %s, "repeats": 1,
                 "arms": [{"name": "20%%", "set": {"/cgroups/1/cpu.max": "20000 100000"}}, {"name": "40%%", "set": {"/cgroups/1/cpu.max": "40000 100000"}}]}
                """.formatted(one)).path("id").asString();
        driver.get(url("/experiments/" + x));
        waitFor("the experiment's table", () -> !driver.findElements(By.cssSelector("#summary-table tbody tr[data-metric]")).isEmpty());
        waitFor("its histogram", () -> Chromium.attr(driver, "#exp-hist", "data-colors") != null);
        // a verdict is red or green only where lower is better (usage_usec +98.7 % was red)
        for (WebElement tr : driver.findElements(By.cssSelector("#summary-table tbody tr[data-metric]"))) {
            String metric = tr.getDomAttribute("data-metric");
            String cls = String.valueOf(tr.findElements(By.tagName("td")).get(3).getDomAttribute("class"));
            if (!metric.endsWith("nr_throttled") && !metric.endsWith("/throttled_usec")) {
                assertThat(cls).as(metric + "'s verdict").isIn("neutral", "noise");
            }
        }
        java.util.Map<String, JsonNode> exp = chartColours("experiment");
        JsonNode arms = exp.get("exp-hist");
        for (JsonNode c : exp.values()) if (c.has("20%")) sameColours("an arm on every chart", arms, c);
        String armRun = driver.findElement(By.cssSelector("#arms a.run-dot")).getDomAttribute("href");
        driver.get(url(armRun));
        waitFor("the arm's run drawn", () -> "true".equals(Chromium.attr(driver, "body", "data-final")));
        sameColours("an experiment's run and run 1", groups1, chartColours("experiment run").get("chart-throttled-usec"));
    }

    /** The compare table's row of a group. */
    private WebElement groupRow(String path) {
        return driver.findElements(By.cssSelector("#compare-table tbody tr")).stream()
                .filter(r -> r.findElement(By.tagName("td")).getText().equals(path)).findFirst().orElseThrow();
    }

    /** A row's values, key by key: A, B, B − A. */
    private static List<String> sides(WebElement row) {
        return row.findElements(By.cssSelector("td [data-side]")).stream().map(WebElement::getText).toList();
    }

    private String yTitle() {
        return JSON.readTree(Chromium.attr(driver, "#compare-hist", "data-axes")).get(1).asString();
    }

    @Test
    void noColumnOfAFinishedSeedScenariosRunPageIsEmptyThroughout() throws Exception {
        String run = doneRun("{\"scenarioId\": \"seed03-functional\"}");
        driver.get(url("/runs/" + run));
        waitFor("the stored result drawn", () -> "true".equals(Chromium.attr(driver, "body", "data-final")));
        waitFor("the latency table drawn", () -> !driver.findElements(By.cssSelector("#task-latency tbody tr")).isEmpty());
        // every table the page shows: for each column shown, some body cell has something to read (or draws)
        List<String> empty = emptyColumns();
        assertThat(empty).as("columns empty in every row").isEmpty();
        // the column that was always empty says which timer ran each call
        List<String> timers = driver.findElements(By.cssSelector("#slowest tbody tr td:last-child")).stream()
                .map(WebElement::getText).distinct().toList();
        assertThat(timers).isNotEmpty().allMatch(t -> t.equals("period") || t.equals("slack"));
        assertThat(Chromium.text(driver, "#slowest thead")).contains("timer").doesNotContain("slack");
        // a hidden column is named under its table with the reason
        String hidden = Chromium.attr(driver, "#cpustat-final", "data-hidden-columns");
        if (hidden != null && !hidden.isEmpty()) {
            assertThat(Chromium.text(driver, "#cpustat-final-hidden")).contains("Not shown").contains(hidden.split(",")[0]);
        }
        Chromium.screenshot(driver, "run-page-columns");
    }

    /**
     * The 8-character ids the pages show are accepted where an id is typed or pasted: the compare form and the address
     * bar resolve a unique prefix to the full id (as git resolves an abbreviated commit), the API lists the runs a
     * prefix starts, and an unknown one is still "no run".
     */
    @Test
    void theShortIdsThePagesShowAreAcceptedWhereAnIdIsTypedOrPasted() throws Exception {
        String request = "{\"scenario\": {\"name\": \"short ids\", \"duration\": \"100ms\", \"machine\": {\"cpus\": 1},"
                + " \"tasks\": [{\"name\": \"h\", \"workload\": {\"kind\": \"hog\"}}]}}";
        String a = doneRun(request);
        String b = doneRun(request);
        driver.get(url("/compare"));
        driver.findElement(By.cssSelector("form[action='/compare'] input[name='a']")).sendKeys(a.substring(0, 8));
        WebElement bField = driver.findElement(By.cssSelector("form[action='/compare'] input[name='b']"));
        bField.sendKeys(b.substring(0, 8).toUpperCase(java.util.Locale.ROOT), org.openqa.selenium.Keys.ENTER);
        waitFor("the full ids' page", () -> driver.getCurrentUrl().endsWith("/compare?a=" + a + "&b=" + b));
        assertThat(Chromium.text(driver, ".side[data-side='A']")).contains("short ids").contains(a.substring(0, 8));
        // each heading names scenario, short id and status, a done run's too (docs/dashboard.md)
        for (String side : List.of("A", "B")) {
            assertThat(Chromium.text(driver, ".side[data-side='" + side + "'] .badge")).as(side + "'s status").isEqualTo("done");
        }
        assertThat(driver.findElements(By.id("compare-unavailable"))).isEmpty();

        // from the home page, ticked newer first: the older run is A, so B − A reads new minus old
        driver.get(url("/"));
        waitFor("both runs listed", () -> driver.findElements(By.cssSelector("#runs tr[data-run-id='" + a + "'] input:enabled, #runs tr[data-run-id='" + b + "'] input:enabled")).size() == 2);
        driver.findElement(By.cssSelector("#runs tr[data-run-id='" + b + "'] input")).click();
        driver.findElement(By.cssSelector("#runs tr[data-run-id='" + a + "'] input")).click();
        driver.findElement(By.cssSelector("#compare-form button")).click();
        waitFor("the compare page, older run in A", () -> driver.getCurrentUrl().contains("/compare?a=" + a + "&b=" + b));

        driver.get(url("/runs/" + a.substring(0, 8)));
        waitFor("the run page of the full id", () -> driver.getCurrentUrl().endsWith("/runs/" + a));

        JsonNode listed = api("/api/runs?id_prefix=" + b.substring(0, 8));
        assertThat(listed.size()).isEqualTo(1);
        assertThat(listed.get(0).path("id").asString()).isEqualTo(b);

        String unknown = a.startsWith("0") ? "ffffffff" : "00000000";
        driver.get(url("/compare?a=" + unknown + "&b=" + b));
        assertThat(Chromium.text(driver, "#compare-unavailable")).contains("there is no run " + unknown);
    }

    private String doneRun(String request) throws Exception {
        String id = api("POST", "/api/runs", request).path("id").asString();
        waitFor("run " + id + " done", () -> {
            String s = api("GET", "/api/runs/" + id, null).path("status").asString();
            assertThat(s).as("run " + id).isIn("queued", "running", "done");
            return s.equals("done");
        });
        return id;
    }

    private void waitFor(String what, BooleanSupplier condition) throws InterruptedException {
        Chromium.waitFor(driver, LONG, what, condition);
    }
}
