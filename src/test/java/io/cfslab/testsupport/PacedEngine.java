package io.cfslab.testsupport;

import io.cfslab.runs.KernelSimulatorEngine;
import io.cfslab.runs.SimulationEngine;
import io.cfslab.scenario.Scenario;
import io.cfslab.sim.RunControl;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * TEST-ONLY: the real engine (parser, simulator, result JSON) preceded by a paced phase that lasts
 * {@link #wallMsPerSimulatedSecond} wall ms per simulated second, reporting progress and honouring
 * cancellation and the wall-time guard as a long simulation would. Tiny scenarios finish in a few ms in
 * the real simulator, so without pacing a test could never observe a run "mid-run". Also records how many
 * simulations run at once and how often each scenario (name#seed) executed.
 */
public class PacedEngine implements SimulationEngine {
    /** 0 = no pacing (the real engine alone). */
    public static volatile long wallMsPerSimulatedSecond = 0;
    public static final AtomicInteger current = new AtomicInteger();
    public static final AtomicInteger maxConcurrent = new AtomicInteger();
    public static final Map<String, AtomicInteger> executions = new ConcurrentHashMap<>();
    /** The nice value of the thread that last simulated (Linux), or null. */
    public static volatile Integer lastNice;
    /**
     * When set, a paced run holds before its last paced step until the latch opens (still honouring
     * cancellation): a test can then act on a run it knows is running, however slow the machine is.
     */
    public static volatile java.util.concurrent.CountDownLatch gate;
    /**
     * When set, runs after a cancelled simulation returns its (partial) result and before the worker stores it: a
     * test can then end the run from elsewhere (as another instance giving it up would) at the worst moment.
     */
    public static volatile Runnable afterCancelledSimulation;
    /**
     * When set, runs after every simulation returns its result and before the worker stores it: a test can then
     * cancel a run whose simulation already reached its end (the cancel that loses the race with the store).
     */
    public static volatile Runnable afterSimulation;

    private final KernelSimulatorEngine real = new KernelSimulatorEngine();

    public static void reset() {
        current.set(0);
        maxConcurrent.set(0);
        executions.clear();
        lastNice = null;
        wallMsPerSimulatedSecond = 0;
        gate = null;
        afterCancelledSimulation = null;
        afterSimulation = null;
    }

    @Override
    public Scenario parse(String text) { return real.parse(text); }

    @Override
    public String simulate(Scenario s, RunControl control) {
        executions.computeIfAbsent(s.name() + "#" + s.seed(), k -> new AtomicInteger()).incrementAndGet();
        lastNice = io.cfslab.runs.ThreadNice.niceOf(0);
        maxConcurrent.accumulateAndGet(current.incrementAndGet(), Math::max);
        try {
            long steps = 100;
            long sleepMs = wallMsPerSimulatedSecond * s.durationNs() / 1_000_000_000L / steps;
            if (sleepMs > 0) {
                for (int i = 1; i <= steps; i++) {
                    if (control.cancelled()) {
                        // stop as the simulator does: the result up to the time reached (here: nothing yet)
                        return real.simulate(s, new RunControl() {
                            @Override public boolean cancelled() { return true; }
                        });
                    }
                    Thread.sleep(sleepMs);
                    java.util.concurrent.CountDownLatch g = gate;
                    if (i == steps - 1 && g != null) {
                        while (!g.await(10, java.util.concurrent.TimeUnit.MILLISECONDS)) {
                            if (control.cancelled()) break;
                        }
                        if (control.cancelled()) continue;
                    }
                    // the paced phase stands for the first 99 % of the run
                    control.progress(s.durationNs() * Math.min(i, 99) / steps, i);
                }
            }
            String result = real.simulate(s, control);
            Runnable any = afterSimulation;
            if (any != null) any.run();
            Runnable hook = afterCancelledSimulation;
            if (hook != null && control.cancelled()) hook.run();
            return result;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } finally {
            current.decrementAndGet();
        }
    }
}
