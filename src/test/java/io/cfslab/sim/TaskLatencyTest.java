package io.cfslab.sim;

import io.cfslab.machine.CostModel;
import io.cfslab.metrics.ResultJson;
import io.cfslab.metrics.SimulationResult;
import io.cfslab.metrics.SimulationResult.TaskStats;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Per-task latency (contract v1.1: run_delay_usec, nr_switches, wakeup_latency_us, iteration_wall_us, exit_s) on
 * cases whose figures follow by hand from the scenario, HZ and the generic cost model.
 */
class TaskLatencyTest {
    private static final CostModel COST = CostModel.generic();

    /**
     * One CPU, HZ=1000, cpu.max 20 ms / 100 ms with the period timer on the 100 ms grid, one periodic run of 30 ms.
     * The first context switch steals 2 µs, so at the 20 ms tick the task has used 19.998 ms (no overrun yet); the
     * 21 ms tick finds the cfs_rq 0.998 ms in debt with an empty pool and throttles it. The refill at 100 ms runs the
     * period timer and distribute_cfs_runtime() in interrupt context, then the task is switched in (2 µs) and does
     * its last 9.002 ms. So the run's wall time is run + stall exactly: 30 ms + (100 − 21) ms of throttle + the
     * modelled CPU work inside the stretch (two context switches, the timer callback and the distribute call).
     */
    @Test
    void aThrottleInsideARunStretchesItsWallTimeByTheStall() {
        SimulationResult r = Scenarios.run(Scenarios.text("/latency/throttled-run.json"));
        TaskStats p = r.tasks().get("p");
        var stat = r.cgroups().get("/a").cpuStat();
        assertThat(stat.nrThrottled()).isEqualTo(1);
        long stallUs = 100_000 - 21_000;
        assertThat(stat.throttledUsec()).isEqualTo(stallUs);
        assertThat(r.distributeCalls()).hasSize(1);
        long distributeNs = r.distributeCalls().get(0).durationNs();
        long expectedNs = 30_000_000L + stallUs * 1000 + 2 * COST.contextSwitchNs() + COST.periodTimerFixedNs()
                + distributeNs;
        assertThat(p.iterationWallUs().count()).isEqualTo(1);
        assertThat(p.iterationWallUs().max()).isEqualTo(expectedNs / 1000.0);
        // the stall is time runnable but not running (parked tasks are state R): schedstat's run_delay
        assertThat(p.runDelayUsec()).isEqualTo(stallUs);
        assertThat(p.nrSwitches()).isEqualTo(2);
        // the stretch ends at 109.009... ms, then it sleeps 100 ms and its loop is done: exit at the wake-up
        assertThat(p.exitS()).isCloseTo(expectedNs / 1e9 + 0.1, within(1e-9));
        assertThat(p.wakeupLatencyUs().count()).isZero();
    }

    /**
     * One CPU, HZ=1000: a hog and a sleeper (1 ms run, 9.5 ms sleep), without wake-up preemption
     * ({@code kernel.wakeup_preemption} none, the default: the NO_WAKEUP_PREEMPTION feature), so each wake-up waits for the
     * hog's slice to end, which the tick notices: the sleeper runs from a tick T for 1 ms after a 2 µs context
     * switch, wakes at T + 10.502 ms, and the hog (which has run more than its 0.75 ms base slice by then) is
     * preempted at the tick T + 11 ms. Every wake-up latency is the hog's remaining 498 µs.
     */
    @Test
    void aSleeperWaitsForTheHogsRemainingSlice() {
        SimulationResult r = Scenarios.run(Scenarios.text("/latency/sleeper-behind-hog.json"));
        TaskStats s = r.tasks().get("s");
        var w = s.wakeupLatencyUs();
        long remainingUs = 11_000 - (1_000 + COST.contextSwitchNs() / 1000 + 9_500);
        assertThat(remainingUs).isEqualTo(498);
        assertThat(w.count()).isGreaterThan(80);
        assertThat(w.p50()).isEqualTo((double) remainingUs);
        assertThat(w.p999()).isEqualTo((double) remainingUs);
        assertThat(w.max()).isEqualTo((double) remainingUs);
        assertThat(w.buckets()).singleElement().satisfies(b -> {
            assertThat(b.low()).isEqualTo(256);
            assertThat(b.high()).isEqualTo(512);
            assertThat(b.count()).isEqualTo(w.count());
        });
        // every wake-up's wait is in run_delay; so is the wait at fork, until the hog's first tick
        assertThat(s.runDelayUsec()).isGreaterThanOrEqualTo(w.count() * remainingUs);
        // the hog waits while the sleeper runs: each of its 1 ms runs plus the switch to it
        TaskStats hog = r.tasks().get("hog");
        assertThat(hog.runDelayUsec()).isBetween(s.usageUsec(), s.usageUsec() + s.nrSwitches() * 10);
        assertThat(hog.wakeupLatencyUs().count()).isZero();
        assertThat(hog.iterationWallUs()).isNull();
        assertThat(s.iterationWallUs().p50()).isEqualTo(1_003.0); // 1 ms + the 2 µs switch, to 1 % (HdrHistogram)
        assertThat(hog.cpu()).isZero();
    }

    /**
     * The same at HZ 250 with 6.18's wake-up preemption ({@code kernel.wakeup_preemption} eevdf): at each wake-up the hog has run about 9.5 ms since
     * it was picked, past its 0.75 ms slice (RUN_TO_PARITY no longer protects it), and the sleeper, placed by its lag
     * ahead of the hog, is what the pick takes, so check_preempt_wakeup_fair() preempts the hog in user mode at once:
     * no wake-up waits, every loop is its 1 ms run plus the 2 µs switch to it, and the sleeper's only wait is at
     * fork, until the hog's first tick (4 ms). Without wake-up preemption each wake-up waits for a tick.
     */
    @Test
    void aSleeperPreemptsAHogThatHasUsedItsSlice() {
        SimulationResult r = Scenarios.run(Scenarios.text("/latency/sleeper-preempts-hog.json"));
        TaskStats s = r.tasks().get("s");
        assertThat(s.wakeupLatencyUs().count()).isGreaterThan(80);
        assertThat(s.wakeupLatencyUs().max()).isZero();
        assertThat(s.iterationWallUs().max()).isCloseTo(1_003.0, within(10.0)); // to 1 % (HdrHistogram)
        assertThat(s.runDelayUsec()).isEqualTo(4_000);
        SimulationResult none = Scenarios.run(Scenarios.text("/latency/sleeper-preempts-hog.json")
                .replace("\"eevdf\"", "\"none\""));
        assertThat(none.tasks().get("s").wakeupLatencyUs().p50()).isGreaterThan(0);
    }

    /** Tasks that exit: a fixed-work task, a periodic task whose loops run out, a sleeping task killed. */
    @Test
    void tasksThatExitHaveTheirExitTime() {
        SimulationResult r = Scenarios.run(Scenarios.text("/latency/exits.json"));
        TaskStats work = r.tasks().get("work");
        assertThat(work.exitS()).isEqualTo(r.benchmarks().get("work").get("completion_s"));
        assertThat(work.exitS()).isBetween(0.2, 0.21);
        // three loops of 10 ms run + 40 ms sleep: the third sleep ends at ~150 ms plus waits for the CPU
        TaskStats loop = r.tasks().get("loop");
        assertThat(loop.iterationWallUs().count()).isEqualTo(3);
        assertThat(loop.exitS()).isBetween(0.15, 0.2);
        assertThat(loop.usageUsec()).isEqualTo(30_000);
        // killed while sleeping: woken to exit at once
        TaskStats victim = r.tasks().get("victim");
        assertThat(victim.exitS()).isEqualTo(0.3505);
        assertThat(victim.iterationWallUs().count()).isEqualTo(4);
        assertThat(r.tasks().get("survivor").exitS()).isNull();
    }

    @Test
    void seriesNameTheCpuEachTaskLastRanOn() {
        SimulationResult r = Scenarios.run(Scenarios.text("/latency/throttled-run.json").replace(
                "\"tasks\"", "\"record\": { \"interval\": \"50ms\" }, \"tasks\""));
        assertThat(r.series()).isNotEmpty();
        assertThat(r.series()).allSatisfy(s -> assertThat(s.tasks().get("p").cpu()).isZero());
        SimulationResult back = ResultJson.read(ResultJson.write(r));
        assertThat(back.tasks()).isEqualTo(r.tasks());
        assertThat(back.series().get(0).tasks().get("p").cpu()).isZero();
    }

    @Test
    void latenciesAreDeterministic() {
        String a = ResultJson.write(withoutEngine(Scenarios.run(Scenarios.text("/latency/exits.json"))));
        String b = ResultJson.write(withoutEngine(Scenarios.run(Scenarios.text("/latency/exits.json"))));
        assertThat(a).isEqualTo(b).contains("\"wakeup_latency_us\"", "\"iteration_wall_us\"", "\"run_delay_usec\"");
    }

    private static SimulationResult withoutEngine(SimulationResult r) {
        return new SimulationResult(r.scenario(), r.seed(), r.simulatedNs(), r.cgroups(), r.tasks(), r.histograms(),
                r.distributeCalls(), r.series(), r.benchmarks(), r.machine(), r.cpus(), r.cpuTimeline(), r.kernel(), r.actions(), r.kernelLog(), null);
    }
}
