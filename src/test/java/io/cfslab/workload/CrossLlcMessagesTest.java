package io.cfslab.workload;

import io.cfslab.machine.IpcCosts;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cache-line transfer cost of messages between LLCs ({@link WorkloadContext#messageTransferNs}), on an
 * {@link IdealMachine}: each message between tasks in different LLCs costs the writer and the reader the transfer
 * once each, in kernel mode; messages inside one LLC cost nothing more; user-mode time and the message flow (counts,
 * wake-ups) are unchanged.
 */
class CrossLlcMessagesTest {
    private static final long X = 240; // ns per side per message: 4 lines × 60 ns, amd-genoa-2s across CCDs

    /** Kernel and user ns per task of one hackbench run, and its wake-ups; receivers in LLC 1 when split. */
    private static long[][] hackbench(boolean socket, int fds, long loops, boolean split, long transferNs) {
        IdealMachine m = new IdealMachine();
        m.crossLlcMessageNs = transferNs;
        Hackbench h = new Hackbench(socket, 1, fds, loops, 100, IpcCosts.generic(), m.nextTask());
        m.add(h);
        if (split) for (int r = 0; r < fds; r++) m.llcOfTask.put(r, 1); // receivers 0..fds-1, senders after them
        m.start();
        m.run(Long.MAX_VALUE);
        assertThat(h.messagesRead()).isEqualTo(h.totalMessages());
        long[][] out = new long[2 * fds + 1][];
        for (int t = 0; t < 2 * fds; t++) out[t] = m.usage.get(t).clone();
        out[2 * fds] = new long[] {m.wakes.size()};
        return out;
    }

    @ParameterizedTest(name = "{0} -f {1} -l {2}")
    @CsvSource({"pipe, 1, 5000", "pipe, 4, 700", "socket, 3, 400"})
    void eachSidePaysTheTransferOncePerMessageAcrossLlcs(String mode, int fds, long loops) {
        boolean socket = mode.equals("socket");
        long[][] same = hackbench(socket, fds, loops, false, X);
        long[][] none = hackbench(socket, fds, loops, true, 0);
        long[][] split = hackbench(socket, fds, loops, true, X);
        long perTask = (long) fds * loops; // every receiver reads, every sender writes, fds × loops messages
        for (int t = 0; t < 2 * fds; t++) {
            assertThat(same[t][1]).as("task %d in one LLC: kernel ns as without the cost", t).isEqualTo(none[t][1]);
            assertThat(split[t][0]).as("task %d user ns unchanged", t).isEqualTo(none[t][0]);
        }
        // the blocking pattern may shift with longer stretches, so compare totals: wake-ups cost wakeup_ns each
        long wakeNs = IpcCosts.generic().wakeupNs();
        long kernelNone = 0, kernelSplit = 0;
        for (int t = 0; t < 2 * fds; t++) { kernelNone += none[t][1]; kernelSplit += split[t][1]; }
        long extra = (kernelSplit - split[2 * fds][0] * wakeNs) - (kernelNone - none[2 * fds][0] * wakeNs);
        assertThat(extra).as("both sides of every message pay X").isEqualTo(2 * fds * perTask * X);
    }

    /** Transactions and the client's and server's kernel ns of 10 ms of netperf UDP_RR. */
    private static long[] netperf(boolean split) {
        IdealMachine m = new IdealMachine();
        m.crossLlcMessageNs = X;
        NetperfUdpRr n = new NetperfUdpRr(1, 1, IpcCosts.generic(), m.nextTask());
        m.add(n);
        if (split) m.llcOfTask.put(1, 1);
        m.start();
        m.run(10_000_000);
        return new long[] {n.transactions(), m.usage.get(0)[1], m.usage.get(1)[1]};
    }

    @org.junit.jupiter.api.Test
    void netperfPaysOnEverySendAndReceive() {
        long[] same = netperf(false), split = netperf(true);
        assertThat(split[0]).as("fewer transactions").isLessThan(same[0]).isPositive();
        IpcCosts c = IpcCosts.generic();
        long slack = c.udpSendNs() + c.udpRecvNs() + c.wakeupNs() + 2 * c.copyNs(1) + 2 * X; // a transaction in flight
        for (int side = 1; side <= 2; side++) {
            double perTx = (double) same[side] / same[0];
            // per transaction each side sends one message and receives one: 2 X more
            assertThat((double) split[side] - split[0] * (perTx + 2 * X))
                    .as("side %d", side).isBetween((double) -slack, (double) slack);
        }
    }
}
