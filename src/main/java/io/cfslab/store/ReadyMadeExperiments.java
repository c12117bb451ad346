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
        try {
            Resource[] found = new PathMatchingResourcePatternResolver().getResources("classpath*:experiments/*.json");
            List<Resource> sorted = new ArrayList<>(List.of(found));
            sorted.sort(Comparator.comparing(Resource::getFilename));
            JsonMapper mapper = JsonMapper.builder().build();
            for (Resource r : sorted) {
                String text = r.getContentAsString(StandardCharsets.UTF_8);
                String id = r.getFilename().replaceFirst("\\.json$", "");
                JsonNode doc = mapper.readTree(text);
                byId.put(id, new Entry(id, doc.path("name").asString(id), doc.path("description").asString(""),
                        doc.path("arms").size(), doc.path("repeats").asInt(), text));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read ready-made experiments", e);
        }
    }

    public List<Entry> all() { return List.copyOf(byId.values()); }

    public Optional<Entry> find(String id) { return Optional.ofNullable(byId.get(id)); }
}
