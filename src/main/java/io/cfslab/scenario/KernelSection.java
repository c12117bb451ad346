package io.cfslab.scenario;

import static io.cfslab.scenario.ParseContext.type;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/**
 * The scenario's {@code kernel} section: {@code version} (a release or a distribution alias, {@link KernelVersions})
 * sets every version switch; each explicit key overrides its switch ({@link KernelSpec}).
 */
final class KernelSection {
    private KernelSection() {}

    /** The CONFIG_HZ choices {@code kernel.hz} accepts. */
    static final java.util.List<Long> HZ = java.util.List.of(100L, 250L, 300L, 1000L);

    /**
     * @param cgroupVersion 1 or 2, as the scenario's files say ({@link CgroupsSection#cgroupVersion})
     */
    private static String hintOf(String version) {
        String hint = KernelVersions.hint(version);
        return hint == null ? "" : hint + "; ";
    }

    static KernelSpec parse(CheckedObject top, ParseContext c, int cgroupVersion) {
        JsonNode n = top.get("kernel");
        CheckedObject o = n == null ? null : c.obj(n, "/kernel");
        if (o == null) o = new CheckedObject(JsonNodeFactory.instance.objectNode(), "/kernel");
        String version = version(o, c);
        KernelVersions.Switches v = KernelVersions.of(version);
        if (v == null) {
            if (version != null) {
                String stable = KernelVersions.stableRelease(version);
                c.add(o.at("version"), stable != null
                        ? "kernel version \"" + version + "\" is a stable update: versions name a release as first "
                        + "published (x.y or x.y.0), without stable backports; use \"" + stable + "\" or a distribution alias"
                        : "unknown kernel version " + ParseContext.echoed(version) + "; " + hintOf(version) + "one of "
                        + KernelVersions.accepted(), null);
            }
            version = KernelVersions.DEFAULT;
            v = KernelVersions.of(version);
        }
        KernelSpec.Throttle throttle = c.enumValue(o, "throttle", KernelSpec.Throttle.class, v.throttle());
        KernelSpec.Unthrottle unthrottle = c.enumValue(o, "unthrottle", KernelSpec.Unthrottle.class, v.unthrottle());
        // one refusal for every integer that is not a CONFIG_HZ choice (breaker 6 F12: 0 was "outside 1..100000",
        // which suggested 5000 was allowed); a build option, which no write refuses: no errno
        long hz = c.integer(o, "hz", 1000, Long.MIN_VALUE, Long.MAX_VALUE);
        if (!HZ.contains(hz)) {
            c.add(o.at("hz"), "hz must be 100, 250, 300 or 1000 (CONFIG_HZ), not " + hz, null);
            hz = 1000;
        }
        // the sysctl's own range check (sched_cfs_bandwidth_slice_us, proc_dointvec_minmax: EINVAL)
        long slice = c.sysctl(o, "bandwidth_slice_us", 5000, 1, Integer.MAX_VALUE);
        KernelSpec.TimerPlacement tp = c.enumValue(o, "timer_placement", KernelSpec.TimerPlacement.class,
                v.timerPlacement());
        boolean tickAligned = c.bool(o, "tick_aligned", v.tickAligned());
        KernelSpec.Preempt preempt = c.enumValue(o, "preempt", KernelSpec.Preempt.class, KernelSpec.Preempt.VOLUNTARY);
        KernelSpec.ListInsert li = c.enumValue(o, "throttled_list_insert", KernelSpec.ListInsert.class, v.listInsert());
        boolean expiry = c.bool(o, "slice_expiry", v.sliceExpiry());
        boolean stale = c.bool(o, "stale_expiry", v.staleExpiry());
        KernelSpec.PeriodOverrun overrun = c.enumValue(o, "period_overrun", KernelSpec.PeriodOverrun.class,
                v.periodOverrun());
        boolean burst = c.bool(o, "burst", v.burst());
        // without the burst files (before 5.14, or burst: false) there is nothing to count or to mis-scale: the
        // other two follow, and an explicit true for either contradicts burst: false
        boolean burstStats = burstFeature(o, c, "burst_stats", burst, v.burstStats());
        boolean burstUnitsBug = burstFeature(o, c, "burst_units_bug", burst, v.burstUnitsBug());
        boolean statLocal = c.bool(o, "cpu_stat_local", v.cpuStatLocal());
        KernelSpec.ThrottledClockStart tcs = c.enumValue(o, "throttled_clock_start", KernelSpec.ThrottledClockStart.class,
                clockStartFor(throttle, v));
        if (tcs == KernelSpec.ThrottledClockStart.FIRST_PARK && throttle == KernelSpec.Throttle.CFS_RQ) {
            // eb962f251fbb starts the clock when a throttled hierarchy's first task parks on its way to user mode;
            // the cfs_rq model dequeues the group entity instead and parks no task, so the clock would never start
            c.add(o.at("throttled_clock_start"), "throttled_clock_start first-park needs a task-based throttle model "
                    + "(task or task-account): throttle cfs_rq parks no task, so throttled time would never be counted; "
                    + "use throttle or nonempty with cfs_rq", null);
            tcs = KernelSpec.ThrottledClockStart.NONEMPTY;
        }
        KernelSpec.ThrottledLb lb = c.enumValue(o, "throttled_lb", KernelSpec.ThrottledLb.class,
                throttle == KernelSpec.Throttle.CFS_RQ ? KernelSpec.ThrottledLb.PAIR : KernelSpec.ThrottledLb.DST);
        if (lb != KernelSpec.ThrottledLb.PAIR && throttle == KernelSpec.Throttle.CFS_RQ) {
            // the cfs_rq model leaves a throttled cfs_rq's tasks queued, unable to run until the unthrottle: every
            // kernel with it kept them in place with throttled_lb_pair()
            c.add(o.at("throttled_lb"), "throttled_lb " + ScenarioParser.jsonName(lb) + " needs a task-based throttle "
                    + "model (task or task-account): with throttle cfs_rq the tasks of a throttled cfs_rq stay queued "
                    + "and cannot run, and every such kernel kept them in place with throttled_lb_pair(); use pair", null);
            lb = KernelSpec.ThrottledLb.PAIR;
        }
        // 152e11f6df29 (6.12); modelled in the task-based models only (FairRq), so the default follows the version
        boolean delayDequeue = c.bool(o, "delay_dequeue", delayDequeueFor(version));
        // not set by the version: none unless asked for (docs/kernel-eras.md: a pair of pipe tasks sharing a CPU
        // then switches at every message, an event each); when asked for, the rule must be the version's
        KernelSpec.WakeupPreemption wakeup = c.enumValue(o, "wakeup_preemption", KernelSpec.WakeupPreemption.class,
                KernelSpec.WakeupPreemption.NONE);
        KernelSpec.WakeupPreemption versionRule = wakeupPreemptionOf(version);
        if (wakeup != KernelSpec.WakeupPreemption.NONE && wakeup != versionRule) {
            c.add(o.at("wakeup_preemption"), "wakeup_preemption " + ScenarioParser.jsonName(wakeup) + " is not kernel "
                    + version + "'s rule: EEVDF's pick from 6.6 (147f3efaa241), CFS's wake-up granularity before; use "
                    + ScenarioParser.jsonName(versionRule) + " or none", null);
            wakeup = KernelSpec.WakeupPreemption.NONE;
        }
        // select_task_rq_fair()'s want_affine, wake_wide() and wake_affine() are in every version the model knows
        boolean wakeAffine = c.bool(o, "wake_affine", true);
        // wake_affine_weight() has compared PELT loads since 4.15; the counts are the model's older stand-in
        KernelSpec.WakeAffineLoad wakeAffineLoad = c.enumValue(o, "wake_affine_load", KernelSpec.WakeAffineLoad.class,
                KernelSpec.WakeAffineLoad.RUNNABLE);
        // not set by the version: every version the model knows balances by sched_balance_rq()'s rules (docs/scenarios.md)
        KernelSpec.PeriodicBalance periodicBalance = c.enumValue(o, "periodic_balance", KernelSpec.PeriodicBalance.class,
                KernelSpec.PeriodicBalance.DEFAULT);
        boolean rtGroupSched = c.bool(o, "rt_group_sched", false);
        // sched_rt_handler(): proc_dointvec_minmax() (period at least 1, runtime at least -1) and
        // sched_rt_global_validate() refuse with EINVAL
        long rtPeriod = c.sysctl(o, "sched_rt_period_us", 1_000_000, 1, Integer.MAX_VALUE);
        long rtRuntime = c.sysctl(o, "sched_rt_runtime_us", 950_000, -1, Integer.MAX_VALUE);
        if (rtRuntime > rtPeriod) {
            c.add(o.at("sched_rt_runtime_us"), "sched_rt_runtime_us " + rtRuntime + " exceeds sched_rt_period_us "
                    + rtPeriod, "EINVAL");
        }
        o.finish(c);
        return new KernelSpec(version, throttle, unthrottle, (int) hz, slice, tp, tickAligned, preempt, li, expiry, stale, overrun,
                burst, burstStats, burstUnitsBug, statLocal, tcs, lb, delayDequeue, wakeup, wakeAffine, wakeAffineLoad, periodicBalance, rtGroupSched, rtRuntime, rtPeriod, cgroupVersion);
    }

    /**
     * {@code kernel.version}: a string; {@code x.y.0} is the release {@code x.y} as first published. A number is
     * refused with the reason: an unquoted {@code 6.10} in YAML or JSON is the number 6.1, not the release 6.10.
     *
     * @return the version, normalised ({@code "6.10.0"} → {@code "6.10"}); the default if absent; null on a problem
     */
    private static String version(CheckedObject o, ParseContext c) {
        JsonNode n = o.get("version");
        if (n != null && n.isNumber()) {
            c.add(o.at("version"), "kernel version must be a string, not the number " + n + ": an unquoted version "
                    + "is read as a decimal number (6.10 becomes 6.1); write it in quotes, such as \"6.10\"", null);
            return null;
        }
        String version = c.string(o, "version", KernelVersions.DEFAULT);
        return KernelVersions.normalise(version);
    }

    /**
     * A burst-dependent switch ({@code burst_stats}, {@code burst_units_bug}): follows {@code burst} when that is
     * off; an explicit {@code true} while {@code burst} is off is a contradiction (problem).
     */
    private static boolean burstFeature(CheckedObject o, ParseContext c, String key, boolean burst, boolean versionDefault) {
        boolean value = c.bool(o, key, burst && versionDefault);
        if (value && !burst) {
            c.add(o.at(key), key + " true contradicts burst false: without the burst files (cpu.max.burst, "
                    + "cpu.cfs_burst_us, 5.14+) there is no burst to count or to scale", null);
            return false;
        }
        return value;
    }

    /**
     * When throttled time starts counting, if not given: the version's rule for its own throttle model; a task
     * model counts from the first park (the only time its tasks leave the CPU), and the cfs_rq model on a
     * version that has the task model counts as 6.6–6.17 did.
     */
    /** DELAY_DEQUEUE from 6.12 (152e11f6df29), in distributions by their base release, and in tip-2026. */
    private static boolean delayDequeueFor(String version) {
        String base = KernelVersions.baseOf(version);
        return KernelVersions.TIP_2026.equals(base) || KernelVersions.code(base) >= KernelVersions.code("6.12");
    }

    /** The version's wake-up preemption rule: EEVDF's from 6.6 (147f3efaa241), in distributions by their base release; CFS's before. */
    private static KernelSpec.WakeupPreemption wakeupPreemptionOf(String version) {
        String base = KernelVersions.baseOf(version);
        return KernelVersions.TIP_2026.equals(base) || KernelVersions.code(base) >= KernelVersions.code("6.6")
                ? KernelSpec.WakeupPreemption.EEVDF : KernelSpec.WakeupPreemption.CFS;
    }

    private static KernelSpec.ThrottledClockStart clockStartFor(KernelSpec.Throttle throttle, KernelVersions.Switches v) {
        if (throttle != KernelSpec.Throttle.CFS_RQ) return KernelSpec.ThrottledClockStart.FIRST_PARK;
        return v.clockStart() == KernelSpec.ThrottledClockStart.FIRST_PARK ? KernelSpec.ThrottledClockStart.NONEMPTY
                : v.clockStart();
    }
}
