package io.cfslab.workload;

import io.cfslab.machine.IpcCosts;

/**
 * {@code netperf-udp-rr}: one netperf client running {@code -t UDP_RR} against its netserver over loopback
 * ({@code netperf -H 127.0.0.1 -t UDP_RR}, seeds 00 and 04). The client sends a request and waits for the response,
 * the server waits for a request and sends the response; one request and its response are a transaction, and the
 * figure is transactions per second. Task 0 is the client, task 1 the server.
 *
 * <p>Each send is a kernel-mode stretch of {@code udp_send_ns} plus the payload copy ({@link IpcCosts}), which on
 * loopback includes the receive path up to the peer's socket; the datagram is on the peer's socket at the end of the
 * stretch, which then wakes the peer if it is blocked in {@code recvfrom()} ({@code wakeup_ns} more). Each receive
 * is {@code udp_recv_ns} plus the copy; after a receive the program spends {@code netperf_user_ns} in user mode
 * before it sends. At most one datagram is ever in flight each way (request/response), so socket buffers never fill.
 * When client and server are on CPUs of different last-level caches, each send and each receive also pays the
 * message's cache-line transfers ({@link WorkloadContext#messageTransferNs}).
 */
public final class NetperfUdpRr implements WorkloadInstance {
    /** Tasks of one instance: the client and its server. */
    public static final int TASKS = 2;

    private static final int START = 0, SENDING = 1, RECEIVING = 2, USER = 3, BLOCKED = 4;

    private final long requestSendNs, responseSendNs, wakeupNs, userNs;
    private final int client, server;
    /** The server's socket (requests) and the client's (responses). */
    private final Socket requests, responses;
    private final Workload clientTask, serverTask; // made after the sockets they read

    private long transactions;
    private long startNs = -1;

    /**
     * @param requestSize  request bytes, 1..65507
     * @param responseSize response bytes, 1..65507
     * @param costs        syscall costs
     * @param firstTask    kernel task index of the client; the server is the next
     */
    public NetperfUdpRr(int requestSize, int responseSize, IpcCosts costs, int firstTask) {
        this.requestSendNs = costs.udpSendNs() + costs.copyNs(requestSize);
        this.responseSendNs = costs.udpSendNs() + costs.copyNs(responseSize);
        this.requests = new Socket(costs.udpRecvNs() + costs.copyNs(requestSize));
        this.responses = new Socket(costs.udpRecvNs() + costs.copyNs(responseSize));
        this.wakeupNs = costs.wakeupNs();
        this.userNs = costs.netperfUserNs();
        this.client = firstTask;
        this.server = firstTask + 1;
        this.clientTask = new Client();
        this.serverTask = new Server();
    }

    @Override
    public int tasks() { return TASKS; }

    @Override
    public Workload task(int i) { return i == 0 ? clientTask : serverTask; }

    /** Transactions completed so far (responses the client has received). */
    public long transactions() { return transactions; }

    /** When the pair started, ns (-1 before). */
    public long startNs() { return startNs; }

    /** One direction's socket: datagrams queued on it, their cache-line transfers, and whether its reader waits. */
    private static final class Socket {
        final long recvNs;
        int queued;
        long transferNs; // paid again by the receiver, spread over the queued datagrams
        boolean readerWaiting;

        Socket(long recvNs) { this.recvNs = recvNs; }
    }

    /** A task that reads datagrams from its own socket: {@code recvfrom()} blocks while the socket is empty. */
    private abstract static class Peer implements Workload {
        int phase = START;
        private final Socket in;

        Peer(Socket in) { this.in = in; }

        final void receive(Segment out) {
            if (in.queued == 0) {
                in.readerWaiting = true;
                phase = BLOCKED;
                out.set(Segment.BLOCK, 0);
                return;
            }
            in.queued--;
            phase = RECEIVING;
            long x = in.transferNs / (in.queued + 1);
            in.transferNs -= x;
            out.set(Segment.RUN_KERNEL, in.recvNs + x);
        }
    }

    /** The client: send a request, receive the response, count it, repeat. */
    private final class Client extends Peer {
        Client() { super(responses); }

        @Override
        public void next(WorkloadContext ctx, Segment out) {
            switch (phase) {
                case SENDING -> { // the request is on the server's socket
                    requests.queued++;
                    if (requests.readerWaiting) { requests.readerWaiting = false; ctx.wake(server); }
                    receive(out);
                }
                case BLOCKED -> receive(out);
                case RECEIVING -> {
                    transactions++;
                    phase = USER;
                    out.set(Segment.RUN_USER, userNs);
                }
                default -> { // START or USER: send the next request
                    if (phase == START && startNs < 0) startNs = ctx.nowNs();
                    phase = SENDING;
                    long x = ctx.messageTransferNs(client, server);
                    requests.transferNs += x;
                    out.set(Segment.RUN_KERNEL, requestSendNs + x + (requests.readerWaiting ? wakeupNs : 0));
                }
            }
        }
    }

    /** The server: receive a request, send the response, repeat. */
    private final class Server extends Peer {
        Server() { super(requests); }

        @Override
        public void next(WorkloadContext ctx, Segment out) {
            switch (phase) {
                case RECEIVING -> {
                    phase = USER;
                    out.set(Segment.RUN_USER, userNs);
                }
                case USER -> {
                    phase = SENDING;
                    long x = ctx.messageTransferNs(server, client);
                    responses.transferNs += x;
                    out.set(Segment.RUN_KERNEL, responseSendNs + x + (responses.readerWaiting ? wakeupNs : 0));
                }
                case SENDING -> { // the response is on the client's socket
                    responses.queued++;
                    if (responses.readerWaiting) { responses.readerWaiting = false; ctx.wake(client); }
                    receive(out);
                }
                default -> receive(out); // START or BLOCKED (woken)
            }
        }
    }
}
