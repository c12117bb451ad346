package io.cfslab.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.scenario.CgroupSpec;
import io.cfslab.scenario.CpuMax;
import io.cfslab.scenario.KernelSpec.Throttle;
import io.cfslab.scenario.KernelSpec.ThrottledLb;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioParser;
import io.cfslab.scenario.WorkloadSpec;
import io.cfslab.store.ReadyMadeExperiments;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The seed 00 and seed 04 presets (issue 8): the seeds' setups (tree, quotas, workloads, throttle models, machines),
 * valid as soon as their machine profiles exist, and listed only then. Until the profiles {@code intel-emr-2s} and
 * {@code amd-genoa-2s} land, each preset is checked with those names replaced by {@code generic} machines of the
 * same topology, so that the profile is the only thing it waits for.
 */
class SeedPresetsTest {
    static final Path DIR = Path.of("src/main/resources/experiments");
    static final String GENOA = "amd-genoa-2s", EMR = "intel-emr-2s";
    /** CPUs, SMT and sockets of each profile (seed 00: EMR 120 cores / 240 CPUs, Genoa 192 cores / 384 CPUs). */
    static final Map<String, String> SAME_TOPOLOGY = Map.of(
            GENOA, "{\"profile\": \"generic\", \"cpus\": 384, \"smt\": 2, \"sockets\": 2}",
            EMR, "{\"profile\": \"generic\", \"cpus\": 240, \"smt\": 2, \"sockets\": 2}");

    private static String text(String id) throws IOException {
        return Files.readString(DIR.resolve(id + ".json"));
    }

    /** The preset's plan: with its profiles as they are if this build has them, else on generic look-alikes. */
    static ExperimentPlan plan(String id) throws IOException {
        String t = text(id);
        for (Map.Entry<String, String> p : SAME_TOPOLOGY.entrySet()) {
            if (!ScenarioParser.PROFILES.contains(p.getKey())) {
                t = t.replace("{ \"profile\": \"" + p.getKey() + "\" }", p.getValue());
            }
        }
        assertThat(ReadyMadeExperiments.profilesMissing(ScenarioParser.readTree(t))).as("every profile replaced").isEmpty();
        Experiment e = ExperimentParser.parse(t);
        return ExperimentPlan.of(e, e.scenario(), null, ScenarioParser::parse);
    }

    private static List<Throttle> throttles(ExperimentPlan p) {
        return p.arms().stream().map(a -> a.scenario().kernel().throttle()).toList();
    }

    private static List<ThrottledLb> lbRules(ExperimentPlan p) {
        return p.arms().stream().map(a -> a.scenario().kernel().throttledLb()).toList();
    }

    private static List<Integer> cpus(ExperimentPlan p) {
        return p.arms().stream().map(a -> a.scenario().machine().cpus()).toList();
    }

    /** Seed 00's tree: [2,2,2,5,5] (or seed 04's 3 levels), "50 CPUs" = cpu.max 5000000 100000 on level 1 only. */
    private static void seed00Quotas(Scenario s, int leaves) {
        for (CgroupSpec c : s.cgroups()) {
            boolean level1 = c.path().lastIndexOf('/') == 0;
            assertThat(c.cpuMax()).as(c.path()).isEqualTo(level1 ? new CpuMax(5_000_000, 100_000) : CpuMax.DEFAULT);
        }
        assertThat(s.cgroups().stream().filter(c -> s.cgroups().stream().noneMatch(d -> d.path().startsWith(c.path() + "/"))))
                .as("leaves").hasSize(leaves);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"seed00-hackbench", "seed00-hackbench-1fd", "seed00-netperf", "seed04-hackbench"})
    void resolvesAndSaysWhyItIsScaledDown(String id) throws IOException {
        ExperimentPlan p = plan(id);
        Experiment e = ExperimentParser.parse(text(id));
        assertThat(p.repeats()).isGreaterThanOrEqualTo(5);
        assertThat(e.description()).contains("Scaled down").contains("docs/seed-reproductions.md");
        assertThat(p.arms().stream().map(a -> a.document().toString()).distinct()).hasSize(p.arms().size());
        for (ExperimentPlan.ArmPlan a : p.arms()) seed00Quotas(a.scenario(), 200);
    }

    @Test
    void seed00HackbenchIsTwentySendersAndReceiversPerLeafOnBothMachines() throws IOException {
        ExperimentPlan p = plan("seed00-hackbench");
        assertThat(throttles(p)).containsExactly(Throttle.CFS_RQ, Throttle.TASK, Throttle.CFS_RQ, Throttle.TASK);
        // the head seed 00 measured (v3) had no throttle check in can_migrate_task()
        assertThat(lbRules(p)).containsExactly(ThrottledLb.PAIR, ThrottledLb.NONE, ThrottledLb.PAIR, ThrottledLb.NONE);
        assertThat(cpus(p)).containsExactly(384, 384, 240, 240);
        Scenario s = p.arms().get(0).scenario();
        assertThat(s.cgroups().stream().mapToInt(c -> c.path().split("/").length - 1).max().getAsInt()).as("levels").isEqualTo(5);
        assertThat(s.tasks().get(0).workload()).isEqualTo(new WorkloadSpec.Hackbench(WorkloadSpec.Hackbench.Mode.PIPE, 1, 20, 1000, 100));
        assertThat(s.tasks().get(0).total()).isEqualTo(8000);
    }

    @Test
    void seed00HackbenchOneFdIsOneTaskPairPerLeafOnGenoa() throws IOException {
        ExperimentPlan p = plan("seed00-hackbench-1fd");
        assertThat(throttles(p)).containsExactly(Throttle.CFS_RQ, Throttle.TASK);
        assertThat(lbRules(p)).containsExactly(ThrottledLb.PAIR, ThrottledLb.NONE);
        assertThat(cpus(p)).containsOnly(384);
        WorkloadSpec.Hackbench w = (WorkloadSpec.Hackbench) p.arms().get(0).scenario().tasks().get(0).workload();
        assertThat(w.fds()).isEqualTo(1);
        assertThat(p.arms().get(0).scenario().tasks().get(0).total()).isEqualTo(400);
    }

    @Test
    void seed00NetperfIsOnePairPerLeafOnBothMachines() throws IOException {
        ExperimentPlan p = plan("seed00-netperf");
        assertThat(throttles(p)).containsExactly(Throttle.CFS_RQ, Throttle.TASK, Throttle.CFS_RQ, Throttle.TASK);
        assertThat(lbRules(p)).containsExactly(ThrottledLb.PAIR, ThrottledLb.NONE, ThrottledLb.PAIR, ThrottledLb.NONE);
        assertThat(cpus(p)).containsExactly(240, 240, 384, 384);
        assertThat(p.arms().get(0).scenario().tasks().get(0).workload()).isInstanceOf(WorkloadSpec.NetperfUdpRr.class);
        assertThat(p.arms().get(0).scenario().tasks().get(0).total()).isEqualTo(400);
    }

    @Test
    void seed04ComparesTaskWithTaskAccountOnHackbenchAndNetperf() throws IOException {
        ExperimentPlan p = plan("seed04-hackbench");
        assertThat(throttles(p)).containsExactly(Throttle.TASK, Throttle.TASK_ACCOUNT, Throttle.TASK, Throttle.TASK_ACCOUNT);
        assertThat(lbRules(p)).as("tip has 0d4eaf8caf8c").containsOnly(ThrottledLb.DST);
        assertThat(cpus(p)).containsOnly(240);
        Scenario s = p.arms().get(0).scenario();
        assertThat(s.cgroups().stream().mapToInt(c -> c.path().split("/").length - 1).max().getAsInt()).as("levels").isEqualTo(3);
        assertThat(p.arms().stream().map(a -> a.scenario().tasks().get(0).workload().getClass().getSimpleName()))
                .containsExactly("Hackbench", "Hackbench", "NetperfUdpRr", "NetperfUdpRr");
    }

    /** A preset shows in the catalogue (dashboard, API) exactly when this build implements its machine profiles. */
    @Test
    void listedOnlyWithTheirProfiles() throws IOException {
        List<String> listed = new ReadyMadeExperiments().all().stream().map(ReadyMadeExperiments.Entry::id).toList();
        for (String id : List.of("seed00-hackbench", "seed00-hackbench-1fd", "seed00-netperf", "seed04-hackbench")) {
            JsonNode doc = ScenarioParser.readTree(text(id));
            List<String> missing = ReadyMadeExperiments.profilesMissing(doc);
            assertThat(missing).isSubsetOf(GENOA, EMR);
            assertThat(listed.contains(id)).as(id + " listed; missing profiles " + missing).isEqualTo(missing.isEmpty());
        }
        assertThat(listed).contains("throttle-models-large-tree"); // a preset on generic is always there
        ObjectNode generic = (ObjectNode) ScenarioParser.readTree("{\"arms\": [{\"set\": {\"/machine/profile\": \"x-1\"}},"
                + " {\"set\": {\"/machine\": {\"profile\": \"generic\"}}}]}");
        assertThat(ReadyMadeExperiments.profilesMissing(generic)).containsExactly("x-1");
    }
}
