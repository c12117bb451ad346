package io.cfslab.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the service stores of a plan so that any instance can compute the statistics later:
 * {@code {"name", "description", "scenario_id", "scenario_name", "seed", "seeds": [...], "metrics": [...],
 * "limited_groups": [...], "arms": [{"name", "set": {...}}]}}. A plan read back has no arm documents or parsed
 * scenarios (each run stores its own document).
 */
public final class ExperimentPlanJson {
    private ExperimentPlanJson() {}

    private static final JsonMapper JSON = JsonMapper.builder().build();

    public static String write(ExperimentPlan p) {
        ObjectNode o = JSON.createObjectNode();
        o.put("name", p.name());
        o.put("description", p.description());
        o.put("scenario_id", p.scenarioId());
        o.put("scenario_name", p.scenarioName());
        o.put("seed", p.seed());
        ArrayNode seeds = o.putArray("seeds");
        for (long s : p.seeds()) seeds.add(s);
        ArrayNode metrics = o.putArray("metrics");
        p.metrics().forEach(metrics::add);
        ArrayNode groups = o.putArray("limited_groups");
        p.limitedGroups().forEach(groups::add);
        ArrayNode arms = o.putArray("arms");
        for (ExperimentPlan.ArmPlan a : p.arms()) {
            ObjectNode x = arms.addObject();
            x.put("name", a.name());
            ObjectNode set = x.putObject("set");
            a.set().forEach(set::set);
        }
        return JSON.writeValueAsString(o);
    }

    /**
     * What a list of experiments needs of a plan ({@code GET /api/experiments}, the home page): the stored plan without
     * {@code limited_groups} (every cgroup with a quota: thousands of paths in a large tree, read only to compute the
     * statistics). {@link #read} reads it as a plan with no limited groups.
     *
     * @param planJson a plan as {@link #write} stores it
     */
    public static String summary(String planJson) {
        ObjectNode o = (ObjectNode) JSON.readTree(planJson);
        o.remove("limited_groups");
        return JSON.writeValueAsString(o);
    }

    public static ExperimentPlan read(String json) {
        JsonNode o = JSON.readTree(json);
        long[] seeds = new long[o.path("seeds").size()];
        for (int i = 0; i < seeds.length; i++) seeds[i] = o.path("seeds").get(i).asLong();
        List<String> metrics = new ArrayList<>();
        o.path("metrics").forEach(m -> metrics.add(m.asString()));
        List<String> groups = new ArrayList<>();
        o.path("limited_groups").forEach(g -> groups.add(g.asString()));
        List<ExperimentPlan.ArmPlan> arms = new ArrayList<>();
        int i = 0;
        for (JsonNode a : o.path("arms")) {
            Map<String, JsonNode> set = new LinkedHashMap<>();
            a.path("set").properties().forEach(e -> set.put(e.getKey(), e.getValue()));
            arms.add(new ExperimentPlan.ArmPlan(i++, a.path("name").asString(), set, null, null));
        }
        return new ExperimentPlan(o.path("name").asString(), text(o, "description"), text(o, "scenario_id"),
                text(o, "scenario_name"), o.path("seed").asLong(), seeds, List.copyOf(arms), List.copyOf(metrics),
                List.copyOf(groups));
    }

    private static String text(JsonNode o, String k) { return o.hasNonNull(k) ? o.get(k).asString() : null; }
}
