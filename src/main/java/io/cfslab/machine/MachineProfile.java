package io.cfslab.machine;

/**
 * A machine: topology, cost model, how fast a hardware thread runs when its SMT siblings are busy, and what the
 * benchmark workloads' syscalls cost there.
 *
 * @param name             profile name ({@code generic})
 * @param topology         CPUs, cores, LLCs, sockets
 * @param costs            per-operation kernel costs
 * @param smtBusySpeed     work rate of a thread while at least one SMT sibling is busy, relative to running
 *                         alone (1.0 = no slowdown); only used when smt &gt; 1
 * @param ipc              costs of the pipe, socket and UDP syscalls of {@code hackbench} and {@code netperf-udp-rr}
 */
public record MachineProfile(String name, Topology topology, CostModel costs, double smtBusySpeed, IpcCosts ipc) {

    /**
     * The {@code generic} profile.
     * {@code smtBusySpeed} 0.6: two busy SMT2 siblings give 1.2× one thread's throughput, the usual SMT2
     * yield (docs/cost-model.md).
     */
    public static MachineProfile generic(int cpus, int smt, int sockets) {
        return new MachineProfile("generic", new Topology(cpus, smt, sockets), CostModel.generic(), 0.6,
                IpcCosts.generic());
    }
}
