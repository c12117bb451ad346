package io.cfslab.experiment;

import io.cfslab.scenario.Problem;
import io.cfslab.scenario.ScenarioException;
import io.cfslab.scenario.ScenarioParser;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads an experiment document (JSON or YAML, contract v1.1 "Experiments") strictly: unknown keys, values of
 * the wrong type, malformed JSON pointers, duplicate arm names and out-of-range repeats are each a
 * {@link Problem} with the RFC 6901 pointer of the offending value; every problem is collected before
 * {@link ExperimentException} is thrown. Whether the overrides fit the scenario is checked later, by
 * {@link ExperimentPlan}, with the scenario parser.
 *
 * <pre>
 * { "name": "seed 04: task vs task-account", "description": "…",
 *   "scenario": { … } | "scenario_id": "seed03-large-tree-async",
 *   "seed": 1, "set": { "/duration": "2s" },
 *   "arms": [ { "name": "base", "set": { "/kernel/throttle": "task" } },
 *             { "name": "head", "set": { "/kernel/throttle": "task-account" } } ],
 *   "repeats": 5, "metrics": [ "benchmarks/hb/completion_s" ] }
 * </pre>
 */
public final class ExperimentParser {
    private ExperimentParser() {}

    /** Longest arm name (it heads a table column). */
    public static final int MAX_NAME = 64;
    /** Longest experiment name, characters (Unicode code points; column {@code experiment.name}, widened for it in Flyway V10). */
    public static final int MAX_EXPERIMENT_NAME = 500;
    private static final List<String> KEYS = List.of("name", "description", "scenario", "scenario_id", "seed", "set",
            "arms", "repeats", "metrics");
    private static final List<String> ARM_KEYS = List.of("name", "set");

    /**
     * @param text JSON or YAML
     * @return the experiment
     * @throws ExperimentException listing every problem
     */
    public static Experiment parse(String text) { return parse(text, false); }

    /**
     * @param text JSON or YAML
     * @param yaml the text is declared YAML (a {@code .yaml} file): see {@link ScenarioParser#readTree(String, boolean)}
     * @return the experiment
     * @throws ExperimentException listing every problem
     */
    public static Experiment parse(String text, boolean yaml) {
        JsonNode root;
        try {
            root = ScenarioParser.readTree(text, yaml);
        } catch (ScenarioException e) {
            throw new ExperimentException(e.problems());
        }
        return parse(root);
    }

    /**
     * @param root the document
     * @return the experiment
     * @throws ExperimentException listing every problem
     */
    public static Experiment parse(JsonNode root) {
        Set<Problem> problems = new LinkedHashSet<>();
        if (!(root instanceof ObjectNode o)) {
            throw new ExperimentException(List.of(new Problem("", io.cfslab.scenario.JsonNodeWords.notAnObject(root), "EINVAL")));
        }
        for (String k : o.propertyNames()) {
            if (!KEYS.contains(k)) problems.add(new Problem("/" + esc(k), io.cfslab.scenario.ScenarioText.unknownKey(k) + " (expected one of "
                    + String.join(", ", KEYS) + ")", null));
        }
        String name = string(o, "name", problems);
        if (name == null) name = "unnamed experiment";
        if (io.cfslab.scenario.Names.blankOrPadded(name) != null && value(o, "name") != null) {
            problems.add(new Problem("/name", "name " + io.cfslab.scenario.Names.blankOrPadded(name), "EINVAL"));
        } else if (io.cfslab.scenario.Names.characters(name) > MAX_EXPERIMENT_NAME) {
            problems.add(new Problem("/name", "name of " + io.cfslab.scenario.Names.characters(name)
                    + " characters (Unicode code points) exceeds the limit of " + MAX_EXPERIMENT_NAME, "ENAMETOOLONG"));
        } else if (io.cfslab.scenario.Names.invisible(name) != null) {
            problems.add(new Problem("/name", "name " + io.cfslab.scenario.Names.invisible(name), "EINVAL"));
        }
        String description = description(o, problems);

        ObjectNode scenario = null;
        JsonNode sn = value(o, "scenario");
        // an id is read by one rule in every body and path: ASCII spaces and tabs around it are a paste's, trimmed
        // where it is resolved; any other control character is refused (a run's scenarioId took a tab this refused)
        String scenarioId = idString(o, "scenario_id", problems);
        if (sn != null && !(sn instanceof ObjectNode)) {
            problems.add(new Problem("/scenario", "must be a scenario object, not " + type(sn), null));
        } else if (sn != null) {
            scenario = (ObjectNode) sn;
        }
        JsonNode idNode = value(o, "scenario_id");
        if (sn == null && idNode == null) {
            problems.add(new Problem("/scenario", "give the scenario: \"scenario\" (a whole scenario) or \"scenario_id\""
                    + " (a stored or ready-made one)", null));
        } else if (sn != null && idNode != null) {
            problems.add(new Problem("/scenario_id", "give either \"scenario\" or \"scenario_id\", not both", "EINVAL"));
        }

        Long seed = null;
        JsonNode seedNode = value(o, "seed");
        if (seedNode != null) {
            Problem p = io.cfslab.scenario.Integers.problem(seedNode, "/seed", "seed", Long.MIN_VALUE, Long.MAX_VALUE,
                    io.cfslab.scenario.Integers.RANGE);
            if (p != null) {
                problems.add(p);
            } else {
                seed = seedNode.longValue();
            }
        }

        Map<String, JsonNode> common = overrides(value(o, "set"), "/set", problems);

        List<Experiment.Arm> arms = new ArrayList<>();
        JsonNode an = value(o, "arms");
        if (an == null) {
            problems.add(new Problem("/arms", "at least one arm is needed; the first is the base", null));
        } else if (!(an instanceof ArrayNode list)) {
            problems.add(new Problem("/arms", "must be an array of arms, not " + type(an), null));
        } else if (list.isEmpty()) {
            problems.add(new Problem("/arms", "at least one arm is needed; the first is the base", null));
        } else if (list.size() > Experiment.MAX_ARMS) {
            problems.add(new Problem("/arms", list.size() + " arms exceed the limit of " + Experiment.MAX_ARMS, "ERANGE"));
        } else {
            // arm names by ArmNames.key: look-alikes ("base", "Base", "ｂａｓｅ") are one name
            Map<String, Integer> names = new HashMap<>();
            for (int i = 0; i < list.size(); i++) {
                String at = "/arms/" + i;
                if (!(list.get(i) instanceof ObjectNode arm)) {
                    problems.add(new Problem(at, "must be an object {\"name\", \"set\"}, not " + type(list.get(i)), null));
                    continue;
                }
                for (String k : arm.propertyNames()) {
                    if (!ARM_KEYS.contains(k)) problems.add(new Problem(at + "/" + esc(k), io.cfslab.scenario.ScenarioText.unknownKey(k)
                            + " (expected name, set)", null));
                }
                String armName = null;
                JsonNode nn = value(arm, "name");
                if (nn == null) {
                    problems.add(new Problem(at + "/name", "every arm needs a name", null));
                } else if (!nn.isString()) {
                    problems.add(new Problem(at + "/name", "must be a string, not " + type(nn), null));
                } else if (io.cfslab.scenario.ScenarioText.badText(nn.stringValue()) != null) {
                    problems.add(new Problem(at + "/name", "name " + io.cfslab.scenario.ScenarioText.badText(nn.stringValue()), "EINVAL"));
                } else if (io.cfslab.scenario.Names.blankOrPadded(nn.stringValue()) != null) {
                    problems.add(new Problem(at + "/name", "name " + io.cfslab.scenario.Names.blankOrPadded(nn.stringValue()), "EINVAL"));
                } else if (nn.stringValue().codePointCount(0, nn.stringValue().length()) > MAX_NAME) {
                    // characters (code points), as the message says: an emoji is one, not two UTF-16 units
                    problems.add(new Problem(at + "/name", "longer than " + MAX_NAME + " characters", null));
                } else if (ArmNames.refusal(ArmNames.normalise(nn.stringValue())) != null) {
                    problems.add(new Problem(at + "/name", ArmNames.refusal(ArmNames.normalise(nn.stringValue())), "EINVAL"));
                } else {
                    String normal = ArmNames.normalise(nn.stringValue());
                    Integer first = names.putIfAbsent(ArmNames.key(normal), i);
                    if (first != null) {
                        String other = list.get(first).path("name").stringValue();
                        problems.add(new Problem(at + "/name", "arm name \"" + nn.stringValue() + "\" is "
                                + (ArmNames.normalise(other).equals(normal) ? "used twice"
                                : "the same as arm " + first + "'s \"" + other + "\" (names that differ only by case,"
                                + " Unicode normalisation or spacing name one arm)") + " (first at /arms/" + first + ")",
                                "EINVAL"));
                    } else {
                        armName = normal;
                    }
                }
                Map<String, JsonNode> set = overrides(value(arm, "set"), at + "/set", problems);
                arms.add(new Experiment.Arm(armName, set));
            }
        }

        int repeats = 0;
        JsonNode rn = value(o, "repeats");
        if (rn == null) {
            problems.add(new Problem("/repeats", "give the number of repeats per arm (1.." + Experiment.MAX_REPEATS + ")", null));
        } else if (!rn.isIntegralNumber()) {
            problems.add(new Problem("/repeats", "must be an integer, not " + type(rn), "EINVAL"));
        } else if (!rn.canConvertToInt() || rn.intValue() < 1 || rn.intValue() > Experiment.MAX_REPEATS) {
            problems.add(new Problem("/repeats", "repeats " + rn + " is outside 1.." + Experiment.MAX_REPEATS
                    + (rn.canConvertToInt() && rn.intValue() < 1 ? ": every arm needs at least one run" : ""), "ERANGE"));
        } else {
            repeats = rn.intValue();
            if ((long) repeats * Math.max(1, arms.size()) > Experiment.MAX_RUNS) {
                problems.add(new Problem("/repeats", arms.size() + " arms × " + repeats + " repeats = "
                        + (long) repeats * arms.size() + " runs exceed the limit of " + Experiment.MAX_RUNS, "ERANGE"));
            }
        }

        List<String> metrics = new ArrayList<>();
        JsonNode mn = value(o, "metrics");
        if (mn != null) {
            if (!(mn instanceof ArrayNode ml)) {
                problems.add(new Problem("/metrics", "must be an array of result paths, not " + type(mn), null));
            } else if (ml.size() > Experiment.MAX_METRICS) {
                problems.add(new Problem("/metrics", ml.size() + " metrics exceed the limit of " + Experiment.MAX_METRICS, "ERANGE"));
            } else {
                for (int i = 0; i < ml.size(); i++) {
                    JsonNode m = ml.get(i);
                    if (!m.isString() || m.stringValue().isBlank()) {
                        problems.add(new Problem("/metrics/" + i, "must be a result path such as "
                                + "\"cgroups/~1a/cpu.stat/throttled_usec\", not " + type(m), null));
                    } else if (metrics.contains(m.stringValue())) {
                        problems.add(new Problem("/metrics/" + i, "metric " + m.stringValue() + " is listed twice", null));
                    } else {
                        String bad = MetricPath.syntaxProblem(m.stringValue());
                        if (bad != null) problems.add(new Problem("/metrics/" + i, bad, null));
                        metrics.add(m.stringValue());
                    }
                }
            }
        }
        if (!problems.isEmpty()) throw new ExperimentException(new ArrayList<>(problems));
        return new Experiment(name, description, scenario, scenarioId, seed, common, List.copyOf(arms), repeats,
                List.copyOf(metrics));
    }

    /** A {@code set} object: pointer → value, each pointer well-formed. */
    private static Map<String, JsonNode> overrides(JsonNode n, String at, Set<Problem> problems) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        if (n == null) return out;
        if (!(n instanceof ObjectNode set)) {
            problems.add(new Problem(at, "must be an object of JSON pointer → value, not " + type(n), null));
            return out;
        }
        if (set.size() > Experiment.MAX_OVERRIDES) {
            problems.add(new Problem(at, set.size() + " overrides exceed the limit of " + Experiment.MAX_OVERRIDES, "ERANGE"));
            return out;
        }
        for (Map.Entry<String, JsonNode> e : set.properties()) {
            String bad = ScenarioOverrides.pointerProblem(e.getKey());
            if (bad != null) {
                problems.add(new Problem(at + "/" + esc(e.getKey()), bad, null));
            } else {
                out.put(e.getKey(), e.getValue());
            }
        }
        return out;
    }

    private static JsonNode value(ObjectNode o, String key) {
        JsonNode v = o.get(key);
        return v == null || v.isNull() ? null : v;
    }

    /**
     * {@code description}: a string, or a list of paragraphs (strings), the first of which is the summary the pages
     * show first (the rest behind "details"); kept as one text with the paragraphs apart by a blank line.
     */
    private static String description(ObjectNode o, Set<Problem> problems) {
        JsonNode v = value(o, "description");
        if (v == null || !v.isArray()) return string(o, "description", problems);
        List<String> paragraphs = new ArrayList<>();
        for (int i = 0; i < v.size(); i++) {
            JsonNode p = v.get(i);
            String bad = p.isString() ? io.cfslab.scenario.ScenarioText.badText(p.stringValue()) : "must be a string, not " + type(p);
            if (bad != null) {
                problems.add(new Problem("/description/" + i, p.isString() ? "string " + bad : bad, p.isString() ? "EINVAL" : null));
                return null;
            }
            paragraphs.add(p.stringValue().strip());
        }
        return String.join("\n\n", paragraphs);
    }

    /** A document's description as {@link #parse} reads it (a list of paragraphs joined by blank lines), or "". */
    public static String descriptionText(JsonNode doc) {
        JsonNode v = doc.path("description");
        if (!v.isArray()) return v.asString("");
        List<String> paragraphs = new ArrayList<>();
        for (JsonNode p : v) paragraphs.add(p.asString("").strip());
        return String.join("\n\n", paragraphs);
    }

    private static String string(ObjectNode o, String key, Set<Problem> problems) {
        JsonNode v = value(o, key);
        if (v == null) return null;
        if (!v.isString()) {
            problems.add(new Problem("/" + key, "must be a string, not " + type(v), null));
            return null;
        }
        String bad = io.cfslab.scenario.ScenarioText.badText(v.stringValue());
        if (bad != null) {
            problems.add(new Problem("/" + key, key + " " + bad, "EINVAL"));
            return null;
        }
        return v.stringValue();
    }

    /** {@link #string}, but a tab is no fault: around an id it is trimmed, inside one the id names nothing. */
    private static String idString(ObjectNode o, String key, Set<Problem> problems) {
        JsonNode v = value(o, key);
        if (v == null || !v.isString()) return string(o, key, problems);
        String bad = io.cfslab.scenario.ScenarioText.idFault(key, v.stringValue());
        if (bad != null) {
            problems.add(new Problem("/" + key, bad, "EINVAL"));
            return null;
        }
        return v.stringValue();
    }

    /** RFC 6901 escaping of one reference token. */
    static String esc(String token) { return token.replace("~", "~0").replace("/", "~1"); }

    static String type(JsonNode n) { return io.cfslab.scenario.JsonNodeWords.describe(n); }
}
