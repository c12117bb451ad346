package io.cfslab.scenario;

/**
 * A parsed {@code cpu.max} value, cgroupfs units (microseconds).
 *
 * @param quotaUs  quota in µs, or {@link #MAX} for {@code max}
 * @param periodUs period in µs
 */
public record CpuMax(long quotaUs, long periodUs) {
    /** Quota value meaning {@code max} (RUNTIME_INF). */
    public static final long MAX = -1;
    /** Default of a new group: {@code max 100000}. */
    public static final CpuMax DEFAULT = new CpuMax(MAX, 100_000);

    /** @return whether the quota is finite (not {@code max}) */
    public boolean limited() { return quotaUs != MAX; }

    /** As the kernel prints it: {@code "max 100000"} or {@code "50000 100000"}. */
    @Override public String toString() { return (quotaUs == MAX ? "max" : Long.toString(quotaUs)) + " " + periodUs; }
}
