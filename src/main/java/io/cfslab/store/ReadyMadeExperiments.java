package io.cfslab.store;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The built-in experiments: every {@code classpath:experiments/*.json}, id = file name without {@code .json},
 * sorted by id. Read once at start-up, never stored; {@code POST /api/experiments} with a document runs one.
 */
@Component
public class ReadyMadeExperiments {
    /**
     * A ready-made experiment.
     *
     * @param id          file name without {@code .json}
     * @param name        its {@code name}
     * @param description its {@code description} (what it simplifies and why), or empty
     * @param arms        number of arms
     * @param repeats     repeats per arm
     * @param document    the experiment document, JSON text
     */
    public record Entry(String id, String name, String description, int arms, int repeats, String document) { }

    private final Map<String, Entry> byId = new LinkedHashMap<>();

    public ReadyMadeExperiments() {
        JsonMapper mapper = JsonMapper.builder().build();
        for (ClasspathDocuments.Document d : ClasspathDocuments.read("experiments")) {
            JsonNode doc = mapper.readTree(d.text());
            byId.put(d.id(), new Entry(d.id(), doc.path("name").asString(d.id()), doc.path("description").asString(""),
                    doc.path("arms").size(), doc.path("repeats").asInt(), d.text()));
        }
    }

    public List<Entry> all() { return List.copyOf(byId.values()); }

    public Optional<Entry> find(String id) { return Optional.ofNullable(byId.get(id)); }
}
