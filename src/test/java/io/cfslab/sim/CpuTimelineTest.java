package io.cfslab.sim;

import io.cfslab.metrics.SimulationResult;
import io.cfslab.metrics.SimulationResult.CpuTimeline;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/** The result's {@code cpu_timeline}: bounded, deterministic, and agreeing with each CPU's busy time. */
class CpuTimelineTest {
    private static final String TWO_LEVELS = """
                {"name": "two levels", "seed": 1, "duration": "2s", "machine": {"profile": "generic", "cpus": 2},
                 "kernel": {"throttle": "task", "unthrottle": "async", "hz": 250},
                 "cgroups": [{"path": "/web", "cpu.max": "50000 100000"}, {"path": "/web/frontend", "cpu.max": "20000 100000"},
                             {"path": "/web/backend"}],
                 "tasks": [{"name": "fe", "cgroup": "/web/frontend", "count": 2, "workload": {"kind": "hog"}},
                           {"name": "be", "cgroup": "/web/backend", "count": 2, "workload": {"kind": "hog"}}]}
            """;

    @Test
    void columnsAreBoundedAndNiceAndCoverTheRun() {
        assertThat(CpuTimelineRecorder.intervalFor(2_000_000_000L, 2)).isEqualTo(2_000_000L);
        assertThat(CpuTimelineRecorder.intervalFor(300_000_000_000L, 16)).isEqualTo(500_000_000L);
        // 384 CPUs: at most 262,144 / 384 = 682 columns, so 10 s takes 20 ms columns (500 of them)
        assertThat(CpuTimelineRecorder.intervalFor(10_000_000_000L, 384)).isEqualTo(20_000_000L);
        assertThat(CpuTimelineRecorder.intervalFor(1, 1)).isEqualTo(1);
        for (long duration : new long[] {1, 999, 1_000_000_007L, 70_000_000_000L, 3_600_000_000_000L}) {
            for (int cpus : new int[] {1, 2, 64, 384, 4096}) {
                var r = new CpuTimelineRecorder(cpus, duration);
                assertThat(r.columns).as("%d ns on %d CPUs", duration, cpus)
                        .isBetween(1, CpuTimeline.MAX_COLUMNS);
                assertThat((long) r.columns * cpus).isLessThanOrEqualTo(Math.max(CpuTimeline.MAX_CELLS, cpus));
                assertThat(r.columns * r.intervalNs).isGreaterThanOrEqualTo(duration);
                for (int k = 0; k < r.columns; k++) {
                    long at = r.instant(k);
                    assertThat(at).isGreaterThanOrEqualTo(k * r.intervalNs).isLessThan(Math.min(duration, (k + 1) * r.intervalNs));
                }
                assertThat(r.instant(r.columns)).isEqualTo(-1);
            }
        }
    }

    @Test
    void everyCpuHasOneStateACharacterPerColumnAndTheRunningShareIsTheBusyShare() {
        String scenario = TWO_LEVELS;
        SimulationResult r = Scenarios.run(scenario);
        CpuTimeline t = r.cpuTimeline();
        assertThat(t.intervalNs()).isEqualTo(2_000_000L);
        assertThat(t.states()).containsExactly("idle", "running", "running_throttled", "idle_throttled");
        assertThat(t.cpus()).hasSize(2);
        for (var cpu : r.cpus()) {
            String row = t.cpus().get(cpu.cpu());
            assertThat(row).hasSize(1000).matches("[0-3]+");
            double running = row.chars().filter(ch -> ch == '1' || ch == '2').count() / (double) row.length();
            double busy = cpu.busyUsec() / 2_000_000.0;
            // 1000 point samples of a share near 25 %: a standard error of 1.4 %
            assertThat(running).as("cpu%d: running share of columns vs busy_usec share", cpu.cpu()).isCloseTo(busy,
                    org.assertj.core.data.Offset.offset(0.06));
            // /web is throttled 19 of 20 periods: its CPUs are idle with throttled work part of the time
            assertThat(row).contains("3");
        }
        assertThat(Scenarios.run(scenario).cpuTimeline()).as("deterministic").isEqualTo(t);
    }

    @Test
    void aCancelledRunsTimelineIsAPrefixOfTheFullOne() {
        // the sampling instants depend only on the duration and the column, so a run cut short by cancel records
        // the full run's first columns, and no more than it simulated
        String scenario = TWO_LEVELS.replace("\"2s\"", "\"30s\"");
        SimulationResult full = Scenarios.run(scenario);
        AtomicBoolean stop = new AtomicBoolean();
        SimulationResult cut = Simulator.run(io.cfslab.scenario.ScenarioParser.parse(scenario), new RunControl() {
            @Override public boolean cancelled() { return stop.get(); }
            @Override public void progress(long simulatedNs, long events) { if (simulatedNs > 3_000_000_000L) stop.set(true); }
        });
        assertThat(cut.simulatedNs()).isLessThan(full.simulatedNs());
        String cutRow = cut.cpuTimeline().cpus().get(0);
        assertThat(cutRow.length()).as("a cancelled run's columns end where it stopped")
                .isLessThan(full.cpuTimeline().cpus().get(0).length())
                .isLessThanOrEqualTo((int) (cut.simulatedNs() / cut.cpuTimeline().intervalNs()) + 1);
        assertThat(full.cpuTimeline().cpus().get(0)).startsWith(cutRow);
        assertThat(full.engine().events()).as("the timeline's samples are not simulated events")
                .isEqualTo(Scenarios.run(scenario).engine().events());
    }
}
