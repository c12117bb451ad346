package io.cfslab.workload;

/**
 * {@code periodic}: repeat {run {@code runNs} in user mode, then {@code kernelNs} in kernel mode, then sleep
 * {@code sleepNs}}, {@code loops} times (0 = forever), then exit.
 */
public final class Periodic implements Workload {
    private final long runNs, kernelNs, sleepNs, loops;
    private long done;
    private int phase; // 0 = next is user run, 1 = kernel, 2 = sleep

    public Periodic(long runNs, long kernelNs, long sleepNs, long loops) {
        this.runNs = runNs;
        this.kernelNs = kernelNs;
        this.sleepNs = sleepNs;
        this.loops = loops;
    }

    @Override
    public boolean iterates() { return true; }

    @Override
    public void next(WorkloadContext ctx, Segment out) {
        while (true) {
            switch (phase) {
                case 0 -> {
                    if (loops > 0 && done >= loops) { out.set(Segment.EXIT, 0); return; }
                    phase = 1;
                    out.set(Segment.RUN_USER, runNs);
                    return;
                }
                case 1 -> {
                    phase = 2;
                    if (kernelNs > 0) { out.set(Segment.RUN_KERNEL, kernelNs); return; }
                }
                default -> {
                    phase = 0;
                    done++;
                    if (sleepNs > 0) { out.set(Segment.SLEEP, sleepNs); return; }
                }
            }
        }
    }
}
