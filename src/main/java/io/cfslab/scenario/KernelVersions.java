package io.cfslab.scenario;

import io.cfslab.scenario.KernelSpec.ListInsert;
import io.cfslab.scenario.KernelSpec.PeriodOverrun;
import io.cfslab.scenario.KernelSpec.Throttle;
import io.cfslab.scenario.KernelSpec.ThrottledClockStart;
import io.cfslab.scenario.KernelSpec.TimerPlacement;
import io.cfslab.scenario.KernelSpec.Unthrottle;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * {@code kernel.version}: the version switches of each mainline release and distribution kernel. A release is
 * taken as first published (x.y.0, no stable backports); each switch flips at the first release that has the
 * commit that changed it (docs/kernel-eras.md gives the commit and how it was confirmed). A distribution alias is
 * its base release plus the backports that could be confirmed; the others are named as uncertain in
 * docs/kernel-eras.md rather than guessed here.
 *
 * <p>Only what changed between versions is set here: {@code hz}, {@code preempt}, the slice sysctl, the RT
 * sysctls and {@code rt_group_sched} are build or boot options and keep their own defaults.
 */
public final class KernelVersions {
    private KernelVersions() {}

    /** The version when none is given. */
    public static final String DEFAULT = "6.18";
    /** The 2026 tip tree with the series of seed 04 (throttled where runtime is accounted; not merged upstream). */
    public static final String TIP_2026 = "tip-2026";

    /**
     * The version switches of one kernel.
     *
     * @param throttle        throttle model
     * @param unthrottle      unthrottle mode
     * @param timerPlacement  period timer phase
     * @param tickAligned     the tick fires on multiples of the tick period (else at a per-boot offset)
     * @param listInsert      throttled-list insertion
     * @param sliceExpiry     cpu-local runtime expires each period
     * @param staleExpiry     pre-4.18 drift check that throws away fresh runtime after the timer was re-armed
     * @param periodOverrun   period-timer overrun handling
     * @param burst           burst files exist
     * @param burstStats      burst statistics in cpu.stat
     * @param burstUnitsBug   cpu_max_write() makes the burst 1000× smaller
     * @param cpuStatLocal    cpu.stat.local exists
     * @param clockStart      when throttled time starts counting
     */
    public record Switches(Throttle throttle, Unthrottle unthrottle, TimerPlacement timerPlacement,
                           boolean tickAligned, ListInsert listInsert, boolean sliceExpiry, boolean staleExpiry,
                           PeriodOverrun periodOverrun, boolean burst, boolean burstStats, boolean burstUnitsBug,
                           boolean cpuStatLocal, ThrottledClockStart clockStart) {
        Switches withBurstUnitsBug(boolean v) {
            return new Switches(throttle, unthrottle, timerPlacement, tickAligned, listInsert, sliceExpiry, staleExpiry,
                    periodOverrun, burst, burstStats, v, cpuStatLocal, clockStart);
        }

        Switches withTickAligned(boolean v) {
            return new Switches(throttle, unthrottle, timerPlacement, v, listInsert, sliceExpiry, staleExpiry,
                    periodOverrun, burst, burstStats, burstUnitsBug, cpuStatLocal, clockStart);
        }
    }

    /** A distribution kernel: its base release and the backports applied on top. */
    private record Distribution(String base, UnaryOperator<Switches> backports) { }

    /** The releases of contract v1.1, in order; any mainline x.y from 4.14 to 6.18 is accepted too. */
    public static final List<String> RELEASES = List.of("4.14", "4.18", "4.19", "5.4", "5.10", "5.15", "6.1", "6.6",
            "6.8", "6.12", "6.18", TIP_2026);

    private static final Map<String, Distribution> DISTRIBUTIONS = new LinkedHashMap<>();
    static {
        DISTRIBUTIONS.put("rhel8", new Distribution("4.18", s -> s));
        DISTRIBUTIONS.put("rhel9", new Distribution("5.14", s -> s));
        DISTRIBUTIONS.put("ubuntu-20.04", new Distribution("5.4", s -> s));
        // 49217ea147df went to 5.15.y and 6.1.y stable in June 2024 (7454aa6a267d, 10e96210c30d), which the
        // Ubuntu 22.04 and Debian 12 kernels follow; the tick alignment (e9523a0d8189 with 13bb06f8dd42) went to
        // 5.10.y (5.10.180), 5.15.y (5.15.118) and 6.1.y in May–June 2023
        DISTRIBUTIONS.put("ubuntu-22.04", new Distribution("5.15",
                s -> s.withBurstUnitsBug(false).withTickAligned(true)));
        DISTRIBUTIONS.put("ubuntu-24.04", new Distribution("6.8", s -> s));
        DISTRIBUTIONS.put("debian-11", new Distribution("5.10", s -> s.withTickAligned(true)));
        DISTRIBUTIONS.put("debian-12", new Distribution("6.1", s -> s.withBurstUnitsBug(false).withTickAligned(true)));
        DISTRIBUTIONS.put("debian-13", new Distribution("6.12", s -> s));
    }

    /** @return the distribution aliases, in the contract's order */
    public static List<String> distributions() { return List.copyOf(DISTRIBUTIONS.keySet()); }

    /** @return every accepted value, as a problem lists them */
    public static String accepted() {
        List<String> all = new ArrayList<>(RELEASES);
        all.addAll(DISTRIBUTIONS.keySet());
        return String.join(", ", all) + " (or any mainline release 4.14 to 6.18)";
    }

    /**
     * @param version a release ({@code "5.4"}), {@code tip-2026}, or a distribution alias
     * @return its switches, or null if the version is not known
     */
    public static Switches of(String version) {
        if (version == null) return null;
        Distribution d = DISTRIBUTIONS.get(version);
        if (d != null) return d.backports().apply(release(d.base()));
        return release(version);
    }

    /**
     * A version as {@link #of} takes it: {@code "x.y.0"} (the release as first published, as {@code uname -r}
     * prints it) becomes {@code "x.y"}; anything else is returned as given.
     *
     * @param version a version string, or null
     * @return the normalised version, or null
     */
    public static String normalise(String version) {
        if (version != null && version.endsWith(".0") && code(version.substring(0, version.length() - 2)) >= 0) {
            return version.substring(0, version.length() - 2);
        }
        return version;
    }

    /**
     * @param version a version string
     * @return the release {@code x.y} if {@code version} is a stable update {@code x.y.z} (z &gt; 0) of a known
     *         release, else null
     */
    public static String stableRelease(String version) {
        if (version == null || !version.matches("[456]\\.[0-9]{1,2}\\.[1-9][0-9]{0,3}")) return null;
        String release = version.substring(0, version.lastIndexOf('.'));
        return code(release) >= 0 ? release : null;
    }

    /**
     * What a refused version most likely meant, for the problem's text: an alias or release written with other
     * case, spaces or a leading {@code v} ({@code "RHEL 8"}, {@code "Ubuntu 22.04"}, {@code "v5.4"}); a release
     * candidate ({@code "5.4-rc1"}: the release it leads to); or a distribution kernel's {@code uname -r}
     * ({@code "4.18.0-513.el8.x86_64"}, {@code "5.15.0-91-generic"}, {@code "6.1.0-18-amd64"}: the alias of that
     * distribution and base, else the base release).
     *
     * @param version a version that {@link #of} does not know (after {@link #normalise})
     * @return a sentence to append to the problem, or null when nothing close is known
     */
    public static String hint(String version) {
        if (version == null) return null;
        String compact = compact(version);
        for (String alias : DISTRIBUTIONS.keySet()) {
            if (compact(alias).equals(compact)) return "did you mean \"" + alias + "\"? (aliases are lower case, as listed)";
        }
        String bare = compact.startsWith("v") ? compact.substring(1) : compact;
        String release = normalise(bare);
        if (of(release) != null && !release.equals(version)) return "did you mean \"" + release + "\"?";
        java.util.regex.Matcher rc = java.util.regex.Pattern.compile("v?([456]\\.[0-9]{1,2})(\\.0)?-rc[0-9]+").matcher(version);
        if (rc.matches() && code(rc.group(1)) >= 0) {
            return "release candidates are not modelled: \"" + rc.group(1) + "\" is the release it led to (a fix merged"
                    + " after this rc, such as 4929a4e6faa0 in 5.4-rc3, is in it)";
        }
        java.util.regex.Matcher uname = java.util.regex.Pattern.compile("([456]\\.[0-9]{1,2})\\.[0-9]+[-_.+](.*)").matcher(version);
        if (uname.matches() && code(uname.group(1)) >= 0) {
            String base = uname.group(1);
            String suffix = uname.group(2).toLowerCase(java.util.Locale.ROOT);
            String family = suffix.matches("(.*[.])?el[0-9].*") ? "rhel"
                    : suffix.matches(".*(generic|lowlatency|aws|azure|gcp|oracle|kvm).*") ? "ubuntu"
                    : suffix.matches(".*(amd64|arm64|cloud|rt-).*") ? "debian" : null;
            for (Map.Entry<String, Distribution> d : DISTRIBUTIONS.entrySet()) {
                if (d.getValue().base().equals(base) && (family == null || d.getKey().startsWith(family))) {
                    return "this looks like a distribution kernel's uname -r: use the alias \"" + d.getKey()
                            + "\" (" + base + " with the backports docs/kernel-eras.md lists), or \"" + base
                            + "\" with the switches you know set explicitly";
                }
            }
            return "this looks like a distribution or stable kernel's uname -r: use the release \"" + base
                    + "\" with the switches you know set explicitly (its backports are not known here)";
        }
        return null;
    }

    /** Lower case, without white space, dashes or underscores: how two spellings of one alias compare. */
    private static String compact(String s) {
        return s.toLowerCase(java.util.Locale.ROOT).replaceAll("[\\s_-]", "");
    }

    /** The base release of a version: itself for a release, the kernel a distribution ships otherwise. */
    public static String baseOf(String version) {
        Distribution d = DISTRIBUTIONS.get(version);
        return d == null ? version : d.base();
    }

    /** A mainline release x.y as first published, or tip-2026; null if unknown. */
    private static Switches release(String version) {
        if (TIP_2026.equals(version)) {
            Switches s = release(DEFAULT);
            return new Switches(Throttle.TASK_ACCOUNT, s.unthrottle(), s.timerPlacement(), s.tickAligned(), s.listInsert(),
                    s.sliceExpiry(), s.staleExpiry(), s.periodOverrun(), s.burst(), s.burstStats(), s.burstUnitsBug(),
                    s.cpuStatLocal(), s.clockStart());
        }
        int v = code(version);
        if (v < 0) return null;
        return new Switches(
                v >= code("6.18") ? Throttle.TASK : Throttle.CFS_RQ,                    // e1fad12dcb66
                v >= code("6.3") ? Unthrottle.ASYNC : Unthrottle.SYNC,                  // 8ad075c2eb1f
                v >= code("6.4") ? TimerPlacement.RANDOM : TimerPlacement.ALIGNED,      // 41abdba93747
                v < code("4.19") || v >= code("6.4"),                                   // 857baa87b642; e9523a0d8189, 13bb06f8dd42
                v >= code("5.8") ? ListInsert.TAIL                                      // e98fa02c4f2e
                        : v >= code("4.19") ? ListInsert.TAIL_UNLESS_DISTRIBUTING      // baa9be4ffb55
                        : ListInsert.HEAD,                                              // c06f04c70489
                v < code("5.4"),                                                        // de53fd7aedb1
                v < code("4.18"),                                                       // 512ac999d275
                v >= code("5.8") ? PeriodOverrun.SCALE_2_REFILL_FIRST                   // 5a6d6a6ccb5f
                        : v >= code("5.4") ? PeriodOverrun.SCALE_2                      // 4929a4e6faa0
                        : v >= code("5.1") ? PeriodOverrun.SCALE_147_128                // 2e8e19226398
                        : PeriodOverrun.UNLIMITED,
                v >= code("5.14"),                                                      // f4183717b370
                v >= code("5.16"),                                                      // bcb1704a1ed2
                v >= code("5.14") && v < code("6.10"),                                  // 49217ea147df
                v >= code("6.6"),                                                       // 677ea015f231
                v >= code("6.18") ? ThrottledClockStart.FIRST_PARK                      // eb962f251fbb
                        : v >= code("6.6") ? ThrottledClockStart.NONEMPTY               // 79462e8c879a
                        : ThrottledClockStart.THROTTLE);
    }

    /**
     * A mainline release as a comparable number (major × 100 + minor), or -1 if it is not one of 4.14–4.20,
     * 5.0–5.19, 6.0–6.18.
     */
    static int code(String version) {
        if (version == null || !version.matches("[456]\\.(0|[1-9][0-9]?)")) return -1;
        int major = version.charAt(0) - '0';
        int minor = Integer.parseInt(version.substring(2));
        boolean ok = switch (major) {
            case 4 -> minor >= 14 && minor <= 20;
            case 5 -> minor <= 19;
            default -> minor <= 18;
        };
        return ok ? major * 100 + minor : -1;
    }
}
