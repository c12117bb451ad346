package io.cfslab.api;

import io.cfslab.experiment.Experiment;
import io.cfslab.experiment.ExperimentException;
import io.cfslab.experiment.ExperimentParser;
import io.cfslab.experiment.ExperimentPlan;
import io.cfslab.experiment.ExperimentPlanJson;
import io.cfslab.experiment.ExperimentResult;
import io.cfslab.experiment.ExperimentResultJson;
import io.cfslab.experiment.ExperimentTables;
import io.cfslab.experiment.SideBySideHistograms;
import io.cfslab.metrics.HistogramSnapshot;
import io.cfslab.runs.ExperimentService;
import io.cfslab.runs.SimulationEngine;
import io.cfslab.scenario.Problem;
import io.cfslab.store.ExperimentRecord;
import io.cfslab.store.Jdbc;
import io.cfslab.store.ReadyMadeExperiments;
import io.cfslab.store.RunRecord;
import io.cfslab.store.ScenarioEntry;
import io.cfslab.runs.QueueFullException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code /api/experiments}: experiments (contract v1.1, "Experiments") on the worker pool. {@code POST} takes an
 * experiment document (inline {@code scenario} or a stored or ready-made {@code scenario_id}) and answers 202 +
 * {@code Location}; every problem is a 422 with the JSON pointer into the document
 * ({@code /arms/1/set/~1kernel~1hz}). The table is {@code text/plain} (the seeds' layout), {@code text/markdown},
 * {@code text/csv} or {@code application/json}, by {@code Accept} or {@code ?format=text|markdown|csv|json}.
 * {@code POST …/{id}/cancel} cancels a queued or running experiment (202; 200 and unchanged once it has ended, never
 * deleting); {@code DELETE} deletes one that has ended with its runs (204), 409 {@code EBUSY} while it runs.
 */
@RestController
@RequestMapping("/api/experiments")
public class ExperimentController {
    static final MediaType TEXT_MARKDOWN = MediaType.parseMediaType("text/markdown;charset=UTF-8");
    static final MediaType TEXT_CSV = MediaType.parseMediaType("text/csv;charset=UTF-8");
    static final MediaType TEXT_PLAIN = MediaType.parseMediaType("text/plain;charset=UTF-8");
    private static final int LIST_LIMIT = 200;

    private final ExperimentService experiments;
    private final ScenarioService scenarios;
    private final SimulationEngine engine;
    private final ReadyMadeExperiments readyMade;
    private final Jdbc jdbc;

    private final RunClients clients;

    public ExperimentController(ExperimentService experiments, ScenarioService scenarios, SimulationEngine engine,
                                ReadyMadeExperiments readyMade, Jdbc jdbc, RunClients clients) {
        this.clients = clients;
        this.experiments = experiments;
        this.scenarios = scenarios;
        this.engine = engine;
        this.readyMade = readyMade;
        this.jdbc = jdbc;
    }

    @Operation(summary = "Start an experiment (202 + Location); 422 with the JSON pointer of each problem")
    @ApiResponse(responseCode = "202", description = "queued, one run per arm × repeat; Location names the experiment", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Experiment")))
    @Problems(value = {422, 429}, notes = {"422: a bad experiment, override or metric (errors lists each with its JSON pointer; a missing scenario_id is ENOENT)",
            "429: its runs would exceed the queue's bounds (cfslab.runs.queue.max, max-per-client; Retry-After) (EAGAIN)"})
    @PostMapping(consumes = {MediaType.APPLICATION_JSON_VALUE, ScenarioDocs.YAML, ScenarioDocs.X_YAML, ScenarioDocs.TEXT_YAML, ScenarioDocs.TEXT_X_YAML})
    public Mono<ResponseEntity<Map<String, Object>>> create(@io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = {@Content(mediaType = "application/json", schema = @Schema(ref = "ExperimentRequest")), @Content(mediaType = "application/yaml", schema = @Schema(ref = "ExperimentRequest"))}) @RequestBody(required = false) String body,
                                                            ServerHttpRequest request) {
        String client = clients.client(); // the token holder, or the whole local service (RunClients)
        return jdbc.call(() -> {
            ScenarioDocs.Body read = ScenarioDocs.read(body, request.getHeaders().getContentType());
            Preconditions.requireOnCollection(request); // 412 before the content's 422 (ScenarioDocs.Body)
            ObjectNode doc = read.object();
            Experiment e;
            try {
                e = ExperimentParser.parse(ScenarioDocs.write(doc)); // the text checks of a scenario file too
            } catch (ExperimentException ex) {
                throw invalid(ex.problems());
            }
            ObjectNode base;
            String scenarioId = null; // the stored id the body's scenario_id names, in its stored form
            if (e.scenario() != null) {
                base = e.scenario();
            } else {
                ScenarioEntry entry;
                try {
                    entry = scenarios.referenced(e.scenarioId(), "/scenario_id");
                } catch (ApiException notFound) {
                    throw new ApiException(HttpStatus.UNPROCESSABLE_CONTENT, "Invalid experiment", notFound.problems());
                }
                scenarioId = entry.id();
                base = ScenarioDocs.readObject(entry.document(), "/scenario_id");
            }
            int runsAsked = e.arms().size() * e.repeats(), most = experiments.maxRuns(client);
            if (runsAsked > most) {
                throw ApiException.of(HttpStatus.UNPROCESSABLE_CONTENT, "Invalid experiment", "/repeats", e.arms().size()
                        + " arms x " + e.repeats() + " repeats = " + runsAsked + " runs, more than one client can ever have"
                        + " queued: " + experiments.maxRunsProperty(client) + " is " + most + " (repeats may be 1.."
                        + "100 when arms x repeats fit in it)", "ERANGE");
            }
            ExperimentPlan plan;
            try {
                // each arm's scenario as POST /api/runs would take it: names the store keeps, then the engine's parser
                plan = ExperimentPlan.of(e, base, scenarioId, text -> {
                    try {
                        ScenarioDocs.checkNames(ScenarioDocs.readObject(text, ""), "");
                    } catch (ApiException bad) {
                        throw new io.cfslab.scenario.ScenarioException(bad.problems().stream()
                                .map(f -> new Problem(f.pointer(), f.reason(), f.errno())).toList());
                    }
                    return engine.parse(text);
                });
            } catch (ExperimentException ex) {
                throw invalid(ex.problems());
            }
            // re-runnable exactly: the scenario as it was now, inline
            ObjectNode definition = doc.deepCopy();
            definition.remove("scenario_id");
            definition.set("scenario", base);
            ExperimentRecord rec;
            try {
                rec = experiments.submit(plan, ScenarioDocs.write(definition), client);
            } catch (QueueFullException full) {
                throw RunController.queueFull(full);
            }
            return ResponseEntity.accepted().location(Locations.api("experiments", rec.id()))
                    .body(view(rec, experiments.runs(rec.id()), true));
        });
    }

    private static ApiException invalid(List<Problem> problems) {
        List<FieldProblem> out = new ArrayList<>();
        for (Problem p : problems) out.add(new FieldProblem(p.path(), p.reason(), p.errno()));
        return new ApiException(HttpStatus.UNPROCESSABLE_CONTENT, "Invalid experiment", out);
    }

    @Operation(summary = "Experiments, newest first (at most 200), each with its status and progress per arm")
    @ApiResponse(responseCode = "200", description = "the experiments (arms without their runs)", content = @Content(mediaType = "application/json", array = @ArraySchema(schema = @Schema(ref = "Experiment"))))
    @GetMapping
    public Mono<List<Map<String, Object>>> list(@io.swagger.v3.oas.annotations.Parameter(description = "only experiments whose id starts with this (at least 8 hex digits, as the pages show an experiment's id), as for runs") @RequestParam(name = "id_prefix", required = false) String idPrefix) {
        ListParameters.idPrefix(idPrefix);
        return jdbc.call(() -> {
            List<Map<String, Object>> out = new ArrayList<>();
            List<ExperimentRecord> list = idPrefix == null ? experiments.list(LIST_LIMIT)
                    : experiments.idsStartingWith(io.cfslab.store.RunIds.canonical(idPrefix), LIST_LIMIT).stream()
                            .map(experiments::find).flatMap(java.util.Optional::stream).toList();
            Map<String, List<RunRecord>> runsById = experiments.runsOf(list.stream().map(ExperimentRecord::id).toList());
            for (ExperimentRecord e : list) out.add(view(e, runsById.getOrDefault(e.id(), List.of()), false));
            return out;
        });
    }

    @Operation(summary = "The ready-made experiments (src/main/resources/experiments): id, name, description, document")
    @ApiResponse(responseCode = "200", description = "the ready-made experiments", content = @Content(mediaType = "application/json", array = @ArraySchema(schema = @Schema(ref = "ReadyMadeExperiment"))))
    @GetMapping(path = "/ready-made", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<List<Map<String, Object>>> readyMade() {
        List<Map<String, Object>> out = new ArrayList<>();
        for (ReadyMadeExperiments.Entry e : readyMade.all()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", e.id());
            m.put("name", e.name());
            m.put("description", e.description());
            m.put("document", ScenarioDocs.JSON.readTree(e.document()));
            out.add(m);
        }
        return Mono.just(out);
    }

    @Operation(summary = "One ready-made experiment's document (POST it to /api/experiments to run it)")
    @ApiResponse(responseCode = "200", description = "the experiment document", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ExperimentRequest")))
    @Problems(404)
    @GetMapping(path = "/ready-made/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<ResponseEntity<String>> readyMadeOne(@PathVariable String id) {
        ReadyMadeExperiments.Entry e = readyMade.find(id)
                .orElseThrow(() -> ApiException.notFound("ready-made experiment " + id, "/id"));
        return Mono.just(ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(e.document()));
    }

    @Operation(summary = "An experiment: status, progress per arm, each run with its seed and status")
    @ApiResponse(responseCode = "200", description = "the experiment; ETag: a strong tag of its stored state (If-None-Match: 304; If-Match on cancel and DELETE)", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Experiment")))
    @Problems(404)
    @GetMapping(path = "/{id}", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<ResponseEntity<Map<String, Object>>> get(@PathVariable String id,
                                                         org.springframework.http.server.reactive.ServerHttpRequest request) {
        // If-Match and If-None-Match are decided on the answer (NotModifiedFilter), after its Accept (breaker 8 F3)
        return jdbc.call(() -> {
            Map<String, Object> view = view(require(id), experiments.runs(id), true);
            return ResponseEntity.ok().eTag(StateTags.of(view)).body(view);
        });
    }

    /** The experiment's view with its {@code ETag} (its state after the write), as its GET answers it. */
    private ResponseEntity<Map<String, Object>> tagged(HttpStatus status, ExperimentRecord e) {
        Map<String, Object> view = view(e, experiments.runs(e.id()), true);
        return ResponseEntity.status(status).eTag(StateTags.of(view)).body(view);
    }

    @Operation(summary = "The experiment as submitted, its scenario inline: POST it again to repeat it exactly")
    @ApiResponse(responseCode = "200", description = "the experiment document", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ExperimentRequest")))
    @Problems(404)
    @GetMapping(path = "/{id}/definition", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<ResponseEntity<String>> definition(@PathVariable String id) {
        return jdbc.call(() -> ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(require(id).definitionJson()));
    }

    @Operation(summary = "The table: text/plain (the seeds' layout), text/markdown, text/csv or JSON; 409 until done")
    @ApiResponse(responseCode = "200", description = "the table in the format asked for (Accept, or ?format= which wins)", content = {
            @Content(mediaType = "text/plain", schema = @Schema(type = "string")),
            @Content(mediaType = "text/markdown", schema = @Schema(type = "string")),
            @Content(mediaType = "text/csv", schema = @Schema(type = "string")),
            @Content(mediaType = "application/json", schema = @Schema(ref = "ExperimentResult"))})
    @Problems(value = {404, 409}, notes = "409: not every run is done (or the experiment failed or was cancelled)")
    @GetMapping(path = "/{id}/table", produces = {MediaType.TEXT_PLAIN_VALUE, "text/markdown", "text/csv",
            MediaType.APPLICATION_JSON_VALUE})
    public Mono<ResponseEntity<String>> table(@PathVariable String id, @RequestParam(required = false) String format,
                                              @org.springframework.web.bind.annotation.RequestAttribute(name = AcceptChecked.CLIENT_ACCEPT, required = false) String accept) {
        String fmt = format != null ? format.toLowerCase(Locale.ROOT)
                : TABLE_FORMATS.get(TABLE_TYPES.indexOf(AcceptNegotiation.choose(accept, TABLE_TYPES))); // 406 after 404: AcceptChecked
        if (!List.of("text", "markdown", "csv", "json").contains(fmt)) {
            return Mono.error(ApiException.of(HttpStatus.BAD_REQUEST, "Invalid parameter", "/format",
                    "format must be text, markdown, csv or json", "EINVAL"));
        }
        return jdbc.call(() -> {
            ExperimentResult r = resultOf(id);
            return switch (fmt) {
                case "markdown" -> ResponseEntity.ok().contentType(TEXT_MARKDOWN).body(ExperimentTables.markdown(r));
                case "csv" -> ResponseEntity.ok().contentType(TEXT_CSV).body(ExperimentTables.csv(r));
                case "json" -> ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(ExperimentResultJson.write(r));
                default -> ResponseEntity.ok().contentType(TEXT_PLAIN).body(ExperimentTables.text(r));
            };
        });
    }

    /** What the table endpoint writes, in its order of preference when the client accepts several alike. */
    private static final List<MediaType> TABLE_TYPES = List.of(MediaType.APPLICATION_JSON, MediaType.TEXT_PLAIN,
            MediaType.parseMediaType("text/markdown"), MediaType.parseMediaType("text/csv"));
    private static final List<String> TABLE_FORMATS = List.of("json", "text", "markdown", "csv");

    /**
     * The format an {@code Accept} header asks for, by content negotiation ({@link AcceptNegotiation}: q-values,
     * {@code text/*}); json without a header or for {@code *}{@code /*}.
     */
    static String fromAccept(String accept) {
        return TABLE_FORMATS.get(TABLE_TYPES.indexOf(AcceptNegotiation.best(accept, TABLE_TYPES)));
    }

    @Operation(summary = "The experiment's result JSON (contract layout); 409 until done")
    @ApiResponse(responseCode = "200", description = "the result", content = @Content(mediaType = "application/json", schema = @Schema(ref = "ExperimentResult")))
    @Problems(value = {404, 409}, notes = "409: not every run is done (or the experiment failed or was cancelled)")
    @GetMapping(path = "/{id}/result", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<ResponseEntity<String>> result(@PathVariable String id) {
        return jdbc.call(() -> ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON)
                .body(ExperimentResultJson.write(resultOf(id))));
    }

    private static final List<MediaType> HISTOGRAM_TYPES = List.of(MediaType.APPLICATION_JSON, MediaType.TEXT_PLAIN);

    @Operation(summary = "One histogram merged per arm: JSON {arm: histogram}, or the arms side by side in bpftrace's "
            + "layout with Accept: text/plain")
    @ApiResponse(responseCode = "200", description = "the histogram of every arm", content = {
            @Content(mediaType = "application/json", schema = @Schema(ref = "ExperimentHistograms")),
            @Content(mediaType = "text/plain", schema = @Schema(type = "string"))})
    @Problems(value = {404, 409}, notes = "409: not every run is done (or the experiment failed or was cancelled)")
    @GetMapping(path = "/{id}/histograms/{name}", produces = {MediaType.APPLICATION_JSON_VALUE, MediaType.TEXT_PLAIN_VALUE})
    public Mono<ResponseEntity<Object>> histogram(@PathVariable String id, @PathVariable String name,
                                                  @org.springframework.web.bind.annotation.RequestAttribute(name = AcceptChecked.CLIENT_ACCEPT, required = false) String accept) {
        return jdbc.call(() -> {
            ExperimentResult r = resultOf(id);
            Map<String, HistogramSnapshot> byArm = new LinkedHashMap<>();
            for (String arm : r.arms()) {
                HistogramSnapshot h = r.histograms().getOrDefault(arm, Map.of()).get(name);
                if (h != null) byArm.put(arm, h);
            }
            if (byArm.isEmpty()) throw ApiException.notFound("histogram " + name, "/name");
            if (AcceptNegotiation.choose(accept, HISTOGRAM_TYPES).equals(MediaType.TEXT_PLAIN)) {
                return ResponseEntity.ok().contentType(TEXT_PLAIN).<Object>body(SideBySideHistograms.format(name, byArm));
            }
            ObjectNode o = ScenarioDocs.JSON.createObjectNode();
            JsonNode all = ExperimentResultJson.tree(r).path("histograms");
            for (String arm : byArm.keySet()) o.set(arm, all.path(arm).path(name));
            return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).<Object>body(o);
        });
    }

    @Operation(summary = "Cancel a queued or running experiment (202); one that already ended is left as it is (200, "
            + "its status says how it ended). Never deletes")
    @ApiResponse(responseCode = "202", description = "its unfinished runs cancelled (running ones stop within the progress interval)", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Experiment")))
    @ApiResponse(responseCode = "200", description = "it had already ended: unchanged, its status is the final one", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Experiment")))
    @Problems(value = {404, 412}, notes = "412: an If-Match that does not name the experiment's current ETag, or If-None-Match: * or naming it (nothing is done)")
    @PostMapping("/{id}/cancel")
    public Mono<ResponseEntity<Map<String, Object>>> cancel(@PathVariable String id, ServerHttpRequest request) {
        Preconditions pre = Preconditions.of(request);
        return jdbc.call(() -> {
            ExperimentRecord e = require(id);
            List<RunRecord> runs = experiments.runs(id);
            pre.requireOn(StateTags.of(view(e, runs, true)), "experiment " + id);
            if (ExperimentService.Status.of(e, runs).finished()) {
                return tagged(HttpStatus.OK, e); // idempotent: a repeated cancel
            }
            try {
                ExperimentRecord after = experiments.cancel(id).orElseThrow(() -> ApiException.notFound("experiment " + id, "/id"));
                return tagged(HttpStatus.ACCEPTED, after);
            } catch (io.cfslab.runs.RunStateException endedMeanwhile) {
                return tagged(HttpStatus.OK, require(id)); // the end stands
            }
        });
    }

    @Operation(summary = "Delete an experiment that has ended, with its runs and their results (204); 409 EBUSY while "
            + "it is queued or running (cancel it first: POST /api/experiments/{id}/cancel)")
    @ApiResponse(responseCode = "204", description = "deleted with its runs and their results", content = @Content)
    @Problems(value = {404, 409, 412}, notes = "409: EBUSY, queued or running (cancel it first), or a run restarted while it was deleted; 412: an If-Match that does not name the experiment's current ETag, or If-None-Match: * or naming it (nothing is done)")
    @DeleteMapping("/{id}")
    public Mono<ResponseEntity<Void>> delete(@PathVariable String id, ServerHttpRequest request) {
        Preconditions pre = Preconditions.of(request);
        return jdbc.call(() -> {
            pre.requireOn(StateTags.of(view(require(id), experiments.runs(id), true)), "experiment " + id);
            try {
                if (!experiments.delete(id)) throw ApiException.notFound("experiment " + id, "/id");
            } catch (io.cfslab.runs.RunStateException busy) {
                throw ApiException.of(HttpStatus.CONFLICT, "Experiment busy", "/id", busy.getMessage(), "EBUSY");
            }
            return ResponseEntity.noContent().<Void>build();
        });
    }

    private ExperimentRecord require(String id) {
        return experiments.find(id).orElseThrow(() -> ApiException.notFound("experiment " + id, "/id"));
    }

    private ExperimentResult resultOf(String id) {
        ExperimentRecord e = require(id);
        return experiments.result(id).orElseThrow(() -> {
            ExperimentService.Status st = ExperimentService.Status.of(e, experiments.runs(id));
            String head = "experiment " + id + " is " + st.status() + (st.error() == null ? "" : " (" + st.error() + ")");
            if (st.status().equals("queued") || st.status().equals("running")) {
                return ApiException.of(HttpStatus.CONFLICT, "No result", "/id", head + "; its table exists once every run is"
                        + " done (" + st.done() + " of " + st.total() + ")", null);
            }
            // an experiment that ended without every run done never gets a table (breaker 3 #11: it said one would
            // come); no partial one either: a run a cancel stopped covers less simulated time, so it is no repeat, and
            // arms with different counts of repeats are no comparison. The finished runs keep their own results.
            return ApiException.of(HttpStatus.CONFLICT, "No result", "/id", head + " with " + st.done() + " of " + st.total()
                    + " runs done, so it has no table and never will: a table needs every run done. Each done run's"
                    + " result is at /api/runs/{id}/result (the ids are in GET /api/experiments/" + id + "); submit the"
                    + " experiment again for a table", st.status().equals("cancelled") ? "ECANCELED" : null);
        });
    }

    /** The API view of an experiment (camelCase, as the run views). */
    static Map<String, Object> view(ExperimentRecord e, List<RunRecord> rs, boolean withRuns) {
        ExperimentPlan plan = ExperimentPlanJson.read(e.planJson());
        ExperimentService.Status st = ExperimentService.Status.of(e, rs);
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", e.id());
        m.put("name", e.name());
        m.put("description", plan.description());
        m.put("scenarioId", e.scenarioId());
        m.put("scenarioName", plan.scenarioName());
        m.put("status", st.status());
        m.put("progress", Math.round(st.progress() * 10) / 10.0);
        m.put("done", st.done());
        m.put("total", st.total());
        m.put("repeats", e.repeats());
        m.put("seed", e.seed());
        List<Long> seeds = new ArrayList<>();
        for (long s : plan.seeds()) seeds.add(s);
        m.put("seeds", seeds);
        m.put("metrics", plan.metrics());
        m.put("cancelRequested", e.cancelRequested());
        m.put("error", st.error());
        m.put("createdAt", e.createdAt().toString());
        m.put("finishedAt", st.finishedAt() == null ? null : st.finishedAt().toString());
        List<Map<String, Object>> arms = new ArrayList<>();
        for (ExperimentPlan.ArmPlan a : plan.arms()) {
            List<RunRecord> mine = rs.stream().filter(r -> r.armIndex() != null && r.armIndex() == a.index()).toList();
            ExperimentService.Status as = ExperimentService.Status.of(e, mine);
            Map<String, Object> x = new LinkedHashMap<>();
            x.put("name", a.name());
            x.put("set", a.set());
            x.put("status", as.status());
            x.put("progress", Math.round(as.progress() * 10) / 10.0);
            x.put("done", as.done());
            x.put("total", as.total());
            if (withRuns) {
                List<Map<String, Object>> runs = new ArrayList<>();
                for (RunRecord r : mine) {
                    Map<String, Object> v = new LinkedHashMap<>();
                    v.put("id", r.id());
                    v.put("repeat", r.repeatIndex());
                    v.put("seed", r.seed());
                    v.put("status", r.status().word());
                    v.put("progress", Math.round(r.progress() * 10) / 10.0);
                    v.put("wallMs", r.wallMs());
                    v.put("error", r.error());
                    runs.add(v);
                }
                x.put("runs", runs);
            }
            arms.add(x);
        }
        m.put("arms", arms);
        return m;
    }
}
