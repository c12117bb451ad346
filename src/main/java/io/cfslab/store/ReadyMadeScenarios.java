package io.cfslab.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
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
        try {
            Resource[] found = new PathMatchingResourcePatternResolver().getResources("classpath*:scenarios/*.json");
            List<Resource> sorted = new ArrayList<>(List.of(found));
            sorted.sort(Comparator.comparing(Resource::getFilename));
            JsonMapper mapper = JsonMapper.builder().build();
            for (Resource r : sorted) {
                String text = r.getContentAsString(StandardCharsets.UTF_8);
                String id = r.getFilename().replaceFirst("\\.json$", "");
                JsonNode name = mapper.readTree(text).get("name");
                byId.put(id, new ScenarioEntry(id, name == null ? id : name.asString(), true, text, 1));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read ready-made scenarios", e);
        }
    }

    public List<ScenarioEntry> all() { return List.copyOf(byId.values()); }

    public Optional<ScenarioEntry> find(String id) { return Optional.ofNullable(byId.get(id)); }
}
