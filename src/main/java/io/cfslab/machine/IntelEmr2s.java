package io.cfslab.machine;

/**
 * {@code intel-emr-2s}: two Intel Xeon "Emerald Rapids" sockets, 60 cores each (Xeon Platinum 8580 class), SMT2:
 * 240 CPUs, seed 00's other machine. The first thread of every core is 0–119, the second 120–239. One LLC per
 * socket (300 MiB L3 shared by the socket's cores, sub-NUMA clustering off). Kernel costs are the AMD traces'
 * [ASSUMED the same: no published per-operation figure for this machine]; sources in docs/cost-model.md.
 */
public final class IntelEmr2s {
    public static final String NAME = "intel-emr-2s";

    private IntelEmr2s() {}

    public static MachineProfile profile() {
        return new MachineProfile(NAME, new Topology(240, 2, 2, 60, false), CostModel.generic(),
                new SmtCurve(1.0, 0.6),   // [ASSUMED] SMT2 yield 1.2x
                IpcCosts.generic(),       // [ASSUMED] the Genoa figures (see docs/cost-model.md)
                new PowerModel(
                        180,              // [ASSUMED] idle platform
                        4.0,              // per active core: 350 W TDP per socket (Intel spec, 8580), 60 cores:
                        0.8),             // 180 + 120 x 4.0 + 240 x 0.8 = 852 W with every thread busy
                                          // [split ASSUMED]
                new CacheTransferCosts(
                        0,                // one LLC per socket: no other LLC in the same socket
                        90,               // a line from the other socket over UPI, over one from the mesh [ASSUMED]
                        4,                // as amd-genoa-2s (fs/pipe.c) [INFERRED]
                        100));            // as amd-genoa-2s [ASSUMED]
    }
}
