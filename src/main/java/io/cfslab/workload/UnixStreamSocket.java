package io.cfslab.workload;

/**
 * An AF_UNIX {@code SOCK_STREAM} socketpair as hackbench's socket mode uses it (every sender of a group writes to
 * the same end, {@code fds[1]}, of a receiver's pair), after {@code net/unix/af_unix.c} and {@code net/core/sock.c}:
 * each {@code write()} of at most a page becomes one skb queued on the peer, charged with its {@link #truesize} to
 * the sending socket's {@code sk_wmem_alloc} until the reader has consumed it. A writer blocks in
 * {@code sock_alloc_send_pskb()} while {@code sk_wmem_alloc >= sk_sndbuf}, on a non-exclusive wait queue; the
 * reader's {@code consume_skb()} calls {@code unix_write_space()}, which wakes every waiting writer once
 * {@code sk_wmem_alloc * 4 <= sk_sndbuf} ({@code unix_writable()}). Every write wakes a waiting reader
 * ({@code sk_data_ready}).
 */
final class UnixStreamSocket extends Channel {
    /**
     * Default {@code sk_sndbuf}: {@code net.core.wmem_default} = {@code SK_WMEM_MAX} = {@code SKB_TRUESIZE(256) * 256}
     * (include/net/sock.h) = (256 + 256 + 320) × 256 on x86-64.
     */
    static final long SK_SNDBUF_DEFAULT = 212_992;
    /** {@code SKB_DATA_ALIGN(sizeof(struct sk_buff))} on x86-64. */
    static final int SKB_STRUCT = 256;
    /** {@code SKB_DATA_ALIGN(sizeof(struct skb_shared_info))} on x86-64. */
    static final int SKB_SHINFO = 320;
    /** {@code SKB_SMALL_HEAD_CACHE_SIZE} (net/core/skbuff.c, 6.3+): small heads come from a 640-byte cache. */
    static final int SKB_SMALL_HEAD = 640;

    /** Bytes one message's skb charges to {@code sk_wmem_alloc}. */
    final long truesize;
    private final long sndbuf;

    /** @param datasize bytes per message, 1..4096 */
    UnixStreamSocket(int datasize, int reader, int[] waitNext, int base) {
        super(reader, waitNext, base);
        this.truesize = truesize(datasize);
        this.sndbuf = SK_SNDBUF_DEFAULT;
    }

    /**
     * {@code skb->truesize} of a linear skb of {@code bytes} ({@code __alloc_skb()}): the head is
     * {@code SKB_DATA_ALIGN(bytes) + SKB_DATA_ALIGN(sizeof(skb_shared_info))} rounded up to the slab it comes from
     * (the small-head cache, else a power-of-two kmalloc cache), plus the {@code sk_buff} itself.
     */
    static long truesize(int bytes) {
        if (bytes < 1 || bytes > Pipe.PAGE_SIZE) throw new IllegalArgumentException("datasize " + bytes);
        long head = ((bytes + 63) & ~63L) + SKB_SHINFO;
        long slab = head <= SKB_SMALL_HEAD ? SKB_SMALL_HEAD : Long.highestOneBit(head - 1) << 1;
        return slab + SKB_STRUCT;
    }

    @Override
    boolean canWrite() { return (written - released) * truesize < sndbuf; }

    /** Messages queued at most when the waiting writers are woken. */
    private long lowWater() { return sndbuf / (4 * truesize); }

    @Override
    long readBoundary() {
        if (waiters == 0) return Long.MAX_VALUE;
        return Math.max(1, written - claimed - lowWater());
    }

    @Override
    int release() {
        released = claimed;
        return waiters > 0 && (written - released) <= lowWater() ? waiters : 0;
    }

    @Override
    boolean wakesNextWriter() { return false; }
}
