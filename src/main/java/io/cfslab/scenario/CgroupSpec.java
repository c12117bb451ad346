package io.cfslab.scenario;

/**
 * One cgroup with the cpu controller: the state of its files in cgroupfs units. cgroup v2 and v1 name the same
 * kernel state differently ({@code cpu.max} is {@code cpu.cfs_quota_us} + {@code cpu.cfs_period_us},
 * {@code cpu.max.burst} is {@code cpu.cfs_burst_us}); {@link CgroupFiles} reads and writes both.
 *
 * @param path          absolute path, e.g. {@code /1/1_1}; never {@code /}
 * @param cpuMax        quota and period ({@code cpu.max}; v1 {@code cpu.cfs_quota_us}, {@code cpu.cfs_period_us})
 * @param cpuMaxBurstUs burst, µs ({@code cpu.max.burst}; v1 {@code cpu.cfs_burst_us}; 0 default)
 * @param cpuWeight     {@code cpu.weight} 1..10000 (default 100; v2)
 * @param cpuShares     {@code cpu.shares} 2..262144 (default 1024; v1), or 0 for a v2 group (its weight decides)
 * @param rtRuntimeUs   {@code cpu.rt_runtime_us} (v1 with RT group scheduling; -1 = no limit; default 0)
 * @param rtPeriodUs    {@code cpu.rt_period_us} (default 1000000)
 */
public record CgroupSpec(String path, CpuMax cpuMax, long cpuMaxBurstUs, int cpuWeight, long cpuShares,
                         long rtRuntimeUs, long rtPeriodUs) {

    /** A cgroup v2 group: no {@code cpu.shares}, RT group bandwidth at its defaults. */
    public CgroupSpec(String path, CpuMax cpuMax, long cpuMaxBurstUs, int cpuWeight) {
        this(path, cpuMax, cpuMaxBurstUs, cpuWeight, 0, 0, CgroupFiles.DEFAULT_RT_PERIOD_US);
    }

    /** @return this group with another quota and period */
    public CgroupSpec withCpuMax(CpuMax m) {
        return new CgroupSpec(path, m, cpuMaxBurstUs, cpuWeight, cpuShares, rtRuntimeUs, rtPeriodUs);
    }

    /** @return this group with another burst, µs */
    public CgroupSpec withBurstUs(long b) {
        return new CgroupSpec(path, cpuMax, b, cpuWeight, cpuShares, rtRuntimeUs, rtPeriodUs);
    }

    /** @return this group with other RT bandwidth, µs */
    public CgroupSpec withRt(long runtimeUs, long periodUs) {
        return new CgroupSpec(path, cpuMax, cpuMaxBurstUs, cpuWeight, cpuShares, runtimeUs, periodUs);
    }
}
