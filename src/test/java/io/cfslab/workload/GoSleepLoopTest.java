package io.cfslab.workload;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Go runtime's hand-offs of {@code go-sleep-loop} on an {@link IdealMachine}: the timer thread wakes the
 * goroutine's threads in turn, each burn is followed by a wake of the timer thread, and sysmon wakes only while a P
 * is in use.
 */
class GoSleepLoopTest {

    @Test
    void theGoroutineRunsOnTheThreadsInTurnAndTheTimerThreadWakesEach() {
        IdealMachine m = new IdealMachine();
        // 4 threads: timer M (0), sysmon (1), two Ms for the goroutine (2, 3); burn 5 ms, sleep 100 ms
        GoSleepLoop p = new GoSleepLoop(5_000_000, 100_000_000, 4, NetperfUdpRrTest.COSTS, 0);
        m.add(p);
        m.start();
        m.run(1_000_000_000L);
        // the burns alternate between tasks 2 and 3, each woken by the timer thread; every burn ends with a wake of
        // the timer thread (task 0)
        int burns = 0, last = -1;
        for (long[] w : m.wakes) {
            int t = (int) w[1];
            if (t >= 2) {
                assertThat(t).as("the other M's turn").isNotEqualTo(last);
                last = t;
                burns++;
            }
        }
        // one iteration: 5 ms burn + the sleep + the hand-offs' few µs
        assertThat(burns).isBetween(9, 10);
        assertThat(m.usage.get(2)[0] + m.usage.get(3)[0]).as("the burns").isBetween(9 * 5_000_000L, 10 * 5_000_000L);
        // sysmon: ~50 rounds at 20 µs after each wake, then doubling delays, parked through the sleeps
        long sysmonRounds = m.usage.get(1)[2]; // a retake() per round
        assertThat(sysmonRounds).as("sysmon rounds").isBetween(burns * 50L, burns * 150L);
        assertThat(m.usage.get(1)[0]).as("sysmon's CPU").isLessThan(1_000_000L);
    }
}
