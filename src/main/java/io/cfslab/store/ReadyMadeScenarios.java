package io.cfslab.store;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The built-in scenarios: every {@code classpath:scenarios/*.json}, id = file name without {@code .json},
 * sorted by id. Read once at start-up; never stored in the database, so they are always the shipped ones.
 */
@Component
public class ReadyMadeScenarios {
    private final Map<String, ScenarioEntry> byId = new LinkedHashMap<>();

    public ReadyMadeScenarios() {
        JsonMapper mapper = JsonMapper.builder().build();
        for (ClasspathDocuments.Document d : ClasspathDocuments.read("scenarios")) {
            JsonNode name = mapper.readTree(d.text()).get("name");
            byId.put(d.id(), new ScenarioEntry(d.id(), name == null ? d.id() : name.asString(), true, d.text(), 1));
        }
    }

    public List<ScenarioEntry> all() { return List.copyOf(byId.values()); }

    public Optional<ScenarioEntry> find(String id) { return Optional.ofNullable(byId.get(id)); }
}
