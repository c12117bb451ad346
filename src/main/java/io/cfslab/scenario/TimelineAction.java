package io.cfslab.scenario;

import java.util.BitSet;

/** {@code timeline[]} entries: shell actions at a simulated time {@code atNs}. */
public sealed interface TimelineAction {
    /** @return when the action happens, simulated ns from the start of the run */
    long atNs();

    /**
     * {@code echo value > path/file}.
     * @param cgroup cgroup path, e.g. {@code /a}
     * @param file   {@code cpu.max}, {@code cpu.max.burst} or {@code cpu.weight}
     * @param value  the raw value, already checked to be well-formed for {@code file}
     */
    record Write(long atNs, String cgroup, String file, String value) implements TimelineAction { }

    /** Writing every instance of task entry {@code task} to {@code to}/cgroup.procs. */
    record Move(long atNs, String task, String to) implements TimelineAction { }

    /** {@code taskset -p} on every instance of {@code task}. */
    record Taskset(long atNs, String task, BitSet cpus) implements TimelineAction { }

    /** {@code chrt -p} on every instance of {@code task}; priority 0 for normal/batch/idle. */
    record Chrt(long atNs, String task, TaskSpec.Policy policy, int priority) implements TimelineAction { }
}
