package io.cfslab.store;

import io.cfslab.scenario.ScenarioParser;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The built-in experiments: every {@code classpath:experiments/*.json}, id = file name without {@code .json},
 * sorted by id. Read once at start-up, never stored; {@code POST /api/experiments} with a document runs one.
 * An experiment that names a machine profile this build does not implement ({@link #profilesMissing}) is left out,
 * so a preset written for a profile still to come switches on with that profile instead of failing when run.
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
    public record Entry(String id, String name, String description, int arms, int repeats, String document) {
        /** The description's first paragraph: what the experiment shows, in a few lines (the pages show it first). */
        public String summary() { return paragraphs(description)[0]; }

        /** The rest of the description (setup, what was scaled down and why), shown behind "details"; or empty. */
        public String details() { return paragraphs(description)[1]; }
    }

    /** A description split at its first blank line: {summary, details}, details empty when there is none. */
    public static String[] paragraphs(String description) {
        String d = description == null ? "" : description.strip();
        int i = d.indexOf("\n\n");
        return i < 0 ? new String[] {d, ""} : new String[] {d.substring(0, i).strip(), d.substring(i).strip()};
    }

    private final Map<String, Entry> byId = new LinkedHashMap<>();

    private static final Logger LOG = LoggerFactory.getLogger(ReadyMadeExperiments.class);

    public ReadyMadeExperiments() {
        JsonMapper mapper = JsonMapper.builder().build();
        for (ClasspathDocuments.Document d : ClasspathDocuments.read("experiments")) {
            JsonNode doc = mapper.readTree(d.text());
            List<String> missing = profilesMissing(doc);
            if (!missing.isEmpty()) {
                LOG.info("ready-made experiment {} left out: machine profile(s) {} not implemented", d.id(), missing);
                continue;
            }
            byId.put(d.id(), new Entry(d.id(), doc.path("name").asString(d.id()), io.cfslab.experiment.ExperimentParser.descriptionText(doc),
                    doc.path("arms").size(), doc.path("repeats").asInt(), d.text()));
        }
    }

    public List<Entry> all() { return List.copyOf(byId.values()); }

    public Optional<Entry> find(String id) { return Optional.ofNullable(byId.get(id)); }

    /**
     * @param doc an experiment document
     * @return the values of every {@code profile} member in it (its scenario, an arm's {@code "/machine"} object) and
     *         of every override {@code ".../profile"} that are not in {@link ScenarioParser#PROFILES}, in document
     *         order; empty if it runs on this build's machines
     */
    public static List<String> profilesMissing(JsonNode doc) {
        List<String> named = new ArrayList<>();
        collectProfiles(doc, named);
        return named.stream().filter(p -> !ScenarioParser.PROFILES.contains(p)).distinct().toList();
    }

    private static void collectProfiles(JsonNode n, List<String> out) {
        if (n.isObject()) {
            for (Map.Entry<String, JsonNode> e : n.properties()) {
                if ((e.getKey().equals("profile") || e.getKey().endsWith("/profile")) && e.getValue().isString()) {
                    out.add(e.getValue().asString());
                } else {
                    collectProfiles(e.getValue(), out);
                }
            }
        } else if (n.isArray()) {
            for (JsonNode c : n) collectProfiles(c, out);
        }
    }
}
