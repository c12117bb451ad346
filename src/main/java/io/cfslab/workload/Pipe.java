package io.cfslab.workload;

/**
 * A pipe as {@code fs/pipe.c} (Linux 5.6 and later) runs it for same-sized messages of at most
 * {@link #PAGE_SIZE} bytes: a ring of {@link #PIPE_DEF_BUFFERS} page buffers. A write merges into the last page
 * when the whole message fits there ({@code PIPE_BUF_FLAG_CAN_MERGE}), else takes a new buffer, and blocks only
 * when all 16 are in use ({@code pipe_full()}); so a page holds {@code 4096 / datasize} messages and the pipe
 * 16 pages' worth (640 messages of hackbench's default 100 bytes, 64 KiB). A read that empties a page frees its
 * buffer and, if the pipe was full, wakes one writer ({@code wake_up_interruptible_sync_poll()} on an exclusive
 * wait queue); a writer woken that way which leaves the pipe not full wakes the next ({@code wake_next_writer}).
 * When the reader empties the pipe the last page is freed too, and the next write starts a new page.
 */
final class Pipe extends Channel {
    /** {@code PIPE_DEF_BUFFERS} (include/linux/pipe_fs_i.h): buffers of a new pipe. */
    static final int PIPE_DEF_BUFFERS = 16;
    /** Page size, bytes (x86-64, arm64 with 4K pages). */
    static final int PAGE_SIZE = 4096;

    /** Messages per page buffer. */
    final int perPage;
    /** Index of the first message of the current run of pages (a write into an empty pipe starts a new page). */
    private long pageBase;

    /** @param datasize bytes per message, 1..{@link #PAGE_SIZE} */
    Pipe(int datasize, int reader, int[] waitNext, int base) {
        super(reader, waitNext, base);
        if (datasize < 1 || datasize > PAGE_SIZE) throw new IllegalArgumentException("datasize " + datasize);
        this.perPage = PAGE_SIZE / datasize;
    }

    /** Buffers in use by the messages from {@code tail} to the last written one. */
    private long buffers(long tail) {
        if (tail == written) return 0;
        return (written - 1 - pageBase) / perPage - (tail - pageBase) / perPage + 1;
    }

    /** {@code pipe_full()}: every buffer is in use (the last page may still take merges). */
    boolean full() { return buffers(released) >= PIPE_DEF_BUFFERS; }

    @Override
    boolean canWrite() {
        if (released == written) return true;                    // empty: a new buffer
        if ((written - pageBase) % perPage != 0) return true;     // merges into the last page
        return !full();
    }

    @Override
    void write() {
        if (released == written) pageBase = written;              // was_empty: the message starts a page
        written++;
    }

    @Override
    long readBoundary() {
        if (waiters == 0) return Long.MAX_VALUE;
        return perPage - (claimed - pageBase) % perPage;
    }

    @Override
    int release() {
        boolean wasFull = full();
        long before = released;
        released = claimed;
        boolean freed = released == written || (released - pageBase) / perPage > (before - pageBase) / perPage;
        return wasFull && freed && waiters > 0 ? 1 : 0;
    }

    @Override
    boolean wakesNextWriter() { return !full() && waiters > 0; }
}
