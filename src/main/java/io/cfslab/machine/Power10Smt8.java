package io.cfslab.machine;

/**
 * {@code power10-Nc-smt8} (N = 1, 2, 4, 8): an IBM POWER10 partition of N cores in SMT8 mode, seed 02's machine.
 * Linux on POWER numbers a core's eight threads consecutively (cpu0–7 are core 0). Each core has its own L3
 * region; the partition's cores are treated as one LLC, as the kernel's MC domain spans them.
 *
 * <p>SMT curve: core throughput with n busy threads, in one-thread units, 1.00, 1.55, 1.90, 2.15, 2.40, 2.60, 2.80,
 * 2.98. The SMT8/SMT4 ratio (2.98 / 2.15 = 1.39 per core, so a thread runs 1.44× slower with 8 busy siblings than
 * with 4) is seed 02's: with aligned timers two 25 % groups run their threads on the same cores at once, and both
 * of its tables show 2CG/1CG = 1.44–1.46 at 1, 2, 4 and 8 cores; the shape between is [ASSUMED] (concave).
 * Power: fitted to seed 02's first table (1CG, 1–8 cores); kernel and IPC costs [ASSUMED] the x86 profiles'.
 */
public final class Power10Smt8 {
    /** The core counts a profile exists for. */
    public static final int[] CORES = {1, 2, 4, 8};

    private Power10Smt8() {}

    public static String name(int cores) { return "power10-" + cores + "c-smt8"; }

    public static MachineProfile profile(int cores) {
        return new MachineProfile(name(cores), new Topology(cores * 8, 8, 1, cores, true), CostModel.generic(),
                new SmtCurve(1.0, 1.55 / 2, 1.90 / 3, 2.15 / 4, 2.40 / 5, 2.60 / 6, 2.80 / 7, 2.98 / 8),
                IpcCosts.generic(),
                new PowerModel(
                        39.5,   // seed 02 first table, 1CG power 44 / 48.5 / 60 / 77 W at 1 / 2 / 4 / 8 cores:
                        7.4,    // a least-squares line through them, with the 2CG - 1CG differences (2 to 6.5 W)
                        0.5));  // giving the per-thread part (docs/cost-model.md)
    }
}
