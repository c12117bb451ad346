package io.cfslab.web;

import io.cfslab.api.ApiException;
import io.cfslab.api.ScenarioService;
import io.cfslab.runs.ExperimentService;
import io.cfslab.runs.RunService;
import io.cfslab.runs.SimulationEngine;
import io.cfslab.metrics.ResultJson;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioException;
import java.util.Map;
import io.cfslab.store.ExperimentRecord;
import io.cfslab.store.Jdbc;
import io.cfslab.store.ReadyMadeExperiments;
import io.cfslab.store.RunRecord;
import io.cfslab.store.ScenarioEntry;
import java.util.Comparator;
import java.util.List;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import reactor.core.publisher.Mono;

/**
 * The dashboard's pages: server-rendered shells (Thymeleaf) that the TypeScript bundle ({@code /ui/app.js},
 * built from {@code frontend/}) fills with live data from the REST API. Every database read runs on
 * {@link Jdbc}'s scheduler, never on the event loop.
 */
@Controller
public class PageController {
    private final ScenarioService scenarios;
    private final RunService runs;
    private final ExperimentService experiments;
    private final ReadyMadeExperiments readyMadeExperiments;
    private final Jdbc jdbc;
    private final SimulationEngine engine;
    private final HomePageCache homePage;

    public PageController(ScenarioService scenarios, RunService runs, ExperimentService experiments,
                          ReadyMadeExperiments readyMadeExperiments, Jdbc jdbc, SimulationEngine engine,
                          HomePageCache homePage) {
        this.homePage = homePage;
        this.engine = engine;
        this.scenarios = scenarios;
        this.runs = runs;
        this.experiments = experiments;
        this.readyMadeExperiments = readyMadeExperiments;
        this.jdbc = jdbc;
    }

    /** A scenario as the home page lists it. */
    public record ScenarioItem(String id, String name, boolean readyMade) { }

    @GetMapping("/")
    public Mono<org.springframework.web.reactive.result.view.View> home(Model model) {
        return jdbc.call(() -> scenarios.list().stream()
                        .map(e -> new ScenarioItem(e.id(), e.name(), e.readyMade()))
                        .sorted(Comparator.comparing((ScenarioItem i) -> !i.readyMade()).thenComparing(ScenarioItem::name))
                        .toList())
                .flatMap(list -> {
                    var experimentsList = readyMadeExperiments.all();
                    model.addAttribute("readyMade", list.stream().filter(ScenarioItem::readyMade).toList());
                    model.addAttribute("saved", list.stream().filter(i -> !i.readyMade()).toList());
                    model.addAttribute("readyMadeExperiments", experimentsList);
                    // rendered again only when what the page shows changed (HomePageCache)
                    return homePage.view("home", List.of(list, experimentsList));
                });
    }

    @GetMapping("/scenarios/new")
    public String newScenario(Model model) {
        model.addAttribute("scenarioId", "");
        model.addAttribute("scenarioName", "new scenario");
        model.addAttribute("readOnly", false);
        model.addAttribute("choices", io.cfslab.scenario.ScenarioDefaults.choices());
        return "editor";
    }

    @GetMapping("/scenarios/{id}")
    public Mono<String> editor(@PathVariable String id, Model model) {
        return page("/scenarios/", id, scenarios::resolveId, () -> jdbc.call(() -> scenarios.get(id)).map((ScenarioEntry e) -> {
            model.addAttribute("scenarioId", e.id());
            model.addAttribute("scenarioName", e.name());
            model.addAttribute("readOnly", e.readyMade());
            // the selects offer what the parser accepts (one source with it)
            model.addAttribute("choices", io.cfslab.scenario.ScenarioDefaults.choices());
            return "editor";
        }));
    }

    /**
     * The page at {@code base + typed}, where {@code typed} is an id in any form a person pastes (upper case, no
     * dashes, the 8-character short id the headings show, spaces or tabs around it): the one object it names in
     * another form is a 303 to its canonical page, several are 409 naming them, the canonical id (or none: the
     * page's own 404) is the page {@code render} gives. One rule for the run, experiment and scenario pages (breaker 4
     * F8), resolved by {@link io.cfslab.store.RunIds}.
     */
    private Mono<String> page(String base, String typed, java.util.function.Function<String, io.cfslab.store.RunIds.Resolution> resolve,
                              java.util.function.Supplier<Mono<String>> render) {
        return jdbc.call(() -> resolve.apply(typed)).flatMap(res -> {
            if (res.ambiguous()) {
                return Mono.error(ApiException.of(org.springframework.http.HttpStatus.CONFLICT, "Ambiguous " + res.noun() + " id",
                        "/id", res.ambiguity(), null));
            }
            if (res.unique() && !res.id().equals(typed)) return Mono.just("redirect:" + base + res.id());
            return render.get();
        });
    }

    @GetMapping("/runs/{id}")
    public Mono<String> run(@PathVariable String id, Model model) {
        // the scenario is parsed off the event loop too (a generated tree of 20,000 tasks takes a while)
        return page("/runs/", id, runs::resolveId, () -> jdbc.call(() -> {
                    RunRecord found = runs.find(id).orElseThrow(() -> ApiException.notFound("run " + id, "/id"));
                    return Map.entry(found, RunPanelNotes.of(scenario(found)));
                })
                .map(e -> {
                    RunRecord r = e.getKey();
                    RunPanelNotes notes = e.getValue();
                    model.addAttribute("run", r);
                    model.addAttribute("status", r.status().word());
                    model.addAttribute("pace", r.pace() == null ? null : pace(r.pace()));
                    model.addAttribute("panelNotes", ResultJson.mapper().writeValueAsString(
                            Map.of("notRecorded", notes.notRecorded(), "ifEmpty", notes.ifEmpty())));
                    model.addAttribute("settings", RunSettings.rows(r.settingsJson()));
                    model.addAttribute("summary", RunSettings.summary(r.settingsJson()));
                    return "run";
                }));
    }

    /**
     * The lists live on the home page; {@code /experiments}, {@code /runs} and {@code /scenarios} typed in the
     * address bar go to their section there (the navigation links to {@code /#experiments}) instead of a 404.
     */
    @GetMapping({"/experiments", "/runs", "/scenarios"})
    public Mono<String> listSection(org.springframework.http.server.reactive.ServerHttpRequest request) {
        String path = request.getPath().value();
        return Mono.just("redirect:/#" + path.substring(1));
    }

    @GetMapping("/experiments/{id}")
    public Mono<String> experiment(@PathVariable String id, Model model) {
        return page("/experiments/", id, experiments::resolveId, () -> jdbc.call(() -> experiments.find(id)
                        .orElseThrow(() -> ApiException.notFound("experiment " + id, "/id")))
                .map((ExperimentRecord e) -> {
                    model.addAttribute("experiment", e);
                    return "experiment";
                }));
    }

    /** The compare page's facts about its two runs: each side's heading, the five list settings, every setting side by side. */
    public record Comparison(Side sideA, Side sideB, RunSettings.Summary summaryA, RunSettings.Summary summaryB,
                             List<RunSettings.Diff> settings, List<RunSettings.Diff> differing, List<String> unavailable) {
        /** A, then B. */
        public List<Side> sides() { return List.of(sideA, sideB); }

        /** A's and B's rows of the settings table (a summary is null where the side has no run). */
        public List<SideSummary> summaries() { return List.of(new SideSummary(sideA, summaryA), new SideSummary(sideB, summaryB)); }
    }

    /** One row of the compare page's settings table. */
    public record SideSummary(Side side, RunSettings.Summary summary) { }

    /**
     * What one side of the compare page ("A", "B") shows under its heading: never the letter alone.
     *
     * @param label  "A" or "B"
     * @param id     the id given, or "" when none was
     * @param text   the run's scenario name, or what stands there instead (none given, no such run, an experiment)
     * @param href   where the text links to (the run's or the experiment's page), or null
     * @param status the run's status word, or null when there is no run
     * @param note   a short reason the side has nothing to compare (a hint after the text), or null
     */
    public record Side(String label, String id, String text, String href, String status, String note) {
        /** The id's first 8 characters, which tell two runs of one scenario apart. */
        public String shortId() { return id.length() > 8 ? id.substring(0, 8) : id; }
    }

    /** The heading of side {@code label} for the id given ({@code runId}), its run {@code r} and, failing that, experiment {@code x}. */
    static Side side(String label, String runId, RunRecord r, ExperimentRecord x) {
        if (runId == null || runId.isBlank()) {
            return new Side(label, "", "none given", null, null, "tick a done run on the home page, or paste its id above");
        }
        if (r != null) {
            String note = switch (r.status()) {
                case DONE -> null;
                case QUEUED, RUNNING -> "no result yet";
                case CANCELLED, FAILED -> "no result";
            };
            return new Side(label, runId, r.scenarioName(), "/runs/" + runId, r.status().word(), note);
        }
        if (x != null) {
            return new Side(label, runId, x.name(), "/experiments/" + runId, null, "an experiment, not a run");
        }
        return new Side(label, runId, "no run " + runId, null, null, io.cfslab.store.RunIds.whyNone(runId));
    }

    /** As {@link #side(String, String, RunRecord, ExperimentRecord)}; {@code ambiguity} the sentence of a prefix that starts several runs. */
    static Side side(String label, String runId, RunRecord r, ExperimentRecord x, String ambiguity) {
        if (r == null && x == null && ambiguity != null) {
            return new Side(label, runId, "run id " + runId + " is ambiguous", null, null, "it starts several runs: type more of it");
        }
        return side(label, runId, r, x);
    }

    /** Why side {@code label} ("A", "B") has no result to compare, or null if it has one (or no id was given). */
    static String unavailable(String label, String runId, RunRecord r, ExperimentRecord x) {
        return unavailable(label, runId, r, x, null);
    }

    /** As {@link #unavailable(String, String, RunRecord, ExperimentRecord)}; {@code ambiguity} the sentence of a prefix that starts several runs. */
    static String unavailable(String label, String runId, RunRecord r, ExperimentRecord x, String ambiguity) {
        if (runId == null || runId.isBlank()) return null;
        if (r == null && x == null && ambiguity != null) return label + ": " + ambiguity + ".";
        if (r == null && x != null) {
            return label + " (" + x.name() + ") is an experiment, not a run: open it for its table and its runs, or"
                    + " compare two of its runs (each run's page links to its experiment).";
        }
        if (r == null) return label + ": there is no run " + runId + " (" + io.cfslab.store.RunIds.whyNone(runId) + ").";
        return switch (r.status()) {
            case DONE -> null;
            case QUEUED, RUNNING -> label + " (" + r.scenarioName() + ") is " + r.status().word()
                    + ": its result can be compared once it is done.";
            case CANCELLED, FAILED -> label + " (" + r.scenarioName() + ") " + RunStatusWords.outcome(r.status(), r.error())
                    + "; it kept no result: only a done run can be compared.";
        };
    }

    /** Whether {@code r} was cancelled after it started and so keeps a partial result (docs/dashboard.md, compare). */
    private boolean partial(RunRecord r) {
        return r != null && r.status() == io.cfslab.store.RunStatus.CANCELLED && runs.hasResult(r.id(), 0);
    }

    private static Side partialSide(Side s, boolean partial) {
        return partial ? new Side(s.label(), s.id(), s.text(), s.href(), s.status(), "partial result") : s;
    }

    /**
     * Why a cancelled run's partial result is not compared: its counters, histograms and series cover only the
     * simulated time up to the cancel, so beside any other run every difference would mostly be the time it did not
     * run; its own page shows it, marked partial.
     */
    static String partialUnavailable(String label, RunRecord r) {
        return label + " (" + r.scenarioName() + ") " + RunStatusWords.outcome(r.status(), r.error()) + " at "
                + seconds(r.simulatedNs()) + " of " + seconds(r.durationNs()) + " simulated; its result is partial (it"
                + " covers 0 to " + seconds(r.simulatedNs()) + " only, so every counter would differ by the time it did"
                + " not run): only a done run can be compared. Its page shows the partial result.";
    }

    /** Simulated time in seconds, 3 significant digits as the pages write it ({@code 3.30 s}, {@code 60.0 s}). */
    static String seconds(long ns) {
        double v = ns / 1e9;
        if (ns == 0) return "0 s";
        return (v >= 1000 ? String.format(java.util.Locale.ROOT, "%,d", Math.round(v))
                : String.format(java.util.Locale.ROOT, "%.3g", v)) + " s";
    }

    @GetMapping("/compare")
    public Mono<String> compare(@RequestParam(required = false) String a, @RequestParam(required = false) String b,
                                @RequestParam org.springframework.util.MultiValueMap<String, String> query, Model model) {
        // each side's id as a path id is read: given once, no control character (breaker 5 F5: "a=<id>%0B" named an
        // existing run as missing, "a=x&a=y" looked for the run "x,y")
        for (String side : List.of("a", "b")) {
            List<String> given = query.getOrDefault(side, List.of());
            if (given.size() > 1) {
                return Mono.error(ApiException.of(org.springframework.http.HttpStatus.BAD_REQUEST, "Invalid parameter",
                        "/" + side, "parameter " + side + " given " + given.size() + " times (one run id each)", "EINVAL"));
            }
            String fault = given.isEmpty() || given.get(0) == null ? null : io.cfslab.scenario.ScenarioText.idCharacterFault(given.get(0));
            if (fault != null) {
                return Mono.error(ApiException.of(org.springframework.http.HttpStatus.BAD_REQUEST, "Invalid parameter",
                        "/" + side, "the run id " + side + " " + fault + io.cfslab.scenario.ScenarioText.ID_TRIMMED, "EINVAL"));
            }
        }
        return jdbc.call(() -> {
            // a short id (the 8 characters the pages show) that starts exactly one run: the page of the full ids
            String fa = fullId(a);
            String fb = fullId(b);
            if (!java.util.Objects.equals(fa, a) || !java.util.Objects.equals(fb, b)) {
                return (Object) ("redirect:/compare?a=" + java.net.URLEncoder.encode(fa == null ? "" : fa, java.nio.charset.StandardCharsets.UTF_8)
                        + "&b=" + java.net.URLEncoder.encode(fb == null ? "" : fb, java.nio.charset.StandardCharsets.UTF_8));
            }
            RunRecord ra = find(a);
            RunRecord rb = find(b);
            ExperimentRecord xa = ra == null ? findExperiment(a) : null;
            ExperimentRecord xb = rb == null ? findExperiment(b) : null;
            List<RunSettings.Diff> diff = ra != null && rb != null ? RunSettings.diff(ra, rb) : List.of();
            boolean pa = partial(ra);
            boolean pb = partial(rb);
            return new Comparison(partialSide(side("A", a, ra, xa, ambiguity(a, ra, xa)), pa),
                    partialSide(side("B", b, rb, xb, ambiguity(b, rb, xb)), pb),
                    ra == null ? null : RunSettings.summary(ra.settingsJson()),
                    rb == null ? null : RunSettings.summary(rb.settingsJson()), diff,
                    diff.stream().filter(RunSettings.Diff::differs).toList(),
                    java.util.stream.Stream.of(pa ? partialUnavailable("A", ra) : unavailable("A", a, ra, xa, ambiguity(a, ra, xa)),
                                    pb ? partialUnavailable("B", rb) : unavailable("B", b, rb, xb, ambiguity(b, rb, xb)))
                            .filter(java.util.Objects::nonNull).toList());
        }).map(o -> {
            if (o instanceof String redirect) return redirect;
            Comparison c = (Comparison) o;
            model.addAttribute("a", a == null ? "" : a);
            model.addAttribute("b", b == null ? "" : b);
            model.addAttribute("cmp", c);
            return "compare";
        });
    }

    /** The run's scenario snapshot, parsed (defaults filled in), or null if it no longer parses. */
    private Scenario scenario(RunRecord r) {
        if (r.scenarioJson() == null) return null;
        try {
            return engine.parse(r.scenarioJson());
        } catch (ScenarioException | IllegalArgumentException e) {
            return null;
        }
    }

    /** A run's pace as the run page shows it: {@code 10× real time}, {@code 0.1× real time}. */
    static String pace(double pace) {
        java.math.BigDecimal p = java.math.BigDecimal.valueOf(pace).stripTrailingZeros();
        return (p.scale() < 0 ? p.setScale(0) : p).toPlainString() + "× real time";
    }

    /** {@code typed}'s full run id where it is a unique prefix of one, else {@code typed} as it is (null stays null). */
    private String fullId(String typed) {
        if (typed == null || typed.isBlank()) return typed;
        var r = runs.resolveId(typed);
        return r.unique() ? r.id() : typed;
    }

    /** The sentence of a prefix of several runs, or null (a run or an experiment found, or no match). */
    private String ambiguity(String typed, RunRecord r, ExperimentRecord x) {
        if (typed == null || typed.isBlank() || r != null || x != null) return null;
        var res = runs.resolveId(typed);
        return res.ambiguous() ? res.ambiguity() : null;
    }

    private RunRecord find(String runId) {
        return runId == null || runId.isBlank() ? null : runs.find(runId).orElse(null);
    }

    private ExperimentRecord findExperiment(String id) {
        return id == null || id.isBlank() ? null : experiments.find(id).orElse(null);
    }

}
