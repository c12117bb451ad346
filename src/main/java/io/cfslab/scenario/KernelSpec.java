package io.cfslab.scenario;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * {@code kernel}: which kernel behaviour to simulate. Every behaviour that changed between kernel
 * versions is an explicit switch here ({@code shared/design/kernel-model.md} §9, {@code docs/kernel-eras.md}),
 * so that a {@code kernel.version} or a distribution alias is just a set of values ({@link KernelVersions}),
 * and each switch can be overridden on its own.
 *
 * @param version               {@code kernel.version} as given (a release such as {@code 5.4}, or a distribution
 *                              alias such as {@code ubuntu-22.04}); {@code 6.18} when not given
 * @param throttle              throttle model
 * @param unthrottle            unthrottle mode
 * @param hz                    scheduler tick frequency, Hz (100, 250, 300 or 1000); a build option, not set by the version
 * @param bandwidthSliceUs      {@code sched_cfs_bandwidth_slice_us}, microseconds (&ge; 1; default 5000)
 * @param timerPlacement        phase of each group's period timer
 * @param tickAligned           the scheduler tick fires on multiples of the tick period (before 4.19, and from 6.4);
 *                              else at an offset drawn once per boot, the same on every CPU (4.19–6.3: 857baa87b642
 *                              left the tick's grid at the boot's arbitrary {@code ktime_get()}; e9523a0d8189 and
 *                              13bb06f8dd42 aligned it again)
 * @param preempt               kernel preemption model: whether kernel-mode execution is preempted at the tick
 *                              (a build/boot option, not set by the version)
 * @param throttledListInsert   where {@code throttle_cfs_rq} inserts into {@code cfs_b->throttled_cfs_rq}
 * @param sliceExpiry           cpu-local runtime expires at the period boundary (before 5.4; de53fd7aedb1 removed it)
 * @param staleExpiry           the drift check of {@code expire_cfs_rq_runtime()} before 4.18 (fixed by 512ac999d275):
 *                              after the period timer went idle and was re-armed, freshly granted local runtime is
 *                              thrown away at every tick
 * @param periodOverrun         what {@code sched_cfs_period_timer()} does when its catch-up loop runs more than 3 rounds
 * @param burst                 {@code cpu.max.burst} / {@code cpu.cfs_burst_us} exist (5.14, f4183717b370)
 * @param burstStats            {@code nr_bursts} and {@code burst_usec}/{@code burst_time} in {@code cpu.stat} (5.16, bcb1704a1ed2)
 * @param burstUnitsBug         {@code cpu_max_write()} passes the burst in µs where ns are expected, so rewriting
 *                              {@code cpu.max} makes the burst 1000× smaller (5.14 until 49217ea147df, 6.10)
 * @param cpuStatLocal          {@code cpu.stat.local} exists (6.6, 677ea015f231)
 * @param throttledClockStart   when {@code throttled_usec} starts counting for a throttled cfs_rq
 * @param throttledLb           which throttled hierarchies {@code can_migrate_task()} keeps the load balancer out of
 * @param delayDequeue          DELAY_DEQUEUE (6.12, 152e11f6df29): an entity that leaves while not eligible stays queued
 *                              until picked, and leaves with its positive lag dropped (DELAY_ZERO). Modelled for the
 *                              group entities above a task that parks, exits, sleeps or migrates, in the task-based
 *                              throttle models only (docs/fidelity.md, "Fifth pass")
 * @param wakeupPreemption      whether and how a woken fair task preempts the running fair task
 *                              ({@code check_preempt_wakeup_fair()}): EEVDF's pick (6.6+, 147f3efaa241), CFS's
 *                              wake-up granularity (before 6.6), or {@code none} (the {@code NO_WAKEUP_PREEMPTION}
 *                              feature), the default: not set by the version (docs/kernel-eras.md), and a rule other
 *                              than the version's is refused
 * @param wakeAffine            wake-affine placement of a task woken by another ({@code select_task_rq_fair()}'s
 *                              {@code want_affine}: {@code wake_wide()}, {@code wake_affine()}), in every version;
 *                              {@code false} leaves every wakee's target at its previous CPU, as the model did before
 * @param wakeAffineLoad        what {@code wake_affine_weight()} compares: the CPUs' runnable counts (the model's
 *                              stand-in, the default) or the kernel's PELT loads ({@code cpu_load()},
 *                              {@code task_h_load()}, in every version); not set by the version
 * @param periodicBalance       the periodic load balance: the model's spreading of runnable counts ({@code counts}) or
 *                              6.18's {@code sched_balance_domains()}/{@code sched_balance_rq()} at each domain's
 *                              interval, with the MRU {@code rq->cfs_tasks} list ({@code kernel}); not set by the version
 * @param rtGroupSched          {@code CONFIG_RT_GROUP_SCHED}: RT tasks are limited per group ({@code cpu.rt_runtime_us});
 *                              a group without RT runtime refuses RT tasks. A build option, not set by the version
 * @param schedRtRuntimeUs      {@code sched_rt_runtime_us} (default 950000; -1 = no RT throttling)
 * @param schedRtPeriodUs       {@code sched_rt_period_us} (default 1000000)
 * @param cgroupVersion         1 or 2: the cgroup hierarchy the scenario's files belong to (not a key: it follows
 *                              from the files a scenario writes)
 */
public record KernelSpec(String version, Throttle throttle, Unthrottle unthrottle, int hz, long bandwidthSliceUs,
                         TimerPlacement timerPlacement, boolean tickAligned, Preempt preempt,
                         ListInsert throttledListInsert, boolean sliceExpiry, boolean staleExpiry, PeriodOverrun periodOverrun, boolean burst,
                         boolean burstStats, boolean burstUnitsBug, boolean cpuStatLocal,
                         ThrottledClockStart throttledClockStart, ThrottledLb throttledLb, boolean delayDequeue,
                         WakeupPreemption wakeupPreemption, boolean wakeAffine,
                         WakeAffineLoad wakeAffineLoad, PeriodicBalance periodicBalance, boolean rtGroupSched, long schedRtRuntimeUs, long schedRtPeriodUs, int cgroupVersion) {

    /**
     * The switches before {@code kernel.version} existed; every switch added since takes its 6.18 value.
     */
    public KernelSpec(Throttle throttle, Unthrottle unthrottle, int hz, long bandwidthSliceUs,
                      TimerPlacement timerPlacement, Preempt preempt, ListInsert throttledListInsert,
                      boolean sliceExpiry, ThrottledClockStart throttledClockStart,
                      long schedRtRuntimeUs, long schedRtPeriodUs) {
        this(KernelVersions.DEFAULT, throttle, unthrottle, hz, bandwidthSliceUs, timerPlacement, true, preempt,
                throttledListInsert, sliceExpiry, false, PeriodOverrun.SCALE_2_REFILL_FIRST, true, true, false, true,
                throttledClockStart, throttle == Throttle.CFS_RQ ? ThrottledLb.PAIR : ThrottledLb.DST, true, WakeupPreemption.NONE, true, WakeAffineLoad.RUNNABLE,
                PeriodicBalance.DEFAULT, false, schedRtRuntimeUs, schedRtPeriodUs, 2);
    }

    /** {@code kernel.throttle}. */
    public enum Throttle {
        /** per-cfs_rq: the group entity is dequeued at throttle (kernels up to 6.17). JSON {@code cfs_rq}. */
        CFS_RQ,
        /** task-based: tasks park on their way back to user mode (6.18). JSON {@code task}. */
        TASK,
        /** task-based, throttled where runtime is accounted (2026 series, seed 04). JSON {@code task-account}. */
        TASK_ACCOUNT
    }

    /** {@code kernel.unthrottle}. */
    public enum Unthrottle {
        /** the timer CPU unthrottles every cfs_rq itself (before 6.3). JSON {@code sync}. */
        SYNC,
        /** remote cfs_rqs are unthrottled by their own CPU after an IPI (6.3+, 8ad075c2eb1f). JSON {@code async}. */
        ASYNC
    }

    /** {@code kernel.wakeup_preemption}. */
    public enum WakeupPreemption {
        /**
         * 6.6+ (EEVDF, 147f3efaa241): the wakee preempts when {@code __pick_eevdf(cfs_rq, protect)} would pick it,
         * which keeps an eligible current within its slice (RUN_TO_PARITY). JSON {@code eevdf}.
         */
        EEVDF,
        /**
         * before 6.6: {@code wakeup_preempt_entity()}, the current's vruntime ahead of the wakee's by more than
         * {@code sysctl_sched_wakeup_granularity} (1 ms × (1 + ilog2(min(cpus, 8)))) scaled to the wakee's weight.
         * JSON {@code cfs}.
         */
        CFS,
        /** the {@code NO_WAKEUP_PREEMPTION} scheduler feature: fair tasks wait for the tick. JSON {@code none}. */
        NONE
    }

    /** {@code kernel.wake_affine_load}. */
    public enum WakeAffineLoad {
        /**
         * runnable task counts in place of loads [INFERRED: equal for nice-0 tasks of equal groups], the
         * instantaneous {@code nr_running}; the default, as the model was before. JSON {@code runnable}.
         */
        RUNNABLE,
        /**
         * the kernel's inputs: PELT {@code cpu_load()} of both CPUs, the waker's and the wakee's load averages
         * (kernel/sched/fair.c since 4.15's wake_affine_weight(), 6.18). JSON {@code pelt}.
         */
        PELT
    }

    /** {@code kernel.periodic_balance}. */
    public enum PeriodicBalance {
        /**
         * the model's own periodic spreading (before branch {@code seeds19}): every 4 ms each LLC, and at the top
         * domain's interval the machine, evens runnable task counts, walking each CPU's task list from its head,
         * without {@code task_hot()}; the list stays in enqueue order. JSON {@code counts}.
         */
        COUNTS,
        /**
         * 6.18's periodic balance ({@code sched_balance_domains()}, kernel/sched/fair.c): each CPU at each of its
         * domains (SMT, MC, PKG, NUMA) at {@code get_sd_balance_interval()}, {@code should_we_balance()},
         * {@code sched_balance_find_src_group()}, {@code sched_balance_find_src_rq()}, {@code detach_tasks()} from
         * the tail of {@code rq->cfs_tasks} (kept MRU at each pick) with {@code task_hot()} and
         * {@code nr_balance_failed}. JSON {@code kernel}.
         */
        KERNEL;

        /** The default. */
        public static final PeriodicBalance DEFAULT = COUNTS;
    }

    /** {@code kernel.timer_placement}. */
    public enum TimerPlacement { RANDOM, ALIGNED, INTERLEAVE, SPREAD }

    /** {@code kernel.preempt}: {@code none}/{@code voluntary} finish kernel sections; {@code full} preempts them. */
    public enum Preempt { NONE, VOLUNTARY, FULL }

    /** {@code kernel.throttled_list_insert}. */
    public enum ListInsert {
        /** always at the tail: the list is FIFO (5.8+, e98fa02c4f2e). */
        TAIL,
        /** always at the head (3.17 to 4.18, c06f04c70489). */
        HEAD,
        /** at the tail, but at the head while a distribution is running (4.19 to 5.7, baa9be4ffb55). */
        TAIL_UNLESS_DISTRIBUTING
    }

    /** {@code kernel.throttled_clock_start}. */
    public enum ThrottledClockStart {
        /** at throttle (up to 6.5). JSON {@code throttle}. */
        THROTTLE,
        /** at throttle if the cfs_rq has queued entities, else at first enqueue (6.6 to 6.17). JSON {@code nonempty}. */
        NONEMPTY,
        /** when the first task of the hierarchy parks (6.18 task-based). JSON {@code first-park}. */
        FIRST_PARK
    }

    /**
     * {@code kernel.throttled_lb}: the throttle check of {@code can_migrate_task()} (kernel/sched/fair.c), which
     * decides whether the load balancer may move a queued task whose group is in a throttled hierarchy on the
     * source or the destination CPU.
     */
    public enum ThrottledLb {
        /** {@code throttled_lb_pair()}: not if throttled on the source or on the destination (per-cfs_rq throttling,
         *  up to 6.17, where a throttled cfs_rq's tasks stay queued and cannot run; also the task-based RFC v1 of
         *  March 2025, which seed 03 ran, and v3's patches 1-4). JSON {@code pair}. */
        PAIR,
        /** {@code lb_throttled_hierarchy(p, dst_cpu)}: not into a throttled hierarchy on the destination; a queued
         *  task may run until it parks, so the source does not matter (6.18, 0d4eaf8caf8c). JSON {@code dst}. */
        DST,
        /** no check: the task-based series from RFC v2 (April 2025, "Remove now obsolete throttled_lb_pair()") to
         *  v3 (July 2025, patch 5 "Get rid of throttled_lb_pair()", 5b726e9bf954 in tip) until 0d4eaf8caf8c, as
         *  seed 00's head ran it. JSON {@code none}. */
        NONE
    }

    /** {@code kernel.period_overrun}: {@code sched_cfs_period_timer()}'s catch-up loop after more than 3 rounds. */
    public enum PeriodOverrun {
        /** no limit: the loop runs as long as it overruns (before 5.1). */
        UNLIMITED,
        /** period and quota scaled by 147/128, period capped at 1 s (5.1 to 5.3, 2e8e19226398). */
        SCALE_147_128,
        /** period, quota (and burst) doubled while the period stays below 1 s (5.4, 4929a4e6faa0); scaled before
         *  the round's refill. */
        SCALE_2,
        /** as {@link #SCALE_2}, with the round's refill before the scaling (5.8+, 5a6d6a6ccb5f). */
        SCALE_2_REFILL_FIRST
    }

    /** @return whether this is a task-based throttle model ({@code task} or {@code task-account}) */
    public boolean taskBased() { return throttle != Throttle.CFS_RQ; }

    /**
     * Every component as the result and the run pages show it: keys in snake_case ({@code bandwidth_slice_us}),
     * enum values in the scenario's words ({@link ScenarioParser#jsonName}), numbers as {@link Integer} when they
     * fit (so the map equals itself after a JSON round trip). Found by reflection: a switch added to this record
     * appears without more code.
     *
     * @return the switches in component order
     */
    public Map<String, Object> switches() {
        Map<String, Object> out = new LinkedHashMap<>();
        for (RecordComponent c : KernelSpec.class.getRecordComponents()) {
            Object v;
            try {
                v = c.getAccessor().invoke(this);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("cannot read " + c.getName(), e);
            }
            if (v instanceof Enum<?> e) v = ScenarioParser.jsonName(e);
            else if (v instanceof Long l && l == l.intValue()) v = l.intValue();
            out.put(snake(c.getName()), v);
        }
        return out;
    }

    /** {@code bandwidthSliceUs} → {@code bandwidth_slice_us}. */
    static String snake(String camel) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < camel.length(); i++) {
            char ch = camel.charAt(i);
            if (Character.isUpperCase(ch)) b.append('_').append(Character.toLowerCase(ch));
            else b.append(ch);
        }
        return b.toString();
    }
}
