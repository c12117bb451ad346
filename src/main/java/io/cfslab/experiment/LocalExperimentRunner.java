package io.cfslab.experiment;

import io.cfslab.metrics.ResultJson;
import io.cfslab.sim.RunControl;
import io.cfslab.sim.Simulator;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs an experiment in this process (the command line's {@code experiment}): every arm × repeat is one
 * simulation on a pool of {@code threads} threads, submitted repeat by repeat (run 1 of every arm, then run 2, …)
 * so that the arms advance together. Results are folded into an {@link ExperimentAnalysis} in submission
 * order, so the output does not depend on which thread finished first.
 */
public final class LocalExperimentRunner {
    private LocalExperimentRunner() {}

    /** Told about each finished run, from the thread that folds the results in. */
    public interface Progress {
        void runDone(ExperimentPlan.ArmPlan arm, int repeat, long seed, long wallMs, int done, int total);
    }

    /**
     * @param plan      the experiment
     * @param threads   simulation threads, &ge; 1
     * @param maxEvents per run: a run that processes more events stops with
     *                  {@link io.cfslab.sim.SimulationAbortedException}
     * @param progress  told about each run as it is folded in
     * @return the result
     * @throws io.cfslab.sim.SimulationAbortedException if a run exceeds {@code maxEvents}, naming its arm, run
     *         (1-based, of the repeats) and seed
     */
    public static ExperimentResult run(ExperimentPlan plan, int threads, long maxEvents, Progress progress) {
        record Job(ExperimentPlan.ArmPlan arm, int repeat, Future<String> result, long[] wallMs) { }
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "cfslab-experiment-" + COUNTER.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        RunControl control = new RunControl() {
            @Override public long maxEvents() { return maxEvents; }
        };
        try {
            List<Job> jobs = new ArrayList<>();
            for (int r = 0; r < plan.repeats(); r++) {
                for (ExperimentPlan.ArmPlan arm : plan.arms()) {
                    long seed = plan.seeds()[r];
                    long[] wall = new long[1];
                    Future<String> f = pool.submit(() -> {
                        long t0 = System.nanoTime();
                        String json = ResultJson.write(Simulator.run(arm.scenario(seed), control));
                        wall[0] = (System.nanoTime() - t0) / 1_000_000;
                        return json;
                    });
                    jobs.add(new Job(arm, r, f, wall));
                }
            }
            ExperimentAnalysis analysis = new ExperimentAnalysis(plan);
            int done = 0;
            for (Job j : jobs) {
                String json;
                try {
                    json = j.result().get();
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof io.cfslab.sim.SimulationAbortedException aborted) {
                        // which run stopped, as the progress lines name it (breaker 3 #13: the budget's words alone)
                        throw new io.cfslab.sim.SimulationAbortedException("arm \"" + j.arm().name() + "\" run "
                                + (j.repeat() + 1) + " of " + plan.repeats() + " (seed " + plan.seeds()[j.repeat()] + "): "
                                + aborted.getMessage());
                    }
                    if (e.getCause() instanceof RuntimeException re) throw re;
                    throw new IllegalStateException(e.getCause());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted", e);
                }
                analysis.add(j.arm().index(), j.repeat(), json);
                progress.runDone(j.arm(), j.repeat(), plan.seeds()[j.repeat()], j.wallMs()[0], ++done, jobs.size());
            }
            return analysis.result();
        } finally {
            pool.shutdownNow();
        }
    }

    private static final AtomicInteger COUNTER = new AtomicInteger();
}
