package io.cfslab.api;

import io.cfslab.runs.SimulationEngine;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioException;
import io.cfslab.store.Jdbc;
import io.cfslab.store.ReadyMadeScenarios;
import io.cfslab.store.ScenarioEntry;
import io.cfslab.store.ScenarioRecord;
import io.cfslab.store.ScenarioRepository;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.BiFunction;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Service;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;
import tools.jackson.databind.node.ObjectNode;

/**
 * Scenarios as documents: ready-made ones (read-only) and stored ones, every change validated by the
 * engine's parser before it is stored. Blocking (except {@link #edit}, which returns a Mono): call through
 * {@code Jdbc#call}.
 */
@Service
public class ScenarioService {
    private final ScenarioRepository repo;
    private final ReadyMadeScenarios readyMade;
    private final SimulationEngine engine;
    private final Jdbc jdbc;

    public ScenarioService(ScenarioRepository repo, ReadyMadeScenarios readyMade, SimulationEngine engine, Jdbc jdbc) {
        this.repo = repo;
        this.jdbc = jdbc;
        this.readyMade = readyMade;
        this.engine = engine;
    }

    /**
     * Ready-made scenarios first (by id), then stored ones (oldest first): ids, names and versions; the stored ones
     * without their documents ({@link ScenarioEntry#document()} is null: a list reads no document).
     */
    public List<ScenarioEntry> list() {
        List<ScenarioEntry> all = new ArrayList<>(readyMade.all());
        for (ScenarioRecord r : repo.findAllSummaries()) all.add(entry(r));
        return all;
    }

    /**
     * The scenario id {@code typed} names: a ready-made id, a stored scenario's full id or a unique prefix of one
     * ({@link io.cfslab.store.RunIds}).
     */
    public io.cfslab.store.RunIds.Resolution resolveId(String typed) {
        return io.cfslab.store.RunIds.resolve("scenario", new io.cfslab.store.RunIds.Store() {
            @Override public boolean exists(String id) { return readyMade.find(id).isPresent() || repo.find(id).isPresent(); }
            @Override public List<String> idsStartingWith(String p, int limit) { return repo.idsStartingWith(p, limit); }
        }, typed);
    }

    /**
     * The scenario a request body names ({@code scenarioId} of a run, {@code scenario_id} of an experiment), read in
     * every form a path id is (breaker 5 F7): upper case, without dashes, ASCII white space around it, a unique
     * prefix of 8+ hex digits, through the one resolver ({@link #resolveId}, {@link io.cfslab.store.RunIds}).
     *
     * @param pointer the field's pointer in the body
     * @throws ApiException 422 {@code ENOENT} naming no scenario, {@code EINVAL} for a prefix of several or a control
     *                      character (tab aside: trimmed around the id)
     */
    public ScenarioEntry referenced(String typed, String pointer) {
        String fault = io.cfslab.scenario.ScenarioText.idFault(pointer.substring(1), typed);
        if (fault != null) {
            // as in a path: a control character is refused, not echoed raw in an ENOENT (breaker 5 F5)
            throw ApiException.of(HttpStatus.UNPROCESSABLE_CONTENT, "Invalid argument", pointer, fault, "EINVAL");
        }
        io.cfslab.store.RunIds.Resolution r = resolveId(typed);
        if (r.ambiguous()) {
            throw ApiException.of(HttpStatus.UNPROCESSABLE_CONTENT, "Invalid argument", pointer, r.ambiguity(), "EINVAL");
        }
        if (!r.unique()) {
            throw ApiException.of(HttpStatus.UNPROCESSABLE_CONTENT, "No such file or entry", pointer, "no scenario "
                    + io.cfslab.store.RunIds.trim(typed) + " (" + io.cfslab.store.RunIds.whyNone(typed) + ")", "ENOENT");
        }
        return get(r.id());
    }

    /** The stored scenarios whose id starts with {@code prefix} (in any form {@link io.cfslab.store.RunIds#canonical} takes), without documents. */
    public List<ScenarioEntry> startingWith(String prefix) {
        if (!io.cfslab.store.RunIds.isPrefix(prefix)) return List.of();
        String p = io.cfslab.store.RunIds.canonical(prefix);
        return list().stream().filter(e -> e.id().startsWith(p)).toList();
    }

    /** @throws ApiException 404 ENOENT */
    public ScenarioEntry get(String id) {
        return readyMade.find(id).or(() -> repo.find(id).map(ScenarioService::entry))
                .orElseThrow(() -> ApiException.notFound("scenario " + id, "/id"));
    }

    /**
     * Validates a document: names ({@link ScenarioDocs#checkNames}), then the engine's parser, which also refuses a
     * tree or task count over the limits from the numbers alone (a request for 10^12 groups costs nothing), with the
     * same problem in every document and route (an experiment arm's {@code set} too, which reaches only the parser).
     *
     * @param prefix pointer prefix of the document in the request ({@code ""} or {@code /scenario})
     * @throws ApiException 422 listing every problem, whatever their errno (EEXIST, ENOENT too): a document is
     *                      validated as a whole, so its fault is unprocessable content, not a missing or conflicting
     *                      resource (breaker 4 F1); the title is the first problem's kind ({@link ProblemHandler#titleOf})
     */
    public Scenario validate(ObjectNode doc, String prefix) {
        ScenarioDocs.checkNames(doc, prefix);
        try {
            return engine.parse(ScenarioDocs.write(doc));
        } catch (ScenarioException e) {
            List<FieldProblem> problems = ProblemHandler.fromScenario(e, prefix);
            throw new ApiException(HttpStatus.UNPROCESSABLE_CONTENT, ProblemHandler.titleOf(problems.get(0).errno()),
                    problems, e.total());
        }
    }

    /** Stores a new scenario after validation. */
    public ScenarioEntry create(ObjectNode doc) {
        validate(doc, "");
        String id = UUID.randomUUID().toString();
        return entry(repo.insert(id, ScenarioDocs.name(doc, id), ScenarioDocs.writeStored(doc)));
    }

    /** Replaces a stored scenario (unconditionally). @throws ApiException 404, 409 for ready-made ones, 422 */
    public ScenarioEntry replace(String id, ObjectNode doc) { return replace(id, new ScenarioDocs.Body(doc, null), Preconditions.NONE); }

    /**
     * Replaces a stored scenario.
     *
     * @param pre the request's {@code If-Match} / {@code If-None-Match} (ETags are the quoted version)
     * @throws ApiException 404, 409 for ready-made ones, 412 if a precondition is false (checked before the
     *                      document: a false one answers 412 whatever the document), 422
     */
    public ScenarioEntry replace(String id, ScenarioDocs.Body body, Preconditions pre) {
        ScenarioEntry e = requireWritable(id);
        checkPreconditions(e, pre, "the scenario");
        ObjectNode doc;
        try {
            doc = body.object(); // its content's 422 after the 404, 409 and 412 (ScenarioDocs.Body)
            validate(doc, "");
        } catch (ApiException x) {
            throw withVersion(x, e);
        }
        if (e.document() != null && ScenarioDocs.JSON.readTree(e.document()).equals(ScenarioDocs.withoutNullMembers(doc))) {
            // the document as stored (keys in any order, YAML or JSON): a write that changes nothing answers the
            // version it left, as a file write of the current value does, so no other client's If-Match fails for a
            // change that did not happen (breaker 6 F10: each identical PUT made a new version)
            return e;
        }
        boolean done = !pre.any()
                ? repo.update(id, ScenarioDocs.name(doc, id), ScenarioDocs.writeStored(doc))
                : repo.update(id, ScenarioDocs.name(doc, id), ScenarioDocs.writeStored(doc), e.version());
        if (!done) throw changedMeanwhile(id);
        return get(id);
    }

    /** @throws ApiException 404, 409 for ready-made ones */
    public void delete(String id) { delete(id, Preconditions.NONE); }

    /** @throws ApiException 404, 409 for ready-made ones, 412 if a precondition is false */
    public void delete(String id, Preconditions pre) {
        ScenarioEntry e = requireWritable(id);
        checkPreconditions(e, pre, "the scenario");
        boolean done = !pre.any() ? repo.delete(id) : repo.delete(id, e.version());
        if (!done) throw changedMeanwhile(id);
    }

    /**
     * Sets the answer's {@code ETag} to scenario {@code e}'s: every resource below a scenario is a part of its one
     * document and shares its ETag, on reads as on writes (breaker 4 F4). {@code exchange} null: nothing.
     * @return {@code e}
     */
    static ScenarioEntry tagged(ScenarioEntry e, org.springframework.web.server.ServerWebExchange exchange) {
        if (exchange == null) return e;
        // RFC 9110 13.1.1: If-Match applies to a GET too (a stale one is 412), but only once the part read is found
        // (a missing task with a stale If-Match is 404, breaker 6 F6): a read's If-Match and If-None-Match are
        // decided on its answer, with this ETag, by NotModifiedFilter; any other method's here
        var method = exchange.getRequest().getMethod();
        if (method != org.springframework.http.HttpMethod.GET && method != org.springframework.http.HttpMethod.HEAD) {
            ApiException failed = new Preconditions(exchange.getRequest().getHeaders().getFirst(HttpHeaders.IF_MATCH), null)
                    .failure(e);
            if (failed != null) throw failed;
        }
        exchange.getResponse().getHeaders().setETag(etag(e));
        return e;
    }

    /** The {@code ETag} of a scenario version: the version, quoted. */
    public static String etag(ScenarioEntry e) { return etag(e.version()); }

    /** The {@code ETag} of scenario version {@code version}. */
    static String etag(long version) { return "\"" + version + "\""; }

    private static void checkPreconditions(ScenarioEntry e, Preconditions pre, String what) {
        ApiException failed = pre.failure(e);
        if (failed != null) throw failed;
        if (pre.mustCreate()) throw Preconditions.exists(e, what);
    }

    private ApiException changedMeanwhile(String id) {
        ScenarioEntry now = get(id); // 404 if it is gone
        return ApiException.of(HttpStatus.PRECONDITION_FAILED, "Precondition failed", "/id",
                "scenario " + id + " changed meanwhile; its version is now " + etag(now), null)
                .header(HttpHeaders.ETAG, etag(now));
    }

    /**
     * Edits a stored scenario's document: {@code edit} changes a copy (it may also look at the scenario
     * as parsed before the change), the result is validated and stored if the scenario's version is still
     * the one read (optimistic concurrency). If another write came first, the whole edit is done again on
     * the new state (so it is also validated again, and the preconditions checked again: an {@code If-Match} of
     * the version read then fails), up to {@value #EDIT_ATTEMPTS} times with a small jittered backoff; then 409.
     *
     * <p>Order of answers: 404 (the scenario, or what the edit looks up in it), 409 {@code EPERM} (ready-made), 412
     * (a false precondition: nothing is performed), then the edit's own refusals (409, 422). The answer carries the
     * new {@code ETag}.
     *
     * @param pre  the request's conditional headers, against the scenario's ETag ({@link Preconditions})
     * @param edit applied to a fresh copy on every attempt; must not keep state between attempts. Its answer's
     *             status 201 says it created its resource (what {@code If-None-Match: *} allows)
     * @return a Mono of what {@code edit} returned with the {@code ETag} of the version stored, its work done on
     *         the JDBC scheduler
     */
    public <B> Mono<ResponseEntity<B>> edit(String id, Preconditions pre,
                                            BiFunction<ObjectNode, Scenario, ResponseEntity<B>> edit) {
        return edit(id, pre, edit, false);
    }

    /**
     * {@link #edit} for a write of one resource of the file API (mkdir, rmdir, a file's PUT), where the document's
     * rules that the write breaks answer as the kernel's syscall would, by errno (404 {@code ENOENT}, 409
     * {@code EBUSY}/{@code EEXIST}, else 422); an entry of a document (a task, timeline or generate entry) is a
     * document's fault, 422 whatever its errno ({@link #validate}).
     */
    public <B> Mono<ResponseEntity<B>> editFile(String id, Preconditions pre,
                                                BiFunction<ObjectNode, Scenario, ResponseEntity<B>> edit) {
        return edit(id, pre, edit, true);
    }

    private <B> Mono<ResponseEntity<B>> edit(String id, Preconditions pre,
                                             BiFunction<ObjectNode, Scenario, ResponseEntity<B>> edit, boolean oneFile) {
        return jdbc.call(() -> editOnce(id, pre, edit, oneFile))
                .retryWhen(Retry.backoff(EDIT_ATTEMPTS - 1, Duration.ofMillis(2)).maxBackoff(Duration.ofMillis(100))
                        .jitter(0.75)
                        .filter(VersionConflict.class::isInstance)
                        .onRetryExhaustedThrow((spec, signal) -> ApiException.of(HttpStatus.CONFLICT,
                                "Concurrent modification", "/id", "scenario " + id + " was changed by "
                                        + EDIT_ATTEMPTS + " other writes while this one was applied; try again",
                                "EBUSY")));
    }

    static final int EDIT_ATTEMPTS = 20;

    private <B> ResponseEntity<B> editOnce(String id, Preconditions pre,
                                           BiFunction<ObjectNode, Scenario, ResponseEntity<B>> edit, boolean oneFile) {
        // a ready-made scenario's refusal (409 EPERM) comes after what the edit looks up in it (404): the edit is
        // tried on a copy first (breaker 9 F27: rmdir of a missing group in a ready-made scenario said EPERM, as if
        // the group existed and were protected; a stored scenario says ENOENT)
        ScenarioEntry e = get(id);
        ApiException readOnly = e.readyMade() ? readOnly(id) : null;
        ApiException failed = pre.failure(e);
        ObjectNode doc = ScenarioDocs.readObject(e.document(), "");
        ObjectNode read = doc.deepCopy();
        Scenario before = engine.parse(e.document());
        ResponseEntity<B> out;
        try {
            out = edit.apply(doc, before);
            try {
                validate(doc, "");
            } catch (ApiException invalid) {
                if (!oneFile) throw invalid;
                throw new ApiException(ProblemHandler.statusOf(invalid.problems()), invalid.title(), invalid.problems(),
                        invalid.total());
            }
        } catch (ApiException x) {
            // RFC 9110 13.2.1: a target that does not exist answers as without the condition (404); any other
            // refusal comes after a false precondition, which performs nothing
            if (x.status() != HttpStatus.NOT_FOUND && readOnly != null) throw readOnly;
            if (failed != null && x.status() != HttpStatus.NOT_FOUND) throw failed;
            // If-None-Match: * on a target that exists is 412 whatever the write would have answered (a task's POST
            // said 409 EEXIST, a group's mkdir 412: breaker 4 F5)
            if (pre.mustCreate() && x.status() == HttpStatus.CONFLICT && isExists(x)) throw Preconditions.exists(e, "the target");
            throw withVersion(x, e);
        }
        if (readOnly != null) throw readOnly;
        if (failed != null) throw failed;
        if (pre.mustCreate() && out.getStatusCode().value() != HttpStatus.CREATED.value()) {
            throw Preconditions.exists(e, "the target");
        }
        if (doc.equals(read) || engine.parse(doc.toString()).equals(before)) {
            // nothing changed (a mkdir of an existing group, a write of the value a file has): no new version, so
            // that no other client's If-Match fails for a change that did not happen (breaker 4 F6). "The value a
            // file has" is the value it reads back, not the document's text: writing "max 100000" to a group that
            // was unlimited by default, cpu.weight 100 or cpu.max.burst 0 spells out a default and changes no
            // parsed value (breaker5 F6), so the stored document, as written, stays too
            return ResponseEntity.status(out.getStatusCode()).headers(out.getHeaders()).eTag(etag(e)).body(out.getBody());
        }
        if (!repo.update(id, ScenarioDocs.name(doc, id), ScenarioDocs.writeStored(doc), e.version())) {
            throw new VersionConflict();
        }
        return ResponseEntity.status(out.getStatusCode()).headers(out.getHeaders()).eTag(etag(e.version() + 1))
                .body(out.getBody());
    }

    private static boolean isExists(ApiException x) {
        return !x.problems().isEmpty() && "EEXIST".equals(x.problems().get(0).errno());
    }

    /**
     * A refusal of a write to an existing scenario, carrying its current {@code ETag} (as a 412 does), so that a
     * client can send a conditional write next without reading the whole scenario again (breaker 4 F4).
     */
    static ApiException withVersion(ApiException x, ScenarioEntry e) {
        if (x.status() != HttpStatus.NOT_FOUND && x.headers().getFirst(HttpHeaders.ETAG) == null) {
            x.header(HttpHeaders.ETAG, etag(e));
        }
        return x;
    }

    /** The version read is no longer the stored one. */
    private static final class VersionConflict extends RuntimeException {
        VersionConflict() { super("version changed", null, false, false); }
    }

    /** The parsed scenario of an entry (stored ones are valid by construction). */
    public Scenario parse(ScenarioEntry e) { return engine.parse(e.document()); }

    private ScenarioEntry requireWritable(String id) {
        ScenarioEntry e = get(id);
        if (e.readyMade()) throw readOnly(id);
        return e;
    }

    private static ApiException readOnly(String id) {
        return ApiException.of(HttpStatus.CONFLICT, "Read-only scenario", "/id",
                "scenario " + id + " is ready-made and read-only; POST a copy to /api/scenarios to change it", "EPERM");
    }

    private static ScenarioEntry entry(ScenarioRecord r) {
        return new ScenarioEntry(r.id(), r.name(), false, r.document(), r.version());
    }
}
