package io.cfslab.machine;

/**
 * {@code amd-genoa-2s}: two AMD EPYC 9654 ("Genoa", Zen 4) sockets, 96 cores each, SMT2: 384 CPUs, the machine
 * of seeds 00, 01 and 03. Linux numbers the first thread of every core 0–191 and the second 192–383. Each CCD's
 * 8 cores share one 32 MiB L3 (12 CCDs per socket: 24 LLCs), which is what {@code select_idle_sibling()} scans.
 * Kernel costs are the ones calibrated on this machine's published traces (seeds 01 and 03, the generic
 * profile's); sources in docs/cost-model.md ("Machine profiles").
 */
public final class AmdGenoa2s {
    public static final String NAME = "amd-genoa-2s";

    private AmdGenoa2s() {}

    public static MachineProfile profile() {
        return new MachineProfile(NAME, new Topology(384, 2, 2, 8, false), CostModel.generic(),
                new SmtCurve(1.0, 0.6),   // [ASSUMED] SMT2 yield 1.2x, as the generic profile
                IpcCosts.generic(),       // seed 00's hackbench -f 1 was measured on this machine
                new PowerModel(
                        200,              // [ASSUMED] idle: two sockets' I/O dies and memory (24 DIMMs) at idle
                        2.2,              // per active core: 360 W TDP per socket (AMD spec, EPYC 9654), 96 cores:
                        0.35),            // 200 + 192 x 2.2 + 384 x 0.35 = 757 W with every thread busy (2 x 360 W
                                          // package + platform) [split between core and thread ASSUMED]
                new CacheTransferCosts(
                        60,               // a line from another CCD: Zen 4 core-to-core 15-19 ns inside one L3, up to
                                          // 79.5 ns across CCDs (AnandTech, Ryzen 9 7950X review): about 60 ns more
                        170,              // a line from the other socket [ASSUMED]: the xGMI hop on top of the IOD's
                        4,                // lines of a message each side fetches (fs/pipe.c: the pipe mutex, head and
                                          // tail, the buffer slot, 100 bytes of payload) [INFERRED]
                        100));            // a moved task's working set refetched [ASSUMED]: stack, task_struct, the
                                          // pipe state it uses (docs/cost-model.md, "Cache-line transfers")
    }
}
