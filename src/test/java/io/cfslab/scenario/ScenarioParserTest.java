package io.cfslab.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ScenarioParserTest {

    static String resource(String name) throws IOException {
        try (InputStream in = ScenarioParserTest.class.getResourceAsStream(name)) {
            if (in == null) throw new IOException("missing resource " + name);
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"E1", "E2", "E3", "E5a", "E5b", "E6b", "E11"})
    void referenceScenariosParse(String id) throws IOException {
        Scenario s = ScenarioParser.parse(resource("/reference/" + id + ".json"));
        assertTrue(s.name().startsWith(id + " "), s.name());
        assertEquals(11, s.seed());
        assertEquals(5_000_000_000L, s.durationNs());
        assertEquals(new MachineSpec("generic", 2, 1, 1), s.machine());
        assertEquals(250, s.kernel().hz());
        assertEquals(KernelSpec.Throttle.TASK, s.kernel().throttle());
        assertEquals(KernelSpec.ThrottledClockStart.FIRST_PARK, s.kernel().throttledClockStart());
        // an interval given is kept; left out, a 5 s run is sampled every 100 ms (duration/200 rounded up is 50 ms,
        // below the floor of 100 ms and the groups' 100 ms periods); E11's tree too (5,000 series entries at most)
        long interval = resource("/reference/" + id + ".json").contains("\"interval\"") ? 1_000_000_000L : 100_000_000L;
        assertEquals(new RecordSpec(interval, 10_000, 1024, 256), s.record());
        assertTrue(!s.tasks().isEmpty());
        // the canonical form parses back to the same scenario
        assertEquals(s, ScenarioParser.parse(ScenarioWriter.toJson(s)));
    }

    @Test
    void referenceE1Details() throws IOException {
        Scenario s = ScenarioParser.parse(resource("/reference/E1.json"));
        assertEquals(List.of(new CgroupSpec("/e1", new CpuMax(10_000, 100_000), 0, 100)), s.cgroups());
        TaskSpec t = s.tasks().get(0);
        assertEquals("nop", t.name());
        assertEquals(List.of("/e1"), t.cgroups());
        assertEquals(1, t.total());
        assertEquals("nop", t.instanceName(0));
        assertInstanceOf(WorkloadSpec.Hog.class, t.workload());
        assertNull(t.cpusAllowed());
        assertEquals(TaskSpec.Policy.NORMAL, t.policy());
    }

    @Test
    void referenceE5aCreatesNestedGroupsInOrder() throws IOException {
        Scenario s = ScenarioParser.parse(resource("/reference/E5a.json"));
        assertEquals(List.of("/p", "/p/a", "/p/b"), s.cgroups().stream().map(CgroupSpec::path).toList());
        assertEquals(new CpuMax(50_000, 100_000), s.cgroups().get(0).cpuMax());
        assertEquals(CpuMax.DEFAULT, s.cgroups().get(1).cpuMax());
    }

    @Test
    void referenceE11LeavesOfGeneratedTree() throws IOException {
        Scenario s = ScenarioParser.parse(resource("/reference/E11.json"));
        assertEquals(2 + 10 + 40, s.cgroups().size());
        TaskSpec t = s.tasks().get(0);
        assertEquals(40, t.cgroups().size());
        assertEquals(40, t.total());
        assertEquals("/1/1_1/1_1_1", t.cgroups().get(0));
        assertEquals("/2/2_5/2_5_4", t.cgroups().get(39));
        assertEquals("leaf/39", t.instanceName(39));
        for (CgroupSpec c : s.cgroups()) {
            boolean level1 = c.path().lastIndexOf('/') == 0;
            assertEquals(level1 ? new CpuMax(50_000, 100_000) : CpuMax.DEFAULT, c.cpuMax(), c.path());
        }
    }

    @Test
    void seed03LargeTree() {
        Scenario s = ScenarioParser.parse("""
                {"duration": "10s", "machine": {"cpus": 4},
                 "generate": [{"levels": [2, 100, 10], "cpu.max": {"1": "2000000 100000"}}],
                 "tasks": [{"name": "nop", "cgroup": "leaves:/", "workload": {"kind": "hog"}}]}
                """);
        List<String> paths = s.cgroups().stream().map(CgroupSpec::path).toList();
        assertEquals(2202, paths.size());
        assertEquals(List.of("/1", "/1/1_1", "/1/1_1/1_1_1", "/1/1_1/1_1_2"), paths.subList(0, 4));
        assertEquals("/1/1_1/1_1_10", paths.get(11));
        assertEquals("/1/1_2", paths.get(12));
        assertEquals("/2", paths.get(1101));
        assertEquals("/2/2_100/2_100_10", paths.get(2201));
        assertEquals(2, s.cgroups().stream().filter(c -> c.cpuMax().limited()).count());
        assertEquals(new CpuMax(2_000_000, 100_000), s.cgroups().get(1101).cpuMax());
        assertEquals(2000, s.tasks().get(0).total());
        assertEquals("unnamed", s.name());
        assertEquals(1, s.seed());
    }

    @Test
    void generateUnderSubtreeAndLeavesOfSubtree() {
        Scenario s = ScenarioParser.parse("""
                {"duration": "1s",
                 "cgroups": [{"path": "/x"}],
                 "generate": [{"under": "/a", "levels": [2, 2], "cpu.weight": {"2": 50}, "cpu.max.burst": {"1": 1000},
                               "cpu.max": {"1": "5000 100000"}}],
                 "tasks": [{"name": "t", "cgroup": "leaves:/a/2", "count": 3},
                           {"name": "all", "cgroup": "leaves:/"},
                           {"name": "r", "cgroup": "/"}]}
                """);
        assertEquals(List.of("/x", "/a", "/a/1", "/a/1/1_1", "/a/1/1_2", "/a/2", "/a/2/2_1", "/a/2/2_2"),
                s.cgroups().stream().map(CgroupSpec::path).toList());
        assertEquals(new CgroupSpec("/a/1", new CpuMax(5000, 100_000), 1000, 100), s.cgroups().get(2));
        assertEquals(50, s.cgroups().get(3).cpuWeight());
        assertEquals(List.of("/a/2/2_1", "/a/2/2_2"), s.tasks().get(0).cgroups());
        assertEquals(6, s.tasks().get(0).total());
        assertEquals(List.of("/x", "/a/1/1_1", "/a/1/1_2", "/a/2/2_1", "/a/2/2_2"), s.tasks().get(1).cgroups());
        assertEquals(List.of("/"), s.tasks().get(2).cgroups());
        assertEquals(s, ScenarioParser.parse(ScenarioWriter.toJson(s)));
    }

    @Test
    void defaultsAreFilledIn() {
        Scenario s = ScenarioParser.parse("{\"duration\": 1000}"); // an absent name; "" is refused (Names)
        assertEquals("unnamed", s.name());
        assertEquals(1000, s.durationNs());
        assertEquals(new MachineSpec("generic", 2, 1, 1), s.machine());
        assertEquals(new KernelSpec(KernelSpec.Throttle.TASK, KernelSpec.Unthrottle.ASYNC, 1000, 5000,
                KernelSpec.TimerPlacement.RANDOM, KernelSpec.Preempt.VOLUNTARY, KernelSpec.ListInsert.TAIL, false,
                KernelSpec.ThrottledClockStart.FIRST_PARK, 950_000, 1_000_000), s.kernel());
        // 1000 ns: the default interval's lower bound, 100 ms (a quota period by default)
        assertEquals(new RecordSpec(100_000_000, 10_000, 1024, 256), s.record());
        assertTrue(s.cgroups().isEmpty() && s.tasks().isEmpty() && s.timeline().isEmpty());
        Scenario legacy = ScenarioParser.parse("{\"duration\": \"1s\", \"kernel\": {\"throttle\": \"cfs_rq\"}}");
        assertEquals(KernelSpec.ThrottledClockStart.NONEMPTY, legacy.kernel().throttledClockStart());
    }

    @Test
    void yamlWorks() {
        Scenario s = ScenarioParser.parse("""
                # a YAML scenario
                name: yaml one
                duration: 2.5s
                machine: {profile: generic, cpus: 4, smt: 2}
                kernel:
                  throttle: task-account
                  unthrottle: sync
                  hz: 300
                  timer_placement: interleave
                cgroups:
                  - path: /a
                    cpu.max: 10000 100000
                    cpu.max.burst: 5000
                    cpu.weight: 200
                tasks:
                  - name: p
                    cgroup: /a
                    count: 2
                    workload: {kind: periodic, run: 5ms, sleep: 10ms, kernel: 0.2ms, loops: 3}
                    cpus_allowed: 0-1,3
                  - name: w
                    workload: {kind: fixed-work, work: 2s}
                    policy: fifo
                    priority: 10
                timeline:
                  - {at: 1s, write: /a/cpu.max, value: max}
                  - {at: 500ms, chrt: p, policy: rr, priority: 5}
                record: {interval: 100ms}
                """);
        assertEquals("yaml one", s.name());
        assertEquals(2_500_000_000L, s.durationNs());
        assertEquals(new MachineSpec("generic", 4, 2, 1), s.machine());
        assertEquals(KernelSpec.Throttle.TASK_ACCOUNT, s.kernel().throttle());
        assertEquals(KernelSpec.Unthrottle.SYNC, s.kernel().unthrottle());
        assertEquals(300, s.kernel().hz());
        assertEquals(KernelSpec.TimerPlacement.INTERLEAVE, s.kernel().timerPlacement());
        assertEquals(new CgroupSpec("/a", new CpuMax(10_000, 100_000), 5000, 200), s.cgroups().get(0));
        TaskSpec p = s.tasks().get(0);
        assertEquals(new WorkloadSpec.Periodic(5_000_000, 200_000, 10_000_000, 3), p.workload());
        BitSet cpus = new BitSet();
        cpus.set(0, 2);
        cpus.set(3);
        assertEquals(cpus, p.cpusAllowed());
        assertEquals(new WorkloadSpec.FixedWork(2_000_000_000L), s.tasks().get(1).workload());
        assertEquals(TaskSpec.Policy.FIFO, s.tasks().get(1).policy());
        assertEquals(10, s.tasks().get(1).rtPriority());
        // sorted by at
        assertEquals(new TimelineAction.Chrt(500_000_000L, "p", TaskSpec.Policy.RR, 5), s.timeline().get(0));
        assertEquals(new TimelineAction.Write(1_000_000_000L, "/a", "cpu.max", "max"), s.timeline().get(1));
        assertEquals(100_000_000L, s.record().intervalNs());
        assertEquals(s, ScenarioParser.parse(ScenarioWriter.toJson(s)));
    }

    @Test
    void contractExampleParsesAndRoundTrips() {
        Scenario s = ScenarioParser.parse("""
                {
                  "name": "one hog limited to 10%", "seed": 1, "duration": "25s",
                  "machine": { "profile": "generic", "cpus": 2 },
                  "kernel": { "throttle": "task", "unthrottle": "async", "hz": 1000, "bandwidth_slice_us": 5000,
                              "timer_placement": "random" },
                  "cgroups": [
                    { "path": "/a", "cpu.max": "10000 100000" },
                    { "path": "/b", "cpu.max": "max 100000", "cpu.max.burst": "0", "cpu.weight": 100 }
                  ],
                  "generate": [ { "under": "/", "levels": [2, 3, 2], "cpu.max": { "1": "2000000 100000" } } ],
                  "tasks": [ { "name": "nop", "cgroup": "/a", "count": 1, "workload": { "kind": "hog" },
                               "cpus_allowed": "0-1", "policy": "normal" } ],
                  "timeline": [
                    { "at": "20s", "chrt": "nop", "policy": "rr", "priority": 10 },
                    { "at": "5s",  "write": "/a/cpu.max", "value": "50000 100000" },
                    { "at": "15s", "taskset": "nop", "cpus": "1" },
                    { "at": "10s", "move": "nop", "to": "/b" }
                  ],
                  "record": { "interval": "1s" }
                }
                """);
        assertEquals(2 + 2 + 6 + 12, s.cgroups().size());
        assertEquals(List.of(5L, 10L, 15L, 20L), s.timeline().stream().map(a -> a.atNs() / 1_000_000_000L).toList());
        assertInstanceOf(TimelineAction.Move.class, s.timeline().get(1));
        BitSet one = new BitSet();
        one.set(1);
        assertEquals(new TimelineAction.Taskset(15_000_000_000L, "nop", one), s.timeline().get(2));
        // the timeline write does not change the initial state
        assertEquals(new CpuMax(10_000, 100_000), s.cgroups().get(0).cpuMax());
        String json = ScenarioWriter.toJson(s);
        assertTrue(json.contains("\"throttled_clock_start\" : \"first-park\""), json);
        assertTrue(!json.contains("generate"));
        assertEquals(s, ScenarioParser.parse(json));
    }

    @Test
    void timelineWritesAreCheckedAgainstStateAtThatTime() {
        // burst 5000 is set at 1s, so quota 2000 at 2s is refused (by the run), but at 0.5s it is fine
        String base = """
                {"duration": "5s", "cgroups": [{"path": "/a", "cpu.max": "10000 100000"}],
                 "timeline": [ {"at": "2s", "write": "/a/cpu.max", "value": "2000 100000"},
                               {"at": "1s", "write": "/a/cpu.max.burst", "value": "5000"} %s ]}
                """;
        // the kernel refuses it only because of the burst then: the run records that (TimelineAtRunTimeTest)
        assertEquals(2, ScenarioParser.parse(base.formatted("")).timeline().size());
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioParser.parse(base.formatted("")
                .replace("\"5000\"", "\"5000x\"")));
        assertEquals(List.of(new Problem("/timeline/1/value", "burst \"5000x\" is not an unsigned number", "EINVAL")),
                e.problems());
        // lowering the burst first makes it valid; an omitted period keeps the current one
        Scenario s = ScenarioParser.parse(base.formatted(
                ", {\"at\": \"1.5s\", \"write\": \"/a/cpu.max.burst\", \"value\": 0}").replace("2000 100000", "2000"));
        assertEquals(3, s.timeline().size());
        assertEquals("2000", ((TimelineAction.Write) s.timeline().get(2)).value());
    }

    @Test
    void allProblemsAreCollected() {
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioParser.parse("""
                {"duration": "5s", "bogus": 1, "kernel": {"hz": 99},
                 "cgroups": [{"path": "/a", "cpu.max": "0 100000", "cpu.weight": 0}]}
                """));
        assertEquals(List.of("/kernel/hz", "/cgroups/0/cpu.max", "/cgroups/0/cpu.weight", "/bogus"),
                e.problems().stream().map(Problem::path).toList());
    }

    @Test
    void tooManyTotalTasks() {
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioParser.parse("""
                {"duration": "1s", "generate": [{"levels": [100, 100]}],
                 "tasks": [{"name": "t", "cgroup": "leaves:/", "count": 100}]}
                """));
        assertEquals(List.of(new Problem("/tasks", "1000000 task instances; exceeds the limit of 200000", "ERANGE")), e.problems());
    }

    @Test
    void cfsRqLimit() {
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioParser.parse("""
                {"duration": "1s", "machine": {"cpus": 1024}, "generate": [{"levels": [100, 100]}]}
                """));
        assertEquals("/machine/cpus", e.problems().get(0).path());
        assertTrue(e.problems().get(0).reason().contains("exceeds the limit of 5000000"), e.problems().get(0).reason());
    }

    static List<Problem> problems(String json) {
        return assertThrows(ScenarioException.class, () -> ScenarioParser.parse(json)).problems();
    }

    @Test
    void explicitCgroupsBeyondTheLimit() {
        StringBuilder sb = new StringBuilder("{\"duration\": \"1s\", \"cgroups\": [");
        for (int i = 0; i <= Limits.MAX_CGROUPS; i++) sb.append(i == 0 ? "" : ",").append("{\"path\": \"/g").append(i).append("\"}");
        sb.append("]}");
        assertEquals(List.of(new Problem("/cgroups", "more than 20000 cgroups; exceeds the limit of 20000", null)),
                problems(sb.toString()));
    }

    @Test
    void timelineBeyondTheLimit() {
        StringBuilder sb = new StringBuilder("{\"duration\": \"1s\", \"cgroups\": [{\"path\": \"/a\"}], \"timeline\": [");
        for (int i = 0; i <= Limits.MAX_TIMELINE; i++) {
            sb.append(i == 0 ? "" : ",").append("{\"at\": 0, \"write\": \"/a/cpu.weight\", \"value\": 100}");
        }
        sb.append("]}");
        assertEquals(List.of(new Problem("/timeline", "10001 timeline entries; exceeds the limit of 10000", null)),
                problems(sb.toString()));
    }

    @Test
    void pathTooDeepIntervalTooFineAndEscapedPointer() {
        String deep = "/a".repeat(Limits.MAX_DEPTH + 1);
        List<Problem> p = problems("{\"duration\": \"1s\", \"cgroups\": [{\"path\": \"" + deep + "\"}], "
                + "\"record\": {\"interval\": \"1us\"}, \"a/b~c\": 1}");
        assertEquals(List.of("/record/interval", "/cgroups/0/path", "/a~1b~0c"), p.stream().map(Problem::path).toList());
        assertTrue(p.get(0).reason().contains("exceeds the limit of 100000"), p.get(0).reason());
        assertTrue(p.get(1).reason().contains("17 levels deep; exceeds the limit of 16"), p.get(1).reason());
        assertEquals("unknown key \"a/b~c\"", p.get(2).reason());
    }

    @Test
    void multiCgroupTaskEntryRoundTrips() {
        Scenario s = ScenarioParser.parse("""
                {"duration": "1s", "cgroups": [{"path": "/a"}, {"path": "/b"}],
                 "tasks": [{"name": "t", "cgroups": ["/a", "/b"], "count": 2, "cpus_allowed": "1"}]}
                """);
        assertEquals(List.of("/a", "/b"), s.tasks().get(0).cgroups());
        assertEquals(4, s.tasks().get(0).total());
        String json = ScenarioWriter.toJson(s);
        assertTrue(json.contains("\"cgroups\" : [ \"/a\", \"/b\" ]"), json);
        assertEquals(s, ScenarioParser.parse(json));
    }

    @Test
    void timelineSortIsStableForEqualTimes() {
        Scenario s = ScenarioParser.parse("""
                {"duration": "3s", "cgroups": [{"path": "/a"}],
                 "timeline": [{"at": "2s", "write": "/a/cpu.weight", "value": "1"},
                              {"at": "1s", "write": "/a/cpu.weight", "value": "2"},
                              {"at": "2s", "write": "/a/cpu.weight", "value": 3},
                              {"at": 1000000000, "write": "/a/cpu.weight", "value": "4"},
                              {"at": "3s", "write": "/a/cpu.max", "value": "max 1000"}]}
                """);
        assertEquals(List.of("2", "4", "1", "3", "max 1000"),
                s.timeline().stream().map(a -> ((TimelineAction.Write) a).value()).toList());
        assertEquals(s, ScenarioParser.parse(ScenarioWriter.toJson(s)));
    }

    @Test
    void exactTimeIsABooleanOfTheMachineAndRoundTrips() {
        Scenario s = ScenarioParser.parse("{\"duration\": \"1s\", \"machine\": {\"cpus\": 1, \"exact_time\": true}}");
        assertEquals(new MachineSpec("generic", 1, 1, 1, true), s.machine());
        assertEquals(s, ScenarioParser.parse(ScenarioWriter.toJson(s)));
        assertEquals(false, ScenarioParser.parse("{\"duration\": \"1s\"}").machine().exactTime());
        ScenarioException e = assertThrows(ScenarioException.class,
                () -> ScenarioParser.parse("{\"duration\": \"1s\", \"machine\": {\"exact_time\": \"yes\"}}"));
        assertEquals(List.of("/machine/exact_time"), e.problems().stream().map(Problem::path).toList());
    }
}
