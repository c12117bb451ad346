package io.cfslab.machine;

/**
 * What it costs a task that its data last lived in another last-level cache: the cache-line transfers of
 * communication between tasks on CPUs of different LLCs, and the refill of a task's working set after a move to
 * another LLC. Figures are the extra over the same access within one LLC (the syscall costs of {@link IpcCosts} are
 * within-LLC costs), in ns of CPU time at full speed. Sources in docs/cost-model.md ("Cache-line transfers").
 *
 * @param crossLlcLineNs    extra latency of one cache line that a core of another LLC of the same socket last
 *                          wrote (a core-to-core transfer across the fabric instead of inside the L3)
 * @param crossSocketLineNs the same for a core of the other socket
 * @param linesPerMessage   cache lines of one pipe or socket message that the peer last wrote, paid by each side
 *                          (the sender on its write, the receiver on its read): the lock, the ring's head and tail,
 *                          the buffer slot, the payload and the wait queue
 * @param refillLines       lines of a task's working set it fetches again, from the LLC it left, after it was moved
 *                          to another LLC (its stack, {@code task_struct}, the pipe pages and buffers it uses)
 */
public record CacheTransferCosts(long crossLlcLineNs, long crossSocketLineNs, int linesPerMessage, int refillLines) {

    /** No transfer costs: the {@code generic} profile and every single-LLC machine. */
    public static final CacheTransferCosts NONE = new CacheTransferCosts(0, 0, 0, 0);

    public CacheTransferCosts {
        if (crossLlcLineNs < 0 || crossSocketLineNs < 0 || linesPerMessage < 0 || refillLines < 0)
            throw new IllegalArgumentException("cache transfer costs must not be negative: " + this);
    }

    /** Extra ns for one line that CPU {@code from} last wrote, read on CPU {@code to}. */
    public long lineNs(Topology topo, int from, int to) {
        if (topo.llcOf(from) == topo.llcOf(to)) return 0;
        return topo.socketOf(from) == topo.socketOf(to) ? crossLlcLineNs : crossSocketLineNs;
    }

    /** Extra ns each side pays for one message between tasks on CPUs {@code a} and {@code b}. */
    public long messageNs(Topology topo, int a, int b) { return linesPerMessage * lineNs(topo, a, b); }

    /** Extra ns a task pays once after a move from CPU {@code from} to CPU {@code to}. */
    public long refillNs(Topology topo, int from, int to) { return refillLines * lineNs(topo, from, to); }
}
