package io.cfslab.store;

import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The parts of a result that the API serves on their own, cut out of the contract's result JSON once, when the result
 * is stored (tables {@code run_histogram} and {@code run_cgroup_stats}), so that {@code GET …/histograms/{name}} and
 * {@code GET …/cpu.stat} read a few hundred bytes instead of the whole result (3.7 MB for seed 03's 384-CPU tree, read
 * and parsed twice per request before: 46–240 ms per answer, issue 13).
 *
 * @param histograms each member of the result's {@code histograms}, by name, as compact JSON
 *                   ({@code {"count", "sum", "buckets": [...]}}), in the result's order
 * @param cgroups    the result's {@code cgroups} member (every group's {@code cpu.stat}, {@code cpu.stat.local} and
 *                   read-back files, by path) as compact JSON; {@code {}} if the result has none
 */
public record ResultParts(Map<String, String> histograms, String cgroups) {
    /** Reads one member's tree from a parser that goes on after it (hence no trailing-token check). */
    private static final JsonMapper JSON = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

    /**
     * Cuts the parts out of a result, streaming over the members it does not need ({@code tasks}, {@code series}, …).
     *
     * @param resultJson the contract's result JSON
     * @throws tools.jackson.core.JacksonException if it is not a JSON object
     */
    public static ResultParts of(String resultJson) {
        Map<String, String> histograms = new LinkedHashMap<>();
        String cgroups = "{}";
        try (JsonParser p = JSON.createParser(resultJson)) {
            if (p.nextToken() != JsonToken.START_OBJECT) throw new IllegalArgumentException("a result is a JSON object");
            while (p.nextToken() == JsonToken.PROPERTY_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                if (name.equals("histograms") && value == JsonToken.START_OBJECT) {
                    JsonNode h = JSON.readTree(p);
                    for (Map.Entry<String, JsonNode> e : h.properties()) {
                        histograms.put(e.getKey(), JSON.writeValueAsString(e.getValue()));
                    }
                } else if (name.equals("cgroups") && value == JsonToken.START_OBJECT) {
                    cgroups = JSON.writeValueAsString(JSON.readTree(p));
                } else {
                    p.skipChildren();
                }
            }
        }
        return new ResultParts(histograms, cgroups);
    }
}
