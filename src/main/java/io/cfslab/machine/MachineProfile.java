package io.cfslab.machine;

/**
 * A machine: topology, cost model, how fast a hardware thread runs when its SMT siblings are busy, what the
 * benchmark workloads' syscalls cost there, and what it draws from the wall.
 *
 * @param name     profile name ({@code generic}, or one of {@link MachineProfiles#NAMED})
 * @param topology CPUs, cores, LLCs, sockets
 * @param costs    per-operation kernel costs
 * @param smt      per-thread speed by the number of busy threads of its core
 * @param ipc      costs of the pipe, socket and UDP syscalls of {@code hackbench} and {@code netperf-udp-rr}
 * @param power    power model, or null for a machine that has none ({@code generic}: results then carry no
 *                 power or energy)
 * @param cache    cache-line transfer costs between LLCs ({@link CacheTransferCosts#NONE} for none)
 */
public record MachineProfile(String name, Topology topology, CostModel costs, SmtCurve smt, IpcCosts ipc,
                             PowerModel power, CacheTransferCosts cache) {

    /** A machine without cache-line transfer costs between its LLCs. */
    public MachineProfile(String name, Topology topology, CostModel costs, SmtCurve smt, IpcCosts ipc,
                          PowerModel power) {
        this(name, topology, costs, smt, ipc, power, CacheTransferCosts.NONE);
    }

    public MachineProfile {
        if (topology.smt() > 1 && smt.threads() != topology.smt())
            throw new IllegalArgumentException("SMT curve covers " + smt.threads() + " threads, cores have "
                    + topology.smt());
    }

    /**
     * The {@code generic} profile: any topology, the costs calibrated on seeds 01 and 03's 384-CPU AMD machine,
     * and one SMT speed, 0.6, for a thread with busy siblings (two busy SMT2 siblings give 1.2× one thread's
     * throughput, the usual SMT2 yield; docs/cost-model.md). No power model.
     */
    public static MachineProfile generic(int cpus, int smt, int sockets) {
        return new MachineProfile("generic", new Topology(cpus, smt, sockets), CostModel.generic(),
                SmtCurve.twoLevel(Math.max(1, smt), 0.6), IpcCosts.generic(), null);
    }

    /** Per-thread speed with {@code busy} threads of a core busy (1.0 on a machine without SMT). */
    public double smtSpeed(int busy) { return topology.smt() > 1 ? smt.speed(busy) : 1.0; }
}
