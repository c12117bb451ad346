package io.cfslab.scenario;

/**
 * One cgroup (cgroup v2, cpu controller enabled).
 *
 * @param path        absolute path, e.g. {@code /1/1_1}; never {@code /}
 * @param cpuMax      {@code cpu.max}
 * @param cpuMaxBurstUs {@code cpu.max.burst}, µs (0 default)
 * @param cpuWeight   {@code cpu.weight} 1..10000 (default 100)
 */
public record CgroupSpec(String path, CpuMax cpuMax, long cpuMaxBurstUs, int cpuWeight) {
}
