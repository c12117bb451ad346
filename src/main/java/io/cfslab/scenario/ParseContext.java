package io.cfslab.scenario;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * One parse of a scenario: the problems found so far (in the order found, at most
 * {@link ScenarioParser#MAX_PROBLEMS} kept) and the readers of scalar values that every section uses.
 * A reader that finds a problem records it at the value's JSON pointer and returns its default (or null),
 * so that parsing goes on and every problem of a document is reported at once.
 */
final class ParseContext {
    private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9_.-]+");

    private final LinkedHashSet<Problem> problems = new LinkedHashSet<>();
    private int dropped;

    void add(String path, String reason, String errno) {
        if (problems.size() >= ScenarioParser.MAX_PROBLEMS) dropped++;
        else problems.add(new Problem(path, reason, errno));
    }

    void add(String path, InvalidValueException e) {
        if (problems.size() >= ScenarioParser.MAX_PROBLEMS) dropped++;
        else problems.add(e.toProblem(path));
    }

    boolean hasProblems() { return !problems.isEmpty(); }

    /** The text's syntax was refused (as opposed to a value in it): {@link ScenarioText#read(String, ParseContext, boolean)}. */
    boolean syntaxFailed;

    /** Adds another parse's problems, in its order. */
    void addAll(ParseContext other) {
        for (Problem p : other.problems) add(p.path(), p.reason(), p.errno());
    }

    /** Problems found so far (kept and dropped): compare before and after reading a part to see if it had any. */
    int problemCount() { return problems.size() + dropped; }

    ScenarioException failure() { return new ScenarioException(new ArrayList<>(problems), problems.size() + dropped); }

    /**
     * {@link #failure()}, each problem of a string value that holds a character showing as nothing or as a space
     * ({@link ScenarioText#lookAlike}) saying which and where: {@code must be an integer, not string "2 "} hid the
     * NBSP that made {@code 2} a string (breaker 6 F3), whatever the reader that refused the value.
     *
     * @param root the document the problems' pointers point into
     */
    ScenarioException failure(JsonNode root) {
        List<Problem> explained = new ArrayList<>(problems.size());
        for (Problem p : problems) {
            JsonNode n = p.path() == null || !(p.path().isEmpty() || p.path().startsWith("/")) ? null
                    : root.at(tools.jackson.core.JsonPointer.compile(p.path()));
            String lookAlike = n != null && n.isString() ? ScenarioText.lookAlike(n.stringValue()) : null;
            explained.add(lookAlike == null || p.reason().contains(lookAlike) ? p
                    : new Problem(p.path(), p.reason() + " (" + lookAlike + ")", p.errno()));
        }
        return new ScenarioException(explained, problems.size() + dropped);
    }

    // --- objects and scalars ---

    CheckedObject obj(JsonNode n, String ptr) {
        if (n instanceof ObjectNode on) return new CheckedObject(on, ptr);
        if (ptr.isEmpty()) add(ptr, JsonNodeWords.notAnObject(n), "EINVAL"); // the document, as the API says it
        else add(ptr, "must be an object, not " + type(n), null);
        return null;
    }

    /** The array at {@code key}; null if absent, or not an array (problem added). */
    JsonNode array(CheckedObject o, String key) {
        JsonNode n = o.get(key);
        if (n == null || n.isArray()) return n;
        add(o.at(key), "must be an array, not " + type(n), null);
        return null;
    }

    String string(CheckedObject o, String key, String dflt) {
        JsonNode n = o.get(key);
        if (n == null) return dflt;
        if (!n.isString()) {
            add(o.at(key), "must be a string, not " + type(n), null);
            return null;
        }
        return n.stringValue();
    }

    /**
     * The text a document writes to cgroup file {@code file}, in every section that writes one ({@code cgroups[]},
     * {@code generate[]}'s per-level values, a timeline {@code write}): the one parser of a file value, so that a
     * value one section takes no other refuses (a timeline write of the integer 50000 to {@code cpu.max} was taken
     * while {@code cgroups[]} refused it). A file {@link CgroupFiles#takesInteger} takes a string or an integer as the
     * shell echoes it; {@code cpu.max} a string only (the published schema's contract). Any other value (1.5, true,
     * an object) is {@code EINVAL}, as the kernel's parsers refuse {@code echo 1.5 > cpu.weight} (kstrtoull stops at
     * the dot) and {@code echo true > cpu.weight}: one errno for a wrong value whether it is typed or text. What the
     * text then means is {@link CgroupFiles}'s.
     */
    String fileValue(String file, JsonNode n, String ptr) {
        if (CgroupFiles.takesInteger(file)) return stringOrInt(n, ptr);
        if (n.isString()) return n.stringValue();
        add(ptr, "must be a string such as \"50000 100000\", not " + type(n) + " (the kernel refuses such text"
                + " with EINVAL)", "EINVAL");
        return null;
    }

    /** A string, or an integer as the shell would echo it (see {@link #fileValue}). */
    private String stringOrInt(JsonNode n, String ptr) {
        if (n.isString()) return n.stringValue();
        if (n.isIntegralNumber()) return n.bigIntegerValue().toString();
        add(ptr, "must be a string or an integer, not " + type(n) + " (the file takes what echo writes; the kernel"
                + " refuses such text with EINVAL)", "EINVAL");
        return null;
    }

    long integer(CheckedObject o, String key, long dflt, long min, long max) {
        JsonNode n = o.get(key);
        if (n == null) return dflt;
        return integer(n, o.at(key), dflt, min, max);
    }

    /** An integer in {@code min..max}, range-checked before {@code longValue()} is trusted. */
    long integer(JsonNode n, String ptr, long dflt, long min, long max) {
        return integer(n, ptr, dflt, min, max, Integers.RANGE);
    }

    /** {@link #integer(JsonNode, String, long, long, long)} with the errno of a value out of range (a sysctl's EINVAL). */
    long integer(JsonNode n, String ptr, long dflt, long min, long max, String rangeErrno) {
        Problem p = Integers.problem(n, ptr, fieldName(ptr).strip(), min, max, rangeErrno);
        if (p != null) {
            if (p.reason().startsWith(" ")) p = new Problem(ptr, p.reason().strip(), p.errno()); // an array index: no name
            add(p.path(), p.reason(), p.errno());
            return dflt;
        }
        return n.longValue();
    }

    /** An integer field of a sysctl: out of its range is EINVAL, as the sysctl's handler refuses it. */
    long sysctl(CheckedObject o, String key, long dflt, long min, long max) {
        JsonNode n = o.get(key);
        return n == null ? dflt : integer(n, o.at(key), dflt, min, max, "EINVAL");
    }

    /** The key a pointer ends in and a space ({@code "fds "} for {@code /tasks/0/workload/fds}), so that a problem's
     *  text names its field as well as its pointer does; empty for an array index. */
    static String fieldName(String ptr) {
        String last = ptr.substring(ptr.lastIndexOf('/') + 1).replace("~1", "/").replace("~0", "~");
        return last.isEmpty() || last.chars().allMatch(Character::isDigit) ? "" : last + " ";
    }

    boolean bool(CheckedObject o, String key, boolean dflt) {
        JsonNode n = o.get(key);
        if (n == null) return dflt;
        if (!n.isBoolean()) {
            add(o.at(key), "must be true or false, not " + type(n), null);
            return dflt;
        }
        return n.booleanValue();
    }

    <E extends Enum<E>> E enumValue(CheckedObject o, String key, Class<E> type, E dflt) {
        JsonNode n = o.get(key);
        if (n == null) return dflt;
        return enumValue(n, o.at(key), type, dflt);
    }

    /**
     * A client's value as a refusal echoes it: quoted, cut after 20 characters with its length when it has over 40, as a
     * bad duration is (breaker 9 F22: a 100,000-character enum value was echoed whole, twice, in a 200 KB problem).
     */
    static String echoed(String value) {
        if (value.codePointCount(0, value.length()) <= 40) return "\"" + value + "\"";
        return "\"" + value.substring(0, value.offsetByCodePoints(0, 20)) + "…\" (" + value.codePointCount(0, value.length())
                + " characters)";
    }

    /** An enum constant by its contract spelling ({@link ScenarioParser#jsonName}). */
    <E extends Enum<E>> E enumValue(JsonNode n, String ptr, Class<E> type, E dflt) {
        List<String> names = new ArrayList<>();
        for (E e : type.getEnumConstants()) names.add(ScenarioParser.jsonName(e));
        if (n.isString()) {
            for (E e : type.getEnumConstants()) if (ScenarioParser.jsonName(e).equals(n.stringValue())) return e;
            add(ptr, "unknown value " + echoed(n.stringValue()) + "; one of " + String.join(", ", names), null);
        } else {
            add(ptr, "must be one of " + String.join(", ", names) + ", not " + type(n), null);
        }
        return dflt;
    }

    /** A duration ({@link Durations}), ns; -1 on a problem. */
    long duration(JsonNode n, String ptr) {
        try {
            return Durations.parseNs(n);
        } catch (InvalidValueException e) {
            add(ptr, e);
            return -1;
        }
    }

    /** A duration that must be given (and be above 0 if {@code positive}), ns; -1 on a problem. */
    long requiredDuration(CheckedObject o, String key, boolean positive) {
        JsonNode n = o.get(key);
        if (n == null) {
            add(o.at(key), key + " is required", null);
            return -1;
        }
        long v = duration(n, o.at(key));
        if (positive && v == 0) {
            add(o.at(key), key + " must be above 0", null);
            return -1;
        }
        return v;
    }

    /**
     * A CPU list such as {@code "0-3,8"}.
     * @param cpus the machine's CPU count, or -1 if the machine is invalid (then only the syntax is checked)
     * @return the CPUs, or null on a problem
     */
    BitSet cpuList(JsonNode n, String ptr, int cpus) {
        String s;
        if (n.isString()) s = n.stringValue();
        else if (n.isIntegralNumber()) s = n.toString();
        else {
            add(ptr, "must be a CPU list string such as \"0-3,8\", not " + type(n), null);
            return null;
        }
        try {
            return cpus > 0 ? CpuLists.parse(s, cpus) : CpuLists.parse(s);
        } catch (InvalidValueException e) {
            add(ptr, e);
            return null;
        }
    }

    // --- cgroup paths ---

    /** Checks a cgroup path; null if bad (problem added). Root allowed only if {@code rootOk}. */
    String cgroupPath(JsonNode n, String ptr, boolean rootOk) {
        if (n == null) {
            add(ptr, "path is required", null);
            return null;
        }
        if (!n.isString()) {
            add(ptr, "must be a string, not " + type(n), null);
            return null;
        }
        return cgroupPath(n.stringValue(), ptr, rootOk);
    }

    /** Checks a cgroup path as mkdir in cgroupfs would; null if bad (problem added). */
    String cgroupPath(String p, String ptr, boolean rootOk) {
        if (p.equals("/")) {
            if (!rootOk) add(ptr, "the root cgroup / always exists and cannot be created", "EEXIST");
            return rootOk ? p : null;
        }
        if (!p.startsWith("/")) {
            add(ptr, "cgroup path \"" + p + "\" is not absolute", null);
            return null;
        }
        String[] seg = p.substring(1).split("/", -1);
        if (seg.length > Limits.MAX_DEPTH) {
            add(ptr, "cgroup path \"" + p + "\" is " + seg.length + " levels deep; exceeds the limit of " + Limits.MAX_DEPTH, null);
            return null;
        }
        for (String s : seg) {
            // EINVAL as the file API's mkdir of the same name answers (breaker 4 F1b): one fault, one errno
            if (s.isEmpty() || s.equals(".") || s.equals("..") || !SEGMENT.matcher(s).matches()) {
                add(ptr, "cgroup path \"" + p + "\" has a bad name \"" + s + "\"; names are [A-Za-z0-9_.-]+, not . or ..", "EINVAL");
                return null;
            }
            if (s.length() > 255) {
                add(ptr, "cgroup name \"" + s.substring(0, 16) + "...\" is longer than 255 bytes", "ENAMETOOLONG");
                return null;
            }
            if (s.startsWith("cgroup.") || s.startsWith("cpu.")) {
                // a cgroup directory holds files of these names: mkdir fails as the name exists
                add(ptr, "cgroup name \"" + s + "\" is the name of a cgroup file", "EEXIST");
                return null;
            }
        }
        return p;
    }

    // --- words ---

    /** RFC 6901 escaping of one reference token. */
    static String esc(String key) { return key.replace("~", "~0").replace("/", "~1"); }

    /** A value's type and, for a scalar, the value, as problems name it ({@link JsonNodeWords#describe}). */
    static String type(JsonNode n) { return JsonNodeWords.describe(n); }
}
