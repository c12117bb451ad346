package io.cfslab.scenario;

import java.util.List;

/**
 * A validated scenario (contract v1, {@code docs/contract.md}), with every default filled in
 * and every {@code generate} entry expanded into {@link #cgroups()}.
 *
 * @param name       free text
 * @param seed       seed of the run's single random source
 * @param durationNs simulated time to run, nanoseconds (&gt; 0)
 * @param machine    topology and cost profile
 * @param kernel     throttle model, unthrottle mode, HZ, slice and version switches
 * @param cgroups    every group, parents before children (creation order), root excluded
 * @param tasks      the task entries as written, each with its cgroups resolved
 * @param timeline   actions sorted by {@code at} (stable for equal times)
 * @param record     what the result records
 */
public record Scenario(String name, long seed, long durationNs, MachineSpec machine, KernelSpec kernel,
                       List<CgroupSpec> cgroups, List<TaskSpec> tasks, List<TimelineAction> timeline,
                       RecordSpec record) {

    /**
     * @param otherSeed the seed to run with
     * @return this scenario with {@code otherSeed} instead of its own (a repeat, or a {@code --seed} override)
     */
    public Scenario withSeed(long otherSeed) {
        return new Scenario(name, otherSeed, durationNs, machine, kernel, cgroups, tasks, timeline, record);
    }
}
