package io.cfslab.workload;

/** {@code hog}: a busy loop in user mode forever (the seeds' {@code nop}: {@code while (1) spin();}). */
public final class Hog implements Workload {
    @Override
    public void next(WorkloadContext ctx, Segment out) {
        out.set(Segment.RUN_USER, Long.MAX_VALUE);
    }
}
