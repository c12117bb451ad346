package io.cfslab.workload;

/**
 * One hackbench fd pair: the byte stream from a group's senders to one receiver, as a {@link Pipe} or a
 * {@link UnixStreamSocket}. Messages all have the same size, so the stream is counted in messages: absolute counts
 * of messages {@link #written} (from the start of the writer's syscall stretch: the space is taken there), of
 * messages the reader has {@link #claimed} (taken into its current stretch) and of messages whose buffers it has
 * {@link #released} (at the end of that stretch, where the kernel frees the pipe page or the skb and wakes writers).
 * {@code released <= claimed <= written}.
 *
 * <p>Who waits: the one reader ({@link #readerWaiting}), and writers in a FIFO (the exclusive wait queue of a pipe,
 * the socket's wait queue), linked through an array the instance shares between its channels, since a writer waits
 * on at most one channel at a time.
 */
abstract class Channel {
    /** Kernel task index of the reader. */
    final int reader;
    /** The reader is blocked on an empty channel and has not been woken yet. */
    boolean readerWaiting;
    long written, claimed, released;
    /**
     * Cache-line transfer time of the unclaimed messages, ns ({@link WorkloadContext#messageTransferNs}): what their
     * writers paid to reach the reader's LLC, the reader pays again to bring the lines back.
     */
    long unclaimedTransferNs;

    /** Next waiting writer after each writer (kernel task index − base), shared by the instance's channels. */
    private final int[] waitNext;
    private final int base;
    private int waitHead = -1, waitTail = -1;
    /** Writers waiting. */
    int waiters;

    Channel(int reader, int[] waitNext, int base) {
        this.reader = reader;
        this.waitNext = waitNext;
        this.base = base;
    }

    /** A message written now would not block ({@code pipe_write()} / {@code sock_alloc_send_pskb()} would go on). */
    abstract boolean canWrite();

    /** Takes the space of one message; call only when {@link #canWrite()}. */
    void write() { written++; }

    /**
     * Messages the reader may take into one stretch from {@link #claimed} on, so that the stretch ends where the
     * kernel would wake a waiting writer: the rest of the current pipe page, or the reads down to the socket's
     * low-water mark; unlimited while no writer waits.
     */
    abstract long readBoundary();

    /**
     * The reader's stretch is over: its claimed messages' buffers are freed.
     * @return how many waiting writers the kernel wakes now (pipe: at most 1, exclusive; socket: all)
     */
    abstract int release();

    /** After a woken writer's write: the kernel wakes the next waiting writer too ({@code wake_next_writer}). */
    abstract boolean wakesNextWriter();

    /**
     * The transfer time the reader pays for claiming {@code k} of the unclaimed messages: their share of
     * {@link #unclaimedTransferNs} (messages are not told apart: the share is proportional), taken off it.
     */
    long claimTransferNs(long k) {
        long u = unclaimed();
        if (unclaimedTransferNs == 0 || u <= 0) return 0;
        long ns = k >= u ? unclaimedTransferNs : unclaimedTransferNs * k / u;
        unclaimedTransferNs -= ns;
        return ns;
    }

    /** Messages written and not yet claimed. */
    long unclaimed() { return written - claimed; }

    /** Queues a writer (kernel task index) at the tail. */
    void enqueueWriter(int task) {
        int w = task - base;
        waitNext[w] = -1;
        if (waitTail < 0) waitHead = w; else waitNext[waitTail] = w;
        waitTail = w;
        waiters++;
    }

    /** Takes the first waiting writer off the queue; its kernel task index. */
    int dequeueWriter() {
        int w = waitHead;
        waitHead = waitNext[w];
        if (waitHead < 0) waitTail = -1;
        waiters--;
        return w + base;
    }
}
