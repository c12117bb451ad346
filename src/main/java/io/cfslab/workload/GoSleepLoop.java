package io.cfslab.workload;

import io.cfslab.machine.IpcCosts;

/**
 * {@code go-sleep-loop}: a Go program whose one goroutine loops {burn {@code run} of CPU, {@code time.Sleep(sleep)}},
 * run as the Go runtime runs it on OS threads: the 2017–2018 "throttled far below quota" reproducer
 * (kubernetes/kubernetes#67577, gist bobrik/2030ff040fad360327a5fab7a09c4ff1: burn 5 ms, sleep 100 ms under
 * {@code --cpus 0.2}; docs/kernel-eras.md, case 1). Task 0 is the thread that waits for the runtime's timers, task 1
 * the runtime's {@code sysmon} thread, tasks 2..threads−1 the threads (Ms) the goroutine runs on, one after another.
 *
 * <p>Go's runtime of the time (1.9–1.13: {@code timerproc}, {@code notetsleepg}, {@code handoffp}, {@code startm},
 * {@code wakep}) does this per iteration:
 * <ol>
 *   <li>the goroutine's M burns {@code run} in user mode;</li>
 *   <li>{@code time.Sleep()} adds the timer and, as it is the earliest, wakes the timer M from its futex wait
 *       ({@code notewakeup()}: a system call with one wake-up), then the goroutine parks and its M finds no other
 *       work and waits on its own futex ({@code stopm()});</li>
 *   <li>the timer M re-arms its timed futex wait for the sleep's deadline, wakes at the deadline on its own CPU,
 *       makes the goroutine runnable ({@code goready()}) and hands its P to an idle M ({@code handoffp()},
 *       {@code startm()}: a futex wake), then waits again.</li>
 * </ol>
 * So each burn starts on an M that was idle, woken by another thread. Which idle M takes the goroutine is a race
 * (the M that {@code wakep()} starts spinning steals it, or the one {@code handoffp()} starts runs it, from a LIFO
 * list of idle Ms); the model takes the Ms in turn, so consecutive burns start on different threads, each on the
 * CPU it last ran on. That is what separates it from a {@code periodic} task, whose every run starts on the CPU
 * (and the cfs_rq, with its leftover runtime) of the previous one.
 *
 * <p>{@code sysmon} (runtime/proc.go) is the runtime's monitor thread, in the same cgroup: it loops {{@code usleep(delay)};
 * if every P is idle, wait on {@code sysmonnote} until a thread leaving a system call takes an idle P
 * ({@code exitsyscallfast_pidle()} wakes it), then {@code delay} = 20 µs; else {@code retake()}}, with {@code delay}
 * 20 µs for the first 50 rounds after a wake and doubling after, up to 10 ms. So it wakes some 50 times in the first
 * milliseconds of every burn, each time a dequeue and an enqueue of its own cfs_rq, and sleeps through the program's
 * sleeps. Its {@code usleep()} is a nanosleep with the thread's timer slack (the kernel's inexact time adds it).
 *
 * <p>Costs: each futex wake is {@link IpcCosts#wakeupNs()} in kernel mode; the runtime's own work around a hand-off
 * (the scheduler loop, the timer heap) is {@link #RUNTIME_NS} in user mode [ASSUMED, docs/cost-model.md].
 */
public final class GoSleepLoop implements WorkloadInstance {
    /** A Go program's Ms are threads of its one process: {@code kill} of any of them ends the program. */
    @Override
    public boolean oneProcess() { return true; }

    /** User-mode work of the Go runtime around each hand-off (schedule(), the timer heap, goready()), ns [ASSUMED]. */
    static final long RUNTIME_NS = 2_000;
    /** sysmon's work per round ({@code retake()} over the Ps, the netpoll check), ns [ASSUMED]. */
    static final long SYSMON_NS = 1_000;
    /** sysmon's first delay after a wake, and its cap, ns (runtime/proc.go: 20 µs, 10 ms). */
    static final long SYSMON_MIN_DELAY_NS = 20_000, SYSMON_MAX_DELAY_NS = 10_000_000;
    /** Rounds at the first delay before sysmon starts doubling it ({@code idle > 50}). */
    static final int SYSMON_IDLE_ROUNDS = 50;
    /** The first goroutine M: tasks 0 and 1 are the timer M and sysmon. */
    static final int FIRST_WORKER = 2;

    private final long runNs, sleepNs, wakeNs;
    private final int firstTask, threads;
    private final Workload[] tasks;

    /** The M that runs the next burn (2..threads−1). */
    private int nextWorker = FIRST_WORKER;
    /** Ps in use: the timer M's out of its futex wait, the goroutine's from its wake until it parks. */
    private int activePs;
    /** sysmon waits on sysmonnote. */
    private boolean sysmonParked;
    /** When the goroutine's current sleep ends, ns (CLOCK_MONOTONIC deadline of its timer). */
    private long deadlineNs;

    /**
     * @param runNs     CPU work of each burn, ns (&gt; 0)
     * @param sleepNs   {@code time.Sleep} after each burn, ns (&gt; 0)
     * @param threads   OS threads of the program (&ge; 3): the timer M, sysmon and the Ms the goroutine runs on
     * @param costs     the machine's syscall costs
     * @param firstTask kernel task index of the timer M; the others follow
     */
    public GoSleepLoop(long runNs, long sleepNs, int threads, IpcCosts costs, int firstTask) {
        if (threads < 3) throw new IllegalArgumentException("threads must be at least 3, not " + threads);
        this.runNs = runNs;
        this.sleepNs = sleepNs;
        this.threads = threads;
        this.wakeNs = costs.wakeupNs();
        this.firstTask = firstTask;
        tasks = new Workload[threads];
        tasks[0] = new TimerM();
        tasks[1] = new Sysmon();
        for (int i = FIRST_WORKER; i < threads; i++) tasks[i] = new Worker(i);
    }

    @Override
    public int tasks() { return threads; }

    @Override
    public Workload task(int i) { return tasks[i]; }

    /** The M waiting for the runtime's timers. */
    private final class TimerM implements Workload {
        private static final int WAIT = 0, REARM = 1, SLEEPING = 2, READY = 3, HANDOFF = 4;
        private int phase = WAIT;

        @Override
        public void next(WorkloadContext ctx, Segment out) {
            switch (phase) {
                case WAIT -> { // started, or woken by the goroutine's time.Sleep(): re-arm the timed wait
                    phase = REARM;
                    takeIdleP(ctx);
                    out.set(Segment.RUN_USER, RUNTIME_NS);
                }
                case REARM -> {
                    phase = SLEEPING;
                    activePs--; // notetsleepg(): back into the futex wait, the P handed back
                    // the first burn starts at once: the program's start is its first "deadline"
                    out.set(Segment.SLEEP, Math.max(1_000, deadlineNs - ctx.nowNs()));
                }
                case SLEEPING -> { // the deadline: out of the wait with an idle P, goready(), hand the P to an idle M
                    phase = READY;
                    takeIdleP(ctx);
                    out.set(Segment.RUN_USER, RUNTIME_NS);
                }
                case READY -> {
                    phase = HANDOFF;
                    out.set(Segment.RUN_KERNEL, wakeNs); // futex wake of the idle M (startm)
                }
                default -> { // HANDOFF done: the M is woken; wait until the goroutine sleeps again
                    int w = nextWorker;
                    nextWorker = nextWorker + 1 < threads ? nextWorker + 1 : FIRST_WORKER;
                    ctx.wake(firstTask + w);
                    phase = WAIT;
                    out.set(Segment.BLOCK, 0);
                }
            }
        }
    }

    /** exitsyscallfast_pidle(): a thread leaving its futex wait takes an idle P, and wakes sysmon if it waits. */
    private void takeIdleP(WorkloadContext ctx) {
        activePs++;
        if (sysmonParked) {
            sysmonParked = false;
            ctx.wake(firstTask + 1);
        }
    }

    /** The runtime's sysmon thread. */
    private final class Sysmon implements Workload {
        private static final int START = 0, SLEEPING = 1, RETAKE = 2, PARKED = 3;
        private int phase = START;
        private int idle;
        private long delayNs = SYSMON_MIN_DELAY_NS;

        @Override
        public void next(WorkloadContext ctx, Segment out) {
            switch (phase) {
                case SLEEPING -> { // after usleep(delay): park if every P is idle, else retake()
                    if (activePs == 0) {
                        phase = PARKED;
                        sysmonParked = true;
                        out.set(Segment.BLOCK, 0);
                        return;
                    }
                    phase = RETAKE;
                    out.set(Segment.RUN_USER, SYSMON_NS);
                }
                case RETAKE -> { // nothing to retake: idle++, and the next delay
                    idle++;
                    if (idle > SYSMON_IDLE_ROUNDS) delayNs = Math.min(2 * delayNs, SYSMON_MAX_DELAY_NS);
                    phase = SLEEPING;
                    out.set(Segment.SLEEP, delayNs);
                }
                default -> { // START, or woken from sysmonnote: idle = 0, delay = 20 µs, retake()
                    idle = 0;
                    delayNs = SYSMON_MIN_DELAY_NS;
                    phase = RETAKE;
                    out.set(Segment.RUN_USER, SYSMON_NS);
                }
            }
        }
    }

    /** An M the goroutine runs on when it is this M's turn. */
    private final class Worker implements Workload {
        private static final int IDLE = 0, BURN = 1, SLEEP_CALL = 2;
        private final int index;
        private int phase = IDLE;
        private boolean started;

        Worker(int index) { this.index = index; }

        @Override
        public boolean iterates() { return true; }

        @Override
        public void next(WorkloadContext ctx, Segment out) {
            switch (phase) {
                case IDLE -> { // started (waits for work) or woken by the timer M: run the goroutine
                    if (!started) { started = true; out.set(Segment.BLOCK, 0); return; }
                    phase = BURN;
                    out.set(Segment.RUN_USER, runNs);
                }
                case BURN -> { // time.Sleep(): add the timer and wake the timer M (notewakeup)
                    deadlineNs = ctx.nowNs() + sleepNs;
                    phase = SLEEP_CALL;
                    out.set(Segment.RUN_KERNEL, wakeNs);
                }
                default -> { // SLEEP_CALL done: the goroutine parks; this M has nothing to run (stopm)
                    ctx.wake(firstTask);
                    activePs--;
                    phase = IDLE;
                    out.set(Segment.BLOCK, 0);
                }
            }
        }

        @Override
        public String toString() { return "M" + index; }
    }
}
