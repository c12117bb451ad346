package io.cfslab.experiment;

import io.cfslab.metrics.ResultJson;
import io.cfslab.metrics.SimulationResult;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Whether a metric path can reach a number in a run's result, by the result's own types ({@link SimulationResult} and
 * the records it holds, with the keys {@link ResultJson} writes them under): a key no result can have
 * ({@code cpu.stat/usage_usecs}, {@code cpu.stats/…}) is refused when the experiment is submitted, instead of a table
 * of n/a after every run. Names chosen by the scenario (groups, tasks, histograms, a workload's figures) are map keys
 * here; {@link ExperimentPlan} checks them against the scenario.
 */
final class ResultShape {
    private ResultShape() {}

    /**
     * @param metric a well-formed metric path
     * @return why no result can hold a number there, or null
     */
    static String problem(String metric) {
        Type t = SimulationResult.class;
        List<String> steps = MetricPath.steps(metric);
        String at = "the result";
        for (int i = 0; i < steps.size(); i++) {
            String step = steps.get(i);
            Class<?> raw = raw(t);
            if (raw == Object.class) return null; // free-form (the kernel's switches): anything may be there
            if (isNumber(raw) || raw == String.class || raw == Boolean.class || raw == boolean.class) {
                return "metric " + metric + " goes past " + at + ", which is a " + (isNumber(raw) ? "number" : "text");
            }
            if (Map.class.isAssignableFrom(raw)) {
                t = ((ParameterizedType) t).getActualTypeArguments()[1]; // a name the scenario chose
            } else if (List.class.isAssignableFrom(raw)) {
                if (!step.matches("0|[1-9][0-9]{0,8}")) return "metric " + metric + ": " + at + " is a list, indexed by number";
                t = ((ParameterizedType) t).getActualTypeArguments()[0];
            } else if (raw.isRecord()) {
                RecordComponent found = null;
                List<String> keys = new ArrayList<>();
                for (RecordComponent c : raw.getRecordComponents()) {
                    String key = ResultJson.jsonName(c.getName());
                    keys.add(key);
                    if (key.equals(step)) found = c;
                }
                if (found == null) {
                    return "no key " + step + " in " + at + " (metric " + metric + "; its keys are " + String.join(", ", keys) + ")";
                }
                t = found.getGenericType();
            } else {
                return "metric " + metric + " goes past " + at;
            }
            at = step;
        }
        Class<?> end = raw(t);
        return isNumber(end) || end == Object.class ? null
                : "metric " + metric + " names " + at + ", not a number (e.g. …/cpu.stat/throttled_usec)";
    }

    private static Class<?> raw(Type t) {
        if (t instanceof Class<?> c) return c;
        if (t instanceof ParameterizedType p) return (Class<?>) p.getRawType();
        return Object.class;
    }

    private static boolean isNumber(Class<?> c) {
        return Number.class.isAssignableFrom(c) || (c.isPrimitive() && c != boolean.class && c != void.class);
    }
}
