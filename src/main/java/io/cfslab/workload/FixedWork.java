package io.cfslab.workload;

/** {@code fixed-work}: execute {@code workNs} of CPU work in user mode, then exit; its exit time is its benchmark. */
public final class FixedWork implements Workload {
    private final long workNs;
    private boolean ran;

    public FixedWork(long workNs) { this.workNs = workNs; }

    @Override
    public void next(WorkloadContext ctx, Segment out) {
        if (!ran) {
            ran = true;
            out.set(Segment.RUN_USER, workNs);
        } else {
            out.set(Segment.EXIT, 0);
        }
    }

    @Override
    public boolean reportsCompletion() { return true; }
}
