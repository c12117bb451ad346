package io.cfslab.metrics;

import io.cfslab.metrics.SimulationResult.CgroupStats;
import io.cfslab.metrics.SimulationResult.CpuStat;
import io.cfslab.metrics.SimulationResult.CpuStatLocal;

/**
 * The text of the cgroup v2 files {@code cpu.stat} and {@code cpu.stat.local}, as {@code cat} prints them: one
 * {@code key value} line per field, values in the file's units (µs, counts), each line ending in {@code '\n'}.
 *
 * <p>{@code cpu.stat}'s key order is the kernel's: {@code usage_usec}, {@code user_usec}, {@code system_usec}
 * (printed by {@code cgroup_base_stat_cputime_show}, kernel/cgroup/rstat.c), then {@code nr_periods},
 * {@code nr_throttled}, {@code throttled_usec}, {@code nr_bursts}, {@code burst_usec}
 * ({@code cpu_extra_stat_show}, kernel/sched/core.c). {@code cpu.stat.local} (v6.6+) holds
 * {@code throttled_usec} ({@code cpu_local_stat_show}, kernel/sched/core.c).
 */
public final class CpuStatText {
    private CpuStatText() {}

    /**
     * The content of a {@code cpu.stat} file.
     *
     * @param s the counters (µs and counts)
     * @return one line per key the kernel prints: cgroup v2's 8 lines {@code usage_usec N} ... {@code burst_usec N}
     *         (the burst lines from 5.16), or cgroup v1's {@code nr_periods}, {@code nr_throttled},
     *         {@code throttled_time} (ns) and from 5.16 {@code nr_bursts}, {@code burst_time}; each ending in
     *         {@code '\n'}
     */
    public static String cpuStat(CpuStat s) {
        StringBuilder b = new StringBuilder();
        line(b, "usage_usec", s.usageUsec());
        line(b, "user_usec", s.userUsec());
        line(b, "system_usec", s.systemUsec());
        line(b, "nr_periods", s.nrPeriods());
        line(b, "nr_throttled", s.nrThrottled());
        line(b, "throttled_usec", s.throttledUsec());
        line(b, "throttled_time", s.throttledTime());
        line(b, "nr_bursts", s.nrBursts());
        line(b, "burst_usec", s.burstUsec());
        line(b, "burst_time", s.burstTime());
        return b.toString();
    }

    /** {@code key value\n}, or nothing for a key this kernel does not print. */
    private static void line(StringBuilder b, String key, Long value) {
        if (value != null) b.append(key).append(' ').append(value).append('\n');
    }

    /**
     * The content of a {@code cpu.stat.local} file.
     *
     * @param s the counter (µs)
     * @return {@code "throttled_usec N\n"}
     */
    public static String cpuStatLocal(CpuStatLocal s) {
        StringBuilder b = new StringBuilder();
        line(b, "throttled_usec", s.throttledUsec());
        line(b, "throttled_time", s.throttledTime());
        return b.toString();
    }

    /**
     * Both files of one cgroup, as {@code head /a/cpu.stat /a/cpu.stat.local} prints them: each file under a
     * {@code ==> PATH <==} line, an empty line between the two.
     *
     * @param path the cgroup's path as in the result ({@code "/a"}, {@code "/"} for the root)
     * @param s    the cgroup's files; a null {@code cpuStatLocal} (or {@code cpuStat}) is left out
     * @return for example
     *         <pre>
     * ==&gt; /a/cpu.stat &lt;==
     * usage_usec 500000
     * ...
     * burst_usec 0
     *
     * ==&gt; /a/cpu.stat.local &lt;==
     * throttled_usec 4500000
     * </pre>
     */
    public static String format(String path, CgroupStats s) {
        String dir = path.endsWith("/") ? path : path + "/";
        StringBuilder out = new StringBuilder();
        if (s.cpuStat() != null) {
            out.append("==> ").append(dir).append("cpu.stat <==\n").append(cpuStat(s.cpuStat()));
        }
        if (s.cpuStatLocal() != null) {
            if (out.length() > 0) {
                out.append('\n');
            }
            out.append("==> ").append(dir).append("cpu.stat.local <==\n").append(cpuStatLocal(s.cpuStatLocal()));
        }
        return out.toString();
    }
}
