package io.cfslab.api;

import io.cfslab.metrics.BpftraceText;
import io.cfslab.metrics.CpuStatText;
import io.cfslab.metrics.HistogramSnapshot;
import io.cfslab.metrics.ResultJson;
import io.cfslab.runs.QueueFullException;
import io.cfslab.runs.RunService;
import io.cfslab.runs.RunsProperties;
import io.cfslab.runs.SimulationEngine;
import io.cfslab.scenario.EffectiveSettings;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioException;
import io.cfslab.store.Jdbc;
import io.cfslab.store.RunRecord;
import io.cfslab.store.RunStatus;
import io.cfslab.store.RunRepository;
import io.cfslab.store.ScenarioEntry;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.ArraySchema;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.cfslab.metrics.SimulationResult;
import io.cfslab.store.ResultParts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import tools.jackson.core.type.TypeReference;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;
import java.util.function.BooleanSupplier;
import reactor.netty.Connection;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code /api/runs}. Request of {@code POST}: {@code {"scenarioId": "…"} or {"scenario": {…}}}, optional
 * {@code "seed"} (integer), {@code "repeats"} (1..{@value #MAX_REPEATS}) and {@code "pace"} (simulated seconds per
 * wall-clock second, {@link RunPace}; absent: as fast as possible); answers 202 + {@code Location}.
 * A run view: {@code {"id", "scenarioId", "scenarioName", "status", "progress" (0..100 %), "simulatedNs",
 * "durationNs", "events", "wallMs", "etaMs" (null unless running), "seed", "repeats", "error",
 * "cancelRequested", "attempts", "worker", "createdAt", "startedAt", "finishedAt", "experimentId", "arm",
 * "repeat", "pace", "settings"}}: {@code seed} is the seed it runs with (the request's, else the scenario's);
 * {@code settings} is what the run ran with ({@code {"seed", "duration", "machine": {…},
 * "kernel": {every switch}}}, {@link EffectiveSettings}), recorded at submission.
 */
@RestController
@RequestMapping("/api/runs")
public class RunController {
    /** Most repeats one run may ask for. */
    public static final int MAX_REPEATS = 100;
    private static final int LIST_LIMIT = 1000;

    private final RunService runService;
    private final RunRepository runs;
    private final ScenarioService scenarios;
    private final Jdbc jdbc;
    private final RunEvents events;
    private final SimulationEngine engine;
    private final RunsProperties runsProps;

    private final RunClients clients;

    public RunController(RunService runService, RunRepository runs, ScenarioService scenarios, Jdbc jdbc,
                         RunEvents events, SimulationEngine engine, RunsProperties runsProps, RunClients clients) {
        this.clients = clients;
        this.runService = runService;
        this.runsProps = runsProps;
        this.engine = engine;
        this.events = events;
        this.runs = runs;
        this.scenarios = scenarios;
        this.jdbc = jdbc;
    }

    @Operation(summary = "Start a run (202 + Location); 400/422 with the field's JSON pointer")
    @ApiResponse(responseCode = "202", description = "queued; Location names the run", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Run")))
    @Problems(value = {404, 409, 422, 429}, notes = "422: a bad request or scenario (a missing scenarioId is ENOENT here)")
    @PostMapping(consumes = {MediaType.APPLICATION_JSON_VALUE, ScenarioDocs.YAML, ScenarioDocs.X_YAML, ScenarioDocs.TEXT_YAML, ScenarioDocs.TEXT_X_YAML})
    public Mono<ResponseEntity<Map<String, Object>>> submit(@io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = {@Content(mediaType = "application/json", schema = @Schema(ref = "RunRequest")), @Content(mediaType = "application/yaml", schema = @Schema(ref = "RunRequest"))}) @RequestBody(required = false) String body,
                                                            ServerHttpRequest request) {
        String client = clients.client(); // the token holder, or the whole local service (RunClients)
        return jdbc.call(() -> {
            ScenarioDocs.Body read = ScenarioDocs.read(body, request.getHeaders().getContentType());
            Preconditions.requireOnCollection(request); // 412 before the content's 422 (ScenarioDocs.Body)
            ObjectNode req = read.object();
            // every problem of the request at once, as a scenario's validation reports them (not the first alone)
            List<FieldProblem> problems = new ArrayList<>();
            for (String key : req.propertyNames()) {
                if (!List.of("scenarioId", "scenario", "seed", "repeats", "pace").contains(key)) {
                    problems.add(new FieldProblem("/" + key.replace("~", "~0").replace("/", "~1"),
                            io.cfslab.scenario.ScenarioText.unknownKey(key) + " (expected scenarioId, scenario, seed, repeats, pace)", "EINVAL"));
                }
            }
            // a key given as null is the key left out, as for seed and repeats and every document key (breaker 7 N11:
            // "scenarioId": null was "must be a string")
            JsonNode idNode = req.get("scenarioId") == null || req.get("scenarioId").isNull() ? null : req.get("scenarioId");
            JsonNode inline = req.get("scenario") == null || req.get("scenario").isNull() ? null : req.get("scenario");
            if ((idNode == null) == (inline == null)) {
                problems.add(new FieldProblem("/scenarioId", "give exactly one of scenarioId and scenario", "EINVAL"));
            }
            Long seed = null;
            JsonNode seedNode = req.get("seed");
            if (seedNode != null && !seedNode.isNull()) {
                // the same check as a scenario's and an experiment's seed: the same fault, the same problem
                io.cfslab.scenario.Problem p = io.cfslab.scenario.Integers.problem(seedNode, "/seed", "seed",
                        Long.MIN_VALUE, Long.MAX_VALUE, io.cfslab.scenario.Integers.RANGE);
                if (p != null) {
                    problems.add(new FieldProblem(p.path(), p.reason(), p.errno()));
                } else {
                    seed = seedNode.asLong();
                }
            }
            int repeats = 1;
            JsonNode rep = req.get("repeats");
            if (rep != null && !rep.isNull()) {
                io.cfslab.scenario.Problem p = io.cfslab.scenario.Integers.problem(rep, "/repeats", "repeats", 1,
                        MAX_REPEATS, io.cfslab.scenario.Integers.RANGE);
                if (p != null) {
                    problems.add(new FieldProblem(p.path(), p.reason(), p.errno()));
                } else {
                    repeats = rep.intValue();
                }
            }
            String scenarioId = null;
            String json = null;
            Scenario parsed = null;
            ApiException scenarioProblems = null;
            if (idNode != null && inline == null) {
                if (!idNode.isString()) {
                    problems.add(new FieldProblem("/scenarioId", "scenarioId must be a string", "EINVAL"));
                } else {
                    ScenarioEntry e = null;
                    try {
                        e = scenarios.referenced(idNode.asString(), "/scenarioId");
                    } catch (ApiException notFound) {
                        problems.addAll(notFound.problems());
                    }
                    if (e != null) {
                        scenarioId = e.id();
                        json = e.document();
                        parsed = scenarios.parse(e);
                    }
                }
            } else if (inline != null && idNode == null) {
                if (!(inline instanceof ObjectNode doc)) {
                    problems.add(new FieldProblem("/scenario", "scenario must be a JSON object", "EINVAL"));
                } else {
                    try {
                        parsed = scenarios.validate(doc, "/scenario");
                        json = ScenarioDocs.writeStored(doc);
                    } catch (ApiException invalid) {
                        scenarioProblems = invalid;
                    }
                }
            }
            try {
                // the wall-time check needs the scenario's duration: only its type and range without a valid one
                RunPace.parse(req.get("pace"), parsed == null ? -1 : parsed.durationNs(), repeats,
                        runsProps.maxWallTime());
            } catch (ApiException badPace) {
                problems.addAll(badPace.problems());
            }
            if (scenarioProblems != null) {
                if (problems.isEmpty()) throw scenarioProblems; // the scenario's own status and title, as before
                problems.addAll(scenarioProblems.problems());
            }
            if (!problems.isEmpty()) {
                throw new ApiException(HttpStatus.UNPROCESSABLE_CONTENT, "Invalid run request", problems,
                        problems.size() - (scenarioProblems == null ? 0 : scenarioProblems.problems().size())
                                + (scenarioProblems == null ? 0 : scenarioProblems.total()));
            }
            Double pace = RunPace.parse(req.get("pace"), parsed.durationNs(), repeats, runsProps.maxWallTime());
            // the seed it runs with, recorded as such: the view's seed and settings.seed are the same number
            long runSeed = seed != null ? seed : parsed.seed();
            String settings = EffectiveSettings.of(parsed, runSeed).toString();
            RunRecord r;
            try {
                r = runService.submit(scenarioId, parsed.name(), json, runSeed, repeats, settings, client, pace, parsed.durationNs());
            } catch (QueueFullException full) {
                throw queueFull(full);
            }
            return ResponseEntity.accepted().location(Locations.api("runs", r.id())).body(view(r));
        });
    }

    /** 429 with Retry-After: the queue's bound (cfslab.runs.queue.*) is reached. */
    static ApiException queueFull(QueueFullException full) {
        return ApiException.of(HttpStatus.TOO_MANY_REQUESTS, "Queue full", full.pointer(), full.getMessage(), "EAGAIN")
                .header(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, full.retryAfter().toSeconds())));
    }

    @Operation(summary = "Runs, newest first (at most 1000), optionally ?status=queued|running|done|failed|cancelled, "
            + "?standalone=true for runs that are not part of an experiment")
    @ApiResponse(responseCode = "200", description = "the runs", content = @Content(mediaType = "application/json", array = @ArraySchema(schema = @Schema(ref = "Run"))))
    @GetMapping
    public Mono<List<Map<String, Object>>> list(@io.swagger.v3.oas.annotations.Parameter(description = "only runs with this status", schema = @Schema(allowableValues = {"queued", "running", "done", "failed", "cancelled"})) @RequestParam(required = false) String status,
                                                @io.swagger.v3.oas.annotations.Parameter(description = "true: only runs that belong to no experiment") @RequestParam(defaultValue = "false") boolean standalone,
                                                @io.swagger.v3.oas.annotations.Parameter(description = "only runs whose id starts with this (at least 8 hex digits, as the pages show a run's id): a short id resolved as git resolves an abbreviated commit, one run is that run, two or more are ambiguous") @RequestParam(name = "id_prefix", required = false) String idPrefix,
                                                org.springframework.http.server.reactive.ServerHttpRequest request) {
        // every filter is checked, and applied, whichever are given: id_prefix narrows the list like the others
        try {
            ListParameters.strictBoolean(request, "standalone");
            ListParameters.idPrefix(idPrefix);
        } catch (ApiException e) {
            return Mono.error(e);
        }
        RunStatus st;
        try {
            st = status == null ? null : RunStatus.of(status);
        } catch (IllegalArgumentException e) {
            return Mono.error(ApiException.of(HttpStatus.BAD_REQUEST, "Invalid parameter", "/status",
                    "status must be one of queued, running, done, failed, cancelled", "EINVAL"));
        }
        if (idPrefix != null) {
            return jdbc.call(() -> runs.idsStartingWith(idPrefix, LIST_LIMIT).stream()
                    .map(runs::findStatus).flatMap(java.util.Optional::stream)
                    .filter(r -> (st == null || r.status() == st) && (!standalone || r.experimentId() == null))
                    .map(RunController::view).toList());
        }
        return jdbc.call(() -> runs.list(st, standalone, LIST_LIMIT).stream().map(RunController::view).toList());
    }

    @Operation(summary = "A run: status, progress, simulated and wall time, ETA")
    @ApiResponse(responseCode = "200", description = "the run; ETag: a strong tag of its stored state (If-None-Match: 304; If-Match on cancel and DELETE)", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Run")))
    @Problems(404)
    @GetMapping("/{id}")
    public Mono<ResponseEntity<Map<String, Object>>> get(@PathVariable String id, ServerHttpRequest request) {
        // an entity, not a bare body: the run is looked up before the Accept header is negotiated, so a
        // missing run answers 404 whatever the client accepts
        // If-Match and If-None-Match are decided on the answer (NotModifiedFilter), after its Accept (breaker 8 F3)
        return jdbc.call(() -> {
            Map<String, Object> view = view(withSettings(require(id)));
            return ResponseEntity.ok().eTag(StateTags.of(view)).body(view);
        });
    }

    /** The run's view with its {@code ETag} (its state after the write), as its GET answers it. */
    private static ResponseEntity<Map<String, Object>> tagged(HttpStatus status, RunRecord r) {
        Map<String, Object> view = view(r);
        return ResponseEntity.status(status).eTag(StateTags.of(view)).body(view);
    }

    /** A run stored before settings were recorded gets them now, from its scenario snapshot. */
    private RunRecord withSettings(RunRecord r) {
        if (r.settingsJson() != null) return r;
        try {
            Scenario s = engine.parse(runs.find(r.id()).map(RunRecord::scenarioJson).orElseThrow(
                    () -> ApiException.notFound("run " + r.id(), "/id")));
            runs.setSettings(r.id(), EffectiveSettings.of(s, r.seed() != null ? r.seed() : s.seed()).toString());
            return runs.find(r.id()).orElse(r);
        } catch (ScenarioException invalid) {
            return r;
        }
    }

    @Operation(summary = "The exact scenario document the run ran (a snapshot taken at submission; later edits of the "
            + "stored scenario do not change it), its seed set to the run's")
    @ApiResponse(responseCode = "200", description = "the scenario document", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Scenario")))
    @Problems(404)
    @GetMapping(path = "/{id}/scenario", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<ResponseEntity<String>> scenario(@PathVariable String id) {
        return jdbc.call(() -> {
            RunRecord r = runs.find(id).orElseThrow(() -> ApiException.notFound("run " + id, "/id"));
            ObjectNode doc = ScenarioDocs.readObject(r.scenarioJson(), "/id");
            if (r.seed() != null) doc.put("seed", r.seed());
            return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(ScenarioDocs.write(doc));
        });
    }

    @Operation(summary = "Cancel a queued or running run (202); a run that already ended is left as it is (200, its "
            + "status says how it ended: a cancel that lost the race with the end leaves it done). Never deletes; "
            + "409 EBUSY for a run of an experiment (cancel the experiment)")
    @ApiResponse(responseCode = "202", description = "cancelled (queued) or asked to stop (running)", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Run")))
    @ApiResponse(responseCode = "200", description = "it had already ended: unchanged, its status is the final one", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Run")))
    @Problems(value = {404, 409, 412}, notes = "409: a run of an experiment (EBUSY); 412: an If-Match that does not name the run's current ETag, or If-None-Match: * or naming it (nothing is done)")
    @PostMapping("/{id}/cancel")
    public Mono<ResponseEntity<Map<String, Object>>> cancel(@PathVariable String id, ServerHttpRequest request) {
        Preconditions pre = Preconditions.of(request);
        return jdbc.call(() -> {
            RunRecord found = withSettings(require(id));
            pre.requireOn(StateTags.of(view(found)), "run " + id);
            if (found.experimentId() != null) {
                throw ApiException.of(HttpStatus.CONFLICT, "Run of an experiment", "/id", "run " + id
                        + " is one run of experiment " + found.experimentId() + "; cancel the experiment"
                        + " (POST /api/experiments/" + found.experimentId() + "/cancel)", "EBUSY");
            }
            if (found.status().finished()) return tagged(HttpStatus.OK, found); // idempotent: a repeated cancel
            try {
                RunRecord r = runService.cancel(id).orElseThrow(() -> ApiException.notFound("run " + id, "/id"));
                return tagged(HttpStatus.ACCEPTED, r);
            } catch (io.cfslab.runs.RunStateException endedMeanwhile) {
                // it ended between the read and the cancel: the end stands
                return tagged(HttpStatus.OK, require(id));
            }
        });
    }

    @Operation(summary = "Delete a run that has ended, with its results (204); 409 EBUSY while it is queued or running "
            + "(cancel it first: POST /api/runs/{id}/cancel) and for a run of an experiment (delete the experiment)")
    @ApiResponse(responseCode = "204", description = "deleted with its results", content = @Content)
    @Problems(value = {404, 409, 412}, notes = "409: EBUSY, queued or running (cancel it first), or a run of an experiment; 412: an If-Match that does not name the run's current ETag, or If-None-Match: * or naming it (nothing is done)")
    @DeleteMapping("/{id}")
    public Mono<ResponseEntity<Void>> delete(@PathVariable String id, ServerHttpRequest request) {
        Preconditions pre = Preconditions.of(request);
        return jdbc.call(() -> {
            RunRecord found = withSettings(require(id));
            pre.requireOn(StateTags.of(view(found)), "run " + id);
            try {
                if (!runService.delete(id)) throw ApiException.notFound("run " + id, "/id"); // a concurrent DELETE won
            } catch (io.cfslab.runs.RunStateException busy) {
                throw ApiException.of(HttpStatus.CONFLICT, found.experimentId() != null ? "Run of an experiment"
                        : "Run busy", "/id", busy.getMessage(), "EBUSY");
            }
            return ResponseEntity.noContent().<Void>build();
        });
    }

    @Operation(summary = "Live events (Server-Sent Events): progress, histogram, cpustat, distribute, cpus, cgroups, "
            + "then done or failed (docs/api.md)")
    @ApiResponse(responseCode = "200", description = "the stream: progress, histogram, cpustat, distribute, cpus, cgroups, then done or failed", content = @Content(mediaType = "text/event-stream", schema = @Schema(type = "string")))
    @Problems(404)
    @GetMapping(path = "/{id}/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    public Mono<Void> events(@PathVariable String id, ServerHttpRequest request, ServerHttpResponse response) {
        // the SSE frames are pre-encoded and shared between clients (RunEvents): written as they are
        return events.require(id).flatMap(run -> {
            response.getHeaders().setContentType(MediaType.TEXT_EVENT_STREAM);
            response.getHeaders().setCacheControl("no-cache");
            // HEAD answers the headers at once: Spring's HEAD handling reads the body to its end for a length, which for
            // a live run's stream is when the run ends (breaker 8 F1)
            if (request.getMethod() == HttpMethod.HEAD) return response.writeWith(Flux.empty());
            return response.writeWith(events.stream(id, response.bufferFactory(), writable(response)));
        });
    }

    /** Whether the connection's outbound buffer has room (Reactor Netty); always true elsewhere. */
    private static BooleanSupplier writable(ServerHttpResponse response) {
        try {
            Object nativeResponse = ServerHttpResponseDecorator.getNativeResponse(response);
            if (nativeResponse instanceof Connection c) return () -> c.channel().isWritable();
        } catch (IllegalArgumentException e) {
            // not a server response of a known kind
        }
        return () -> true;
    }

    @Operation(summary = "The contract's result (?repeat=i for repeats after the first); 409 until done; a cancelled run's is partial")
    @ApiResponse(responseCode = "200", description = "the result JSON of one repeat; a cancelled run's repeat it stopped in has \"partial\": {stopped_at_ns, duration_ns}", content = @Content(mediaType = "application/json", schema = @Schema(ref = "Result")))
    @Problems(value = {404, 409}, notes = "409: queued, running or failed, or cancelled before that repeat started (no result)")
    @GetMapping(path = "/{id}/result", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<ResponseEntity<String>> result(@PathVariable String id, @RequestParam(defaultValue = "0") int repeat) {
        return jdbc.call(() -> ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).body(resultText(id, repeat)));
    }

    @Operation(summary = "The result's histograms: name, number of values, sum (ns) and the URL of each")
    @ApiResponse(responseCode = "200", description = "one entry per histogram of the result", content = @Content(mediaType = "application/json", schema = @Schema(ref = "HistogramList")))
    @Problems(value = {404, 409}, notes = "409: queued, running or failed, or cancelled before that repeat started")
    @GetMapping(path = "/{id}/histograms", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<ResponseEntity<Object>> histograms(@PathVariable String id, @RequestParam(defaultValue = "0") int repeat) {
        // reads the histograms' own rows (run_histogram), never the whole result
        return jdbc.call(() -> {
            requireResult(id, repeat);
            Map<String, String> byName = runs.findCgroupStats(id, repeat).isPresent()
                    ? runs.findHistograms(id, repeat)
                    : missingParts(id, repeat).map(ResultParts::histograms).orElse(Map.of());
            List<Map<String, Object>> out = new ArrayList<>();
            for (Map.Entry<String, String> e : byName.entrySet()) {
                JsonNode hist = ScenarioDocs.JSON.readTree(e.getValue());
                Map<String, Object> h = new LinkedHashMap<>();
                h.put("name", e.getKey());
                h.put("count", hist.path("count").asLong());
                h.put("sum", hist.path("sum").asLong());
                h.put("href", "/api/runs/" + id + "/histograms/" + e.getKey() + (repeat == 0 ? "" : "?repeat=" + repeat));
                out.add(h);
            }
            return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).<Object>body(out);
        });
    }

    @Operation(summary = "One histogram: JSON, or bpftrace's layout with Accept: text/plain")
    @ApiResponse(responseCode = "200", description = "JSON, or bpftrace's hist() layout with Accept: text/plain", content = {@Content(mediaType = "application/json", schema = @Schema(ref = "Histogram")), @Content(mediaType = "text/plain", schema = @Schema(type = "string"))})
    @Problems(value = {404, 409}, notes = "409: queued, running or failed, or cancelled before that repeat started")
    @GetMapping(path = "/{id}/histograms/{name}", produces = {MediaType.APPLICATION_JSON_VALUE, MediaType.TEXT_PLAIN_VALUE})
    public Mono<ResponseEntity<Object>> histogram(@PathVariable String id, @PathVariable String name,
                                                  @RequestParam(defaultValue = "0") int repeat,
                                                  @org.springframework.web.bind.annotation.RequestAttribute(name = AcceptChecked.CLIENT_ACCEPT, required = false) String accept) {
        // reads the histogram's own row (run_histogram), never the whole result
        return jdbc.call(() -> {
            requireResult(id, repeat);
            String h = runs.findHistogram(id, repeat, name).orElseGet(() -> missingParts(id, repeat)
                    .map(p -> p.histograms().get(name)).orElse(null));
            if (h == null) throw ApiException.notFound("histogram " + name, "/name");
            if (wantsText(accept)) {
                HistogramSnapshot snapshot = ResultJson.mapper().readValue(h, HistogramSnapshot.class);
                return ResponseEntity.ok().contentType(MediaType.TEXT_PLAIN)
                        .<Object>body(BpftraceText.format(name, snapshot));
            }
            return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).<Object>body(h);
        });
    }

    @Operation(summary = "cpu.stat and cpu.stat.local of every group: JSON, or as head prints the files with Accept: text/plain")
    @ApiResponse(responseCode = "200", description = "JSON by group path, or as head prints the files with Accept: text/plain", content = {@Content(mediaType = "application/json", schema = @Schema(ref = "CpuStatByGroup")), @Content(mediaType = "text/plain", schema = @Schema(type = "string"))})
    @Problems(value = {404, 409}, notes = "409: queued, running or failed, or cancelled before that repeat started")
    @GetMapping(path = "/{id}/cpu.stat", produces = {MediaType.APPLICATION_JSON_VALUE, MediaType.TEXT_PLAIN_VALUE})
    public Mono<ResponseEntity<Object>> cpuStat(@PathVariable String id, @RequestParam(defaultValue = "0") int repeat,
                                                @org.springframework.web.bind.annotation.RequestAttribute(name = AcceptChecked.CLIENT_ACCEPT, required = false) String accept) {
        // reads the result's cgroups part (run_cgroup_stats), never the whole result
        return jdbc.call(() -> {
            requireResult(id, repeat);
            String groups = runs.findCgroupStats(id, repeat).orElseGet(() -> missingParts(id, repeat)
                    .map(ResultParts::cgroups).orElseThrow(() -> ApiException.notFound("result of run " + id, "/id")));
            if (wantsText(accept)) {
                StringBuilder sb = new StringBuilder();
                Map<String, SimulationResult.CgroupStats> stats = ResultJson.mapper().readValue(groups, CGROUPS);
                stats.forEach((g, st) -> {
                    if (sb.length() > 0) sb.append('\n');
                    sb.append(CpuStatText.format(g, st));
                });
                return ResponseEntity.ok().contentType(MediaType.TEXT_PLAIN).<Object>body(sb.toString());
            }
            return ResponseEntity.ok().contentType(MediaType.APPLICATION_JSON).<Object>body(groups);
        });
    }

    /** JSON or text (bpftrace's, cpu.stat's layout), by content negotiation: q-values, text/* ({@link AcceptNegotiation}). */
    private static boolean wantsText(String accept) {
        return AcceptNegotiation.choose(accept, JSON_OR_TEXT).equals(MediaType.TEXT_PLAIN);
    }

    private static final List<MediaType> JSON_OR_TEXT = List.of(MediaType.APPLICATION_JSON, MediaType.TEXT_PLAIN);

    private static final TypeReference<LinkedHashMap<String, SimulationResult.CgroupStats>> CGROUPS =
            new TypeReference<>() { };

    /** The run's status row (no scenario snapshot). @throws ApiException 404 */
    private RunRecord require(String id) {
        return runs.findStatus(id).orElseThrow(() -> ApiException.notFound("run " + id, "/id"));
    }

    /** The parts of a result stored before parts were (cut now, and stored for the next request). */
    private Optional<ResultParts> missingParts(String id, int repeat) {
        return runs.storeMissingParts(id, repeat);
    }

    private String resultText(String id, int repeat) {
        requireResult(id, repeat);
        return runs.findResult(id, repeat).orElseThrow(() -> ApiException.notFound("result of run " + id, "/id"));
    }

    /**
     * A done run has a result for every repeat; a cancelled one for each repeat it finished and the one it stopped in
     * (partial: its {@code partial} says where), none if it was cancelled while queued.
     *
     * @throws ApiException 404 without the run or repeat, 409 while queued or running, when failed, and for a
     *                      cancelled run's repeat that has no result
     */
    private void requireResult(String id, int repeat) {
        RunRecord r = require(id);
        if (r.status() != RunStatus.DONE && r.status() != RunStatus.CANCELLED) {
            throw noResult(r, "; a result exists once it is done (or cancelled after it started)");
        }
        if (repeat < 0 || repeat >= r.repeats()) {
            // a repeat the run does not have is a missing resource, titled as every other 404 (breaker 4 F9)
            throw ApiException.of(HttpStatus.NOT_FOUND, "Not found", "/repeat", "repeat " + repeat + " does not exist: run "
                    + r.id() + " has repeat" + (r.repeats() == 1 ? " 0" : "s 0.." + (r.repeats() - 1)), "ENOENT");
        }
        if (r.status() == RunStatus.CANCELLED && !runs.hasResult(id, repeat)) {
            throw noResult(r, r.repeats() == 1 ? "; it was cancelled before it started, so it has no result"
                    : "; it was cancelled before repeat " + repeat + " started, so that repeat has no result");
        }
    }

    private static ApiException noResult(RunRecord r, String why) {
        return ApiException.of(HttpStatus.CONFLICT, "No result", "/id",
                "run " + r.id() + " is " + r.status().word() + (r.error() == null ? "" : " (" + r.error() + ")") + why,
                null);
    }

    static Map<String, Object> view(RunRecord r) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", r.id());
        m.put("scenarioId", r.scenarioId());
        m.put("scenarioName", r.scenarioName());
        m.put("status", r.status().word());
        m.put("progress", Math.round(r.progress() * 10) / 10.0);
        m.put("simulatedNs", r.simulatedNs());
        m.put("durationNs", r.durationNs());
        m.put("events", r.events());
        m.put("wallMs", r.wallMs());
        m.put("etaMs", io.cfslab.runs.LiveJson.etaMs(r.status().word(), r.progress(), r.wallMs(), r.durationNs(),
                r.repeats(), r.pace()));
        JsonNode settings = r.settingsJson() == null ? null : ScenarioDocs.JSON.readTree(r.settingsJson());
        // a run stored before its seed was recorded: the seed its settings say it ran with
        m.put("seed", r.seed() != null ? r.seed()
                : settings != null && settings.path("seed").isIntegralNumber() ? (Object) settings.path("seed").asLong() : null);
        m.put("repeats", r.repeats());
        m.put("error", r.error());
        m.put("cancelRequested", r.cancelRequested());
        m.put("attempts", r.attempts());
        m.put("interruptions", r.interruptions());
        m.put("interruptedAt", r.interruptedAt() == null ? null : r.interruptedAt().toString());
        m.put("interruptedWorker", r.interruptedWorker());
        m.put("worker", r.worker());
        m.put("createdAt", r.createdAt() == null ? null : r.createdAt().toString());
        m.put("startedAt", r.startedAt() == null ? null : r.startedAt().toString());
        m.put("finishedAt", r.finishedAt() == null ? null : r.finishedAt().toString());
        m.put("experimentId", r.experimentId());
        m.put("arm", r.armName());
        m.put("repeat", r.repeatIndex());
        m.put("pace", r.pace());
        m.put("settings", settings);
        return m;
    }
}
