package io.cfslab.scenario;

import static io.cfslab.scenario.ParseContext.type;

import tools.jackson.databind.JsonNode;

/**
 * A task entry's {@code workload} object: one {@link WorkloadSpec} per {@code kind}. Sizes that would build an
 * absurd instance are refused here, before anything is allocated for it.
 */
final class WorkloadSection {
    private WorkloadSection() {}

    /** Shortest stretch of a periodic workload: 1 us; below it a stretch is shorter than the context switch around it. */
    static final long MIN_STRETCH_NS = 1_000;

    static final String KINDS = "hog, periodic, fixed-work, hackbench, netperf-udp-rr, go-sleep-loop";
    /** Most OS threads of a go-sleep-loop: a Go program's Ms, far more than one goroutine ever needs. */
    static final int MAX_GO_THREADS = 64;

    /** hackbench's defaults (rt-tests hackbench.c): socket mode, 10 groups, 20 fds, 100 loops, 100 bytes. */
    static final int HACKBENCH_GROUPS = 10, HACKBENCH_FDS = 20, HACKBENCH_DATASIZE = 100;
    static final long HACKBENCH_LOOPS = 100;
    /**
     * Most fds per group: hackbench's parent holds a descriptor per receiver of a group while it forks the senders,
     * so the default limit of 1024 open files (RLIMIT_NOFILE) stops it near here.
     */
    static final int MAX_FDS = 1000;
    /**
     * Largest message: {@code PIPE_BUF}, 4096 bytes. Larger writes are split between pipe pages and skbs and may be
     * written in parts, which the model does not do.
     */
    static final int MAX_DATASIZE = 4096;
    /** hackbench counts a receiver's messages ({@code fds × loops}) in an {@code unsigned int}. */
    static final long MAX_RECEIVER_MESSAGES = 0xFFFF_FFFFL;
    /** Largest UDP payload over IPv4: 65,535 − 20 (IP header) − 8 (UDP header). */
    static final int MAX_UDP_PAYLOAD = 65_507;

    /** The workload, or null with its problems added. */
    static WorkloadSpec parse(JsonNode n, String ptr, ParseContext c) {
        CheckedObject o = c.obj(n, ptr);
        if (o == null) return null;
        JsonNode kn = o.get("kind");
        WorkloadSpec w = null;
        if (kn == null) {
            c.add(o.at("kind"), "workload kind is required: one of " + KINDS, null);
        } else if (!kn.isString()) {
            c.add(o.at("kind"), "must be a string, not " + type(kn), null);
        } else {
            switch (kn.stringValue()) {
                case "hog" -> w = new WorkloadSpec.Hog();
                case "periodic" -> w = periodic(o, c);
                case "fixed-work" -> {
                    long work = c.requiredDuration(o, "work", true);
                    if (work > 0) w = new WorkloadSpec.FixedWork(work);
                }
                case "hackbench" -> w = hackbench(o, c);
                case "netperf-udp-rr" -> w = netperf(o, c);
                case "go-sleep-loop" -> w = goSleepLoop(o, c);
                default -> c.add(o.at("kind"), "unknown workload kind " + ParseContext.echoed(kn.stringValue()) + "; one of " + KINDS, null);
            }
        }
        o.finish(c);
        return w;
    }

    private static WorkloadSpec periodic(CheckedObject o, ParseContext c) {
        long run = c.requiredDuration(o, "run", true);
        long sleep = c.requiredDuration(o, "sleep", false);
        JsonNode kk = o.get("kernel");
        long kernel = kk == null ? 0 : c.duration(kk, o.at("kernel"));
        long loops = c.integer(o, "loops", 0, 0, Long.MAX_VALUE);
        if (run > 0 && run < MIN_STRETCH_NS) c.add(o.at("run"), "run below 1us", null);
        else if (sleep > 0 && sleep < MIN_STRETCH_NS) c.add(o.at("sleep"), "sleep below 1us (0 for none)", null);
        else if (kernel > 0 && kernel < MIN_STRETCH_NS) c.add(o.at("kernel"), "kernel below 1us (0 for none)", null);
        else if (run > 0 && sleep >= 0 && kernel >= 0) return new WorkloadSpec.Periodic(run, kernel, sleep, loops);
        return null;
    }

    /**
     * {@code hackbench}: every count in range, and the instance's size ({@code 2 × groups × fds} tasks,
     * {@code fds × loops} messages per receiver) within the limits, each problem at its key.
     */
    private static WorkloadSpec hackbench(CheckedObject o, ParseContext c) {
        int before = c.problemCount();
        WorkloadSpec.Hackbench.Mode mode = c.enumValue(o, "mode", WorkloadSpec.Hackbench.Mode.class,
                WorkloadSpec.Hackbench.Mode.SOCKET);
        long groups = c.integer(o, "groups", HACKBENCH_GROUPS, 1, Limits.MAX_TASKS);
        long fds = c.integer(o, "fds", HACKBENCH_FDS, 1, MAX_FDS);
        long loops = c.integer(o, "loops", HACKBENCH_LOOPS, 1, MAX_RECEIVER_MESSAGES);
        long datasize = c.integer(o, "datasize", HACKBENCH_DATASIZE, 1, MAX_DATASIZE);
        boolean ok = c.problemCount() == before;
        if (ok && 2 * groups * fds > Limits.MAX_TASKS) {
            c.add(o.at("groups"), "one hackbench instance of " + groups + " groups × " + fds + " fds × 2 = "
                    + 2 * groups * fds + " tasks exceeds the limit of " + Limits.MAX_TASKS + " tasks", Integers.RANGE);
            ok = false;
        }
        if (ok && fds * loops > MAX_RECEIVER_MESSAGES) {
            c.add(o.at("loops"), "fds × loops = " + fds + " × " + loops + " messages per receiver exceeds "
                    + MAX_RECEIVER_MESSAGES + " (hackbench counts them in an unsigned int)", Integers.RANGE);
            ok = false;
        }
        return ok ? new WorkloadSpec.Hackbench(mode, (int) groups, (int) fds, loops, (int) datasize) : null;
    }

    /** {@code go-sleep-loop}: a burn and a sleep of at least 1 us each, 3..64 threads (default 5). */
    private static WorkloadSpec goSleepLoop(CheckedObject o, ParseContext c) {
        int before = c.problemCount();
        long run = c.requiredDuration(o, "run", true);
        long sleep = c.requiredDuration(o, "sleep", true);
        long threads = c.integer(o, "threads", 5, 3, MAX_GO_THREADS);
        if (c.problemCount() != before) return null;
        if (run < MIN_STRETCH_NS) { c.add(o.at("run"), "run below 1us", null); return null; }
        if (sleep < MIN_STRETCH_NS) { c.add(o.at("sleep"), "sleep below 1us", null); return null; }
        return new WorkloadSpec.GoSleepLoop(run, sleep, (int) threads);
    }

    /** {@code netperf-udp-rr}: request and response sizes of one UDP datagram each. */
    private static WorkloadSpec netperf(CheckedObject o, ParseContext c) {
        int before = c.problemCount();
        long request = c.integer(o, "request_size", 1, 1, MAX_UDP_PAYLOAD);
        long response = c.integer(o, "response_size", 1, 1, MAX_UDP_PAYLOAD);
        return c.problemCount() != before ? null : new WorkloadSpec.NetperfUdpRr((int) request, (int) response);
    }
}
