package io.cfslab.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * A test machine for workloads alone, without the kernel model: every task has a CPU of its own, a stretch of
 * work takes exactly its length, a blocked task continues the moment it is woken (its next stretch is asked for at
 * that time, as {@code Kernel.wake} does), nothing is throttled, preempted or charged for switching. Events at one
 * time run in the order they were made. It records each wake-up and refuses one of a task that is not blocked, so
 * that a workload that wakes a running task (which the kernel would remember as a pending wake-up) fails its test.
 */
final class IdealMachine implements WorkloadContext {
    private record Ev(long at, long seq, int task) { }

    private final PriorityQueue<Ev> queue = new PriorityQueue<>((a, b) ->
            a.at != b.at ? Long.compare(a.at, b.at) : Long.compare(a.seq, b.seq));
    private final List<Workload> tasks = new ArrayList<>();
    private final Segment seg = new Segment();
    private long now, seq;
    /** Per task: 0 running a stretch, 1 blocked, 2 exited. */
    private final List<int[]> state = new ArrayList<>();
    /** Every wake-up: {time, task}. */
    final List<long[]> wakes = new ArrayList<>();
    /** Per task: user-mode and kernel-mode ns executed, stretches run. */
    final List<long[]> usage = new ArrayList<>();
    /** Exit time per task, -1 while it lives. */
    final List<Long> exits = new ArrayList<>();

    /** Adds an instance's tasks; their kernel indices must start at {@link #nextTask()}. */
    void add(WorkloadInstance inst) {
        for (int i = 0; i < inst.tasks(); i++) {
            tasks.add(inst.task(i));
            state.add(new int[1]);
            usage.add(new long[3]);
            exits.add(-1L);
        }
    }

    /** Kernel index the next added task gets. */
    int nextTask() { return tasks.size(); }

    /** Starts every task at time 0, in index order. */
    void start() {
        for (int t = 0; t < tasks.size(); t++) step(t);
    }

    /** Starts one task now. */
    void start(int t) { step(t); }

    /** Lets the time pass to {@code atNs} (nothing else must be due before) and starts task t then. */
    void runAt(long atNs, int t) {
        run(atNs);
        if (atNs < now) throw new AssertionError("time " + now + " is past " + atNs);
        now = atNs;
        step(t);
    }

    /** Runs until no event is left or the time passes {@code untilNs}. */
    void run(long untilNs) {
        while (!queue.isEmpty() && queue.peek().at <= untilNs) {
            Ev e = queue.poll();
            now = e.at;
            step(e.task);
        }
    }

    /** Asks task t for its next stretch now and schedules its end. */
    private void step(int t) {
        tasks.get(t).next(this, seg);
        switch (seg.kind) {
            case Segment.RUN_USER, Segment.RUN_KERNEL -> {
                if (seg.amountNs < 0) throw new AssertionError("negative stretch");
                usage.get(t)[seg.kind == Segment.RUN_USER ? 0 : 1] += seg.amountNs;
                usage.get(t)[2]++;
                state.get(t)[0] = 0;
                queue.add(new Ev(now + seg.amountNs, seq++, t));
            }
            case Segment.SLEEP -> { // a timed sleep: not blocked (a wake-up now would be a workload's error)
                state.get(t)[0] = 0;
                queue.add(new Ev(now + seg.amountNs, seq++, t));
            }
            case Segment.BLOCK -> state.get(t)[0] = 1;
            case Segment.EXIT -> {
                state.get(t)[0] = 2;
                exits.set(t, now);
            }
            default -> throw new AssertionError("unexpected segment " + seg.kind);
        }
    }

    boolean blocked(int t) { return state.get(t)[0] == 1; }

    boolean exited(int t) { return state.get(t)[0] == 2; }

    int size() { return tasks.size(); }

    @Override
    public long nowNs() { return now; }

    /**
     * Which LLC each task's CPU is in (absent: LLC 0), and what a message between two LLCs costs each side, ns:
     * a stand-in for the kernel's {@code messageTransferNs} (the tasks do not move here).
     */
    final java.util.Map<Integer, Integer> llcOfTask = new java.util.HashMap<>();
    long crossLlcMessageNs;

    @Override
    public long messageTransferNs(int from, int to) {
        return llcOfTask.getOrDefault(from, 0).equals(llcOfTask.getOrDefault(to, 0)) ? 0 : crossLlcMessageNs;
    }

    @Override
    public void wake(int t) {
        if (state.get(t)[0] != 1) throw new AssertionError("task " + t + " woken at " + now + " but not blocked");
        wakes.add(new long[] {now, t});
        state.get(t)[0] = 0;
        queue.add(new Ev(now, seq++, t));
    }
}
