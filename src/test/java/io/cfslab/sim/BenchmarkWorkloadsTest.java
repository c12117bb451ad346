package io.cfslab.sim;

import io.cfslab.metrics.ResultJson;
import io.cfslab.metrics.SimulationResult;
import io.cfslab.metrics.SimulationResult.TaskStats;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * hackbench and netperf UDP_RR run by the kernel model: their benchmarks, the tasks they make, the machine's
 * {@code __schedule()} and context-switch counters, and seed 00's explanation of head's hackbench slowdown.
 */
class BenchmarkWorkloadsTest {

    @Test
    void hackbenchTimeSpreadIsTheSampleStandardDeviationMinAndMaxOverInstances() {
        // 3 instances printing Time: 1, 2 and 4 s: mean 7/3; squared deviations 16/9 + 1/9 + 25/9 = 42/9, over
        // n - 1 = 2: 7/3, so the sample standard deviation is sqrt(7/3) = 1.5275 s (the population one would be 1.2472)
        Map<String, Double> b = new java.util.LinkedHashMap<>();
        Benchmarks.timeFigures(new double[] {2, 4, 1}, b);
        assertThat(b.keySet()).containsExactly("time_s", "time_s_stddev", "time_s_min", "time_s_max");
        assertThat(b.get("time_s")).isCloseTo(7.0 / 3, within(1e-15));
        assertThat(b.get("time_s_stddev")).isCloseTo(Math.sqrt(7.0 / 3), within(1e-15));
        assertThat(b.get("time_s_min")).isEqualTo(1.0);
        assertThat(b.get("time_s_max")).isEqualTo(4.0);
    }

    @Test
    void hackbenchDeliversEveryMessageAndReportsItsTime() {
        SimulationResult r = Scenarios.run("""
                {"name": "hb", "seed": 3, "duration": "2s", "machine": {"cpus": 4},
                 "cgroups": [{"path": "/a"}, {"path": "/b"}],
                 "tasks": [{"name": "pipe", "cgroup": "/a", "count": 2,
                            "workload": {"kind": "hackbench", "mode": "pipe", "groups": 2, "fds": 4, "loops": 500}},
                           {"name": "sock", "cgroup": "/b",
                            "workload": {"kind": "hackbench", "groups": 1, "fds": 3, "loops": 1000, "datasize": 512}}]}
                """);
        Map<String, Double> pipe = r.benchmarks().get("pipe"), sock = r.benchmarks().get("sock");
        assertThat(pipe.get("messages")).isEqualTo(2 * (2.0 * 4 * 4 * 500));
        assertThat(pipe.get("finished")).isEqualTo(2.0);
        assertThat(pipe.get("instances")).isEqualTo(2.0);
        assertThat(sock.get("messages")).isEqualTo(1.0 * 3 * 3 * 1000);
        assertThat(pipe.get("time_s")).isPositive().isLessThanOrEqualTo(pipe.get("completion_s"));
        assertThat(sock.get("time_s")).isEqualTo(sock.get("completion_s")); // one instance: its time is the last
        // the spread over instances: two pipe instances between min and max, one socket instance has none
        assertThat(pipe.get("time_s_min")).isPositive().isLessThanOrEqualTo(pipe.get("time_s"));
        assertThat(pipe.get("time_s_max")).isGreaterThanOrEqualTo(pipe.get("time_s")).isLessThanOrEqualTo(pipe.get("completion_s"));
        assertThat(pipe.get("time_s_stddev"))
                .isCloseTo((pipe.get("time_s_max") - pipe.get("time_s_min")) / Math.sqrt(2), within(1e-12));
        assertThat(sock.get("time_s_stddev")).isZero();
        assertThat(sock.get("time_s_min")).isEqualTo(sock.get("time_s")).isEqualTo(sock.get("time_s_max"));
        // 2 instances × 16 tasks, then 6: named in order, hackbench's own order inside an instance
        assertThat(r.tasks().keySet()).startsWith("pipe/0").contains("pipe/31", "sock/0", "sock/5").hasSize(38);
        long cpuUsec = r.tasks().values().stream().mapToLong(TaskStats::usageUsec).sum();
        // the instances ran side by side on 4 CPUs: the last one cannot finish before their work fits on them
        assertThat(Math.max(pipe.get("completion_s"), sock.get("completion_s"))).isGreaterThan(cpuUsec / 4e6);
        for (TaskStats t : r.tasks().values()) {
            assertThat(t.systemUsec()).as("a syscall benchmark runs in the kernel").isGreaterThan(4 * t.userUsec());
        }
        assertThat(r.machine().schedCalls()).isPositive();
        assertThat(r.machine().contextSwitches()).isPositive().isLessThanOrEqualTo(r.machine().schedCalls() * 2);
    }

    @Test
    void aHackbenchRunIsDeterministic() {
        String json = """
                {"name": "hb", "seed": 11, "duration": "1s", "machine": {"cpus": 3},
                 "cgroups": [{"path": "/a", "cpu.max": "100000 100000"}],
                 "tasks": [{"name": "hb", "cgroup": "/a",
                            "workload": {"kind": "hackbench", "mode": "socket", "groups": 2, "fds": 5, "loops": 300}},
                           {"name": "rr", "cgroup": "/a", "workload": {"kind": "netperf-udp-rr"}}]}
                """;
        assertThat(withoutEngine(Scenarios.run(json))).isEqualTo(withoutEngine(Scenarios.run(json)));
    }

    private static String withoutEngine(SimulationResult r) {
        String s = ResultJson.write(r);
        return s.substring(0, s.indexOf("\"engine\""));
    }

    @Test
    void netperfCountsTransactionsPerPair() {
        SimulationResult r = Scenarios.run("""
                {"name": "rr", "seed": 2, "duration": "1s", "machine": {"cpus": 6},
                 "tasks": [{"name": "rr", "count": 3, "workload": {"kind": "netperf-udp-rr"}}]}
                """);
        Map<String, Double> b = r.benchmarks().get("rr");
        // one transaction on an idle machine, generic costs: two sends (4 us + 0.8 us wake-up), two receives
        // (1.5 us), two user stretches (1 us) = 14.6 us; each wake-up also costs the woken CPU a context switch (2 us)
        double ideal = 1e9 / 14_600, withSwitches = 1e9 / (14_600 + 2 * 2_000);
        assertThat(b.get("transactions_per_s")).isBetween(0.95 * withSwitches, ideal);
        assertThat(b.get("total_transactions_per_s")).isCloseTo(3 * b.get("transactions_per_s"), within(1e-6));
        assertThat(b.get("transactions")).isCloseTo(b.get("total_transactions_per_s"), within(3.0));
        assertThat(r.tasks()).containsOnlyKeys("rr/0", "rr/1", "rr/2", "rr/3", "rr/4", "rr/5");
    }

    /**
     * Seed 00: "with task based throttle, __schedule() is more frequent since tasks in a throttled cfs_rq have to be
     * dequeued one by one while in current behaviour, the cfs_rq can be dequeued off rq in one go. This is most
     * obvious when there are multiple tasks in a single cfs_rq; if there is only 1 task per cfs_rq, things should be
     * roughly the same." Seed 00's tree scaled down: [2,2,2] on 8 CPUs, quota on the level-1 groups, a hackbench
     * -p -g 1 in every leaf; with 20 tasks per leaf (-f 10) each CPU holds about 10 of a level-1 group's tasks, with
     * 2 (-f 1) about one. Periods of 10 ms give 100 throttles a second, so that the parks stand out of hackbench's
     * own blocking within one simulated second (the seed's 100 ms periods on 384 CPUs: docs/benchmarks.md).
     */
    @Test
    void taskBasedThrottlingCallsScheduleMoreOnlyWithManyTasksPerCfsRq() {
        long manyTask = schedCalls("task", 10), manyCfsRq = schedCalls("cfs_rq", 10);
        long oneTask = schedCalls("task", 1), oneCfsRq = schedCalls("cfs_rq", 1);
        assertThat((double) manyTask / manyCfsRq).as("-f 10: task / cfs_rq __schedule() calls").isGreaterThan(1.3);
        // "roughly the same": 1.04-1.16 over seeds 1-4 since parks are charged to the parking task and EEVDF lag is
        // kept (was within 0.9-1.1 before; issue 8 notes the excess), against more than 1.3 with many tasks per cfs_rq
        assertThat((double) oneTask / oneCfsRq).as("-f 1: task / cfs_rq __schedule() calls").isBetween(0.9, 1.2);
    }

    private static long schedCalls(String throttle, int fds) {
        SimulationResult r = Scenarios.run("""
                {"name": "seed 00 scaled", "seed": 1, "duration": "1s", "machine": {"cpus": 8},
                 "kernel": {"throttle": "%s"},
                 "generate": [{"levels": [2, 2, 2], "cpu.max": {"1": "20000 10000"}}],
                 "tasks": [{"name": "hb", "cgroup": "leaves:/",
                            "workload": {"kind": "hackbench", "mode": "pipe", "groups": 1, "fds": %d, "loops": 100000000}}],
                 "record": {"interval": "1s"}}
                """.formatted(throttle, fds));
        // the quota binds in both models, and the work done is the same within a few per cent
        assertThat(r.cgroups().get("/1").cpuStat().nrThrottled()).isGreaterThan(90);
        assertThat(r.benchmarks().get("hb").get("messages")).isGreaterThan(2.5e6);
        return r.machine().schedCalls();
    }
}
