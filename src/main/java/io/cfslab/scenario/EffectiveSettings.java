package io.cfslab.scenario;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * What a run ran with, as stored beside it (provenance): {@code {"seed", "duration", "machine": {...},
 * "kernel": {...}}}, where {@code machine} and {@code kernel} hold <em>every</em> component of the effective
 * {@link MachineSpec} and {@link KernelSpec} (defaults filled in), found by reflection: a switch added to
 * {@code KernelSpec} appears here, on the run page and in the compare page's differences without more code.
 * Keys are the components' names in snake_case ({@code bandwidthSliceUs} → {@code bandwidth_slice_us}, the
 * scenario's keys); enum values are the scenario's words ({@link ScenarioParser#jsonName}).
 */
public final class EffectiveSettings {
    private EffectiveSettings() {}

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** @return the settings of {@code s} as a JSON object (see the class comment) */
    public static ObjectNode of(Scenario s) {
        ObjectNode o = JSON.createObjectNode();
        o.put("seed", s.seed());
        o.put("duration", Durations.format(s.durationNs()));
        o.set("machine", components(s.machine()));
        o.set("kernel", components(s.kernel()));
        return o;
    }

    /** The same with another seed (a run's seed override). */
    public static ObjectNode of(Scenario s, long seed) {
        ObjectNode o = of(s);
        o.put("seed", seed);
        return o;
    }

    private static ObjectNode components(Record r) {
        ObjectNode o = JSON.createObjectNode();
        for (RecordComponent c : r.getClass().getRecordComponents()) {
            Object v;
            try {
                v = c.getAccessor().invoke(r);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("cannot read " + c.getName() + " of " + r, e);
            }
            o.set(snake(c.getName()), value(v));
        }
        return o;
    }

    private static JsonNode value(Object v) {
        if (v == null) return JSON.nullNode();
        if (v instanceof Enum<?> e) return JSON.getNodeFactory().stringNode(ScenarioParser.jsonName(e));
        if (v instanceof Record r) return components(r);
        return JSON.valueToTree(v); // numbers, booleans, strings (and any collection a future switch holds)
    }

    /** {@code bandwidthSliceUs} → {@code bandwidth_slice_us} ({@link KernelSpec#snake}, one rule for both). */
    static String snake(String camel) { return KernelSpec.snake(camel); }
}
