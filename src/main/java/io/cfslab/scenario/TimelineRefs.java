package io.cfslab.scenario;

import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;
import tools.jackson.databind.JsonNode;

/**
 * What each {@code timeline[]} entry kind names, as written in a scenario document: the task entries it acts on and
 * the groups it needs to exist at its time. One table for the parser ({@link TimelineSection}: its kinds) and for
 * the API's deletes (a task or group that an entry names cannot be removed: 409 {@code EBUSY}, as the kernel refuses
 * to remove a busy directory), so that a new kind cannot be left out of one of them.
 */
public final class TimelineRefs {
    private TimelineRefs() {}

    /** The action kinds; an entry has exactly one. */
    public static final List<String> KINDS = List.of("write", "move", "taskset", "chrt", "kill", "rmdir");

    /** Per kind, the key that names a task (an entry's name, or {@code name/i} for its instance i), if any. */
    public static final Map<String, String> TASK_KEY = Map.of("move", "move", "taskset", "taskset", "chrt", "chrt",
            "kill", "kill");

    /** Per kind, the key that names a group (for {@code write}: the group of the file path), if any. */
    public static final Map<String, String> GROUP_KEY = Map.of("write", "write", "move", "to", "rmdir", "rmdir");

    /**
     * @param entry a timeline entry as written
     * @param task  a task entry's name
     * @return the key of {@code entry} that names {@code task} or one of its instances, or null
     */
    public static String namingTask(JsonNode entry, String task) {
        return naming(entry, TASK_KEY, (kind, ref) -> {
            int slash = ref.lastIndexOf('/');
            return ref.equals(task) || (slash > 0 && ref.substring(0, slash).equals(task));
        });
    }

    /**
     * @param entry a timeline entry as written
     * @param group a group's path
     * @return the key of {@code entry} that names {@code group} (a write to one of its files, a move into it, its
     *         rmdir), or null
     */
    public static String namingGroup(JsonNode entry, String group) {
        return naming(entry, GROUP_KEY, (kind, ref) -> {
            if (!kind.equals("write")) return ref.equals(group);
            int slash = ref.lastIndexOf('/'); // the file's group
            return slash >= 0 && (slash == 0 ? "/" : ref.substring(0, slash)).equals(group);
        });
    }

    /** The key (of {@code keys}, per kind) of the entry's kind whose value {@code names} accepts, or null. */
    private static String naming(JsonNode entry, Map<String, String> keys, BiPredicate<String, String> names) {
        for (String kind : KINDS) {
            String key = keys.get(kind);
            if (key == null || !entry.has(kind)) continue;
            String ref = entry.path(key).asString(null);
            if (ref != null && names.test(kind, ref)) return key;
        }
        return null;
    }
}
