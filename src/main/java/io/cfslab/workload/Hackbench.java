package io.cfslab.workload;

import io.cfslab.machine.IpcCosts;

/**
 * {@code hackbench}: one hackbench process tree (rt-tests' {@code hackbench [-p] -g groups -f fds -l loops
 * -s datasize}, as {@code perf bench sched messaging} also runs it). Each of {@code groups} groups has {@code fds}
 * receivers, each reading its own {@link Channel} (a {@link Pipe} with {@code -p}, else a {@link UnixStreamSocket}),
 * and {@code fds} senders; every sender loops {@code loops} times over the group's receivers in order, writing one
 * {@code datasize}-byte message to each, and every receiver reads {@code fds × loops} messages. So an instance moves
 * {@code groups × fds × fds × loops} messages. Each task, when it first runs, signals ready and blocks until all of
 * the instance's tasks have (hackbench's ready pipe and the parent's GO write on the wake-up fd); its "Time:" runs
 * from GO, when the last one got ready, until its last task has exited, as the parent's reaping loop sees it.
 *
 * <p>Tasks, in hackbench's creation order: for each group, its receivers {@code 0..fds-1}, then its senders.
 *
 * <p><b>Costs</b> ({@link IpcCosts}, ns, charged as system time to the task in the syscall): a write is
 * {@code pipe_write_ns} or {@code socket_send_ns} plus the payload copy, a read {@code pipe_read_ns} or
 * {@code socket_recv_ns} plus the copy, each wake-up of a blocked peer {@code wakeup_ns}; between two syscalls the task
 * spends {@code user_ns_per_call} in user mode, where it returns from the kernel (the park point of task-based
 * throttling and the point a pending preemption takes effect).
 * When a sender and a receiver are on CPUs of different last-level caches, each message also costs both of them its
 * cache-line transfers ({@link WorkloadContext#messageTransferNs}, taken where the writer and the reader are at the
 * write): the writer in its write, the reader in its read.
 *
 * <p><b>Steps, not messages.</b> A task's stretch of syscalls is one step when none of them blocks and none changes
 * what another task can do before the stretch ends: a sender writes to its receivers in order until one's channel is
 * full (it blocks there) or until it writes to a channel whose reader is blocked (it wakes that reader at the end of
 * the stretch, as {@code pipe_write()} does); a receiver reads what is there, stopping where the kernel would wake a
 * waiting writer (the end of a pipe page, a socket's low-water mark), so that the wake-up comes at the time it would.
 * A stretch is at most {@link #MAX_STRETCH_NS} of syscalls, then the task returns to user mode once for the whole
 * stretch. Space is taken, and data readable, from the start of a writer's stretch; buffers are freed at the end of
 * a reader's. A woken task performs the one syscall it was blocked in (its condition holds at the wake-up), returns to
 * user mode, and decides on further ones while it runs: so a task woken into a throttled hierarchy under task-based
 * throttling does one read or write before it parks, as in the kernel. Hence events are proportional to blocks and
 * wake-ups, not to messages.
 */
public final class Hackbench implements WorkloadInstance {
    /**
     * Longest stretch of syscalls taken as one step, ns: the kernel would return to user mode after each syscall
     * (about 1 µs), so a preemption or a park is late by at most this much.
     */
    public static final long MAX_STRETCH_NS = 50_000;

    private static final int START = 0, IN_KERNEL = 1, IN_USER = 2, BLOCKED = 3, DONE = 4, AWAIT_GO = 5;

    private final int groups, fds;
    private final long loops;
    private final Channel[] channels;      // group * fds + receiver
    private final Workload[] tasks;
    private final long writeNs, readNs, wakeupNs, userNs;
    private final int maxWrites, maxReads;

    private long startNs = -1, finishNs = -1;
    private int live;
    /** Children that signalled ready, and those of them waiting for GO (kernel task indices). */
    private int ready;
    private final int[] waitingForGo;
    private long messagesRead;

    /**
     * @param socket    socket mode (hackbench's default) rather than pipes ({@code -p})
     * @param groups    groups, &ge; 1
     * @param fds       receivers and senders per group, &ge; 1
     * @param loops     messages from each sender to each receiver, &ge; 1
     * @param datasize  bytes per message, 1..4096
     * @param costs     syscall costs
     * @param firstTask kernel task index of the instance's first task (the rest follow)
     */
    public Hackbench(boolean socket, int groups, int fds, long loops, int datasize, IpcCosts costs, int firstTask) {
        if (groups < 1 || fds < 1 || loops < 1) throw new IllegalArgumentException("groups, fds and loops must be >= 1");
        this.groups = groups;
        this.fds = fds;
        this.loops = loops;
        long copy = costs.copyNs(datasize);
        this.writeNs = (socket ? costs.socketSendNs() : costs.pipeWriteNs()) + copy;
        this.readNs = (socket ? costs.socketRecvNs() : costs.pipeReadNs()) + copy;
        this.wakeupNs = costs.wakeupNs();
        this.userNs = costs.userNsPerCall();
        this.maxWrites = (int) Math.max(1, MAX_STRETCH_NS / writeNs);
        this.maxReads = (int) Math.max(1, MAX_STRETCH_NS / readNs);
        int n = 2 * groups * fds;
        int[] waitNext = new int[n];
        channels = new Channel[groups * fds];
        tasks = new Workload[n];
        for (int g = 0; g < groups; g++) {
            for (int r = 0; r < fds; r++) {
                int local = g * 2 * fds + r;
                int reader = firstTask + local;
                Channel ch = socket ? new UnixStreamSocket(datasize, reader, waitNext, firstTask)
                        : new Pipe(datasize, reader, waitNext, firstTask);
                channels[g * fds + r] = ch;
                tasks[local] = new Receiver(ch, (long) fds * loops, reader);
            }
            for (int s = 0; s < fds; s++) {
                int local = g * 2 * fds + fds + s;
                tasks[local] = new Sender(g, firstTask + local);
            }
        }
        live = n;
        waitingForGo = new int[n];
    }

    @Override
    public int tasks() { return tasks.length; }

    @Override
    public Workload task(int i) { return tasks[i]; }

    /**
     * For tests of the message mechanics: GO is taken as written at {@code nowNs}, before any task got ready, so each
     * task starts its messages the first time it runs.
     */
    void goWithoutBarrier(long nowNs) { startNs = nowNs; }

    /** The channel of a group's receiver (for tests). */
    Channel channel(int group, int receiver) { return channels[group * fds + receiver]; }

    /** Messages the instance moves in all: {@code groups × fds × fds × loops}. */
    public long totalMessages() { return (long) groups * fds * fds * loops; }

    /** Messages its receivers have read so far. */
    public long messagesRead() { return messagesRead; }

    /** When its message phase started, ns (-1 before its tasks started). */
    public long startNs() { return startNs; }

    /** When its last task exited, ns, or -1 while one lives. */
    public long finishNs() { return finishNs; }

    /** hackbench's "Time:" in seconds, or NaN while it runs. */
    public double timeS() { return finishNs < 0 ? Double.NaN : (finishNs - startNs) / 1e9; }

    /**
     * hackbench's start barrier: each child signals "ready" (a byte on the ready pipe) and waits in {@code poll()} on
     * the wake-up fd; once every child is ready the parent takes the start time and writes GO, which wakes them all.
     * Here the last child to get ready stands in for the parent: the clock starts then, and the others are woken.
     *
     * @return true if the task may start its messages now; false if it blocks for GO ({@code out} says so)
     */
    private boolean go(WorkloadContext ctx, int self, Segment out) {
        if (startNs >= 0) return true;
        if (++ready < tasks.length) {
            waitingForGo[ready - 1] = self;
            out.set(Segment.BLOCK, 0);
            return false;
        }
        startNs = ctx.nowNs();
        for (int i = 0; i < ready - 1; i++) ctx.wake(waitingForGo[i]);
        return true;
    }

    private void exited(WorkloadContext ctx, Segment out) {
        if (--live == 0) finishNs = ctx.nowNs();
        out.set(Segment.EXIT, 0);
    }

    /** One sender: {@code loops} rounds over its group's channels. */
    private final class Sender implements Workload {
        private final int group, self;
        private final long total;
        private long sent;
        private int next;                 // receiver the next message goes to
        private int phase = START;
        private int batch;                // syscalls of the kernel stretch that is running
        private long transferNs;          // cache-line transfers of the stretch's writes, ns
        private Channel wakeReader, wakeWriter;

        Sender(int group, int self) {
            this.group = group;
            this.self = self;
            this.total = (long) fds * loops;
        }

        @Override
        public void next(WorkloadContext ctx, Segment out) {
            switch (phase) {
                case IN_KERNEL -> { // the writes are done: the wake-ups they made, then back to user mode
                    if (wakeReader != null) { ctx.wake(wakeReader.reader); wakeReader = null; }
                    if (wakeWriter != null) { // unless the reader has woken that writer meanwhile
                        if (wakeWriter.waiters > 0) ctx.wake(wakeWriter.dequeueWriter());
                        wakeWriter = null;
                    }
                    phase = IN_USER;
                    out.set(Segment.RUN_USER, batch * userNs);
                }
                case BLOCKED -> retry(ctx, out);
                case DONE -> out.set(Segment.EXIT, 0);
                default -> { // START, AWAIT_GO (woken by GO) or IN_USER: the next stretch of writes
                    if (phase == START || phase == AWAIT_GO) {
                        if (!go(ctx, self, out)) { phase = AWAIT_GO; return; }
                        phase = IN_USER;
                    }
                    if (sent == total) { phase = DONE; exited(ctx, out); return; }
                    writeBatch(ctx, out);
                }
            }
        }

        private Channel target() { return channels[group * fds + next]; }

        /** Writes in order while they do not block, up to a waking write or the stretch limit. */
        private void writeBatch(WorkloadContext ctx, Segment out) {
            int k = 0;
            transferNs = 0;
            while (sent < total && k < maxWrites) {
                Channel ch = target();
                if (!ch.canWrite()) break;
                if (writeOne(ctx, ch)) { k++; break; }
                k++;
            }
            if (k == 0) {
                block(out);
                return;
            }
            kernelStretch(k, out);
        }

        /** Woken on the channel it blocked on: that write, if there is room now, else back to sleep. */
        private void retry(WorkloadContext ctx, Segment out) {
            Channel ch = target();
            if (!ch.canWrite()) {
                block(out);
                return;
            }
            transferNs = 0;
            writeOne(ctx, ch);
            if (ch.wakesNextWriter()) wakeWriter = ch;
            kernelStretch(1, out);
        }

        /** One message into ch; true if it makes the stretch wake ch's reader. */
        private boolean writeOne(WorkloadContext ctx, Channel ch) {
            long x = ctx.messageTransferNs(self, ch.reader);
            transferNs += x;
            ch.unclaimedTransferNs += x;
            ch.write();
            sent++;
            if (++next == fds) next = 0;
            if (!ch.readerWaiting) return false;
            ch.readerWaiting = false;
            wakeReader = ch;
            return true;
        }

        private void kernelStretch(int k, Segment out) {
            batch = k;
            phase = IN_KERNEL;
            int wakes = (wakeReader != null ? 1 : 0) + (wakeWriter != null ? 1 : 0);
            out.set(Segment.RUN_KERNEL, k * writeNs + wakes * wakeupNs + transferNs);
        }

        private void block(Segment out) {
            target().enqueueWriter(self);
            phase = BLOCKED;
            out.set(Segment.BLOCK, 0);
        }
    }

    /** One receiver: reads {@code fds × loops} messages from its channel. */
    private final class Receiver implements Workload {
        private final int self;
        private final Channel ch;
        private final long total;
        private long read;
        private int phase = START;
        private long batch;

        Receiver(Channel ch, long total, int self) {
            this.ch = ch;
            this.total = total;
            this.self = self;
        }

        @Override
        public void next(WorkloadContext ctx, Segment out) {
            switch (phase) {
                case IN_KERNEL -> { // the reads are done: free their buffers, wake writers, back to user mode
                    for (int w = ch.release(); w > 0; w--) ctx.wake(ch.dequeueWriter());
                    read += batch;
                    messagesRead += batch;
                    phase = IN_USER;
                    out.set(Segment.RUN_USER, batch * userNs);
                }
                case DONE -> out.set(Segment.EXIT, 0);
                default -> { // START, IN_USER: read what is there; woken (BLOCKED): the read it was blocked in
                    if (phase == START || phase == AWAIT_GO) {
                        if (!go(ctx, self, out)) { phase = AWAIT_GO; return; }
                        phase = IN_USER;
                    }
                    if (read == total) { phase = DONE; exited(ctx, out); return; }
                    long limit = phase == BLOCKED ? 1 : maxReads;
                    long k = Math.min(Math.min(ch.unclaimed(), total - read), Math.min(limit, ch.readBoundary()));
                    if (k == 0) {
                        ch.readerWaiting = true;
                        phase = BLOCKED;
                        out.set(Segment.BLOCK, 0);
                        return;
                    }
                    // the kernel wakes writers when this stretch frees what they wait for
                    int wakes = ch.waiters > 0 && k == ch.readBoundary() ? (ch instanceof Pipe ? 1 : ch.waiters) : 0;
                    long transfer = ch.claimTransferNs(k);
                    ch.claimed += k;
                    batch = k;
                    phase = IN_KERNEL;
                    out.set(Segment.RUN_KERNEL, k * readNs + wakes * wakeupNs + transfer);
                }
            }
        }
    }
}
