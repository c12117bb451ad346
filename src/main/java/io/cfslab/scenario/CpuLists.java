package io.cfslab.scenario;

import java.util.BitSet;

/**
 * CPU lists in the {@code taskset -c} syntax ({@code "0-3,8"}, {@code "1"}, {@code "0-15:2"} with a
 * stride), as util-linux {@code cpulist_parse()} reads them, then checked as
 * {@code sched_setaffinity()} would on the simulated machine (kernel/sched/syscalls.c, v6.18):
 * a CPU that the machine does not have is {@code EINVAL} here (stricter than the kernel, which only
 * refuses a mask with no online CPU).
 */
public final class CpuLists {
    private CpuLists() {}

    /**
     * Syntax only, CPUs bounded by {@link Limits#MAX_CPUS}.
     * @param list e.g. {@code "0-3,8"}
     * @return the CPUs (non-empty)
     * @throws InvalidValueException {@code EINVAL}
     */
    public static BitSet parse(String list) {
        return parse(list, Limits.MAX_CPUS);
    }

    /**
     * @param list e.g. {@code "0-3,8"} or {@code "0-15:2"}
     * @param cpus the machine's number of CPUs; every CPU listed must be below it
     * @return the CPUs (non-empty)
     * @throws InvalidValueException {@code EINVAL} when empty, malformed, reversed or naming a missing CPU
     */
    public static BitSet parse(String list, int cpus) {
        String t = list == null ? "" : list.trim();
        if (t.isEmpty()) throw einval("empty CPU list");
        BitSet set = new BitSet();
        for (String item : t.split(",", -1)) {
            String it = item.trim();
            if (it.isEmpty()) throw einval("empty item in CPU list \"" + t + "\"");
            int stride = 1;
            int colon = it.indexOf(':');
            if (colon >= 0) {
                stride = number(it.substring(colon + 1), t);
                if (stride < 1) throw einval("stride 0 in CPU list \"" + t + "\"");
                it = it.substring(0, colon);
                if (it.indexOf('-') < 0) throw einval("a stride needs a range in CPU list \"" + t + "\"");
            }
            int dash = it.indexOf('-');
            int lo, hi;
            if (dash >= 0) {
                lo = number(it.substring(0, dash), t);
                hi = number(it.substring(dash + 1), t);
                if (lo > hi) throw einval("range " + lo + "-" + hi + " is reversed");
            } else {
                lo = hi = number(it, t);
            }
            if (hi >= cpus) throw einval("CPU " + hi + " does not exist (machine has " + Plural.of(cpus, "CPU") + ")");
            for (int c = lo; c <= hi; c += stride) set.set(c);
        }
        return set;
    }

    /**
     * The compact list form, e.g. {@code "0-3,8"}; {@code parse(format(s)).equals(s)}.
     * @param cpus a non-empty set
     * @return the list
     */
    public static String format(BitSet cpus) {
        StringBuilder sb = new StringBuilder();
        for (int lo = cpus.nextSetBit(0); lo >= 0; ) {
            int hi = cpus.nextClearBit(lo) - 1;
            if (sb.length() > 0) sb.append(',');
            sb.append(lo);
            if (hi > lo) sb.append('-').append(hi);
            lo = cpus.nextSetBit(hi + 1);
        }
        return sb.toString();
    }

    private static int number(String s, String list) {
        String t = s.trim();
        if (t.isEmpty() || t.length() > 9 || !t.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
            throw einval("\"" + s + "\" is not a CPU number in CPU list \"" + list + "\"");
        }
        return Integer.parseInt(t);
    }

    private static InvalidValueException einval(String reason) { return new InvalidValueException(reason, "EINVAL"); }
}
