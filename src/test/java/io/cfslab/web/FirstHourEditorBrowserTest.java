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
 * The editor's first hour, second walk (issue 12), each as a kind: an action that uses the stored scenario (Run,
 * Export) saves the form's unsaved changes first or refuses with the reason, and leaving warns; explicit kernel keys
 * that override the version's defaults are named at the version field with a way back to the default; a saved
 * scenario can be deleted (home page and editor), a ready-made one says it cannot; a cgroup file the scenario's kernel
 * lacks is not an editable box; a required mark goes once the field is filled. In Debian's headless Chromium
 * (skipped where it is not installed); every wait polls a condition with a generous deadline (the machine may be
 * loaded); confirm() is answered by the page's own stub so no native dialog can block the driver.
 */
class FirstHourEditorBrowserTest extends BrowserTestBase {
    static final Duration LONG = Duration.ofSeconds(90);

    private String scenario(String name, String kernel) {
        return api("POST", "/api/scenarios", """
                {"name": "%s", "duration": "200ms", "machine": {"cpus": 2}, "kernel": %s,
                 "cgroups": [{"path": "/a", "cpu.max": "50000 100000"}],
                 "tasks": [{"name": "h", "cgroup": "/a", "workload": {"kind": "hog"}}]}
                """.formatted(name, kernel)).path("id").asString();
    }

    private void open(String id) throws InterruptedException {
        driver.get(url("/scenarios/" + id));
        waitFor("the editor loaded", () -> "true".equals(Chromium.attr(driver, "body", "data-loaded")));
    }

    private void type(String name, String value) {
        WebElement f = driver.findElement(By.cssSelector("#options-form [name='" + name + "']"));
        f.clear();
        f.sendKeys(value);
    }

    private boolean dirty() {
        return "true".equals(Chromium.attr(driver, "body", "data-dirty"));
    }

    @Test
    void runSavesTheFormsUnsavedChangesFirstOrRefusesAndLeavingWarns() throws Exception {
        String id = scenario("unsaved", "{\"version\": \"6.18\"}");
        open(id);
        assertThat(dirty()).isFalse();
        assertThat(driver.findElement(By.id("unsaved-note")).isDisplayed()).isFalse();
        assertThat(beforeUnloadPrevented()).as("nothing to lose: leaving does not warn").isFalse();

        type("machine.cpus", "4");
        waitFor("the unsaved note", () -> dirty() && driver.findElement(By.id("unsaved-note")).isDisplayed());
        assertThat(beforeUnloadPrevented()).as("leaving with unsaved changes warns").isTrue();

        // a value the service refuses: Run does not run the stored scenario, and says why
        type("machine.cpus", "0");
        driver.findElement(By.id("run-scenario")).click();
        waitFor("the refusal", () -> Chromium.text(driver, "#editor-error").contains("not run: the unsaved changes could not be saved"));
        assertThat(driver.getCurrentUrl()).endsWith("/scenarios/" + id);
        assertThat(api("/api/scenarios/" + id).at("/scenario/machine/cpus").asInt()).isEqualTo(2);

        // 2 -> 4 then Run: the run uses 4 CPUs, and the scenario stores them
        type("machine.cpus", "4");
        driver.findElement(By.id("run-scenario")).click();
        waitFor("the run page", () -> driver.getCurrentUrl().matches(".*/runs/[0-9a-f-]{36}$"));
        String run = driver.getCurrentUrl().replaceAll(".*/runs/", "");
        assertThat(api("/api/scenarios/" + id).at("/scenario/machine/cpus").asInt()).isEqualTo(4);
        assertThat(api("/api/runs/" + run).at("/settings/machine/cpus").asInt()).isEqualTo(4);

        // Save options keeps the tasks added since the page was loaded (it writes over the scenario as stored now)
        open(id);
        api("POST", "/api/scenarios/" + id + "/tasks", "{\"name\": \"late\", \"cgroup\": \"/a\", \"workload\": {\"kind\": \"hog\"}}");
        type("seed", "7");
        driver.findElement(By.cssSelector("#options-form button[type='submit']")).click();
        waitFor("the options saved", () -> Chromium.text(driver, "#editor-status").contains("options saved"));
        JsonNode stored = api("/api/scenarios/" + id).path("scenario");
        assertThat(stored.path("seed").asInt()).isEqualTo(7);
        assertThat(stored.path("tasks").toString()).contains("\"late\"");
        assertThat(dirty()).isFalse();
    }

    /**
     * A refusal of the scenario as a whole (Run: its unsaved changes could not be saved) goes when the scenario changes:
     * when the fault is edited away (the timeline rows beyond the new duration deleted; the refused field changed),
     * not only at the next Run (newcomer walk 4, item 6: the banner stayed after both timeline rows were deleted).
     */
    @Test
    void aRunRefusalGoesWhenTheScenarioChanges() throws Exception {
        String id = api("POST", "/api/scenarios", """
                {"name": "late action", "duration": "10s", "machine": {"cpus": 2},
                 "cgroups": [{"path": "/a", "cpu.max": "50000 100000"}],
                 "tasks": [{"name": "h", "cgroup": "/a", "workload": {"kind": "hog"}}],
                 "timeline": [{"at": "8s", "write": "/a/cpu.max", "value": "20000 100000"}]}""").path("id").asString();
        open(id);
        type("duration", "5s");
        driver.findElement(By.id("run-scenario")).click();
        waitFor("the refusal", () -> Chromium.text(driver, "#editor-error").contains("not run: the unsaved changes could not be saved")
                && Chromium.text(driver, "#editor-error").contains("at 8s is beyond duration 5s"));
        // the fault edited away: the action at 8 s deleted; the banner goes and the status says what changed
        driver.findElement(By.cssSelector("#timeline-table tbody button")).click();
        waitFor("the banner gone", () -> !driver.findElement(By.id("editor-error")).isDisplayed());
        assertThat(Chromium.text(driver, "#editor-status")).isEqualTo("timeline action 0 deleted");
        // and Run now runs it, with 5 s
        driver.findElement(By.id("run-scenario")).click();
        waitFor("the run page", () -> driver.getCurrentUrl().matches(".*/runs/[0-9a-f-]{36}$"));
        assertThat(api("/api/scenarios/" + id).at("/scenario/duration").asString()).isEqualTo("5s");

        // a refused field edited: the refusal judged a value no longer shown, so it goes once the field is left
        open(id);
        type("machine.cpus", "0");
        driver.findElement(By.id("run-scenario")).click();
        waitFor("the refusal", () -> Chromium.text(driver, "#editor-error").contains("not run"));
        type("machine.cpus", "4");
        driver.findElement(By.cssSelector("#options-form [name='seed']")).click(); // leave the field: its change event
        waitFor("the banner gone", () -> !driver.findElement(By.id("editor-error")).isDisplayed());
        assertThat(Chromium.text(driver, "#editor-status")).contains("changed since the refusal");
        // a refusal of one edit (a timeline action the kernel refuses) is about that edit: editing the form keeps it
        WebElement tl = driver.findElement(By.id("timeline-form"));
        tl.findElement(By.name("at")).sendKeys("1s");
        tl.findElement(By.name("arg1")).sendKeys("/a/cpu.max");
        tl.findElement(By.name("arg2")).sendKeys("500 100000");
        tl.findElement(By.cssSelector("button[type='submit']")).click();
        waitFor("the action refused", () -> Chromium.text(driver, "#editor-error").contains("EINVAL"));
        type("machine.cpus", "2");
        driver.findElement(By.cssSelector("#options-form [name='seed']")).click();
        assertThat(driver.findElement(By.id("editor-error")).isDisplayed()).as("the action's refusal stays").isTrue();
    }

    /** Fires a cancelable beforeunload the way the browser does and says whether the page asked to stay. */
    private boolean beforeUnloadPrevented() {
        return (Boolean) ((JavascriptExecutor) driver).executeScript(
                "const e = new Event('beforeunload', {cancelable: true}); window.dispatchEvent(e); return e.defaultPrevented;");
    }

    @Test
    void explicitKernelKeysOverTheVersionAreNamedWithAWayBackToTheDefault() throws Exception {
        JsonNode latest = api("/api/scenario-defaults?version=6.18").path("kernel");
        JsonNode old = api("/api/scenario-defaults?version=6.1").path("kernel");
        // a "copy" of a 6.18 scenario that names 6.18's switches explicitly, switched to 6.1
        StringBuilder kernel = new StringBuilder("{\"version\": \"6.1\"");
        List<String> differing = new java.util.ArrayList<>();
        for (String key : List.of("throttle", "unthrottle", "timer_placement")) {
            kernel.append(", \"").append(key).append("\": \"").append(latest.path(key).asString()).append('"');
            if (!latest.path(key).asString().equals(old.path(key).asString())) differing.add(key);
        }
        assertThat(differing).as("6.18 and 6.1 differ in some switch").isNotEmpty();
        String id = scenario("overrides", kernel.append('}').toString());
        open(id);
        waitFor("the overrides named", () -> driver.findElement(By.id("kernel-overrides")).isDisplayed());
        for (String key : differing) {
            assertThat(Chromium.text(driver, "#kernel-overrides .override[data-key='" + key + "']"))
                    .contains(key + ": " + latest.path(key).asString())
                    .contains("use 6.1's " + old.path(key).asString());
        }
        String key = differing.get(0);
        driver.findElement(By.cssSelector("#kernel-overrides button[data-key='" + key + "']")).click();
        waitFor("the key dropped in the form", () -> driver.findElements(By.cssSelector("#kernel-overrides .override[data-key='" + key + "']")).isEmpty());
        assertThat(dirty()).isTrue();
        driver.findElement(By.cssSelector("#options-form button[type='submit']")).click();
        waitFor("the options saved", () -> Chromium.text(driver, "#editor-status").contains("options saved"));
        JsonNode stored = api("/api/scenarios/" + id).at("/scenario/kernel");
        assertThat(stored.has(key)).as(stored.toString()).isFalse();
        assertThat(stored.path("version").asString()).isEqualTo("6.1");
    }

    @Test
    void savedScenariosCanBeDeletedAndReadyMadeOnesSaySoNot() throws Exception {
        String fromHome = scenario("delete me from home", "{}");
        String fromEditor = scenario("delete me in the editor", "{}");
        driver.get(url("/"));
        WebElement row = driver.findElement(By.cssSelector("#saved tr[data-scenario-id='" + fromHome + "']"));
        stubConfirm();
        row.findElement(By.cssSelector(".delete-scenario-btn")).click();
        waitFor("the row removed", () -> driver.findElements(By.cssSelector("#saved tr[data-scenario-id='" + fromHome + "']")).isEmpty());
        assertThat(asked()).contains("delete me from home");
        assertThat(status("/api/scenarios/" + fromHome)).isEqualTo(404);
        // ready-made rows have no Delete and say why
        List<WebElement> readyMade = driver.findElements(By.cssSelector("#ready-made tbody tr"));
        assertThat(readyMade).isNotEmpty();
        for (WebElement r : readyMade) {
            assertThat(r.findElements(By.cssSelector(".delete-scenario-btn"))).isEmpty();
            assertThat(r.getText()).contains("built in");
        }

        open(fromEditor);
        stubConfirm();
        driver.findElement(By.id("delete-scenario")).click();
        waitFor("back home", () -> driver.getCurrentUrl().equals(url("/")));
        assertThat(status("/api/scenarios/" + fromEditor)).isEqualTo(404);

        String readyMadeId = driver.findElement(By.cssSelector("#ready-made tbody tr")).getDomAttribute("data-scenario-id");
        open(readyMadeId);
        assertThat(driver.findElements(By.id("delete-scenario"))).isEmpty();
        assertThat(Chromium.text(driver, ".toolbar")).contains("ready-made scenarios cannot be deleted");
    }

    private void stubConfirm() {
        ((JavascriptExecutor) driver).executeScript("window.__asked = []; window.confirm = (m) => { window.__asked.push(m); return true; };");
    }

    private String asked() {
        return String.valueOf(((JavascriptExecutor) driver).executeScript("return (window.__asked || []).join('\\n');"));
    }

    @Test
    void aFileTheKernelLacksIsNotAnEditableBoxAndRequiredMarksGoWhenFilled() throws Exception {
        String old = scenario("on 5.4", "{\"version\": \"5.4\"}");
        open(old);
        WebElement burst = driver.findElement(By.cssSelector(".tree-row[data-path='/a'] input[data-file='cpu.max.burst']"));
        assertThat(burst.isEnabled()).isFalse();
        assertThat(burst.getDomAttribute("title")).isEqualTo("not on 5.4 (5.14+)");
        assertThat(driver.findElement(By.cssSelector(".tree-row[data-path='/a'] input[data-file='cpu.max']")).isEnabled()).isTrue();

        String recent = scenario("on 6.18", "{\"version\": \"6.18\"}");
        open(recent);
        assertThat(driver.findElement(By.cssSelector(".tree-row[data-path='/a'] input[data-file='cpu.max.burst']")).isEnabled()).isTrue();

        // a required workload field is marked while empty, not after it is filled
        WebElement form = driver.findElement(By.id("task-form"));
        new org.openqa.selenium.support.ui.Select(form.findElement(By.name("kind"))).selectByVisibleText("periodic");
        WebElement run = form.findElement(By.name("run"));
        waitFor("run marked required", () -> run.getDomAttribute("class") != null && run.getDomAttribute("class").contains("required"));
        assertThat(run.getCssValue("border-left-width")).isEqualTo("3px");
        run.sendKeys("2ms");
        waitFor("the mark gone", () -> !"3px".equals(run.getCssValue("border-left-width")));
    }

    /**
     * The last newcomer walks' editor findings: a new scenario's name is a placeholder that says what it is left empty (typing replaces
     * it) and the duration is required (left empty, nothing is stored and the field is named, no 5s made up); the tree follows the kernel version typed in the form before it is saved; a
     * refused timeline write reads like the tree's (the kernel's echo command); the tree's message of a refused
     * write is read whole, wrapped in its row, not cut off.
     */
    @Test
    void newScenarioFieldsAreReplacedByTypingTheTreeFollowsTheFormsVersionAndRefusalsReadWhole() throws Exception {
        driver.get(url("/scenarios/new"));
        waitFor("the form labelled", () -> Chromium.attr(driver, "#options-form", "data-defaults") != null);
        // an empty table says why it is empty, as the tree does, not bare headers (newcomer walk 4)
        assertThat(Chromium.text(driver, "#tasks-table tbody")).contains("create the scenario first");
        assertThat(Chromium.text(driver, "#timeline-table tbody")).contains("create the scenario first");
        for (String[] f : new String[][] {{"name", "left empty: new scenario"}, {"duration", "required, e.g. 5s"}}) {
            WebElement input = driver.findElement(By.cssSelector("#options-form [name='" + f[0] + "']"));
            assertThat(input.getDomProperty("value")).as(f[0] + " is empty, not a value to append to").isEmpty();
            assertThat(input.getDomAttribute("placeholder")).isEqualTo(f[1]);
        }
        driver.findElement(By.cssSelector("#options-form [name='name']")).sendKeys("typed");
        assertThat(driver.findElement(By.cssSelector("#options-form [name='name']")).getDomProperty("value")).isEqualTo("typed");
        // the duration is required: left empty, nothing is created (no silent 5s) and the page says which field
        int before = api("/api/scenarios").size();
        driver.findElement(By.cssSelector("#options-form button[type='submit']")).click();
        waitFor("the missing duration named", () -> Chromium.text(driver, "#editor-error").startsWith("duration is required"));
        assertThat(driver.getCurrentUrl()).endsWith("/scenarios/new");
        assertThat((Boolean) ((org.openqa.selenium.JavascriptExecutor) driver).executeScript(
                "return document.querySelector(\"#options-form [name='duration']\").matches(':invalid')")).isTrue();
        assertThat(api("/api/scenarios").size()).as("nothing stored").isEqualTo(before);
        assertThat(driver.findElement(By.cssSelector("#options-form [name='duration']")).getDomAttribute("class")).as("marked").contains("missing");
        driver.findElement(By.cssSelector("#options-form [name='duration']")).sendKeys("5s");
        driver.findElement(By.cssSelector("#options-form button[type='submit']")).click();
        waitFor("the new scenario opened", () -> driver.getCurrentUrl().matches(".*/scenarios/[0-9a-f-]{36}$")
                && "true".equals(Chromium.attr(driver, "body", "data-loaded")));
        JsonNode stored = api("/api/scenarios/" + driver.getCurrentUrl().replaceAll(".*/scenarios/", "")).path("scenario");
        assertThat(stored.toString()).isEqualTo("{\"name\":\"typed\",\"duration\":\"5s\"}");

        String id = scenario("version switch", "{\"version\": \"6.18\"}");
        open(id);
        By burst = By.cssSelector(".tree-row[data-path='/a'] input[data-file='cpu.max.burst']");
        assertThat(driver.findElement(burst).isEnabled()).isTrue();
        type("kernel.version", "5.4");
        waitFor("the tree offers 5.4's files before Save", () -> !driver.findElement(burst).isEnabled()
                && "not on 5.4 (5.14+)".equals(driver.findElement(burst).getDomAttribute("title")));
        type("kernel.version", "6.18");
        waitFor("and 6.18's again", () -> driver.findElement(burst).isEnabled());

        // a refused timeline write: the kernel's command, then the reason
        WebElement tl = driver.findElement(By.id("timeline-form"));
        tl.findElement(By.name("at")).sendKeys("100ms");
        tl.findElement(By.name("arg1")).sendKeys("/a/cpu.max");
        tl.findElement(By.name("arg2")).sendKeys("500 100000");
        tl.findElement(By.cssSelector("button[type='submit']")).click();
        waitFor("the timeline refusal", () -> driver.findElement(By.id("editor-error")).isDisplayed());
        assertThat(Chromium.text(driver, "#editor-error"))
                .isEqualTo("at 100ms: echo '500 100000' > /a/cpu.max: quota 500 us is below the 1000 us minimum (EINVAL)");

        // the tree's own refusal: the whole message in view, wrapped in a taller row
        WebElement max = driver.findElement(By.cssSelector(".tree-row[data-path='/a'] input[data-file='cpu.max']"));
        // typed over a selection: clear() would leave the cell, which commits it emptied
        max.sendKeys(org.openqa.selenium.Keys.chord(org.openqa.selenium.Keys.CONTROL, "a"), "500 100000", org.openqa.selenium.Keys.ENTER);
        By rowError = By.cssSelector(".tree-row[data-path='/a'] .row-error");
        waitFor("the row's message", () -> driver.findElement(rowError).getText().contains("minimum"));
        Boolean whole = (Boolean) ((JavascriptExecutor) driver).executeScript(
                "const e = document.querySelector(arguments[0]); return e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1;",
                ".tree-row[data-path='/a'] .row-error");
        assertThat(whole).as("the message is not cut off").isTrue();
        assertThat(driver.findElement(rowError).getText())
                .isEqualTo("echo '500 100000' > /a/cpu.max: quota 500 us is below the 1000 us minimum (EINVAL)");
        // the row is as tall as its message: no empty line under a one-line message (newcomer walk 4, item 10)
        @SuppressWarnings("unchecked")
        List<Number> gap = (List<Number>) ((JavascriptExecutor) driver).executeScript("""
                const row = document.querySelector(arguments[0]);
                const msg = row.querySelector('.row-error');
                const r = row.getBoundingClientRect(), m = msg.getBoundingClientRect();
                return [r.bottom - m.bottom, parseFloat(getComputedStyle(msg).lineHeight), m.height];""", ".tree-row[data-path='/a']");
        assertThat(gap.get(2).doubleValue()).as("a one-line message").isLessThan(2 * gap.get(1).doubleValue());
        assertThat(gap.get(0).doubleValue()).as("space under the message, px").isLessThanOrEqualTo(6.0);
        // the row below starts where this one ends (the virtual list lays rows out by the measured height)
        Number below = (Number) ((JavascriptExecutor) driver).executeScript("""
                const rows = [...document.querySelectorAll('.tree-row')].sort((x, y) => x.offsetTop - y.offsetTop);
                const i = rows.findIndex((x) => x.dataset.path === '/a');
                return i + 1 < rows.length ? rows[i + 1].offsetTop - (rows[i].offsetTop + rows[i].offsetHeight) : 0;""");
        assertThat(below.intValue()).as("gap to the next row").isEqualTo(0);
        Chromium.screenshot(driver, "editor-refusals");
    }

    /**
     * Every editable tree cell commits what it shows (issue 12, third walk): an emptied cell, by Enter or by leaving it,
     * is written as {@code echo '' > file} would be, the service's own refusal is shown beside it and the cell shows the
     * stored value again; a new answer replaces the older message, never stands beside a cell that shows something
     * not stored.
     */
    @Test
    void everyCellCommitsWhatItShowsOrPutsTheStoredValueBackWithTheServicesAnswer() throws Exception {
        String id = scenario("commit cells", "{\"version\": \"6.18\"}");
        open(id);
        By rowError = By.cssSelector(".tree-row[data-path='/a'] .row-error");
        // an earlier refusal, so that a stale message would show
        WebElement max = cell("cpu.max");
        // typed over a selection: clear() would leave the cell, which commits it emptied
        max.sendKeys(org.openqa.selenium.Keys.chord(org.openqa.selenium.Keys.CONTROL, "a"), "500 100000", org.openqa.selenium.Keys.ENTER);
        waitFor("the first refusal", () -> driver.findElement(rowError).getText().contains("minimum"));
        for (String file : List.of("cpu.max", "cpu.max.burst", "cpu.weight")) {
            for (org.openqa.selenium.Keys commit : List.of(org.openqa.selenium.Keys.ENTER, org.openqa.selenium.Keys.TAB)) {
                String stored = cat(id, file);
                String answer = refusalOfEmpty(id, file);
                // emptied in place (Selenium's clear() would leave the cell first, committing it before the key)
                cell(file).sendKeys(org.openqa.selenium.Keys.chord(org.openqa.selenium.Keys.CONTROL, "a"), org.openqa.selenium.Keys.BACK_SPACE, commit);
                waitFor(file + " emptied and " + commit.name() + ": the service's answer", () -> {
                    String shown = driver.findElement(rowError).getText();
                    return shown.startsWith("echo '' > /a/" + file + ": ") && shown.endsWith(answer);
                });
                waitFor(file + ": the stored value back in the cell", () -> stored.equals(cell(file).getDomProperty("value")));
                assertThat(cat(id, file)).as("the stored value unchanged").isEqualTo(stored);
            }
        }
        // a good write clears the message and the cell shows what cat reads
        // (typed over a selection: Selenium's clear() leaves the cell, which commits the emptied cell as a person's click away would)
        WebElement weight = cell("cpu.weight");
        weight.sendKeys(org.openqa.selenium.Keys.chord(org.openqa.selenium.Keys.CONTROL, "a"), "250", org.openqa.selenium.Keys.ENTER);
        waitFor("the message gone", () -> driver.findElement(rowError).getText().isEmpty());
        assertThat(cell("cpu.weight").getDomProperty("value")).isEqualTo(cat(id, "cpu.weight")).isEqualTo("250");
        // leaving a cell put back after a refusal writes nothing more: the refusal stays, not an "ok" of the old value
        WebElement m = cell("cpu.max");
        m.sendKeys(org.openqa.selenium.Keys.chord(org.openqa.selenium.Keys.CONTROL, "a"), "abc", org.openqa.selenium.Keys.ENTER);
        waitFor("the refusal of abc", () -> driver.findElement(rowError).getText().startsWith("echo 'abc' > /a/cpu.max: "));
        cell("cpu.weight").click();
        Thread.sleep(500);
        assertThat(driver.findElement(rowError).getText()).startsWith("echo 'abc' > /a/cpu.max: ");
    }

    /**
     * An import that is refused names the file, the field's JSON pointer and "nothing imported"; a file that is not
     * JSON says so with the line and column, not with the browser's JSON.parse text.
     */
    @Test
    void aRefusedImportNamesTheFileTheFieldsPointerAndNothingImported() throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("cfslab-import");
        java.nio.file.Path refused = java.nio.file.Files.writeString(dir.resolve("low-quota.json"), """
                {"name": "low", "duration": "1s", "cgroups": [{"path": "/e1", "cpu.max": "500 100000"}]}
                """);
        java.nio.file.Path broken = java.nio.file.Files.writeString(dir.resolve("broken.json"), "{\n  \"name\": \"x\",\n  duration: \"1s\"\n}\n");
        int before = api("/api/scenarios").size();
        driver.get(url("/scenarios/new"));
        waitFor("the form labelled", () -> Chromium.attr(driver, "#options-form", "data-defaults") != null);
        driver.findElement(By.id("import-json")).sendKeys(refused.toAbsolutePath().toString());
        waitFor("the refusal", () -> driver.findElement(By.id("editor-error")).isDisplayed());
        assertThat(Chromium.text(driver, "#editor-error")).isEqualTo(
                "low-quota.json: nothing imported: /cgroups/0/cpu.max: quota 500 us is below the 1000 us minimum (EINVAL)");
        driver.findElement(By.id("import-json")).sendKeys(broken.toAbsolutePath().toString());
        waitFor("the parse failure", () -> Chromium.text(driver, "#editor-error").startsWith("broken.json"));
        assertThat(Chromium.text(driver, "#editor-error"))
                .startsWith("broken.json is not JSON: at line 3, column 3 it has \"d\" where")
                .endsWith("; nothing imported")
                .doesNotContain("position");
        assertThat(api("/api/scenarios").size()).as("nothing stored").isEqualTo(before);
        assertThat(driver.getCurrentUrl()).endsWith("/scenarios/new");
    }

    private WebElement cell(String file) {
        return driver.findElement(By.cssSelector(".tree-row[data-path='/a'] input[data-file='" + file + "']"));
    }

    private String cat(String id, String file) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(url("/api/scenarios/" + id + "/cgroups/a/" + file))).GET().build();
        return HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofString()).body().trim();
    }

    /** The service's own answer to an empty write, as the page should show it: its detail, with the errno. */
    private String refusalOfEmpty(String id, String file) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(url("/api/scenarios/" + id + "/cgroups/a/" + file)))
                .header("Content-Type", "text/plain").PUT(HttpRequest.BodyPublishers.ofString("")).build();
        HttpResponse<String> res = HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.ofString());
        assertThat(res.statusCode()).as(file + ": " + res.body()).isBetween(400, 499);
        JsonNode p = JSON.readTree(res.body());
        String detail = p.path("detail").asString();
        String errno = p.path("errno").asString("");
        return errno.isEmpty() || detail.contains("(" + errno + ")") ? detail : detail + " (" + errno + ")";
    }

    int status(String path) throws Exception {
        HttpRequest req = HttpRequest.newBuilder(URI.create(url(path))).header("Accept", "application/json").GET().build();
        return HttpClient.newHttpClient().send(req, HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private void waitFor(String what, BooleanSupplier condition) throws InterruptedException {
        Chromium.waitFor(driver, LONG, what, condition);
    }
}
