package io.cfslab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cfslab.scenario.Problem;
import io.cfslab.scenario.ScenarioParser;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.node.ObjectNode;

/** The experiment parser's strictness, and arms resolved against their scenario by the scenario parser. */
class ExperimentParserTest {

    static final String SCENARIO = """
            {"name": "two groups", "seed": 3, "duration": "1s", "machine": {"profile": "generic", "cpus": 2},
             "cgroups": [{"path": "/a", "cpu.max": "50000 100000"}, {"path": "/b", "cpu.max": "20000 100000"}],
             "tasks": [{"name": "nop", "cgroup": "/a", "count": 2, "workload": {"kind": "hog"}},
                       {"name": "fw", "cgroup": "/b", "workload": {"kind": "fixed-work", "work": "100ms"}}]}
            """;

    static String experiment(String arms, String extra) {
        return "{\"name\": \"x\", \"scenario\": " + SCENARIO + ", \"arms\": " + arms + ", \"repeats\": 3" + extra + "}";
    }

    static List<Problem> problems(String text) {
        try {
            ExperimentPlan.of(parsed(text), base(text), null, ScenarioParser::parse);
        } catch (ExperimentException e) {
            return e.problems();
        }
        throw new AssertionError("no problem found in " + text);
    }

    static Experiment parsed(String text) { return ExperimentParser.parse(text); }

    static ObjectNode base(String text) { return ExperimentParser.parse(text).scenario(); }

    @Test
    void aGoodExperimentResolvesEveryArm() {
        String text = experiment("""
                [{"name": "base", "set": {"/kernel/throttle": "task"}},
                 {"name": "head", "set": {"/kernel/throttle": "cfs_rq", "/cgroups/0/cpu.max": "25000 100000",
                                          "/tasks/1/workload/work": "200ms"}}]""", ", \"seed\": 42");
        Experiment e = parsed(text);
        ExperimentPlan plan = ExperimentPlan.of(e, e.scenario(), null, ScenarioParser::parse);
        assertThat(plan.arms()).extracting(ExperimentPlan.ArmPlan::name).containsExactly("base", "head");
        assertThat(plan.arms().get(1).scenario().kernel().throttle().name()).isEqualTo("CFS_RQ");
        assertThat(plan.arms().get(1).scenario().cgroups().get(0).cpuMax().quotaUs()).isEqualTo(25_000);
        assertThat(plan.arms().get(0).scenario().cgroups().get(0).cpuMax().quotaUs()).isEqualTo(50_000);
        assertThat(plan.seed()).isEqualTo(42);
        assertThat(plan.seeds()).containsExactly(SeedSequence.seed(42, 0), SeedSequence.seed(42, 1), SeedSequence.seed(42, 2));
        assertThat(plan.limitedGroups()).containsExactly("/a", "/b");
        // kernel.version sets every switch of that era, an explicit switch beside it still wins
        Experiment eras = parsed(experiment("""
                [{"name": "5.4", "set": {"/kernel/version": "5.4"}}, {"name": "6.18", "set": {"/kernel/version": "6.18"}},
                 {"name": "5.4 task", "set": {"/kernel/version": "5.4", "/kernel/throttle": "task"}}]""", ""));
        ExperimentPlan ep = ExperimentPlan.of(eras, eras.scenario(), null, ScenarioParser::parse);
        assertThat(ep.arms().get(0).scenario().kernel().version()).isEqualTo("5.4");
        assertThat(ep.arms().get(0).scenario().kernel().throttle().name()).isEqualTo("CFS_RQ");
        assertThat(ep.arms().get(1).scenario().kernel().throttle().name()).isEqualTo("TASK");
        assertThat(ep.arms().get(2).scenario().kernel().throttle().name()).isEqualTo("TASK");
        // the scenario's own seed when the experiment has none; the document of a repeat carries its seed
        Experiment noSeed = parsed(experiment("[{\"name\": \"only\"}]", ""));
        ExperimentPlan p2 = ExperimentPlan.of(noSeed, noSeed.scenario(), null, ScenarioParser::parse);
        assertThat(p2.seed()).isEqualTo(3);
        assertThat(p2.arms().get(0).document(77).path("seed").asLong()).isEqualTo(77);
        assertThat(p2.arms().get(0).scenario(77).seed()).isEqualTo(77);
    }

    @Test
    void armNamesAreCountedInCharactersNotUtf16Units() {
        String emoji = "\uD83D\uDE80"; // one character, two UTF-16 units
        String sixtyFour = emoji.repeat(ExperimentParser.MAX_NAME);
        Experiment ok = parsed(experiment("[{\"name\": \"" + sixtyFour + "\"}]", ""));
        assertThat(ok.arms().get(0).name()).isEqualTo(sixtyFour);
        assertThat(problems(experiment("[{\"name\": \"" + sixtyFour + emoji + "\"}]", "")))
                .anySatisfy(p -> assertThat(p.path() + " " + p.reason()).isEqualTo("/arms/0/name longer than 64 characters"));
    }

    @Test
    void aNumberBeyondADoubleIsOutOfRangeWithItsPointer() {
        // read as an infinite double, the value would be lost (and written back as the string "Infinity")
        assertThatThrownBy(() -> ExperimentParser.parse(experiment("[{\"name\": \"a\"}]", ", \"seed\": 1e400")))
                .isInstanceOfSatisfying(ExperimentException.class, e -> assertThat(e.problems()).singleElement()
                        .satisfies(p -> {
                            assertThat(p.path()).isEqualTo("/seed");
                            assertThat(p.reason()).contains("out of range").doesNotContain("Infinity");
                            assertThat(p.errno()).isEqualTo("ERANGE");
                        }));
        assertThatThrownBy(() -> ScenarioParser.parse("{\"name\": \"s\", \"duration\": \"1s\", \"machine\": {\"cpus\": -1e999}}"))
                .isInstanceOfSatisfying(io.cfslab.scenario.ScenarioException.class, e -> assertThat(e.problems())
                        .singleElement().satisfies(p -> assertThat(p.path()).isEqualTo("/machine/cpus")));
    }

    @Test
    void seedsAreFixedByTheExperimentSeed() {
        assertThat(SeedSequence.seeds(1, 4)).containsExactly(SeedSequence.seeds(1, 4)).doesNotHaveDuplicates();
        assertThat(java.util.Arrays.stream(SeedSequence.seeds(1, 4)).allMatch(s -> s >= 0)).isTrue();
        assertThat(SeedSequence.seeds(1, 3)).isNotEqualTo(SeedSequence.seeds(2, 3));
        // the same sequence as java.util.SplittableRandom(seed).nextLong(), sign bit cleared
        for (long seed : new long[] {0, 1, 42, -7, Long.MAX_VALUE}) {
            java.util.SplittableRandom jdk = new java.util.SplittableRandom(seed);
            for (int i = 0; i < 5; i++) assertThat(SeedSequence.seed(seed, i)).isEqualTo(jdk.nextLong() & Long.MAX_VALUE);
        }
    }

    @Test
    void anUnknownPointerNamesTheArmsOverride() {
        // an index past the end of an array
        assertThat(problems(experiment("[{\"name\": \"b\"}, {\"name\": \"h\", \"set\": {\"/cgroups/7/cpu.max\": \"1000 100000\"}}]", "")))
                .extracting(Problem::line)
                .containsExactly("/arms/1/set/~1cgroups~17~1cpu.max: unknown pointer /cgroups/7/cpu.max: /cgroups has 2 entries, no index 7");
        // a member that does not exist in the contract reaches the scenario parser
        assertThat(problems(experiment("[{\"name\": \"b\"}, {\"name\": \"h\", \"set\": {\"/kernel/throttel\": \"task\"}}]", "")))
                .extracting(Problem::path).containsExactly("/arms/1/set/~1kernel~1throttel");
        // through a string
        assertThat(problems(experiment("[{\"name\": \"b\", \"set\": {\"/name/x\": 1}}]", "")).get(0).reason())
                .contains("unknown pointer /name/x", "is string");
        // not a pointer at all
        assertThat(problems(experiment("[{\"name\": \"b\", \"set\": {\"kernel.hz\": 250}}]", "")).get(0).line())
                .isEqualTo("/arms/0/set/kernel.hz: not a JSON pointer (RFC 6901): \"kernel.hz\" must start with /");
        assertThat(problems(experiment("[{\"name\": \"b\", \"set\": {\"/seed\": 250}}]", "")).get(0).reason())
                .contains("cannot set /seed");
    }

    @Test
    void aValueOfTheWrongTypeIsTheScenarioParsersProblemAtTheOverride() {
        List<Problem> p = problems(experiment("[{\"name\": \"b\"}, {\"name\": \"h\", \"set\": {\"/kernel/hz\": \"fast\"}}]", ""));
        assertThat(p).hasSize(1);
        assertThat(p.get(0).path()).isEqualTo("/arms/1/set/~1kernel~1hz");
        assertThat(p.get(0).reason()).isEqualTo("hz must be an integer, not string \"fast\" (arm \"h\", scenario /kernel/hz)");
        // the kernel's own refusal keeps its errno
        Problem q = problems(experiment("[{\"name\": \"b\", \"set\": {\"/cgroups/0/cpu.max\": \"500 100000\"}}]", "")).get(0);
        assertThat(q.path()).isEqualTo("/arms/0/set/~1cgroups~10~1cpu.max");
        assertThat(q.errno()).isEqualTo("EINVAL");
        // a fault the overrides cause away from their own pointers: the set that causes it
        String shorter = experiment("[{\"name\": \"b\"}]", ", \"set\": {\"/duration\": \"100ms\"}").replace("\"repeats\": 3",
                "\"repeats\": 3").replace("\"cgroups\": [", "\"timeline\": [{\"at\": \"500ms\", \"write\": \"/a/cpu.max\", \"value\": \"max\"}], \"cgroups\": [");
        Problem d = problems(shorter).get(0);
        assertThat(d.path()).isEqualTo("/set");
        assertThat(d.reason()).contains("beyond duration", "(arm \"b\", scenario /timeline/0/at)");
        // a fault of the scenario itself is reported once, in the scenario
        String bad = experiment("[{\"name\": \"b\"}, {\"name\": \"h\"}]", "").replace("\"duration\": \"1s\"", "\"duration\": \"soon\"");
        assertThat(problems(bad)).extracting(Problem::path).containsExactly("/scenario/duration");
    }

    @Test
    void theDocumentItselfIsCheckedStrictly() {
        assertThat(lines(experiment("[{\"name\": \"b\"}]", "").replace("\"repeats\": 3", "\"repeats\": 0")))
                .containsExactly("/repeats: repeats 0 is outside 1..100: every arm needs at least one run (ERANGE)");
        assertThat(lines(experiment("[{\"name\": \"b\"}]", "").replace("\"repeats\": 3", "\"repeats\": \"3\"")))
                .containsExactly("/repeats: must be an integer, not string \"3\" (EINVAL)");
        assertThat(lines(experiment("[{\"name\": \"b\"}]", ", \"colour\": 1"))).containsExactly(
                "/colour: unknown key \"colour\" (expected one of name, description, scenario, scenario_id, seed, set, arms, repeats, metrics)");
        assertThat(lines(experiment("[{\"name\": \"b\"}, {\"name\": \"b\", \"sett\": {}}]", ""))).containsExactly(
                "/arms/1/sett: unknown key \"sett\" (expected name, set)",
                "/arms/1/name: arm name \"b\" is used twice (first at /arms/0) (EINVAL)");
        assertThat(lines(experiment("[]", ""))).containsExactly("/arms: at least one arm is needed; the first is the base");
        assertThat(lines(experiment("[{\"name\": \"b\"}]", ", \"scenario_id\": \"x\""))).containsExactly(
                "/scenario_id: give either \"scenario\" or \"scenario_id\", not both (EINVAL)");
        assertThat(lines("{\"arms\": [{\"name\": \"b\"}], \"repeats\": 2}")).containsExactly(
                "/scenario: give the scenario: \"scenario\" (a whole scenario) or \"scenario_id\" (a stored or ready-made one)");
        assertThat(lines(experiment("[{\"name\": \"b\"}]", ", \"metrics\": [\"cgroups//a\", 3]"))).containsExactly(
                "/metrics/0: metric path cgroups//a has an empty step (a / inside a name is written ~1)",
                "/metrics/1: must be a result path such as \"cgroups/~1a/cpu.stat/throttled_usec\", not number 3");
        assertThat(lines(experiment("[{\"name\": \"b\"}]", "").replace("\"repeats\": 3", "\"repeats\": 101")).get(0))
                .startsWith("/repeats: repeats 101 is outside 1..100");
        assertThat(lines("[1]")).containsExactly("must be a JSON object, not an array (EINVAL)");
        assertThat(lines("{\"name\": ")).hasSize(1).allMatch(l -> l.startsWith("malformed JSON"));
    }

    @Test
    void metricsMustNameWhatTheScenarioHas() {
        assertThat(problems(experiment("[{\"name\": \"b\"}]", ", \"metrics\": [\"cgroups/~1c/cpu.stat/usage_usec\","
                + " \"benchmarks/nope/completion_s\", \"bogus/x\", \"cgroups/~1a/cpu.stat\"]")))
                .extracting(Problem::line).containsExactly(
                        "/metrics/0: no cgroup /c in the scenario (metric cgroups/~1c/cpu.stat/usage_usec; write / inside a name as ~1)",
                        "/metrics/1: no task entry nope in the scenario (metric benchmarks/nope/completion_s)",
                        "/metrics/2: metric bogus/x does not start with a part of the result (simulated_ns, cgroups, tasks, histograms, benchmarks, cpus, machine)",
                        "/metrics/3: metric cgroups/~1a/cpu.stat names a file, not a number (e.g. …/cpu.stat/throttled_usec)");
    }

    @Test
    void overridesFollowJsonPatchAdd() {
        ObjectNode doc = base(experiment("[{\"name\": \"b\"}]", ""));
        assertThat(ScenarioOverrides.apply(doc, "/kernel/throttle", tools.jackson.databind.node.JsonNodeFactory.instance.stringNode("cfs_rq"))).isNull();
        assertThat(doc.path("kernel").path("throttle").asString()).as("missing objects on the way are created").isEqualTo("cfs_rq");
        assertThat(ScenarioOverrides.apply(doc, "/cgroups/-", doc.path("cgroups").get(0).deepCopy())).isNull();
        assertThat(doc.path("cgroups").size()).isEqualTo(3);
        assertThat(ScenarioOverrides.apply(doc, "/cgroups/01", doc)).contains("not an index");
        assertThat(ScenarioOverrides.tokens("/a~1b/c~0d")).containsExactly("a/b", "c~d");
        assertThat(ScenarioOverrides.pointerProblem("/a~2")).contains("~ must be followed by 0 or 1");
        assertThat(ScenarioOverrides.pointerProblem("")).contains("whole scenario");
    }

    static List<String> lines(String text) {
        assertThatThrownBy(() -> ExperimentParser.parse(text)).isInstanceOf(ExperimentException.class);
        try {
            ExperimentParser.parse(text);
            return List.of();
        } catch (ExperimentException e) {
            return e.problems().stream().map(Problem::line).toList();
        }
    }
}
