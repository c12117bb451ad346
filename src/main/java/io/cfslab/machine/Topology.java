package io.cfslab.machine;

/**
 * CPU topology: logical CPUs grouped into cores (SMT siblings), last-level caches and sockets. CPUs are
 * numbered as Linux numbers them on x86: CPU {@code c} is thread {@code c / coresTotal} of core
 * {@code c % coresTotal}, so siblings are {@code cores} apart (cpu0 and cpu{cores} share a core).
 * In the {@code generic} profile each socket is one LLC.
 */
public final class Topology {
    private final int cpus;
    private final int smt;
    private final int sockets;
    private final int cores;
    private final int[] coreOf;
    private final int[] llcOf;
    private final int[] siblingsStart;
    private final int[] siblings;

    /**
     * @param cpus    logical CPUs (multiple of smt × sockets)
     * @param smt     threads per core
     * @param sockets sockets (= LLCs)
     */
    public Topology(int cpus, int smt, int sockets) {
        if (cpus <= 0 || smt <= 0 || sockets <= 0 || cpus % (smt * sockets) != 0)
            throw new IllegalArgumentException("cpus must be a positive multiple of smt × sockets");
        this.cpus = cpus;
        this.smt = smt;
        this.sockets = sockets;
        this.cores = cpus / smt;
        int coresPerSocket = cores / sockets;
        coreOf = new int[cpus];
        llcOf = new int[cpus];
        siblingsStart = new int[cpus + 1];
        siblings = new int[cpus * (smt - 1)];
        int k = 0;
        for (int c = 0; c < cpus; c++) {
            coreOf[c] = c % cores;
            llcOf[c] = coreOf[c] / coresPerSocket;
            siblingsStart[c] = k;
            for (int t = 0; t < smt; t++) {
                int s = coreOf[c] + t * cores;
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
    public int llcs() { return sockets; }
    /** Number of SMT siblings of a CPU (smt - 1). */
    public int siblingCount(int cpu) { return siblingsStart[cpu + 1] - siblingsStart[cpu]; }
    /** The i-th SMT sibling of a CPU. */
    public int sibling(int cpu, int i) { return siblings[siblingsStart[cpu] + i]; }
}
