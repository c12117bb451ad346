package io.cfslab.scenario;

/** {@code tasks[].workload}: what a task does. Times in nanoseconds of CPU work or sleep. */
public sealed interface WorkloadSpec {

    /** {@code {"kind": "hog"}}: a busy loop in user mode (the seeds' {@code nop}). */
    record Hog() implements WorkloadSpec { }

    /**
     * {@code {"kind": "periodic", "run": "5ms", "sleep": "10ms", "kernel": "0.2ms", "loops": 0}}.
     * @param runNs    user-mode CPU work per loop, ns (&gt; 0)
     * @param kernelNs kernel-mode CPU work at the end of each run, ns (&ge; 0)
     * @param sleepNs  sleep after each run, ns (&ge; 0)
     * @param loops    loops before exiting; 0 = forever
     */
    record Periodic(long runNs, long kernelNs, long sleepNs, long loops) implements WorkloadSpec { }

    /** {@code {"kind": "fixed-work", "work": "2s"}}: executes {@code workNs} of CPU work, then exits. */
    record FixedWork(long workNs) implements WorkloadSpec { }
}
