package io.cfslab.scenario;

import java.math.BigInteger;
import java.util.List;

/**
 * Writes to the cgroup v2 cpu controller files, parsed and validated as the kernel does.
 * Models {@code cpu_period_quota_parse()}, {@code cpu_max_write()}, {@code cpu_burst_write_u64()},
 * {@code cpu_weight_write_u64()} and the checks of {@code tg_set_cfs_bandwidth()} /
 * {@code tg_set_bandwidth()}, kernel/sched/core.c, v6.18 (shared/design/kernel-model.md §5.2–5.4).
 * All values are in cgroupfs units: microseconds.
 */
public final class CgroupFiles {
    private CgroupFiles() {}

    /** {@code cpu.max}. */
    public static final String CPU_MAX = "cpu.max";
    /** {@code cpu.max.burst}. */
    public static final String CPU_MAX_BURST = "cpu.max.burst";
    /** {@code cpu.weight}. */
    public static final String CPU_WEIGHT = "cpu.weight";
    /** The files a scenario may write, in the order the parser applies them. */
    public static final List<String> FILES = List.of(CPU_MAX, CPU_MAX_BURST, CPU_WEIGHT);

    /** {@code min_cfs_quota_period}: 1 ms, the minimum quota and period, µs. */
    public static final long MIN_US = 1_000;
    /** {@code max_cfs_quota_period}: 1 s, the maximum period, µs. */
    public static final long MAX_PERIOD_US = 1_000_000;
    /** {@code max_bw_runtime_us}: MAX_BW = 2^(64-20) - 1 µs, the maximum quota and quota + burst. */
    public static final long MAX_BW_US = (1L << 44) - 1;
    /** {@code U64_MAX / NSEC_PER_USEC}: µs values must survive translation to ns. */
    public static final long MAX_USEC = new BigInteger("18446744073709551615").divide(BigInteger.valueOf(1000)).longValueExact();
    /** Default {@code cpu.weight}. */
    public static final int DEFAULT_WEIGHT = 100;
    /** {@code CGROUP_WEIGHT_MIN}. */
    public static final int MIN_WEIGHT = 1;
    /** {@code CGROUP_WEIGHT_MAX}. */
    public static final int MAX_WEIGHT = 10_000;

    private static final BigInteger U64_MAX = new BigInteger("18446744073709551615");

    /**
     * Parses and validates a {@code cpu.max} write for a group whose burst is 0.
     * @param value   the text written, e.g. {@code "50000 100000"}
     * @param current the group's current value (for the period when omitted)
     * @return the new value
     * @throws InvalidValueException {@code EINVAL}
     * @see #parseCpuMax(String, CpuMax, long)
     */
    public static CpuMax parseCpuMax(String value, CpuMax current) {
        return parseCpuMax(value, current, 0);
    }

    /**
     * A {@code cpu.max} write: {@code "<quota|max> [period]"} in µs, parsed as the kernel's sscanf does
     * (leading digits of the first word, or {@code max}; an omitted or non-numeric period keeps
     * {@code current}'s; anything after the period is ignored); the current burst is kept and checked against the new quota. Models
     * {@code cpu_max_write()} then {@code tg_set_bandwidth()}, kernel/sched/core.c, v6.18.
     *
     * @param value   the text written, e.g. {@code "50000 100000"} or {@code "max"}
     * @param current the group's current value (for the period when omitted)
     * @param burstUs the group's current {@code cpu.max.burst}, µs
     * @return the new value
     * @throws InvalidValueException {@code EINVAL} on a malformed or out-of-range value
     */
    public static CpuMax parseCpuMax(String value, CpuMax current, long burstUs) {
        // cpu_period_quota_parse(): sscanf(buf, "%20s %llu", tok, &period), then "%llu" or "max" for tok.
        // As lenient as the kernel: "10000 abc" keeps the period, a third field is ignored, "1000abc" is 1000.
        String t = value == null ? "" : value;
        int n = t.length(), i = 0;
        while (i < n && isSpace(t.charAt(i))) i++;
        int tokStart = i;
        while (i < n && !isSpace(t.charAt(i)) && i - tokStart < 20) i++;
        String tok = t.substring(tokStart, i);
        if (tok.isEmpty()) throw einval("empty cpu.max value; expected \"<quota|max> [period]\"");
        long period = current == null ? CpuMax.DEFAULT.periodUs() : current.periodUs();
        while (i < n && isSpace(t.charAt(i))) i++;
        int digits = i;
        while (i < n && t.charAt(i) >= '0' && t.charAt(i) <= '9') i++;
        if (i > digits) {
            BigInteger p = new BigInteger(t.substring(digits, Math.min(i, digits + 40)));
            if (p.compareTo(BigInteger.valueOf(MAX_USEC)) > 0) throw einval("period " + p + " us exceeds the " + MAX_PERIOD_US + " us maximum");
            period = p.longValueExact();
        }
        int q = 0;
        while (q < tok.length() && tok.charAt(q) >= '0' && tok.charAt(q) <= '9') q++;
        long quota;
        if (q > 0) {
            BigInteger v = new BigInteger(tok.substring(0, q));
            if (v.compareTo(BigInteger.valueOf(MAX_USEC)) > 0) throw einval("quota " + v + " us exceeds the " + MAX_BW_US + " us maximum");
            quota = v.longValueExact();
        } else if (tok.equals("max")) {
            quota = CpuMax.MAX;
        } else {
            throw einval("quota \"" + tok + "\" is neither a number of us nor \"max\"");
        }
        checkBandwidth(period, quota, burstUs);
        return new CpuMax(quota, period);
    }

    /** isspace() of the kernel's sscanf: space, \t, \n, \v, \f, \r. */
    private static boolean isSpace(char ch) {
        return ch == ' ' || (ch >= '\t' && ch <= '\r');
    }

    /**
     * The checks of {@code tg_set_bandwidth()} (kernel/sched/core.c, v6.18) in kernel order, the root
     * check excepted: quota and period &ge; 1000 µs, period &le; 1000000 µs, quota &le; MAX_BW, and with a
     * finite quota burst &le; quota and burst + quota &le; MAX_BW.
     *
     * @param periodUs period, µs
     * @param quotaUs  quota, µs, or {@link CpuMax#MAX}
     * @param burstUs  burst, µs
     * @throws InvalidValueException {@code EINVAL}
     */
    public static void checkBandwidth(long periodUs, long quotaUs, long burstUs) {
        boolean limited = quotaUs != CpuMax.MAX;
        if (periodUs > MAX_USEC || (limited && quotaUs > MAX_USEC) || burstUs > MAX_USEC || burstUs < 0) {
            throw einval("value does not survive translation to ns");
        }
        if (limited && quotaUs < MIN_US) throw einval("quota " + quotaUs + " us is below the " + MIN_US + " us minimum");
        if (periodUs < MIN_US) throw einval("period " + periodUs + " us is below the " + MIN_US + " us minimum");
        if (periodUs > MAX_PERIOD_US) throw einval("period " + periodUs + " us exceeds the " + MAX_PERIOD_US + " us maximum");
        if (limited && quotaUs > MAX_BW_US) throw einval("quota " + quotaUs + " us exceeds the " + MAX_BW_US + " us maximum");
        if (limited && burstUs > quotaUs) throw einval("burst " + burstUs + " us exceeds quota " + quotaUs + " us");
        if (limited && burstUs + quotaUs > MAX_BW_US) {
            throw einval("burst + quota = " + (burstUs + quotaUs) + " us exceeds the " + MAX_BW_US + " us maximum");
        }
    }

    /**
     * A {@code cpu.max.burst} write: an unsigned decimal µs value, validated against the group's
     * current {@code cpu.max}. Models {@code cpu_burst_write_u64()} (kstrtoull) then
     * {@code tg_set_bandwidth()}, kernel/sched/core.c, v6.18.
     *
     * @param value   the text written, e.g. {@code "5000"}
     * @param current the group's current {@code cpu.max}
     * @return the burst, µs
     * @throws InvalidValueException {@code EINVAL} (not a number, burst &gt; quota, …) or {@code ERANGE} (beyond u64)
     */
    public static long parseBurst(String value, CpuMax current) {
        BigInteger b = u64(value, "burst");
        if (b.compareTo(BigInteger.valueOf(MAX_USEC)) > 0) throw einval("burst " + b + " us does not survive translation to ns");
        long burst = b.longValueExact();
        CpuMax cm = current == null ? CpuMax.DEFAULT : current;
        checkBandwidth(cm.periodUs(), cm.quotaUs(), burst);
        return burst;
    }

    /**
     * A {@code cpu.weight} write. Models {@code cpu_weight_write_u64()}, kernel/sched/core.c, v6.18.
     *
     * @param value the text written, e.g. {@code "100"}
     * @return the weight, 1..10000
     * @throws InvalidValueException {@code EINVAL} if not an unsigned number, {@code ERANGE} outside 1..10000
     */
    public static int parseWeight(String value) {
        BigInteger w = u64(value, "weight");
        if (w.compareTo(BigInteger.valueOf(MIN_WEIGHT)) < 0 || w.compareTo(BigInteger.valueOf(MAX_WEIGHT)) > 0) {
            throw new InvalidValueException("weight " + w + " is outside " + MIN_WEIGHT + ".." + MAX_WEIGHT, "ERANGE");
        }
        return w.intValueExact();
    }

    /**
     * {@code echo value > cgroup/file}: applies one write to a group, as the kernel validates it now.
     *
     * @param group the group's current state; a path of {@code "/"} (the root) is refused
     * @param file  {@link #CPU_MAX}, {@link #CPU_MAX_BURST} or {@link #CPU_WEIGHT}
     * @param value the text written
     * @return the group's new state
     * @throws InvalidValueException {@code EINVAL} for the root or a bad value, {@code ERANGE},
     *                               {@code ENOENT} for another file name
     */
    public static CgroupSpec write(CgroupSpec group, String file, String value) {
        if (!FILES.contains(file)) {
            throw new InvalidValueException("no file " + file + " in a cgroup; writable are cpu.max, cpu.max.burst, cpu.weight", "ENOENT");
        }
        checkNotRoot(group.path(), file);
        return switch (file) {
            case CPU_MAX -> new CgroupSpec(group.path(), parseCpuMax(value, group.cpuMax(), group.cpuMaxBurstUs()),
                    group.cpuMaxBurstUs(), group.cpuWeight());
            case CPU_MAX_BURST -> new CgroupSpec(group.path(), group.cpuMax(), parseBurst(value, group.cpuMax()), group.cpuWeight());
            default -> new CgroupSpec(group.path(), group.cpuMax(), group.cpuMaxBurstUs(), parseWeight(value));
        };
    }

    /**
     * cgroup v2 has no cpu controller files in the root cgroup (the cftypes are {@code CFTYPE_NOT_ON_ROOT},
     * kernel/sched/core.c), so writing one fails as opening a missing file does.
     * @param cgroupPath the group's path
     * @param file       the file written, for the message
     * @throws InvalidValueException {@code ENOENT} when {@code cgroupPath} is {@code "/"}
     */
    public static void checkNotRoot(String cgroupPath, String file) {
        if ("/".equals(cgroupPath)) {
            // cgroup v2 creates the cpu controller's files in child groups only (CFTYPE_NOT_ON_ROOT)
            throw new InvalidValueException("the root cgroup has no " + file + " (cgroup v2)", "ENOENT");
        }
    }

    /**
     * A new group's state, as {@code mkdir} makes it: {@code max 100000}, burst 0, weight 100.
     * @param path the group's path
     * @return the group
     */
    public static CgroupSpec newGroup(String path) {
        return new CgroupSpec(path, CpuMax.DEFAULT, 0, DEFAULT_WEIGHT);
    }

    /**
     * {@code kstrtoull(buf, 0, &v)} as cgroup_file_write() calls it for u64 files: an optional '+', then
     * {@code 0x}/{@code 0X} hex, a leading {@code 0} octal, or decimal; one trailing newline allowed (echo's).
     */
    private static BigInteger u64(String value, String what) {
        String t = value == null ? "" : value;
        if (t.endsWith("\n")) t = t.substring(0, t.length() - 1);
        String shown = t.length() > 40 ? t.substring(0, 40) + "…" : t;
        BigInteger v = kstrtoull(t);
        if (v == null) throw einval(what + " \"" + shown + "\" is not an unsigned number");
        if (v.compareTo(U64_MAX) > 0) throw new InvalidValueException(what + " " + shown + " is out of range of u64", "ERANGE");
        return v;
    }

    /** kstrtoull() with base 0 (lib/kstrtox.c): null when malformed. */
    static BigInteger kstrtoull(String t) {
        if (t.startsWith("+")) t = t.substring(1);
        if (t.isEmpty() || t.length() > 70) return null;
        int radix = 10;
        if (t.length() > 2 && (t.startsWith("0x") || t.startsWith("0X"))) { radix = 16; t = t.substring(2); }
        else if (t.length() > 1 && t.startsWith("0")) { radix = 8; t = t.substring(1); }
        for (int i = 0; i < t.length(); i++) {
            char ch = t.charAt(i);
            boolean ok = (ch >= '0' && ch <= '9') || (radix == 16 && ((ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F')));
            if (!ok || Character.digit(ch, radix) < 0) return null;
        }
        return new BigInteger(t, radix);
    }

    /** Decimal digits only (kstrtoull/sscanf-%llu, but strict); null otherwise. */
    private static BigInteger unsigned(String tok) {
        if (tok.isEmpty() || tok.length() > 40) return null;
        for (int i = 0; i < tok.length(); i++) if (tok.charAt(i) < '0' || tok.charAt(i) > '9') return null;
        return new BigInteger(tok);
    }

    private static InvalidValueException einval(String reason) { return new InvalidValueException(reason, "EINVAL"); }
}
