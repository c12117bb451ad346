package io.cfslab.workload;

import io.cfslab.machine.IpcCosts;
import io.cfslab.scenario.WorkloadSpec;

/** Makes the {@link WorkloadInstance}s of a scenario's {@link WorkloadSpec}. */
public final class Workloads {
    private Workloads() {}

    /**
     * One instance of {@code spec}.
     *
     * @param costs     the machine's syscall costs
     * @param firstTask kernel task index of the instance's first task; its {@link WorkloadInstance#tasks()} tasks
     *                  are numbered from there
     */
    public static WorkloadInstance instance(WorkloadSpec spec, IpcCosts costs, int firstTask) {
        if (spec instanceof WorkloadSpec.Hackbench h) {
            return new Hackbench(h.mode() == WorkloadSpec.Hackbench.Mode.SOCKET, h.groups(), h.fds(), h.loops(),
                    h.datasize(), costs, firstTask);
        }
        if (spec instanceof WorkloadSpec.NetperfUdpRr n) {
            return new NetperfUdpRr(n.requestSize(), n.responseSize(), costs, firstTask);
        }
        if (spec instanceof WorkloadSpec.GoSleepLoop g) {
            return new GoSleepLoop(g.runNs(), g.sleepNs(), g.threads(), costs, firstTask);
        }
        return new Single(create(spec));
    }

    /** The workload of a one-task kind ({@code hog}, {@code periodic}, {@code fixed-work}). */
    public static Workload create(WorkloadSpec spec) {
        if (spec instanceof WorkloadSpec.Hog) return new Hog();
        if (spec instanceof WorkloadSpec.Periodic p) return new Periodic(p.runNs(), p.kernelNs(), p.sleepNs(), p.loops());
        if (spec instanceof WorkloadSpec.FixedWork f) return new FixedWork(f.workNs());
        throw new IllegalArgumentException("not a one-task workload: " + spec);
    }

    /** An instance of one task. */
    private record Single(Workload workload) implements WorkloadInstance {
        @Override
        public int tasks() { return 1; }

        @Override
        public Workload task(int i) { return workload; }
    }
}
