package io.cfslab.sim;

import io.cfslab.metrics.LiveSnapshot;
import io.cfslab.metrics.ResultJson;
import io.cfslab.metrics.SimulationResult;
import io.cfslab.metrics.SimulationResult.SeriesSample;
import io.cfslab.scenario.ScenarioParser;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** What a live view receives while a run goes on: every series sample, snapshots, progress, cancellation. */
class LiveViewTest {

    static final String SCENARIO = Scenarios.text("/reference/E3.json").replace("\"duration\": \"5s\"", "\"duration\": \"20s\"");

    @Test
    void samplesAndSnapshotsMatchTheFinalResult() {
        List<SeriesSample> samples = new ArrayList<>();
        List<LiveSnapshot> snapshots = new ArrayList<>();
        List<Long> progress = new ArrayList<>();
        RunControl control = new RunControl() {
            @Override public void sample(SeriesSample s) { samples.add(s); }
            @Override public long snapshotIntervalMs() { return 1; }
            @Override public void snapshot(LiveSnapshot s) { snapshots.add(s); }
            @Override public void progress(long simulatedNs, long events) { progress.add(simulatedNs); }
        };
        SimulationResult r = Simulator.run(ScenarioParser.parse(SCENARIO), control);

        assertThat(samples).isEqualTo(r.series());
        assertThat(snapshots).isNotEmpty();
        LiveSnapshot last = snapshots.get(snapshots.size() - 1);
        assertThat(last.simulatedNs()).isEqualTo(r.simulatedNs());
        assertThat(last.histograms()).isEqualTo(r.histograms());
        // the same counters; the result adds the files as they read back at the end
        assertThat(last.cgroups().keySet()).isEqualTo(r.cgroups().keySet());
        last.cgroups().forEach((path, st) -> {
            assertThat(st.cpuStat()).as(path).isEqualTo(r.cgroups().get(path).cpuStat());
            assertThat(st.cpuStatLocal()).as(path).isEqualTo(r.cgroups().get(path).cpuStatLocal());
        });
        assertThat(last.cpus().cpus()).isEqualTo(2);
        // the last snapshot's CPU timeline is the result's, whole
        for (int c = 0; c < 2; c++) {
            assertThat(last.cpus().row(c, 0, last.cpus().columns())).isEqualTo(r.cpuTimeline().cpus().get(c));
        }
        assertThat(last.recentCalls()).hasSize(50)
                .isEqualTo(r.distributeCalls().subList(r.distributeCalls().size() - 50, r.distributeCalls().size()));
        assertThat(last.slowestCalls()).hasSize(20);
        assertThat(last.slowestCalls().get(0).durationNs())
                .isEqualTo(r.distributeCalls().stream().mapToLong(SimulationResult.DistributeCall::durationNs).max().orElseThrow());
        assertThat(progress).isSorted().last().isEqualTo(r.simulatedNs());
    }

    @Test
    void aLargeTreesSnapshotsCarryOnlyItsLimitedGroups() {
        String big = """
            { "duration": "300ms", "machine": { "profile": "generic", "cpus": 4 },
              "generate": [ { "levels": [1, 300], "cpu.max": { "1": "100000 100000" } } ],
              "tasks": [ { "name": "t", "cgroup": "leaves:/", "workload": { "kind": "hog" } } ] }
            """;
        List<LiveSnapshot> snapshots = new ArrayList<>();
        SimulationResult r = Simulator.run(ScenarioParser.parse(big), new RunControl() {
            @Override public long snapshotIntervalMs() { return 1; }
            @Override public void snapshot(LiveSnapshot s) { snapshots.add(s); }
        });
        assertThat(r.cgroups()).hasSize(301);
        assertThat(snapshots.get(snapshots.size() - 1).cgroups()).containsOnlyKeys("/1");
    }

    /** A run of few events still reports progress at each 1 % of simulated time (a paced run waits there). */
    @Test
    void aSmallRunReportsProgressAtEachPercent() {
        String small = """
            { "name": "small", "seed": 1, "duration": "1s", "machine": { "cpus": 1 },
              "cgroups": [ { "path": "/a", "cpu.max": "20000 100000" } ],
              "tasks": [ { "name": "p", "cgroup": "/a", "workload": { "kind": "periodic", "run": "5ms", "sleep": "95ms" } } ] }
            """;
        List<Long> progress = new ArrayList<>();
        SimulationResult r = Simulator.run(ScenarioParser.parse(small), new RunControl() {
            @Override public void progress(long simulatedNs, long events) { progress.add(simulatedNs); }
        });
        assertThat(r.engine().events()).isLessThan(4096); // fewer than one poll's worth of events
        assertThat(progress).hasSizeGreaterThanOrEqualTo(90).isSorted();
        assertThat(progress.get(0)).isLessThan(50_000_000L);
    }

    @Test
    void cancelStopsTheRunEarlyWithTheTimeReached() {
        AtomicInteger polls = new AtomicInteger();
        RunControl control = new RunControl() {
            @Override public boolean cancelled() { return polls.incrementAndGet() > 2; }
        };
        String longRun = SCENARIO.replace("\"duration\": \"20s\"", "\"duration\": \"600s\"");
        SimulationResult r = Simulator.run(ScenarioParser.parse(longRun), control);
        assertThat(polls.get()).isEqualTo(3);
        assertThat(r.simulatedNs()).isPositive().isLessThan(60_000_000_000L);
        // the result says it stopped early, where, and of what duration
        assertThat(r.partial()).isEqualTo(new SimulationResult.Partial(r.simulatedNs(), 600_000_000_000L));
        assertThat(ResultJson.write(r)).contains("\"partial\": {\n    \"stopped_at_ns\": " + r.simulatedNs() + ",\n    \"duration_ns\": 600000000000\n  }");
        // a whole run is not partial, and its JSON has no such key (its bytes are as before: golden files)
        SimulationResult whole = Simulator.run(ScenarioParser.parse(SCENARIO), RunControl.NONE);
        assertThat(whole.partial()).isNull();
        assertThat(ResultJson.write(whole)).doesNotContain("partial");
    }

    @Test
    void eventBudgetAbortsTheRun() {
        RunControl control = new RunControl() {
            @Override public long maxEvents() { return 5000; }
        };
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Simulator.run(ScenarioParser.parse(SCENARIO), control))
                .isInstanceOf(SimulationAbortedException.class).hasMessageContaining("5000");
    }
}
