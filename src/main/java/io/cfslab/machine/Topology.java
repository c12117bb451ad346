package io.cfslab.machine;

/**
 * CPU topology: logical CPUs grouped into cores (SMT siblings), last-level caches and sockets. CPUs are
 * numbered as Linux numbers them: on x86 CPU {@code c} is thread {@code c / coresTotal} of core
 * {@code c % coresTotal}, so siblings are {@code cores} apart (cpu0 and cpu{cores} share a core); on POWER
 * (ppc64 {@code threads_per_core}) a core's threads are consecutive, cpu0–7 being core 0's eight threads.
 * In the {@code generic} profile each socket is one LLC.
 */
public final class Topology {
    private final int cpus;
    private final int smt;
    private final int sockets;
    private final int cores;
    private final int llcs;
    private final int[] coreOf;
    private final int[] llcOf;
    /** The socket of each CPU: a table, as the cache-transfer costs ask it for both CPUs of every message. */
    private final int[] socketOf;
    private final int[] siblingsStart;
    private final int[] siblings;

    /**
     * @param cpus    logical CPUs (multiple of smt × sockets)
     * @param smt     threads per core
     * @param sockets sockets (= LLCs)
     */
    public Topology(int cpus, int smt, int sockets) {
        this(cpus, smt, sockets, cpus > 0 && smt > 0 && sockets > 0 ? Math.max(1, cpus / smt / sockets) : 1, false);
    }

    /**
     * @param cpus               logical CPUs (multiple of smt × sockets)
     * @param smt                threads per core
     * @param sockets            sockets
     * @param coresPerLlc        cores sharing one last-level cache (a divisor of the cores per socket)
     * @param siblingsContiguous true to number a core's threads consecutively (POWER), false for x86's numbering
     */
    public Topology(int cpus, int smt, int sockets, int coresPerLlc, boolean siblingsContiguous) {
        if (cpus <= 0 || smt <= 0 || sockets <= 0 || cpus % (smt * sockets) != 0)
            throw new IllegalArgumentException("cpus must be a positive multiple of smt × sockets");
        if (coresPerLlc <= 0 || (cpus / smt / sockets) % coresPerLlc != 0)
            throw new IllegalArgumentException("cores per LLC must divide the cores per socket");
        this.cpus = cpus;
        this.smt = smt;
        this.sockets = sockets;
        this.cores = cpus / smt;
        this.llcs = cores / coresPerLlc;
        coreOf = new int[cpus];
        llcOf = new int[cpus];
        socketOf = new int[cpus];
        siblingsStart = new int[cpus + 1];
        siblings = new int[cpus * (smt - 1)];
        int k = 0;
        for (int c = 0; c < cpus; c++) {
            coreOf[c] = siblingsContiguous ? c / smt : c % cores;
            llcOf[c] = coreOf[c] / coresPerLlc;
            socketOf[c] = coreOf[c] / (cores / sockets);
            siblingsStart[c] = k;
            for (int t = 0; t < smt; t++) {
                int s = siblingsContiguous ? coreOf[c] * smt + t : coreOf[c] + t * cores;
                if (s != c) siblings[k++] = s;
            }
        }
        siblingsStart[cpus] = k;
    }

    public int cpus() { return cpus; }
    public int smt() { return smt; }
    public int sockets() { return sockets; }
    public int cores() { return cores; }
    public int coreOf(int cpu) { return coreOf[cpu]; }
    /** LLC (in the generic profile: socket) of a CPU. */
    public int llcOf(int cpu) { return llcOf[cpu]; }
    public int llcs() { return llcs; }
    /** Socket of a CPU (cores are numbered socket by socket). */
    public int socketOf(int cpu) { return socketOf[cpu]; }
    /** Number of SMT siblings of a CPU (smt - 1). */
    public int siblingCount(int cpu) { return siblingsStart[cpu + 1] - siblingsStart[cpu]; }
    /** The i-th SMT sibling of a CPU. */
    public int sibling(int cpu, int i) { return siblings[siblingsStart[cpu] + i]; }
}
