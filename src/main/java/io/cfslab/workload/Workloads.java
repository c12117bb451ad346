package io.cfslab.workload;

import io.cfslab.scenario.WorkloadSpec;

/** Makes one {@link Workload} instance per task from a scenario's {@link WorkloadSpec}. */
public final class Workloads {
    private Workloads() {}

    public static Workload create(WorkloadSpec spec) {
        if (spec instanceof WorkloadSpec.Hog) return new Hog();
        if (spec instanceof WorkloadSpec.Periodic p) return new Periodic(p.runNs(), p.kernelNs(), p.sleepNs(), p.loops());
        if (spec instanceof WorkloadSpec.FixedWork f) return new FixedWork(f.workNs());
        throw new IllegalArgumentException("unknown workload " + spec);
    }
}
