package io.cfslab.scenario;

import java.util.BitSet;
import java.util.List;

/**
 * A task entry: {@code countPerCgroup} workload instances in each of {@code cgroups}, each of
 * {@link WorkloadSpec#tasksPerInstance()} tasks (1, but a hackbench process tree or a netperf pair has more). Tasks
 * are named {@code name} when the entry makes one task, else {@code name/0 … name/N-1} in cgroup order, an
 * instance's tasks together in its own order.
 *
 * @param name            task (group) name, unique among entries
 * @param cgroups         resolved cgroup paths ({@code "/"} for the root); {@code leaves:/x} expanded in creation order
 * @param countPerCgroup  workload instances per cgroup (&ge; 1)
 * @param workload        what each task does
 * @param cpusAllowed     allowed CPUs, or null for all
 * @param policy          scheduling policy
 * @param rtPriority      1..99 for {@code rr}/{@code fifo}, else 0
 */
public record TaskSpec(String name, List<String> cgroups, int countPerCgroup, WorkloadSpec workload,
                       BitSet cpusAllowed, Policy policy, int rtPriority) {

    /** Total number of tasks this entry makes. */
    public int total() { return instances() * workload.tasksPerInstance(); }

    /** Workload instances this entry makes: {@code countPerCgroup} in each cgroup. */
    public int instances() { return cgroups.size() * countPerCgroup; }

    /** Name of task {@code i} (0-based) per the contract. */
    public String instanceName(int i) { return total() == 1 ? name : name + "/" + i; }

    /** {@code policy}: {@code normal}, {@code batch}, {@code idle}, {@code rr}, {@code fifo}. */
    public enum Policy { NORMAL, BATCH, IDLE, RR, FIFO;
        /** @return whether this is an RT policy ({@code rr}, {@code fifo}) that needs a priority 1..99 */
        public boolean realtime() { return this == RR || this == FIFO; }
    }
}
