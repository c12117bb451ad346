package io.cfslab.scenario;

import java.util.List;
import java.util.Locale;
import tools.jackson.databind.JsonNode;

/**
 * Reads a contract v1 scenario from JSON or YAML text, checks every field (unknown keys are errors),
 * fills defaults, expands {@code generate} and {@code leaves:} and returns a {@link Scenario}.
 * Every problem found is collected (the parser does not stop at the first), each with the RFC 6901
 * JSON pointer of the offending value. cgroupfs writes are validated as the scenario's kernel would
 * ({@link CgroupFiles}, {@link KernelVersions}; 6.18 unless {@code kernel.version} says otherwise), cgroup v1 or
 * v2 as the scenario's files are; timeline writes against the group's state at that simulated time (a write the
 * kernel could refuse only for what happens during the run is checked again then, see {@code actions}).
 * A JSON {@code null} is treated as an absent key (so the default applies).
 *
 * <p>This class reads the top-level keys and runs one class per section, in this order (the order of the
 * problems): {@link ScenarioText} (text to tree), {@link MachineSection}, {@link KernelSection},
 * {@link RecordSection}, {@link CgroupsSection} ({@code cgroups} and {@code generate}, building a
 * {@link CgroupTree}), {@link TasksSection} (with {@link WorkloadSection}), {@link TimelineSection}.
 * They share a {@link ParseContext}: the problems and the scalar readers.
 */
public final class ScenarioParser {
    private ScenarioParser() {}

    /** Most samples a {@code record.interval} may produce over the run's duration. */
    public static final long MAX_SERIES_SAMPLES = 100_000;
    /** Most {@code distribute_calls} that {@code record.max_distribute_calls} may keep. */
    public static final int MAX_DISTRIBUTE_CALLS = 100_000;
    /** Series entries (samples × (cgroups + tasks) per sample) a result may hold: bounds its memory and size. */
    public static final long MAX_SERIES_ENTRIES = 500_000;
    /** The {@code machine.profile} values implemented. */
    public static final List<String> PROFILES = io.cfslab.machine.MachineProfiles.ALL;
    /** Problems kept per parse; beyond this only counted (a document with a million bad keys costs no more). */
    public static final int MAX_PROBLEMS = 1000;

    /**
     * The cgroup version that a scenario document's files declare: its first cgroup file ({@code cgroups}, then
     * {@code generate}, then a timeline write) decides; a document that writes no file declares none and is
     * parsed as cgroup v2 (docs/kernel-eras.md).
     *
     * @param doc a scenario document's top-level object
     * @return 1 or 2, or 0 when the document writes no cgroup file
     */
    public static int declaredCgroupVersion(JsonNode doc) {
        return CgroupsSection.declaredCgroupVersion(doc);
    }

    /**
     * @param text JSON or YAML text (YAML if it does not start with '{' after whitespace)
     * @return the validated scenario
     * @throws ScenarioException listing every problem, each with its JSON pointer
     */
    public static Scenario parse(String text) { return parse(text, false); }

    /**
     * @param text JSON or YAML text
     * @param yaml the text is declared YAML (a {@code .yaml} file): a text starting with '{' that JSON refuses is read
     *             as YAML ({@link ScenarioText#read(String, ParseContext, boolean)})
     * @return the validated scenario
     * @throws ScenarioException listing every problem, each with its JSON pointer
     */
    public static Scenario parse(String text, boolean yaml) {
        ParseContext c = new ParseContext();
        JsonNode root = ScenarioText.read(text, c, yaml);
        if (root == null) throw c.failure();
        Scenario s = scenario(root, c);
        if (c.hasProblems()) throw c.failure(root);
        return s;
    }

    /**
     * Parses JSON or YAML text into a tree, without checking it against the contract.
     * @param text scenario text
     * @return the tree
     * @throws ScenarioException with one problem at pointer {@code ""} when the text is malformed
     */
    public static JsonNode readTree(String text) { return readTree(text, false); }

    /**
     * {@link #readTree(String)} of a text declared YAML ({@code yaml}: a body's {@code Content-Type}, a file's
     * extension), read as YAML where JSON refuses its syntax.
     * @param text scenario text
     * @param yaml declared YAML
     * @return the tree
     * @throws ScenarioException with one problem at pointer {@code ""} when the text is malformed
     */
    public static JsonNode readTree(String text, boolean yaml) {
        ParseContext c = new ParseContext();
        JsonNode n = ScenarioText.read(text, c, yaml);
        if (n == null) throw c.failure();
        return n;
    }

    private static Scenario scenario(JsonNode rootNode, ParseContext c) {
        CheckedObject o = c.obj(rootNode, "");
        if (o == null) return null;
        String name = c.string(o, "name", "unnamed");
        Problem badName = name == null ? null : Names.scenarioNameProblem(o.at("name"), name);
        if (badName != null) c.add(badName.path(), badName.reason(), badName.errno());
        long seed = c.integer(o, "seed", 1, Long.MIN_VALUE, Long.MAX_VALUE);
        long durationNs = duration(o, c);
        MachineSection.Parsed machine = MachineSection.parse(o, c);
        KernelSpec kernel = KernelSection.parse(o, c, CgroupsSection.cgroupVersion(o));
        RecordSpec record = RecordSection.parse(o, c, durationNs);
        CgroupTree tree = CgroupsSection.parse(o, c, CgroupFiles.Rules.of(kernel));
        List<CgroupSpec> groups = tree.groups(); // initial state, before timeline writes
        tree.checkCfsRqLimit(machine.spec(), machine.checkedCpus());
        List<TaskSpec> tasks = new TasksSection(c, tree, machine.checkedCpus()).parse(o);
        List<TimelineAction> timeline = new TimelineSection(c, tree, machine.checkedCpus(), durationNs).parse(o, tasks);
        o.finish(c);
        record = RecordSection.withDefaultInterval(record, durationNs, groups, tasks);
        RecordSection.checkSeriesBudget(c, record, durationNs, groups, tasks);
        return new Scenario(name, seed, Math.max(durationNs, 0), machine.spec(), kernel, List.copyOf(groups),
                List.copyOf(tasks), List.copyOf(timeline), record);
    }

    /** The top-level {@code duration}, ns; -1 if missing or refused. */
    private static long duration(CheckedObject o, ParseContext c) {
        JsonNode n = o.get("duration");
        if (n == null) {
            c.add("/duration", "duration is required", null);
            return -1;
        }
        long d = c.duration(n, "/duration");
        if (d == 0) {
            c.add("/duration", "duration must be above 0", Integers.RANGE);
            return -1;
        }
        if (d > Limits.MAX_DURATION_NS) {
            c.add("/duration", "duration " + Durations.format(d) + " exceeds the limit of "
                    + Durations.format(Limits.MAX_DURATION_NS), Integers.RANGE);
            return -1;
        }
        return d;
    }

    /**
     * The contract's spelling of an enum constant of {@link KernelSpec} or {@link TaskSpec.Policy}:
     * lower case with '-' for '_', except {@code cfs_rq}; e.g. {@code first-park}, {@code task-account}.
     * @param e an enum constant
     * @return its JSON value
     */
    public static String jsonName(Enum<?> e) {
        if (e == KernelSpec.Throttle.CFS_RQ) return "cfs_rq";
        return e.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
