package io.cfslab.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.cfslab.metrics.SimulationResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Seed 02 scaled down to one POWER10 SMT8 core: each group's quota is 25 % of the machine (2 CPUs of 8) and it
 * runs 4 threads of fixed work, so a group alone runs 4 threads for half of every period. Quota is charged in
 * wall time, so when two groups get fresh quota at the same instant (aligned 100 ms timers) 8 threads share the
 * core, each runs slower, and both need more periods for the same work; phases apart, each group mostly runs while
 * the other is throttled (seed 02's mechanism and its second table's settings).
 */
class SmtInterleaveTest {

    /**
     * @param periodsMs one period per group (quota = 2 × period: 25 % of 8 CPUs)
     * @param placement kernel.timer_placement
     * @param lateMs    the second group's cpu.max is written this late (its script starts after the first's):
     *                  under {@code interleave} its timer's phase follows that moment, rounded to period/10
     */
    static String scenario(int[] periodsMs, String placement, long seed, int threadsPerGroup, String work) {
        StringBuilder cgroups = new StringBuilder(), tasks = new StringBuilder(), timeline = new StringBuilder();
        for (int i = 0; i < periodsMs.length; i++) {
            String quota = (2 * periodsMs[i] * 1000) + " " + (periodsMs[i] * 1000);
            if (i > 0) { cgroups.append(", "); tasks.append(", "); }
            if (i == 0) {
                cgroups.append("{\"path\": \"/g0\", \"cpu.max\": \"").append(quota).append("\"}");
            } else {
                cgroups.append("{\"path\": \"/g").append(i).append("\"}");
                if (timeline.length() > 0) timeline.append(", ");
                timeline.append("{\"at\": \"35ms\", \"write\": \"/g").append(i).append("/cpu.max\", \"value\": \"")
                        .append(quota).append("\"}");
            }
            tasks.append("{\"name\": \"w").append(i).append("\", \"cgroup\": \"/g").append(i).append("\", \"count\": ")
                    .append(threadsPerGroup).append(", \"workload\": {\"kind\": \"fixed-work\", \"work\": \"")
                    .append(work).append("\"}}");
        }
        return """
            { "name": "seed 02 scaled", "seed": %d, "duration": "8s", "machine": { "profile": "power10-1c-smt8" },
              "kernel": { "throttle": "cfs_rq", "unthrottle": "async", "hz": 1000, "timer_placement": "%s" },
              "cgroups": [ %s ], "tasks": [ %s ], "timeline": [ %s ] }
            """.formatted(seed, placement, cgroups, tasks, timeline);
    }

    /** Mean completion time of the groups' fixed work, s. */
    static double completion(SimulationResult r) {
        double sum = 0;
        for (var b : r.benchmarks().values()) {
            assertThat(b).containsKey("completion_s");
            sum += b.get("completion_s");
        }
        return sum / r.benchmarks().size();
    }

    static SimulationResult run(int[] periods, String placement, long seed) {
        return Scenarios.run(scenario(periods, placement, seed, 4, "1s"));
    }

    @Test
    void aPower10ThreadRunsSlowerWithEightBusySiblingsThanWithFour() {
        String unlimited = """
            { "name": "smt", "seed": 1, "duration": "2s", "machine": { "profile": "power10-1c-smt8" },
              "tasks": [ { "name": "w", "count": %d, "workload": { "kind": "fixed-work", "work": "200ms" } } ] }
            """;
        double four = completion(Scenarios.run(unlimited.formatted(4)));
        double eight = completion(Scenarios.run(unlimited.formatted(8)));
        assertThat(four).isGreaterThan(0.2);                    // 4 busy threads: each slower than alone
        assertThat(eight / four).isBetween(1.35, 1.55);         // seed 02's SMT8/SMT4 slowdown, ~1.45
    }

    @Test
    void alignedTimersMakeTwoGroupsClearlySlowerAndInterleaveOrRandomPhasesShrinkTheGap() {
        int[] one = {100}, same = {100, 100}, apart = {97, 103};
        SimulationResult oneAligned = run(one, "aligned", 1);
        double t1 = completion(oneAligned);
        SimulationResult twoAligned = run(same, "aligned", 1);
        double t2aligned = completion(twoAligned);
        double t2interleave = completion(run(same, "interleave", 1));
        double t2apart = completion(run(apart, "aligned", 1));
        List<Double> random = new ArrayList<>();
        for (long seed = 1; seed <= 3; seed++) random.add(completion(run(same, "random", seed)));
        double t2random = random.stream().mapToDouble(Double::doubleValue).average().orElseThrow();

        assertThat(t2aligned).as("2CG aligned vs 1CG").isGreaterThan(1.25 * t1);
        assertThat(t2aligned).as("aligned 100/100 at least 12 %% slower than 97/103").isGreaterThan(1.12 * t2apart);
        assertThat(t2interleave).as("interleave shrinks the gap").isLessThan(0.9 * t2aligned);
        assertThat(Math.abs(t2interleave - t2apart) / t2apart).as("interleave within 10 %% of 97/103").isLessThan(0.10);
        assertThat(t2random).as("random phases shrink the gap").isLessThan(0.9 * t2aligned);
        // one group alone does not care where its timer fires
        for (String placement : new String[] {"interleave", "random"}) {
            assertThat(Math.abs(completion(run(one, placement, 2)) - t1) / t1).as(placement).isLessThan(0.03);
        }
        // power: the second group's threads draw more while both run
        assertThat(twoAligned.machine().powerW()).isGreaterThan(oneAligned.machine().powerW());
        assertThat(twoAligned.machine().energyJ()).isCloseTo(twoAligned.machine().powerW() * 8, org.assertj.core.data.Offset.offset(0.01));
    }
}
