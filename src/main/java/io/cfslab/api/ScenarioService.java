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
import org.springframework.http.HttpStatus;
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

    /** @throws ApiException 404 ENOENT */
    public ScenarioEntry get(String id) {
        return readyMade.find(id).or(() -> repo.find(id).map(ScenarioService::entry))
                .orElseThrow(() -> ApiException.notFound("scenario " + id, "/id"));
    }

    /**
     * Validates a document: size limits and names ({@link ScenarioDocs#checkNames}), then the engine's parser.
     *
     * @param prefix pointer prefix of the document in the request ({@code ""} or {@code /scenario})
     * @throws ApiException 422 (or 404/409 per errno) listing every problem
     */
    public Scenario validate(ObjectNode doc, String prefix) {
        ScenarioDocs.checkSize(doc, prefix);
        ScenarioDocs.checkNames(doc, prefix);
        try {
            return engine.parse(ScenarioDocs.write(doc));
        } catch (ScenarioException e) {
            List<FieldProblem> problems = ProblemHandler.fromScenario(e, prefix);
            throw new ApiException(ProblemHandler.statusOf(problems), "Invalid scenario", problems, e.total());
        }
    }

    /** Stores a new scenario after validation. */
    public ScenarioEntry create(ObjectNode doc) {
        validate(doc, "");
        String id = UUID.randomUUID().toString();
        return entry(repo.insert(id, ScenarioDocs.name(doc, id), ScenarioDocs.writeStored(doc)));
    }

    /** Replaces a stored scenario (unconditionally). @throws ApiException 404, 409 for ready-made ones, 422 */
    public ScenarioEntry replace(String id, ObjectNode doc) { return replace(id, doc, null); }

    /**
     * Replaces a stored scenario.
     *
     * @param ifMatch the request's {@code If-Match} header (ETags are the quoted version), or null
     * @throws ApiException 404, 409 for ready-made ones, 412 if {@code ifMatch} does not name the current
     *                      version, 422
     */
    public ScenarioEntry replace(String id, ObjectNode doc, String ifMatch) {
        ScenarioEntry e = requireWritable(id);
        checkIfMatch(e, ifMatch);
        validate(doc, "");
        boolean done = ifMatch == null
                ? repo.update(id, ScenarioDocs.name(doc, id), ScenarioDocs.writeStored(doc))
                : repo.update(id, ScenarioDocs.name(doc, id), ScenarioDocs.writeStored(doc), e.version());
        if (!done) throw changedMeanwhile(id);
        return get(id);
    }

    /** @throws ApiException 404, 409 for ready-made ones */
    public void delete(String id) { delete(id, null); }

    /** @throws ApiException 404, 409 for ready-made ones, 412 if {@code ifMatch} does not name the current version */
    public void delete(String id, String ifMatch) {
        ScenarioEntry e = requireWritable(id);
        checkIfMatch(e, ifMatch);
        boolean done = ifMatch == null ? repo.delete(id) : repo.delete(id, e.version());
        if (!done) throw changedMeanwhile(id);
    }

    /** The {@code ETag} of a scenario version: the version, quoted. */
    public static String etag(ScenarioEntry e) { return "\"" + e.version() + "\""; }

    /**
     * @return true if an {@code If-Match} header value ({@code *} or a list of ETags) names {@code e}. The comparison
     *         is strong (RFC 9110 13.1.1, as for every If-Match): a weak tag ({@code W/"2"}) names no version.
     */
    static boolean matches(String ifMatch, ScenarioEntry e) {
        for (String tag : ifMatch.split(",")) {
            String t = tag.strip();
            if (t.equals("*")) return true;
            if (t.equals(etag(e))) return true;
        }
        return false;
    }

    private static void checkIfMatch(ScenarioEntry e, String ifMatch) {
        if (ifMatch != null && !matches(ifMatch, e)) {
            throw ApiException.of(HttpStatus.PRECONDITION_FAILED, "Precondition failed", "/id",
                    "If-Match " + ifMatch + " does not match the current version " + etag(e) + " of scenario " + e.id(),
                    null);
        }
    }

    private ApiException changedMeanwhile(String id) {
        ScenarioEntry now = get(id); // 404 if it is gone
        return ApiException.of(HttpStatus.PRECONDITION_FAILED, "Precondition failed", "/id",
                "scenario " + id + " changed meanwhile; its version is now " + etag(now), null);
    }

    /**
     * Edits a stored scenario's document: {@code edit} changes a copy (it may also look at the scenario
     * as parsed before the change), the result is validated and stored if the scenario's version is still
     * the one read (optimistic concurrency). If another write came first, the whole edit is done again on
     * the new state (so it is also validated again), up to {@value #EDIT_ATTEMPTS} times with a small
     * jittered backoff; then 409.
     *
     * @param edit applied to a fresh copy on every attempt; must not keep state between attempts
     * @return a Mono of what {@code edit} returned, its work done on the JDBC scheduler
     */
    public <T> Mono<T> edit(String id, BiFunction<ObjectNode, Scenario, T> edit) {
        return jdbc.call(() -> editOnce(id, edit))
                .retryWhen(Retry.backoff(EDIT_ATTEMPTS - 1, Duration.ofMillis(2)).maxBackoff(Duration.ofMillis(100))
                        .jitter(0.75)
                        .filter(VersionConflict.class::isInstance)
                        .onRetryExhaustedThrow((spec, signal) -> ApiException.of(HttpStatus.CONFLICT,
                                "Concurrent modification", "/id", "scenario " + id + " was changed by "
                                        + EDIT_ATTEMPTS + " other writes while this one was applied; try again",
                                "EBUSY")));
    }

    static final int EDIT_ATTEMPTS = 20;

    private <T> T editOnce(String id, BiFunction<ObjectNode, Scenario, T> edit) {
        ScenarioEntry e = requireWritable(id);
        ObjectNode doc = ScenarioDocs.readObject(e.document(), "");
        Scenario before = engine.parse(e.document());
        T out = edit.apply(doc, before);
        validate(doc, "");
        if (!repo.update(id, ScenarioDocs.name(doc, id), ScenarioDocs.writeStored(doc), e.version())) {
            throw new VersionConflict();
        }
        return out;
    }

    /** The version read is no longer the stored one. */
    private static final class VersionConflict extends RuntimeException {
        VersionConflict() { super("version changed", null, false, false); }
    }

    /** The parsed scenario of an entry (stored ones are valid by construction). */
    public Scenario parse(ScenarioEntry e) { return engine.parse(e.document()); }

    private ScenarioEntry requireWritable(String id) {
        ScenarioEntry e = get(id);
        if (e.readyMade()) {
            throw ApiException.of(HttpStatus.CONFLICT, "Read-only scenario", "/id",
                    "scenario " + id + " is ready-made and read-only; POST a copy to /api/scenarios to change it",
                    "EPERM");
        }
        return e;
    }

    private static ScenarioEntry entry(ScenarioRecord r) {
        return new ScenarioEntry(r.id(), r.name(), false, r.document(), r.version());
    }
}
