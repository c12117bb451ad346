package io.cfslab.scenario;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes to the cpu controller's files, parsed and validated as the kernel does: cgroup v2's
 * ({@code cpu_period_quota_parse()}, {@code cpu_max_write()}, {@code cpu_burst_write_u64()},
 * {@code cpu_weight_write_u64()}) and cgroup v1's ({@code cpu_cfs_quota_write_s64()},
 * {@code cpu_cfs_period_write_u64()}, {@code cpu_cfs_burst_write_u64()}, {@code cpu_shares_write_u64()},
 * {@code cpu_rt_runtime_write()}, {@code cpu_rt_period_write_uint()}), with the checks of
 * {@code tg_set_cfs_bandwidth()} / {@code tg_set_bandwidth()}, v1's hierarchical {@code __cfs_schedulable()} and
 * {@code __rt_schedulable()}, kernel/sched/core.c and rt.c (shared/design/kernel-model.md §5.2–5.4). What differs
 * between kernel versions (the burst files, the burst-units bug) follows {@link Rules}.
 * All values are in cgroupfs units: microseconds.
 */
public final class CgroupFiles {
    private CgroupFiles() {}

    /** {@code cpu.max}. */
    public static final String CPU_MAX = "cpu.max";

    /**
     * Whether a document may give {@code file}'s value as an integer (as {@code echo 5000 >} writes it): every file
     * of one number; not {@code cpu.max}, whose value is "quota period" text (a bare integer would read as a quota
     * with the period kept, which a reader of the document cannot tell from a typo).
     */
    public static boolean takesInteger(String file) { return !CPU_MAX.equals(file); }
    /** {@code cpu.max.burst}. */
    public static final String CPU_MAX_BURST = "cpu.max.burst";
    /** {@code cpu.weight}. */
    public static final String CPU_WEIGHT = "cpu.weight";
    /** The cgroup v2 files a scenario may write, in the order the parser applies them. */
    public static final List<String> FILES = List.of(CPU_MAX, CPU_MAX_BURST, CPU_WEIGHT);

    /** cgroup v1 {@code cpu.cfs_quota_us}: µs, any negative value for no limit. */
    public static final String CFS_QUOTA_US = "cpu.cfs_quota_us";
    /** cgroup v1 {@code cpu.cfs_period_us}: µs. */
    public static final String CFS_PERIOD_US = "cpu.cfs_period_us";
    /** cgroup v1 {@code cpu.cfs_burst_us}: µs (5.14+). */
    public static final String CFS_BURST_US = "cpu.cfs_burst_us";
    /** cgroup v1 {@code cpu.shares}: 2..262144, default 1024. */
    public static final String SHARES = "cpu.shares";
    /** cgroup v1 {@code cpu.rt_runtime_us} (CONFIG_RT_GROUP_SCHED): µs, -1 for no limit, default 0. */
    public static final String RT_RUNTIME_US = "cpu.rt_runtime_us";
    /** cgroup v1 {@code cpu.rt_period_us} (CONFIG_RT_GROUP_SCHED): µs, default 1000000. */
    public static final String RT_PERIOD_US = "cpu.rt_period_us";
    /** The cgroup v1 files a scenario may write. */
    /**
     * cgroup v1's files of other names than {@code cgroup.*} / {@code cpu.*} in every group directory (and
     * {@code release_agent} in the root): on v1, a group of such a name cannot be made (mkdir gives EEXIST).
     */
    public static final java.util.Set<String> V1_OTHER_FILES = java.util.Set.of("tasks", "notify_on_release", "release_agent");

    /** cpu.stat.local (6.6+, 677ea015f231), in both cgroup versions: read from a run's results, not a scenario. */
    public static final String CPU_STAT_LOCAL = "cpu.stat.local";
    public static final List<String> FILES_V1 = List.of(CFS_QUOTA_US, CFS_PERIOD_US, CFS_BURST_US, SHARES, RT_RUNTIME_US,
            RT_PERIOD_US);
    /** MIN_SHARES. */
    public static final long MIN_SHARES = 2;
    /** MAX_SHARES: 1 &lt;&lt; 18. */
    public static final long MAX_SHARES = 1L << 18;
    /** Default {@code cpu.shares}. */
    public static final long DEFAULT_SHARES = 1024;
    /** Default {@code cpu.rt_period_us} of a new group (the global sched_rt_period_us default). */
    public static final long DEFAULT_RT_PERIOD_US = 1_000_000;

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
        return parseCpuMax(value, current, burstUs, true);
    }

    /**
     * {@link #parseCpuMax(String, CpuMax, long)} for a given kernel: {@code runtimeInfInMicroseconds} is whether the
     * kernel parses the quota in µs and takes {@code 18446744073709551615} (U64_MAX, RUNTIME_INF) as {@code max}
     * (6.17+, {@link Rules#quotaU64MaxIsMax()}); before, that value is EINVAL.
     */
    public static CpuMax parseCpuMax(String value, CpuMax current, long burstUs, boolean runtimeInfInMicroseconds) {
        return parseCpuMax(value == null ? new byte[0] : value.getBytes(java.nio.charset.StandardCharsets.UTF_8), current,
                burstUs, runtimeInfInMicroseconds);
    }

    /** {@link #parseCpuMax(String, CpuMax, long, boolean)} of the bytes written, as the kernel gets them. */
    static CpuMax parseCpuMax(byte[] t, CpuMax current, long burstUs, boolean runtimeInfInMicroseconds) {
        // cpu_period_quota_parse(): sscanf(buf, "%20s %llu", tok, &period), then "%llu" or "max" for tok.
        // As lenient as the kernel: "10000 abc" keeps the period, a third field is ignored, "1000abc" is 1000; and as
        // strict: "%llu" takes no sign (lib/vsprintf.c vsscanf()), so "+5000" is EINVAL and a period "+100000" is kept.
        // The kernel reads bytes: the text's UTF-8 bytes are scanned with its ctype table (isSpace below), "%20s" takes
        // at most 20 bytes, and "%llu" every digit, wrapping modulo 2^64 (simple_strtoull() ignores
        // _parse_integer()'s overflow flag; kstrtoull() would say ERANGE, but cpu.max is not read with it).
        int n = t.length, i = 0;
        while (i < n && isSpace(t[i])) i++;
        int tokStart = i;
        while (i < n && !isSpace(t[i]) && i - tokStart < 20) i++;
        int tokEnd = i;
        String tok = new String(t, tokStart, tokEnd - tokStart, java.nio.charset.StandardCharsets.ISO_8859_1);
        if (tokEnd == tokStart) throw einval("empty cpu.max value; expected \"<quota|max> [period]\"");
        long period = current == null ? CpuMax.DEFAULT.periodUs() : current.periodUs();
        while (i < n && isSpace(t[i])) i++;
        int digits = i;
        long p = 0;
        boolean wrapped = false;
        for (; i < n && t[i] >= '0' && t[i] <= '9'; i++) {
            wrapped |= Long.compareUnsigned(p, Long.divideUnsigned(-1L - (t[i] - '0'), 10)) > 0;
            p = p * 10 + (t[i] - '0'); // long arithmetic is modulo 2^64: the u64 the kernel computes
        }
        if (i > digits) {
            if (Long.compareUnsigned(p, MAX_USEC) > 0) {
                throw einval("period " + Long.toUnsignedString(p) + " us" + (wrapped ? " (the digits wrapped modulo 2^64,"
                        + " as the kernel's %llu does)" : "") + " exceeds the " + MAX_PERIOD_US + " us maximum");
            }
            period = p;
        }
        int q = tokStart;
        long v = 0;
        boolean quotaWrapped = false;
        for (; q < tokEnd && t[q] >= '0' && t[q] <= '9'; q++) {
            quotaWrapped |= Long.compareUnsigned(v, Long.divideUnsigned(-1L - (t[q] - '0'), 10)) > 0;
            v = v * 10 + (t[q] - '0');
        }
        long quota;
        if (q > tokStart) {
            if (runtimeInfInMicroseconds && v == -1L) {
                // 6.17+: the quota is parsed in µs and compared with RUNTIME_INF ((u64)~0) as it is, so U64_MAX is "max"
                // (tg_set_bandwidth() skips its range check for RUNTIME_INF); before, it was multiplied by 1000 first
                // and the wrapped value failed the range check
                checkBandwidth(period, CpuMax.MAX, burstUs);
                return new CpuMax(CpuMax.MAX, period);
            }
            if (Long.compareUnsigned(v, MAX_USEC) > 0) {
                throw einval("quota " + Long.toUnsignedString(v) + " us" + (quotaWrapped ? " (the digits wrapped modulo"
                        + " 2^64, as the kernel's %llu does)" : "") + " exceeds the " + MAX_BW_US + " us maximum");
            }
            quota = v;
        } else if (tok.equals("max")) {
            quota = CpuMax.MAX;
        } else {
            throw einval("quota \"" + shown(tok) + "\" is neither a number of us nor \"max\"");
        }
        checkBandwidth(period, quota, burstUs);
        return new CpuMax(quota, period);
    }

    /**
     * isspace() of the kernel's sscanf on one byte: lib/ctype.c marks space, \t, \n, \v, \f, \r and, in its Latin-1
     * upper half, 0xA0 (NBSP) as _S. So the UTF-8 NBSP (0xC2 0xA0) is a letter byte (0xC2, _U) then a space: it ends a
     * field, leaving 0xC2 in it.
     */
    private static boolean isSpace(byte b) {
        int ch = b & 0xff;
        return ch == ' ' || (ch >= '\t' && ch <= '\r') || ch == 0xA0;
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
        if (limited && burstUs > quotaUs) throw new StateRefusal("burst " + burstUs + " us exceeds quota " + quotaUs + " us", "EINVAL");
        if (limited && burstUs + quotaUs > MAX_BW_US) {
            throw new StateRefusal("burst + quota = " + (burstUs + quotaUs) + " us exceeds the " + MAX_BW_US + " us maximum", "EINVAL");
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
     * {@code echo value > cgroup/file} on a cgroup v2 group of a 6.18 kernel, without the hierarchy (the REST
     * API's cgroup files): {@link #write(CgroupSpec, String, String, Rules, Hierarchy)} with {@link Rules#V2}.
     *
     * @param group the group's current state; a path of {@code "/"} (the root) is refused
     * @param file  {@link #CPU_MAX}, {@link #CPU_MAX_BURST} or {@link #CPU_WEIGHT}
     * @param value the text written
     * @return the group's new state
     * @throws InvalidValueException {@code EINVAL} for a bad value, {@code ERANGE}, {@code ENOENT} for the root or
     *                               another file name
     */
    public static CgroupSpec write(CgroupSpec group, String file, String value) {
        return write(group, file, value, Rules.V2, null);
    }

    /**
     * {@code echo value > cgroup/file}: applies one write to a group, as the kernel of {@code rules} validates it
     * now. cgroup v2: {@code cpu.max}, {@code cpu.max.burst} (5.14+), {@code cpu.weight}. cgroup v1:
     * {@code cpu.cfs_quota_us}, {@code cpu.cfs_period_us}, {@code cpu.cfs_burst_us} (5.14+), {@code cpu.shares},
     * {@code cpu.rt_runtime_us} and {@code cpu.rt_period_us} (with RT group scheduling), with v1's hierarchical
     * checks ({@code __cfs_schedulable()}, {@code __rt_schedulable()}, kernel/sched/core.c and rt.c).
     *
     * @param group     the group's current state
     * @param file      the file's name
     * @param value     the text written
     * @param rules     the kernel's era and the cgroup version
     * @param hierarchy the other groups as they are now, for v1's hierarchical checks; null to skip them
     * @return the group's new state
     * @throws InvalidValueException {@code EINVAL} (bad value, or a v1 child above its parent), {@code ERANGE},
     *                               {@code ENOENT} (no such file in this cgroup version or kernel), {@code EBUSY}
     */
    public static CgroupSpec write(CgroupSpec group, String file, String value, Rules rules, Hierarchy hierarchy) {
        return write(group, file, value == null ? new byte[0] : value.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                rules, hierarchy);
    }

    /**
     * {@link #write(CgroupSpec, String, String, Rules, Hierarchy)} of the bytes written, as the kernel gets them (the
     * REST API's file PUT: a body is bytes, not text, so a byte that is not UTF-8 reaches the file's parser as it is).
     * Checked in the kernel's order: the file exists (open(): ENOENT), the write fits kernfs's buffer
     * ({@code atomic_write_len}, {@value #PAGE_SIZE} bytes: E2BIG), then the NUL-terminated buffer's parser.
     *
     * @throws InvalidValueException as the String form, and {@code E2BIG} for more than {@value #PAGE_SIZE} bytes
     */
    public static CgroupSpec write(CgroupSpec group, String file, byte[] bytes, Rules rules, Hierarchy hierarchy) {
        checkFile(file, rules);
        if (bytes.length > PAGE_SIZE) {
            // kernfs_fop_write_iter(): cgroup_kf_ops.atomic_write_len is PAGE_SIZE, and a longer write is refused
            // whole, before the file's own parser sees a byte
            throw new InvalidValueException("a write of " + bytes.length + " bytes to " + file + " exceeds the "
                    + PAGE_SIZE + " bytes cgroupfs takes at once (kernfs atomic_write_len, PAGE_SIZE)", "E2BIG");
        }
        byte[] raw = asCString(bytes);
        // the number files' parsers see one character per byte (ISO-8859-1): a byte outside ASCII is no digit
        String value = new String(raw, java.nio.charset.StandardCharsets.ISO_8859_1);
        boolean root = "/".equals(group.path());
        if (rules.cgroupVersion() == 2) {
            checkNotRoot(group.path(), file);
            return switch (file) {
                case CPU_MAX -> {
                    // cpu_max_write() keeps the current burst; 5.14 until 49217ea147df passed it in µs where
                    // tg_set_cfs_bandwidth() takes ns, so the burst it keeps is 1000× smaller
                    long burst = rules.burstUnitsBug() ? group.cpuMaxBurstUs() / 1000 : group.cpuMaxBurstUs();
                    yield group.withCpuMax(parseCpuMax(raw, group.cpuMax(), burst, rules.quotaU64MaxIsMax()))
                            .withBurstUs(burst);
                }
                case CPU_MAX_BURST -> group.withBurstUs(parseBurst(value, group.cpuMax()));
                default -> new CgroupSpec(group.path(), group.cpuMax(), group.cpuMaxBurstUs(), parseWeight(value),
                        group.cpuShares(), group.rtRuntimeUs(), group.rtPeriodUs());
            };
        }
        // cgroup_file_write() parses first (kstrtoull/kstrtoll: EINVAL, ERANGE), then calls the file's write_u64 /
        // write_s64, whose tg_set_cfs_quota()/_period()/_burst() check the translation to ns before
        // tg_set_cfs_bandwidth() refuses the root task group, as __sched_group_set_shares() does (!tg->se[0]): so
        // the root's refusal comes after the value's own (kernel/cgroup/cgroup.c, kernel/sched/core.c, v6.18)
        switch (file) {
            case CFS_QUOTA_US -> {
                long q = s64(value, "cfs_quota_us");
                long quota;
                if (q < 0) quota = CpuMax.MAX; // any negative is RUNTIME_INF (tg_set_cfs_quota)
                else if (q > MAX_USEC) throw einval("quota " + q + " us does not survive translation to ns");
                else quota = q;
                refuseRoot(root, file);
                return setBandwidthV1(group, group.cpuMax().periodUs(), quota, group.cpuMaxBurstUs(), hierarchy);
            }
            case CFS_PERIOD_US -> {
                BigInteger p = u64(value, "cfs_period_us");
                if (p.compareTo(BigInteger.valueOf(MAX_USEC)) > 0) throw einval("period " + p + " us does not survive translation to ns");
                refuseRoot(root, file);
                return setBandwidthV1(group, p.longValueExact(), group.cpuMax().quotaUs(), group.cpuMaxBurstUs(), hierarchy);
            }
            case CFS_BURST_US -> {
                BigInteger b = u64(value, "cfs_burst_us");
                if (b.compareTo(BigInteger.valueOf(MAX_USEC)) > 0) throw einval("burst " + b + " us does not survive translation to ns");
                refuseRoot(root, file);
                return setBandwidthV1(group, group.cpuMax().periodUs(), group.cpuMax().quotaUs(), b.longValueExact(), hierarchy);
            }
            case SHARES -> {
                BigInteger v = u64(value, "shares");
                refuseRoot(root, file);
                // sched_group_set_shares(): clamp(shares, MIN_SHARES, MAX_SHARES), no error
                long shares = v.min(BigInteger.valueOf(MAX_SHARES)).max(BigInteger.valueOf(MIN_SHARES)).longValueExact();
                return new CgroupSpec(group.path(), group.cpuMax(), group.cpuMaxBurstUs(), weightOfShares(shares),
                        shares, group.rtRuntimeUs(), group.rtPeriodUs());
            }
            case RT_RUNTIME_US -> {
                long r = s64(value, "rt_runtime_us"); // parsed first, as every write (above)
                long runtime;
                if (r < 0) runtime = -1; // RUNTIME_INF (sched_group_set_rt_runtime)
                else if (r > MAX_USEC) throw einval("rt_runtime " + r + " us does not survive translation to ns");
                else runtime = r;
                if (root) rootRt(runtime, rules.schedRtPeriodUs(), rules, "runtime");
                return setRtBandwidth(group, runtime, group.rtPeriodUs(), rules, hierarchy);
            }
            default -> { // RT_PERIOD_US
                BigInteger p = u64(value, "rt_period_us"); // parsed first, as every write (above)
                if (p.compareTo(BigInteger.valueOf(MAX_USEC)) > 0) throw einval("rt_period " + p + " us does not survive translation to ns");
                if (p.signum() == 0) throw einval("rt_period 0 is not allowed");
                if (root) rootRt(rules.schedRtRuntimeUs(), p.longValueExact(), rules, "period");
                return setRtBandwidth(group, group.rtRuntimeUs(), p.longValueExact(), rules, hierarchy);
            }
        }
    }

    /**
     * The files a scenario may write under {@code rules}: v2's or v1's, without the burst file before 5.14 and
     * without the RT files unless RT group scheduling is built in.
     *
     * @param rules the kernel's era and the cgroup version
     * @return file names in the order a {@code cgroups[]} entry's v2 files are applied
     */
    public static List<String> files(Rules rules) {
        List<String> out = new ArrayList<>();
        for (String f : rules.cgroupVersion() == 1 ? FILES_V1 : FILES) {
            try {
                checkFile(f, rules);
                out.add(f);
            } catch (InvalidValueException e) {
                // not in this kernel
            }
        }
        return out;
    }

    /**
     * @param file a file name
     * @return 1 for a cgroup v1 cpu controller file, 2 for a v2 one, 0 for neither
     */
    public static int versionOf(String file) {
        if (FILES.contains(file)) return 2;
        if (FILES_V1.contains(file)) return 1;
        return 0;
    }

    /**
     * @param file  a file name
     * @param rules the kernel's era and the cgroup version
     * @throws InvalidValueException {@code ENOENT} unless {@code file} is a writable file of a cgroup of this
     *                               version on this kernel (naming why: the other cgroup version, burst before
     *                               5.14, RT files without RT group scheduling)
     */
    public static void checkFile(String file, Rules rules) {
        List<String> all = rules.cgroupVersion() == 1 ? FILES_V1 : FILES;
        if (!all.contains(file)) {
            int other = versionOf(file);
            if (other != 0) {
                throw new InvalidValueException(file + " is a cgroup v" + other + " file; this scenario's files are cgroup v"
                        + rules.cgroupVersion() + " (one scenario uses v1 or v2 files, not both)", "ENOENT");
            }
            throw new InvalidValueException("no file " + file + " in a cgroup; writable are " + String.join(", ", all), "ENOENT");
        }
        if (rules.cgroupVersion() == 2 && !rules.v2CpuFiles()) {
            throw new InvalidValueException("no file " + file + " on kernel " + rules.version() + ": cgroup v2's cpu"
                    + " controller (cpu.max, cpu.weight, cpu.weight.nice, cpu.stat) is 4.15+ (0d5936344f30); on 4.14 the"
                    + " cpu controller is cgroup v1's (cpu.cfs_quota_us, cpu.cfs_period_us, cpu.shares)", "ENOENT");
        }
        if ((file.equals(CPU_MAX_BURST) || file.equals(CFS_BURST_US)) && !rules.burst()) {
            throw new InvalidValueException("no file " + file + " on kernel " + rules.version()
                    + ": CFS burst is 5.14+ (f4183717b370)", "ENOENT");
        }
        if ((file.equals(RT_RUNTIME_US) || file.equals(RT_PERIOD_US)) && !rules.rtGroupSched()) {
            throw new InvalidValueException("no file " + file + " without RT group scheduling "
                    + "(kernel.rt_group_sched, CONFIG_RT_GROUP_SCHED)", "ENOENT");
        }
    }

    /**
     * The read-back value of a file, as {@code cat} prints it without the newline.
     *
     * @param group a group's state
     * @param file  one of the bandwidth files: {@code cpu.max}, {@code cpu.max.burst}, {@code cpu.cfs_quota_us},
     *              {@code cpu.cfs_period_us}, {@code cpu.cfs_burst_us}
     * @return e.g. {@code "max 100000"}, {@code "-1"}, {@code "0"}
     */
    public static String read(CgroupSpec group, String file) {
        return switch (file) {
            case CPU_MAX -> group.cpuMax().toString();
            case CPU_MAX_BURST, CFS_BURST_US -> Long.toString(group.cpuMaxBurstUs());
            case CFS_QUOTA_US -> Long.toString(group.cpuMax().limited() ? group.cpuMax().quotaUs() : -1);
            case CFS_PERIOD_US -> Long.toString(group.cpuMax().periodUs());
            default -> throw new IllegalArgumentException("not a bandwidth file: " + file);
        };
    }

    /** tg_set_cfs_bandwidth() for a v1 write: the value checks, then __cfs_schedulable() over the tree. */
    /** tg_set_cfs_bandwidth() and __sched_group_set_shares() refuse the root task group (EINVAL). */
    private static void refuseRoot(boolean root, String file) {
        if (root) throw einval("the root cgroup's " + file + " cannot be written (root_task_group)");
    }

    private static CgroupSpec setBandwidthV1(CgroupSpec group, long periodUs, long quotaUs, long burstUs, Hierarchy h) {
        checkBandwidth(periodUs, quotaUs, burstUs);
        if (h != null) cfsSchedulableV1(h, group.path(), periodUs, quotaUs);
        return group.withCpuMax(new CpuMax(quotaUs, periodUs)).withBurstUs(burstUs);
    }

    /** {@code to_ratio()} of a cgroup v1 quota/period in µs, {@code (quota << 20) / period}; -1 for no limit. */
    static long ratio(long periodUs, long quotaUs) {
        if (quotaUs == CpuMax.MAX) return -1;
        return BigInteger.valueOf(quotaUs).shiftLeft(20).divide(BigInteger.valueOf(periodUs)).longValueExact();
    }

    /**
     * {@code __cfs_schedulable()} on cgroup v1 (kernel/sched/core.c): walking the tree, every limited group's
     * {@code (quota << 20) / period} must not exceed its parent's hierarchical quota (the nearest limited
     * ancestor's ratio); an unlimited group inherits its parent's. Only the target's new ratio against its
     * ancestors and its descendants against the target can change, so only those are checked.
     *
     * @throws InvalidValueException {@code EINVAL} naming the group above its parent
     */
    static void cfsSchedulableV1(Hierarchy h, String target, long periodUs, long quotaUs) {
        long parentHq = hierarchicalQuota(h, CgroupTree.parent(target));
        long own = ratio(periodUs, quotaUs);
        if (own >= 0 && parentHq >= 0 && own > parentHq) {
            throw new StateRefusal("quota/period " + quotaUs + "/" + periodUs + " us (ratio " + own + ") exceeds the parent's ("
                    + parentHq + ", " + nearestLimited(h, CgroupTree.parent(target)) + "); cgroup v1 keeps a child at or below its parent", "EINVAL");
        }
        checkChildren(h, target, own >= 0 ? own : parentHq);
    }

    private static void checkChildren(Hierarchy h, String path, long hq) {
        for (String child : h.children(path)) {
            CgroupSpec c = h.state(child);
            long r = ratio(c.cpuMax().periodUs(), c.cpuMax().quotaUs());
            if (r >= 0 && hq >= 0 && r > hq) {
                throw new StateRefusal("child " + child + " at " + c.cpuMax() + " (ratio " + r + ") would exceed this group's ratio "
                        + hq + "; cgroup v1 keeps a child at or below its parent", "EINVAL");
            }
            checkChildren(h, child, r >= 0 ? r : hq);
        }
    }

    /** hierarchical_quota: the ratio of the nearest limited group at or above {@code path}, or -1. */
    private static long hierarchicalQuota(Hierarchy h, String path) {
        for (String p = path; !p.equals("/"); p = CgroupTree.parent(p)) {
            CgroupSpec s = h.state(p);
            if (s != null && s.cpuMax().limited()) return ratio(s.cpuMax().periodUs(), s.cpuMax().quotaUs());
        }
        return -1;
    }

    private static String nearestLimited(Hierarchy h, String path) {
        for (String p = path; !p.equals("/"); p = CgroupTree.parent(p)) {
            CgroupSpec s = h.state(p);
            if (s != null && s.cpuMax().limited()) return p + " at " + s.cpuMax().quotaUs() + " " + s.cpuMax().periodUs();
        }
        return "/";
    }

    /**
     * A write to the root group's {@code cpu.rt_runtime_us} or {@code cpu.rt_period_us} (v1, RT group scheduling):
     * what tg_set_rt_bandwidth() and tg_rt_schedulable() refuse (kernel/sched/rt.c) is refused with their errno, as
     * for a child: a root runtime of 0 ("it would disallow the kernel creating RT threads"), a runtime above the
     * period, a ratio above the global {@code sched_rt_runtime_us}/{@code sched_rt_period_us} (the root starts at
     * them, def_rt_bandwidth). A write the kernel takes is refused without an errno, as not modelled: the root's RT
     * bandwidth is the scenario's {@code kernel.sched_rt_runtime_us} and {@code kernel.sched_rt_period_us}.
     *
     * @param runtimeUs the root's runtime after the write (-1 for RUNTIME_INF)
     * @param periodUs  the root's period after the write
     * @param changed   {@code runtime} or {@code period}: the sysctl to set instead
     */
    private static void rootRt(long runtimeUs, long periodUs, Rules rules, String changed) {
        if (runtimeUs == 0) {
            throw einval("the root group's rt_runtime cannot be 0: it would disallow the kernel's RT threads"
                    + " (tg_set_rt_bandwidth)");
        }
        checkRtRatio(runtimeUs, periodUs, rules);
        throw new InvalidValueException("writing the root group's RT bandwidth is not modelled (the kernel takes "
                + "this write); set kernel.sched_rt_" + changed + "_us", null);
    }

    /** tg_rt_schedulable()'s checks of one group's own runtime and period (kernel/sched/rt.c). */
    private static void checkRtRatio(long runtimeUs, long periodUs, Rules rules) {
        if (runtimeUs >= 0 && runtimeUs > periodUs) {
            throw einval("rt_runtime " + runtimeUs + " us exceeds rt_period " + periodUs + " us");
        }
        BigInteger global = rtRatio(rules.schedRtPeriodUs(), rules.schedRtRuntimeUs());
        if (rtRatio(periodUs, runtimeUs).compareTo(global) > 0) {
            throw einval("rt_runtime/rt_period " + runtimeUs + "/" + periodUs + " exceeds the global sched_rt_runtime_us/"
                    + "sched_rt_period_us " + rules.schedRtRuntimeUs() + "/" + rules.schedRtPeriodUs());
        }
    }

    /**
     * tg_set_rt_bandwidth() then __rt_schedulable() (kernel/sched/rt.c): runtime at most the period, every group
     * at most the global {@code sched_rt_runtime_us}/{@code sched_rt_period_us} ratio, and the children's ratios
     * summed at most their parent's (the root's is the global one).
     */
    private static CgroupSpec setRtBandwidth(CgroupSpec group, long runtimeUs, long periodUs, Rules rules, Hierarchy h) {
        checkRtRatio(runtimeUs, periodUs, rules);
        BigInteger global = rtRatio(rules.schedRtPeriodUs(), rules.schedRtRuntimeUs());
        BigInteger own = rtRatio(periodUs, runtimeUs);
        if (h != null) {
            if (runtimeUs == 0 && group.rtRuntimeUs() != 0 && h.hasRtTasks(group.path())) {
                throw new StateRefusal("rt_runtime 0 would starve the RT tasks in " + group.path(), "EBUSY");
            }
            String parent = CgroupTree.parent(group.path());
            BigInteger parentRatio = parent.equals("/") ? global
                    : rtRatio(h.state(parent).rtPeriodUs(), h.state(parent).rtRuntimeUs());
            BigInteger sum = own;
            for (String sib : h.children(parent)) {
                if (sib.equals(group.path())) continue;
                CgroupSpec s = h.state(sib);
                sum = sum.add(rtRatio(s.rtPeriodUs(), s.rtRuntimeUs()));
            }
            if (sum.compareTo(parentRatio) > 0) {
                throw new StateRefusal(parent.equals("/")
                        ? "the RT bandwidth of the root's children would exceed the global sched_rt_runtime_us/sched_rt_period_us "
                                + rules.schedRtRuntimeUs() + "/" + rules.schedRtPeriodUs()
                        : "the RT bandwidth of " + parent + "'s children would exceed " + parent + "'s", "EINVAL");
            }
            BigInteger kids = BigInteger.ZERO;
            for (String child : h.children(group.path())) {
                CgroupSpec s = h.state(child);
                kids = kids.add(rtRatio(s.rtPeriodUs(), s.rtRuntimeUs()));
            }
            if (kids.compareTo(own) > 0) {
                throw new StateRefusal("the RT bandwidth of " + group.path() + "'s children exceeds the new value", "EINVAL");
            }
        }
        return group.withRt(runtimeUs, periodUs);
    }

    /**
     * Why an RT policy is refused for a task of {@code group} under RT group scheduling ({@code EPERM} from
     * {@code sched_setscheduler()}, whose check is {@code task_group(p)->rt_bandwidth.rt_runtime == 0}).
     * @param group the task's group, whose RT runtime is 0
     * @param rules the cgroup version
     * @return the reason, for a problem or an {@code actions} entry
     */
    public static String rtRefusal(String group, Rules rules) {
        return rules.cgroupVersion() == 1
                ? "cgroup " + group + " has no RT runtime (cpu.rt_runtime_us is 0) under RT group scheduling"
                : "RT group scheduling gives cgroup " + group + " no RT runtime, and cgroup v2 has no cpu.rt_runtime_us; "
                        + "RT tasks stay in the root";
    }

    /** to_ratio() of RT bandwidth in ns: BW_UNIT for no limit. */
    private static BigInteger rtRatio(long periodUs, long runtimeUs) {
        if (runtimeUs < 0) return BigInteger.ONE.shiftLeft(20);
        return BigInteger.valueOf(runtimeUs).multiply(BigInteger.valueOf(1000)).shiftLeft(20)
                .divide(BigInteger.valueOf(periodUs).multiply(BigInteger.valueOf(1000)));
    }

    /** sched_weight_to_cgroup(): the cpu.weight a v1 group's shares correspond to, 1..10000. */
    static int weightOfShares(long shares) {
        long w = Math.round(shares * (double) DEFAULT_WEIGHT / 1024);
        return (int) Math.max(MIN_WEIGHT, Math.min(MAX_WEIGHT, w));
    }

    /**
     * {@code kstrtoll(buf, 0, &v)} as cgroup_file_write() calls it for s64 files (lib/kstrtox.c): one trailing newline
     * allowed (echo's), then an optional {@code -} or {@code +} and kstrtoull's digits; no other white space, before or
     * after (the buffer is not stripped: {@code " -1"} and {@code "-1 "} are EINVAL).
     */
    /**
     * The written text as the file's parser sees it: kernfs_fop_write_iter() NUL-terminates the buffer and every
     * parser (sscanf, kstrtoull) reads a C string, so a write stops at its first NUL byte ({@code "100\0"} is 100;
     * {@code "50000\0 5000"} is a quota with the period kept).
     */
    static byte[] asCString(byte[] value) {
        for (int i = 0; i < value.length; i++) if (value[i] == 0) return java.util.Arrays.copyOf(value, i);
        return value;
    }

    /** kernfs's buffer for one write: {@code atomic_write_len} of cgroup_kf_ops, PAGE_SIZE (4096 bytes on x86-64). */
    public static final int PAGE_SIZE = 4096;

    /**
     * A written value (bytes, or one character per byte) as a message shows it: at most 40 bytes, a byte outside printable
     * ASCII as {@code \xNN} (as printf writes it).
     */
    public static String shown(byte[] bytes) {
        int n = bytes.length > 0 && bytes[bytes.length - 1] == '\n' ? bytes.length - 1 : bytes.length; // echo's newline
        return shown(new String(bytes, 0, n, java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    static String shown(String bytes) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(40, bytes.length()); i++) {
            char ch = bytes.charAt(i);
            if (ch >= 0x20 && ch < 0x7f) b.append(ch);
            else b.append(String.format("\\x%02x", (int) ch & 0xff));
        }
        return bytes.length() > 40 ? b + "…" : b.toString();
    }

    private static long s64(String value, String what) {
        String t = value == null ? "" : value;
        if (t.endsWith("\n")) t = t.substring(0, t.length() - 1);
        String shown = shown(t);
        boolean neg = t.startsWith("-");
        BigInteger v = neg ? (t.startsWith("-+") ? null : kstrtoull(t.substring(1))) : kstrtoull(t);
        if (v == null) throw einval(what + " \"" + shown + "\" is not a number");
        if (neg) v = v.negate();
        if (v.bitLength() > 63) throw new InvalidValueException(what + " " + shown + " is out of range of s64", "ERANGE");
        return v.longValueExact();
    }

    /** How a kernel's cgroup files behave: the cgroup version and the era switches that change them. */
    public record Rules(int cgroupVersion, String version, boolean burst, boolean burstUnitsBug, boolean rtGroupSched,
                        long schedRtRuntimeUs, long schedRtPeriodUs, boolean cpuStatLocal) {
        /** cgroup v2 on the default kernel (6.18). */
        public static final Rules V2 = new Rules(2, KernelVersions.DEFAULT, true, false, false, 950_000, 1_000_000);

        /** Rules with {@code cpu.stat.local} as the release has it (6.6+, 677ea015f231). */
        public Rules(int cgroupVersion, String version, boolean burst, boolean burstUnitsBug, boolean rtGroupSched,
                     long schedRtRuntimeUs, long schedRtPeriodUs) {
            this(cgroupVersion, version, burst, burstUnitsBug, rtGroupSched, schedRtRuntimeUs, schedRtPeriodUs,
                    atLeast(version, 6, 6));
        }

        /**
         * Whether {@code cpu.max} parses its quota in µs and compares it with RUNTIME_INF as it is (6.17+: the µs
         * interface of tg_set_bandwidth(), kernel/sched/core.c), so that {@code 18446744073709551615} is {@code max}.
         */
        public boolean quotaU64MaxIsMax() { return atLeast(version, 6, 17); }

        /**
         * Whether cgroup v2 has the cpu controller's files: 4.15+ (0d5936344f30 gave the cpu controller its cgroup2
         * interface, cpu.max, cpu.weight, cpu.weight.nice and cpu.stat's bandwidth keys; 041cd640b2f3, in the same
         * release, cpu.stat's usage keys). On 4.14 a cgroup2 directory has no cpu.* file at all.
         */
        public boolean v2CpuFiles() { return atLeast(version, 4, 15); }

        /** @return these rules for cgroup version {@code v} (1 or 2) */
        public Rules withCgroupVersion(int v) {
            return new Rules(v, version, burst, burstUnitsBug, rtGroupSched, schedRtRuntimeUs, schedRtPeriodUs,
                    cpuStatLocal);
        }

        /** @return the rules of a scenario's kernel */
        public static Rules of(KernelSpec k) {
            return new Rules(k.cgroupVersion(), k.version(), k.burst(), k.burstUnitsBug(), k.rtGroupSched(),
                    k.schedRtRuntimeUs(), k.schedRtPeriodUs(), k.cpuStatLocal());
        }
    }

    /**
     * @param version a kernel version as a scenario names it (release, distribution alias, tip-2026)
     * @return whether its base release is at least {@code major.minor} (tip-2026 is newer than every release)
     */
    static boolean atLeast(String version, int major, int minor) {
        if (version == null) return true;
        if (version.startsWith("tip")) return true;
        String base = KernelVersions.baseOf(version);
        String[] p = base.split("\\.");
        try {
            int ma = Integer.parseInt(p[0]), mi = p.length > 1 ? Integer.parseInt(p[1]) : 0;
            return ma > major || (ma == major && mi >= minor);
        } catch (NumberFormatException unknown) {
            return true;
        }
    }

    /**
     * Files a kernel's cgroup directory holds that the simulator does not model, by name: cgroup core's
     * ({@code cgroup.procs}, {@code cgroup.events}, …, v1's {@code tasks}) and the cpu controller's other files
     * ({@code cpu.idle}, {@code cpu.uclamp.min}, {@code cpu.stat}, …), with the release that added each.
     * Reads and writes of them answer alike (404 {@code ENOENT} naming this), and a mkdir of such a name is
     * {@code EEXIST} as the directory holds the file.
     *
     * @param file  a name
     * @param rules the kernel's era and cgroup version
     * @return why it cannot be read or written here, or null if it is no such kernel file
     */
    public static String notModelled(String file, Rules rules) {
        boolean v1 = rules.cgroupVersion() == 1;
        if (file.equals(CPU_STAT_LOCAL)) {
            // 677ea015f231 (6.6) added it to both versions (cgroup_base_files' cpu.stat.local: throttled_usec;
            // cpu_legacy_files' stat.local: throttled_time, ns); it is there when the scenario's kernel has it, the
            // kernel.cpu_stat_local switch (its release's, or a distribution's backport), as a run prints it
            if (!rules.cpuStatLocal()) {
                return "no file " + file + " on kernel " + rules.version() + " (6.6+, 677ea015f231; this scenario's"
                        + " kernel.cpu_stat_local is false)";
            }
            return file + " is a kernel file (6.6+, 677ea015f231) of a running system: a scenario has no run's"
                    + " statistics; a run of it shows them in GET /api/runs/{id}/cpu.stat";
        }
        String[][] known = {
                // name, cgroup version (0 both), since
                {"cpu.idle", "0", "5.15"}, {"cpu.uclamp.min", "0", "5.3"}, {"cpu.uclamp.max", "0", "5.3"},
                {"cpu.stat", "1", "4.14"}, {"cpu.stat", "2", "4.15"},
                {"cpu.weight.nice", "2", "4.15"},
                {"cpu.pressure", "2", "4.20"}, {"cgroup.procs", "0", "4.14"}, {"cgroup.controllers", "2", "4.14"},
                {"cgroup.subtree_control", "2", "4.14"}, {"cgroup.events", "2", "4.14"}, {"cgroup.type", "2", "4.14"},
                {"cgroup.threads", "2", "4.14"}, {"cgroup.max.depth", "2", "4.14"}, {"cgroup.max.descendants", "2", "4.14"},
                {"cgroup.stat", "2", "4.14"}, {"cgroup.freeze", "2", "5.2"}, {"cgroup.kill", "2", "5.14"},
                {"cgroup.pressure", "2", "6.5"}, {"tasks", "1", "4.14"}, {"notify_on_release", "1", "4.14"},
                {"cgroup.clone_children", "1", "4.14"},
        };
        for (String[] k : known) {
            if (!k[0].equals(file)) continue;
            int version = Integer.parseInt(k[1]);
            if (version != 0 && version != rules.cgroupVersion() && java.util.Arrays.stream(known)
                    .anyMatch(o -> o[0].equals(file) && Integer.parseInt(o[1]) == rules.cgroupVersion())) {
                continue; // the file exists in both versions, from different releases: this version's entry decides
            }
            if (version != 0 && version != rules.cgroupVersion()) {
                return "no file " + file + " on cgroup v" + rules.cgroupVersion() + " (a cgroup v" + version + " file)";
            }
            String[] since = k[2].split("\\.");
            if (!atLeast(rules.version(), Integer.parseInt(since[0]), Integer.parseInt(since[1]))) {
                return "no file " + file + " on kernel " + rules.version() + " (" + k[2] + "+)";
            }
            return file + " is a kernel file (" + k[2] + "+) that the simulator does not model; its files are "
                    + String.join(", ", files(rules)) + (v1 ? "" : "") + " (tasks move with the tasks and timeline API)";
        }
        if (file.startsWith("cpu.") || file.startsWith("cgroup.")) {
            return "no file " + file + " in a cgroup; the simulator's files are " + String.join(", ", files(rules));
        }
        return null;
    }

    /** The other groups as they are at the time of a write, for cgroup v1's hierarchical checks. */
    public interface Hierarchy {
        /** @return the state of the group at {@code path} (not the root) */
        CgroupSpec state(String path);

        /** @return the children of {@code path} ({@code "/"} for the root's) */
        List<String> children(String path);

        /** @return whether RT tasks are in the group now (EBUSY on taking its RT runtime away) */
        default boolean hasRtTasks(String path) { return false; }
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
     * A new group's state on a cgroup v1 hierarchy: unlimited, shares 1024, no RT runtime (a new group's
     * {@code rt_runtime} is 0 under RT group scheduling).
     * @param path the group's path
     * @return the group
     */
    public static CgroupSpec newGroupV1(String path) {
        return new CgroupSpec(path, CpuMax.DEFAULT, 0, DEFAULT_WEIGHT, DEFAULT_SHARES, 0, DEFAULT_RT_PERIOD_US);
    }

    /**
     * {@code kstrtoull(buf, 0, &v)} as cgroup_file_write() calls it for u64 files: an optional '+', then
     * {@code 0x}/{@code 0X} hex, a leading {@code 0} octal, or decimal; one trailing newline allowed (echo's).
     */
    private static BigInteger u64(String value, String what) {
        String t = value == null ? "" : value;
        if (t.endsWith("\n")) t = t.substring(0, t.length() - 1);
        String shown = shown(t);
        BigInteger v = kstrtoull(t);
        if (v == null) throw einval(what + " \"" + shown + "\" is not an unsigned number");
        if (v.compareTo(U64_MAX) > 0) throw new InvalidValueException(what + " " + shown + " is out of range of u64", "ERANGE");
        return v;
    }

    /**
     * kstrtoull() with base 0 (lib/kstrtox.c): null when malformed. Every digit counts, leading zeros too, however
     * many (_parse_integer() reads them all; only the value can overflow: ERANGE, by the caller); the length is
     * bounded by the write's ({@value #PAGE_SIZE} bytes).
     */
    static BigInteger kstrtoull(String t) {
        if (t.startsWith("+")) t = t.substring(1);
        if (t.isEmpty()) return null;
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
