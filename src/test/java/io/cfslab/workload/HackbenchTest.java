package io.cfslab.workload;

import io.cfslab.machine.IpcCosts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * hackbench's own mechanics, on an {@link IdealMachine} (no scheduler, no bandwidth control): message counts,
 * pipe and socket capacities, who blocks, who is woken and when, completion, and a case computed by hand.
 */
class HackbenchTest {
    /** Round numbers: write 100 ns, read 100 ns, wake-up 50 ns, 10 ns of user mode per syscall, no copy cost. */
    static final IpcCosts SIMPLE = new IpcCosts(100, 100, 100, 100, 0, 50, 10, 1000, 1000, 1000);

    private static Hackbench instance(IdealMachine m, boolean socket, int groups, int fds, long loops, int datasize) {
        Hackbench h = new Hackbench(socket, groups, fds, loops, datasize, IpcCosts.generic(), m.nextTask());
        m.add(h);
        return h;
    }

    @ParameterizedTest(name = "{0} -g {1} -f {2} -l {3} -s {4}")
    @CsvSource({"pipe, 1, 20, 100, 100", "socket, 1, 20, 100, 100", "pipe, 3, 4, 1000, 100", "socket, 2, 5, 700, 1000",
            "pipe, 1, 1, 5000, 4096", "pipe, 2, 7, 333, 37"})
    void everyMessageArrivesAndEveryTaskExits(String mode, int groups, int fds, long loops, int datasize) {
        IdealMachine m = new IdealMachine();
        Hackbench h = instance(m, mode.equals("socket"), groups, fds, loops, datasize);
        m.start();
        m.run(Long.MAX_VALUE);
        assertThat(h.tasks()).isEqualTo(2 * groups * fds);
        assertThat(h.totalMessages()).isEqualTo((long) groups * fds * fds * loops);
        assertThat(h.messagesRead()).isEqualTo(h.totalMessages());
        for (int t = 0; t < m.size(); t++) assertThat(m.exited(t)).as("task %d exited", t).isTrue();
        assertThat(h.finishNs()).isEqualTo(m.exits.stream().mapToLong(Long::longValue).max().orElseThrow());
        assertThat(h.timeS()).isEqualTo(h.finishNs() / 1e9);
        // each receiver read fds × loops messages, each sender wrote as many: kernel time is ops × cost, user time
        // one user_ns_per_call per op
        IpcCosts c = IpcCosts.generic();
        long ops = (long) fds * loops;
        for (int g = 0; g < groups; g++) {
            for (int i = 0; i < fds; i++) {
                long[] recv = m.usage.get(g * 2 * fds + i), send = m.usage.get(g * 2 * fds + fds + i);
                assertThat(recv[0]).as("receiver user ns").isEqualTo(ops * c.userNsPerCall());
                assertThat(send[0]).as("sender user ns").isEqualTo(ops * c.userNsPerCall());
                long readNs = (mode.equals("socket") ? c.socketRecvNs() : c.pipeReadNs()) + c.copyNs(datasize);
                long writeNs = (mode.equals("socket") ? c.socketSendNs() : c.pipeWriteNs()) + c.copyNs(datasize);
                assertThat((recv[1] - ops * readNs) % c.wakeupNs()).as("receiver kernel ns: reads and wake-ups").isZero();
                assertThat((send[1] - ops * writeNs) % c.wakeupNs()).as("sender kernel ns: writes and wake-ups").isZero();
                assertThat(recv[1]).isGreaterThanOrEqualTo(ops * readNs);
                assertThat(send[1]).isGreaterThanOrEqualTo(ops * writeNs);
            }
        }
    }

    @Test
    void stepsScaleWithBlockingNotWithMessages() {
        // one sender streaming into one pipe: 100,000 messages in batches bounded by the stretch limit and pages
        IdealMachine m = new IdealMachine();
        Hackbench h = instance(m, false, 1, 1, 100_000, 100);
        m.start();
        m.run(Long.MAX_VALUE);
        long stretches = m.usage.get(0)[2] + m.usage.get(1)[2];
        assertThat(h.messagesRead()).isEqualTo(100_000);
        assertThat(stretches).as("stretches for 100,000 messages").isLessThan(100_000 / 10);
    }

    @Test
    void aPipeHolds16PagesOfMessagesThenTheWriterBlocks() {
        // receiver 0 never gets a message it could read before the sender stops: count what fits
        for (int datasize : new int[] {100, 1000, 4096, 1, 3000}) {
            IdealMachine m = new IdealMachine();
            Hackbench h = instance(m, false, 1, 1, 100_000, datasize);
            h.goWithoutBarrier(0);
            Workload sender = h.task(1);
            Segment s = new Segment();
            long written = 0;
            for (int i = 0; i < 100_000; i++) {
                sender.next(m, s); // the reader never runs: every stretch ends at once
                if (s.kind == Segment.BLOCK) break;
                if (s.kind == Segment.RUN_KERNEL) written += kernelWrites(s.amountNs, datasize);
            }
            assertThat(s.kind).isEqualTo(Segment.BLOCK);
            assertThat(written).as("messages of %d bytes in a full pipe", datasize).isEqualTo(16L * (4096 / datasize));
        }
    }

    /** Writes in a sender's kernel stretch of generic costs (pipe), without a wake-up. */
    private static long kernelWrites(long ns, int datasize) {
        IpcCosts c = IpcCosts.generic();
        long per = c.pipeWriteNs() + c.copyNs(datasize);
        return ns % per == 0 ? ns / per : (ns - c.wakeupNs()) / per;
    }

    @Test
    void aSocketTakesSkbsUntilTheSendBufferIsFull() {
        // 100 bytes: a 640-byte small head + struct sk_buff = 896 bytes of sk_wmem_alloc each; 212,992 / 896 = 237.7
        assertThat(UnixStreamSocket.truesize(100)).isEqualTo(896);
        assertThat(UnixStreamSocket.truesize(1000)).isEqualTo(2048 + 256);
        assertThat(UnixStreamSocket.truesize(4096)).isEqualTo(8192 + 256);
        UnixStreamSocket s = new UnixStreamSocket(100, 0, new int[4], 0);
        int n = 0;
        while (s.canWrite()) { s.write(); n++; }
        assertThat(n).as("writes before sk_wmem_alloc >= sk_sndbuf").isEqualTo(238);
    }

    @Test
    void aReaderOnAnEmptyPipeBlocksAndTheFirstWriteWakesItOnce() {
        IdealMachine m = new IdealMachine();
        instance(m, false, 1, 1, 3, 100).goWithoutBarrier(0);
        m.start(); // receiver (task 0) starts first: nothing to read
        assertThat(m.blocked(0)).isTrue();
        m.run(Long.MAX_VALUE);
        assertThat(m.wakes).extracting(w -> w[1]).containsExactly(0L);
    }

    @Test
    void aFullPipeWakesOneWriterPerFreedPage() {
        // 2 senders, 1 receiver (fds 1 would give 1 sender: use a hand-built pipe)
        int[] waitNext = new int[3];
        Pipe p = new Pipe(100, 0, waitNext, 0);
        for (int i = 0; i < 640; i++) { assertThat(p.canWrite()).isTrue(); p.write(); }
        assertThat(p.canWrite()).isFalse();
        p.enqueueWriter(1);
        p.enqueueWriter(2);
        // the reader may read up to the end of the first page (40 messages) in one stretch
        assertThat(p.readBoundary()).isEqualTo(40);
        p.claimed += 39;
        assertThat(p.release()).as("39 messages free no page").isZero();
        p.claimed += 1;
        assertThat(p.release()).as("the 40th frees a page of a full pipe: one writer").isEqualTo(1);
        assertThat(p.dequeueWriter()).isEqualTo(1);
        assertThat(p.canWrite()).isTrue();
        p.write(); // a new page: full again
        assertThat(p.wakesNextWriter()).isFalse();
        assertThat(p.canWrite()).as("the new last page takes merges").isTrue();
    }

    @Test
    void aSocketWakesEveryWriterAtTheLowWaterMark() {
        UnixStreamSocket s = new UnixStreamSocket(100, 0, new int[5], 0);
        while (s.canWrite()) s.write();
        for (int w = 1; w <= 4; w++) s.enqueueWriter(w);
        long lowWater = UnixStreamSocket.SK_SNDBUF_DEFAULT / (4 * 896); // 59: sk_wmem_alloc * 4 <= sk_sndbuf
        assertThat(s.readBoundary()).isEqualTo(238 - lowWater);
        s.claimed += 238 - lowWater - 1;
        assertThat(s.release()).isZero();
        s.claimed += 1;
        assertThat(s.release()).as("all four writers, at once").isEqualTo(4);
    }

    @Test
    void everyTaskWaitsForGoAndTheTimeStartsThere() {
        // hackbench's ready pipe and GO: a task that runs first blocks until the instance's last task got ready;
        // that one (standing in for the parent) starts the clock and wakes the others
        IdealMachine m = new IdealMachine();
        Hackbench h = new Hackbench(false, 1, 2, 50, 100, SIMPLE, 0);
        m.add(h);
        m.start(0);
        m.start(3);
        m.start(1);
        assertThat(m.blocked(0) && m.blocked(3) && m.blocked(1)).isTrue();
        assertThat(h.startNs()).as("no GO before the last task is ready").isEqualTo(-1);
        assertThat(h.channel(0, 0).written + h.channel(0, 1).written).as("no message before GO").isZero();
        m.run(1_000_000); // nothing happens until task 2 runs
        assertThat(m.wakes).isEmpty();
        m.runAt(5_000, 2); // the last task first runs at 5 µs
        assertThat(h.startNs()).isEqualTo(5_000);
        assertThat(m.wakes).extracting(w -> w[1]).containsExactlyInAnyOrder(0L, 3L, 1L);
        assertThat(m.wakes).allSatisfy(w -> assertThat(w[0]).isEqualTo(5_000));
        m.run(Long.MAX_VALUE);
        assertThat(h.messagesRead()).isEqualTo(h.totalMessages());
        assertThat(h.timeS()).isEqualTo((h.finishNs() - 5_000) / 1e9);
    }

    @Test
    void aSmallCaseByHand() {
        // hackbench -p -g 1 -f 1 -l 3: one sender, one receiver, 3 messages; write = read = 100 ns, wake-up 50 ns,
        // 10 ns of user mode per syscall.
        //   0    receiver starts: empty pipe, blocks.    sender writes m1 (reader blocked: the stretch wakes it)
        //   150  sender's stretch ends (100 + 50): wakes the receiver, 10 ns in user mode
        //        receiver woken: reads m1 (100)
        //   160  sender writes m2 and m3 (200; the receiver is not blocked: no wake-up)
        //   250  receiver back to user mode (10)        260: reads m2 and m3, both written from 160 on (200)
        //   360  sender to user mode (20)               380: sender done, exits
        //   460  receiver to user mode (20)             480: receiver done, exits: Time 480 ns
        IdealMachine m = new IdealMachine();
        Hackbench h = new Hackbench(false, 1, 1, 3, 100, SIMPLE, 0);
        m.add(h);
        h.goWithoutBarrier(0);
        m.start();
        m.run(Long.MAX_VALUE);
        assertThat(m.wakes).hasSize(1);
        assertThat(m.wakes.get(0)).containsExactly(150, 0);
        assertThat(m.exits).containsExactly(480L, 380L);
        assertThat(h.finishNs()).isEqualTo(480);
        assertThat(h.messagesRead()).isEqualTo(3);
        assertThat(m.usage.get(0)).containsExactly(30, 300, 4); // receiver: user, kernel, stretches
        assertThat(m.usage.get(1)).containsExactly(30, 350, 4); // sender: one wake-up
    }

    @Test
    void aWriterWokenFromAFullPipeWritesOneMessageAndMovesOn() {
        // -g 1 -f 2: start the two senders alone; they fill both pipes (alternating) and block
        IdealMachine m = new IdealMachine();
        Hackbench h = new Hackbench(false, 1, 2, 10_000, 100, SIMPLE, 0);
        m.add(h);
        h.goWithoutBarrier(0);
        m.start(2);
        m.start(3);
        m.run(Long.MAX_VALUE);
        assertThat(m.blocked(2) && m.blocked(3)).isTrue();
        assertThat(h.channel(0, 0).written + h.channel(0, 1).written).isEqualTo(2 * 640);
        assertThat(h.channel(0, 0).waiters).as("both wait on pipe 0").isEqualTo(2);
        // receiver 0 reads the first page (40 messages): that frees a buffer of a full pipe, one writer wakes
        m.start(0);
        m.run(m.nowNs() + 40 * 100 + 50); // 40 reads and the wake-up
        assertThat(m.wakes).hasSize(1);
        int woken = (int) m.wakes.get(0)[1];
        // the woken sender writes one message into the freed buffer (the pipe is full again: nobody else is woken)
        // and blocks on its next receiver's pipe, which is still full
        m.run(m.nowNs() + 1_000); // before the receiver frees its next page
        assertThat(h.channel(0, 0).written).isEqualTo(641);
        assertThat(h.channel(0, 0).waiters).isEqualTo(1);
        assertThat(h.channel(0, 1).waiters).isEqualTo(1);
        assertThat(m.blocked(woken)).isTrue();
        assertThat(m.wakes).hasSize(1);
    }
}
