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
        @SuppressWarnings("unchecked")
        List<String> empty = (List<String>) ((JavascriptExecutor) driver).executeScript("""
                const out = [];
                for (const t of document.querySelectorAll('main table')) {
                  if (t.closest('[hidden]') || !t.tBodies[0] || t.tBodies[0].rows.length === 0) continue;
                  const head = t.tHead ? [...t.tHead.rows[0].cells] : [];
                  const rows = [...t.tBodies[0].rows].map((r) => [...r.cells]);
                  const width = Math.max(...rows.map((r) => r.length));
                  for (let i = 0; i < width; i++) {
                    if (head[i] && head[i].hidden) continue;
                    const filled = rows.some((r) => r[i] && !r[i].hidden && (!['', '–', '-'].includes(r[i].textContent.trim())
                      || r[i].querySelector('div, canvas, svg, progress, a, input, button')));
                    if (!filled) out.push((t.id || 'table') + ': ' + (head[i] ? head[i].textContent.trim() : 'column ' + (i + 1)));
                  }
                }
                return out;""");
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
