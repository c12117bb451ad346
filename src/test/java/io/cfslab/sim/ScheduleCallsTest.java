package io.cfslab.sim;

import io.cfslab.metrics.SimulationResult.MachineStats;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code __schedule()} calls ({@code machine.sched_calls}) and context switches on hand-computed cases: one
 * {@code generic} CPU, exact time, HZ 1000 (base slice 0.75 ms), the period timer aligned to 0 so that the first
 * refill comes at 100 ms, after the 60 ms run; 1.5 ms of quota, all of it used by the 2 ms tick, which finds the group
 * 0.5 ms in debt and throttles it (at put_prev_entity()'s check_cfs_rq_runtime()); nothing is unthrottled.
 */
class ScheduleCallsTest {

    private static final String MACHINE_AND_KERNEL = """
              "machine": { "profile": "generic", "cpus": 1, "exact_time": true },
              "kernel": { "throttle": "%s", "hz": 1000, "timer_placement": "aligned", "tick_aligned": true },
              "cgroups": [ { "path": "/g", "cpu.max": "1500 100000" } ],
            """;

    private static String hogs(String throttle, int k) {
        return hogs(throttle, k, "60ms");
    }

    private static String hogs(String throttle, int k, String duration) {
        return "{ \"name\": \"hogs\", \"seed\": 1, \"duration\": \"" + duration + "\","
                + MACHINE_AND_KERNEL.formatted(throttle)
                + "\"tasks\": [ { \"name\": \"h\", \"cgroup\": \"/g\", \"count\": " + k
                + ", \"workload\": { \"kind\": \"hog\" } } ] }";
    }

    /** A hog and a task that runs 100 µs and sleeps 5 ms, in /g, for 60 ms. */
    private static String hogAndSleeper(String throttle) {
        return "{ \"name\": \"hog and sleeper\", \"seed\": 1, \"duration\": \"60ms\","
                + MACHINE_AND_KERNEL.formatted(throttle)
                + """
                  "tasks": [ { "name": "h", "cgroup": "/g", "workload": { "kind": "hog" } },
                             { "name": "p", "cgroup": "/g", "workload": { "kind": "periodic", "run": "100us", "sleep": "5ms" } } ] }
                """;
    }

    /**
     * k hogs in /g. Both models: a call at 0 (the forks' reschedule of the idle CPU picks hog 0), with k &ge; 2 one at
     * the 1 ms tick (hog 0's slice is over: hog 1 runs), and one at the 2 ms tick (the throttle). Task-based (6.18):
     * the throttle's call picks a hog of the throttled hierarchy, which returns to user mode, runs its throttle task
     * work ({@code throttle_cfs_rq_work()}: dequeue_task_fair(), resched_curr()) and calls {@code __schedule()}
     * again, which picks the next: one more call per park, the running hog's own included (picked again without a
     * switch when it is the only one, it runs the task work on its way out of exit_to_user_mode_loop() and calls
     * schedule() from there). With k &ge; 2 the picks take the hogs that have not run (vruntime 0) and then hogs 0
     * and 1 (1 ms each, the one put back last behind), so the CPU switches to each of the k hogs in turn.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void aTaskBasedThrottleMakesOneCallPerParkTheRunningTasksIncluded(int k) {
        MachineStats m = Scenarios.run(hogs("task", k)).machine();
        int slice = k >= 2 ? 1 : 0;
        assertThat(m.parks()).isEqualTo(k);
        assertThat(m.schedCalls()).as("start, slice, throttle, and each park's task-work call").isEqualTo(2 + slice + k);
        assertThat(m.contextSwitches()).as("idle to hog 0, hog 0 to hog 1, then to each parking hog")
                .isEqualTo(1 + slice + (k >= 2 ? k : 0));
    }

    /** The same k hogs per cfs_rq: the throttle's call dequeues the hierarchy in one go and goes idle. */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void aPerCfsRqThrottleDequeuesTheHierarchyInOneCall(int k) {
        MachineStats m = Scenarios.run(hogs("cfs_rq", k)).machine();
        int slice = k >= 2 ? 1 : 0;
        assertThat(m.parks()).isZero();
        assertThat(m.schedCalls()).isEqualTo(2 + slice);
        assertThat(m.contextSwitches()).isEqualTo(1 + slice);
    }

    /**
     * The same k hogs run on to 100.5 ms: the period timer at 100 ms refills the quota, pays the 0.5 ms debt and
     * unthrottles /g on the idle CPU. Task-based, tg_unthrottle_up() puts the k parked hogs back one by one with
     * enqueue_task_fair(ENQUEUE_WAKEUP), which neither calls wakeup_preempt() nor reschedules, and
     * unthrottle_cfs_rq() then resched_curr()s the CPU once because it is idle with something queued; per-cfs_rq, the
     * group entity goes back with its k hogs and the same one reschedule. Either way one call (a switch to a hog), not
     * one per task: the unthrottle costs no more calls under task-based throttling than per cfs_rq.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void anUnthrottleReschedulesTheIdleCpuOnceWhateverItsParkedTasks(int k) {
        int slice = k >= 2 ? 1 : 0;
        for (String throttle : new String[] {"task", "cfs_rq"}) {
            MachineStats before = Scenarios.run(hogs(throttle, k)).machine();
            MachineStats after = Scenarios.run(hogs(throttle, k, "100500us")).machine();
            assertThat(after.parks()).as(throttle).isEqualTo(before.parks());
            assertThat(after.schedCalls() - before.schedCalls()).as(throttle).isEqualTo(1);
            assertThat(after.contextSwitches() - before.contextSwitches()).as(throttle).isEqualTo(1);
            assertThat(before.schedCalls()).as(throttle).isEqualTo(2 + slice + (throttle.equals("task") ? k : 0));
        }
    }

    /**
     * A hog and a task that runs 100 µs and sleeps 5 ms: calls at 0 (hog), at the 1 ms tick (slice: the sleeper
     * runs), at 1.1 ms (it sleeps: the hog again) and at the 2 ms tick (the throttle). The sleeper wakes at 6.1 ms
     * into the throttled hierarchy of the now idle CPU, and wakeup_preempt() resched_curr()s the idle task (fair is
     * above idle). Per-cfs_rq: the wakee's cfs_rq is off the rq, so the idle task's __schedule(SM_IDLE) finds
     * {@code nr_running == 0} and keeps the idle task: a 5th call, no switch (3 in all). Task-based: the throttle's
     * call parks the hog (a 5th call from its task work); the wakee is queued, so the idle CPU's call (6th) picks it,
     * it returns to user mode and parks (7th); switches: idle to hog, to sleeper, to hog, idle to sleeper.
     */
    @ParameterizedTest
    @ValueSource(strings = {"cfs_rq", "task"})
    void aWakeUpIntoAThrottledHierarchyReschedulesTheIdleCpu(String throttle) {
        MachineStats m = Scenarios.run(hogAndSleeper(throttle)).machine();
        boolean task = throttle.equals("task");
        assertThat(m.throttledWakeups()).isEqualTo(1);
        assertThat(m.parks()).isEqualTo(task ? 2 : 0);
        assertThat(m.schedCalls()).isEqualTo(task ? 7 : 5);
        assertThat(m.contextSwitches()).isEqualTo(task ? 4 : 3);
    }

    /**
     * {@code machine.sched_goidle} (schedstat's count of picks that switch the CPU to idle) on the k hogs: one call
     * leaves the CPU idle in either model, the throttle's own per cfs_rq (the hierarchy goes off the rq in one go),
     * the last park's task-work call task-based (each earlier park's call picks the next hog); the unthrottle at 100 ms
     * picks a hog, which adds none.
     */
    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4})
    void onePickLeavesTheCpuIdleAtTheThrottleInEitherModel(int k) {
        for (String throttle : new String[] {"task", "cfs_rq"}) {
            assertThat(Scenarios.run(hogs(throttle, k)).machine().schedGoidle()).as(throttle).isEqualTo(1);
            assertThat(Scenarios.run(hogs(throttle, k, "100500us")).machine().schedGoidle()).as(throttle).isEqualTo(1);
        }
    }

    /**
     * The hog and the sleeper of {@link #aWakeUpIntoAThrottledHierarchyReschedulesTheIdleCpu}: per cfs_rq the throttle's
     * call goes idle (1) and the wake-up's empty {@code __schedule(SM_IDLE)} keeps the idle task without a pick, which
     * schedstat does not count; task-based the hog's park goes idle (1), the wakee is picked, and its own park goes
     * idle again (2).
     */
    @ParameterizedTest
    @ValueSource(strings = {"cfs_rq", "task"})
    void anEmptyIdleCallIsNotAGoidle(String throttle) {
        MachineStats m = Scenarios.run(hogAndSleeper(throttle)).machine();
        assertThat(m.schedGoidle()).isEqualTo(throttle.equals("task") ? 2 : 1);
        assertThat(m.newidleLbGained()).as("one CPU: nothing to pull").isZero();
    }
}
