package io.cfslab.workload;

/**
 * What one task does, as a sequence of stretches: run in user mode, run in kernel mode, sleep, block until
 * woken, exit. The kernel model asks for the next stretch each time the previous one ends; the workload
 * keeps its own per-task state (one instance per task) and may wake other tasks through the context
 * (how a pipe write wakes a reader). Implementations must not allocate in {@link #next}.
 */
public interface Workload {

    /**
     * Writes the task's next stretch into {@code out}.
     *
     * @param ctx    the running simulation (time, waking other tasks)
     * @param out    holder to fill
     */
    void next(WorkloadContext ctx, Segment out);

    /** The workload's benchmark figures for its task entry, or none. */
    default boolean reportsCompletion() { return false; }

    /**
     * Whether the workload repeats run stretches separated by sleeps (or back to back), whose wall times the
     * result reports as {@code iteration_wall_us}: the loop body an application would time.
     */
    default boolean iterates() { return false; }
}
