package io.cfslab.api;

import io.cfslab.runs.SimulationEngine;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioException;
import io.cfslab.store.ReadyMadeScenarios;
import io.cfslab.store.ScenarioEntry;
import io.cfslab.store.ScenarioRecord;
import io.cfslab.store.ScenarioRepository;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.BiFunction;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Service;
import tools.jackson.databind.node.ObjectNode;

/**
 * Scenarios as documents: ready-made ones (read-only) and stored ones, every change validated by the
 * engine's parser before it is stored. Blocking: call through {@code Jdbc#call}.
 */
@Service
public class ScenarioService {
    private final ScenarioRepository repo;
    private final ReadyMadeScenarios readyMade;
    private final SimulationEngine engine;

    public ScenarioService(ScenarioRepository repo, ReadyMadeScenarios readyMade, SimulationEngine engine) {
        this.repo = repo;
        this.readyMade = readyMade;
        this.engine = engine;
    }

    /** Ready-made scenarios first (by id), then stored ones (oldest first). */
    public List<ScenarioEntry> list() {
        List<ScenarioEntry> all = new ArrayList<>(readyMade.all());
        for (ScenarioRecord r : repo.findAll()) all.add(entry(r));
        return all;
    }

    /** @throws ApiException 404 ENOENT */
    public ScenarioEntry get(String id) {
        return readyMade.find(id).or(() -> repo.find(id).map(ScenarioService::entry))
                .orElseThrow(() -> ApiException.notFound("scenario " + id, "/id"));
    }

    /**
     * Validates a document: size limits, then the engine's parser.
     *
     * @param prefix pointer prefix of the document in the request ({@code ""} or {@code /scenario})
     * @throws ApiException 422 (or 404/409 per errno) listing every problem
     */
    public Scenario validate(ObjectNode doc, String prefix) {
        ScenarioDocs.checkSize(doc, prefix);
        try {
            return engine.parse(ScenarioDocs.write(doc));
        } catch (ScenarioException e) {
            List<FieldProblem> problems = ProblemHandler.fromScenario(e, prefix);
            throw new ApiException(ProblemHandler.statusOf(problems), "Invalid scenario", problems);
        }
    }

    /** Stores a new scenario after validation. */
    public ScenarioEntry create(ObjectNode doc) {
        validate(doc, "");
        String id = UUID.randomUUID().toString();
        return entry(repo.insert(id, ScenarioDocs.name(doc, id), ScenarioDocs.write(doc)));
    }

    /** Replaces a stored scenario. @throws ApiException 404, 409 for ready-made ones, 422 */
    public ScenarioEntry replace(String id, ObjectNode doc) {
        requireWritable(id);
        validate(doc, "");
        repo.update(id, ScenarioDocs.name(doc, id), ScenarioDocs.write(doc));
        return get(id);
    }

    /** @throws ApiException 404, 409 for ready-made ones */
    public void delete(String id) {
        requireWritable(id);
        repo.delete(id);
    }

    /**
     * Edits a stored scenario's document: {@code edit} changes a copy (it may also look at the scenario
     * as parsed before the change), the result is validated and stored.
     *
     * @return what {@code edit} returned
     */
    public <T> T edit(String id, BiFunction<ObjectNode, Scenario, T> edit) {
        ScenarioEntry e = requireWritable(id);
        ObjectNode doc = ScenarioDocs.readObject(e.document(), "");
        Scenario before = engine.parse(e.document());
        T out = edit.apply(doc, before);
        validate(doc, "");
        repo.update(id, ScenarioDocs.name(doc, id), ScenarioDocs.write(doc));
        return out;
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
