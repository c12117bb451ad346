package io.cfslab.scenario;

import java.util.BitSet;

/** {@code timeline[]} entries: shell actions at a simulated time {@code atNs}. */
public sealed interface TimelineAction {
    /** @return when the action happens, simulated ns from the start of the run */
    long atNs();

    /** @return the action in the scenario's words, as the result's {@code actions} name it: {@code write /a/cpu.max 50000 100000} */
    String describe();

    /**
     * {@code echo value > path/file}.
     * @param cgroup cgroup path, e.g. {@code /a}
     * @param file   a cpu controller file of the scenario's cgroup version, e.g. {@code cpu.max}
     * @param value  the raw value, already checked to be well-formed for {@code file}
     */
    record Write(long atNs, String cgroup, String file, String value) implements TimelineAction {
        @Override public String describe() { return "write " + (cgroup.equals("/") ? "" : cgroup) + "/" + file + " " + value; }
    }

    /** Writing every instance of task entry {@code task} to {@code to}/cgroup.procs. */
    record Move(long atNs, String task, String to) implements TimelineAction {
        @Override public String describe() { return "move " + task + " " + to; }
    }

    /** {@code taskset -p} on every instance of {@code task}. */
    record Taskset(long atNs, String task, BitSet cpus) implements TimelineAction {
        @Override public String describe() { return "taskset " + task + " " + CpuLists.format(cpus); }
    }

    /** {@code chrt -p} on every instance of {@code task}; priority 0 for normal/batch/idle. */
    record Chrt(long atNs, String task, TaskSpec.Policy policy, int priority) implements TimelineAction {
        @Override public String describe() {
            return "chrt " + task + " " + ScenarioParser.jsonName(policy) + " " + priority;
        }
    }

    /** {@code kill -KILL} every instance of {@code task}: each exits the next time it runs in the kernel. */
    record Kill(long atNs, String task) implements TimelineAction {
        @Override public String describe() { return "kill " + task; }
    }

    /** {@code rmdir} of a cgroup; refused ({@code EBUSY}) while tasks are in it. */
    record Rmdir(long atNs, String cgroup) implements TimelineAction {
        @Override public String describe() { return "rmdir " + cgroup; }
    }
}
