package io.cfslab.machine;

/**
 * What the communication syscalls of the benchmark workloads ({@code hackbench}, {@code netperf-udp-rr}) cost, in
 * ns of CPU time at full speed, charged to the calling task as kernel-mode (system) time. Every constant's source
 * is in {@code docs/cost-model.md} ("IPC costs"); a machine profile sets its own.
 *
 * @param pipeWriteNs      one {@code write()} of a small message into a pipe ({@code pipe_write()}: syscall entry
 *                         and exit, the pipe mutex, the merge into the last page), without the payload copy
 * @param pipeReadNs       one {@code read()} of a small message from a pipe ({@code pipe_read()}), without the copy
 * @param socketSendNs     one {@code write()} on an AF_UNIX stream socket ({@code unix_stream_sendmsg()}: skb
 *                         allocation, queueing on the peer, {@code sk_data_ready}), without the copy
 * @param socketRecvNs     one {@code read()} of one skb ({@code unix_stream_read_generic()}, the skb's free and
 *                         {@code sock_wfree()}), without the copy
 * @param copyNsPerKiB     {@code copy_{from,to}_user} of the payload, per KiB (each side pays its own copy)
 * @param wakeupNs         {@code try_to_wake_up()} of one blocked peer, done inside the waker's syscall (the wakee's
 *                         enqueue, and the IPI or wake list of a remote CPU)
 * @param userNsPerCall    user-mode time between two syscalls of a benchmark loop (its loop body and the libc
 *                         wrapper): the task returns to user mode there, which is where task-based throttling parks it
 * @param udpSendNs        one {@code sendto()} of a small datagram over loopback, including the receive path that
 *                         runs in the sender's context (loopback xmit, the NET_RX softirq, {@code udp_rcv()} and the
 *                         enqueue on the peer's socket)
 * @param udpRecvNs        one {@code recvfrom()} of a queued datagram
 * @param netperfUserNs    netperf's and netserver's user-mode work per request or response (buffer handling,
 *                         the loop, time checks)
 */
public record IpcCosts(long pipeWriteNs, long pipeReadNs, long socketSendNs, long socketRecvNs, long copyNsPerKiB,
                       long wakeupNs, long userNsPerCall, long udpSendNs, long udpRecvNs, long netperfUserNs) {

    public IpcCosts {
        if (pipeWriteNs <= 0 || pipeReadNs <= 0 || socketSendNs <= 0 || socketRecvNs <= 0 || copyNsPerKiB < 0
                || wakeupNs < 0 || userNsPerCall <= 0 || udpSendNs <= 0 || udpRecvNs <= 0 || netperfUserNs <= 0) {
            throw new IllegalArgumentException("IPC costs must be positive (copy and wake-up may be 0): " + this);
        }
    }

    /** The {@code generic} profile's costs; sources in docs/cost-model.md. */
    public static IpcCosts generic() {
        return new IpcCosts(
                550,    // pipeWriteNs: seed 00, hackbench -p -f 1 on Genoa: 1.28 us of CPU per message in all (write,
                550,    // pipeReadNs:  read, both returns to user), split evenly [the split is ASSUMED]
                800,    // socketSendNs [ASSUMED]: an skb allocation and free on top of the pipe's work
                700,    // socketRecvNs [ASSUMED]
                100,    // copyNsPerKiB [ASSUMED]: about 10 GB/s for a copy that stays in cache
                800,    // wakeupNs [ASSUMED]: try_to_wake_up() of a task on another CPU of the LLC
                80,     // userNsPerCall: seed 00 -f 1 (see pipeWriteNs): (1,280 - 2 x (550 + 10 copy)) / 2 calls
                4_000,  // udpSendNs [ASSUMED]: loopback send including the softirq receive path
                1_500,  // udpRecvNs [ASSUMED]
                1_000); // netperfUserNs [ASSUMED]
    }

    /** Copy cost of {@code bytes} of payload, ns. */
    public long copyNs(long bytes) { return bytes * copyNsPerKiB / 1024; }
}
