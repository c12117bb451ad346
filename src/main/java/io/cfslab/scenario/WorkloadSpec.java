package io.cfslab.scenario;

/** {@code tasks[].workload}: what a task does. Times in nanoseconds of CPU work or sleep. */
public sealed interface WorkloadSpec {
    /** The scenario's {@code "kind"} of this workload ({@code hog}, {@code fixed-work}, …). */
    default String kind() {
        if (this instanceof Periodic) return "periodic";
        if (this instanceof FixedWork) return "fixed-work";
        if (this instanceof Hackbench) return "hackbench";
        if (this instanceof GoSleepLoop) return "go-sleep-loop";
        if (this instanceof NetperfUdpRr) return "netperf-udp-rr";
        return "hog";
    }


    /** Tasks one instance of this workload runs ({@code count} instances go in each cgroup). */
    default int tasksPerInstance() { return 1; }

    /** {@code {"kind": "hog"}}: a busy loop in user mode (the seeds' {@code nop}). */
    record Hog() implements WorkloadSpec { }

    /**
     * {@code {"kind": "periodic", "run": "5ms", "sleep": "10ms", "kernel": "0.2ms", "loops": 0}}.
     * @param runNs    user-mode CPU work per loop, ns (&gt; 0)
     * @param kernelNs kernel-mode CPU work at the end of each run, ns (&ge; 0)
     * @param sleepNs  sleep after each run, ns (&ge; 0)
     * @param loops    loops before exiting; 0 = forever
     */
    record Periodic(long runNs, long kernelNs, long sleepNs, long loops) implements WorkloadSpec { }

    /** {@code {"kind": "fixed-work", "work": "2s"}}: executes {@code workNs} of CPU work, then exits. */
    record FixedWork(long workNs) implements WorkloadSpec { }

    /**
     * {@code {"kind": "hackbench", "mode": "pipe", "groups": 1, "fds": 20, "loops": 100, "datasize": 100}}: one
     * hackbench process tree ({@code hackbench [-p] -g groups -f fds -l loops -s datasize}), {@code 2 × groups × fds}
     * tasks.
     *
     * @param mode     {@code pipe} ({@code -p}) or {@code socket} (AF_UNIX stream socketpairs, hackbench's default)
     * @param groups   groups (&ge; 1)
     * @param fds      senders, and as many receivers, per group (&ge; 1)
     * @param loops    messages from each sender to each receiver (&ge; 1)
     * @param datasize bytes per message (1..4096)
     */
    record Hackbench(Mode mode, int groups, int fds, long loops, int datasize) implements WorkloadSpec {
        @Override
        public int tasksPerInstance() { return 2 * groups * fds; }

        /** Messages one instance moves: {@code groups × fds × fds × loops}. */
        public long messages() { return (long) groups * fds * fds * loops; }

        /** {@code mode}: {@code pipe} or {@code socket}. */
        public enum Mode { PIPE, SOCKET }
    }

    /**
     * {@code {"kind": "netperf-udp-rr", "request_size": 1, "response_size": 1}}: a netperf client
     * ({@code -t UDP_RR -- -r request,response}) and its netserver over loopback, 2 tasks.
     *
     * @param requestSize  request bytes (1..65507)
     * @param responseSize response bytes (1..65507)
     */
    record NetperfUdpRr(int requestSize, int responseSize) implements WorkloadSpec {
        @Override
        public int tasksPerInstance() { return 2; }
    }

    /**
     * {@code {"kind": "go-sleep-loop", "run": "5ms", "sleep": "100ms", "threads": 5}}: a Go program whose one goroutine
     * burns {@code run} and calls {@code time.Sleep(sleep)} in a loop, on {@code threads} OS threads of the Go runtime
     * (one waits for the timers, one is sysmon, the goroutine runs on the others in turn); the 2017 reproducer of
     * docs/kernel-eras.md.
     *
     * @param runNs   CPU work of each burn, ns (&gt; 0)
     * @param sleepNs sleep after each burn, ns (&gt; 0)
     * @param threads OS threads (3..64)
     */
    record GoSleepLoop(long runNs, long sleepNs, int threads) implements WorkloadSpec {
        @Override
        public int tasksPerInstance() { return threads; }
    }
}
