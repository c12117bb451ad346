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

    /**
     * @param cgroupVersion 1 or 2, as the scenario's files say ({@link CgroupsSection#cgroupVersion})
     */
    static KernelSpec parse(CheckedObject top, ParseContext c, int cgroupVersion) {
        JsonNode n = top.get("kernel");
        CheckedObject o = n == null ? null : c.obj(n, "/kernel");
        if (o == null) o = new CheckedObject(JsonNodeFactory.instance.objectNode(), "/kernel");
        String version = c.string(o, "version", KernelVersions.DEFAULT);
        KernelVersions.Switches v = KernelVersions.of(version);
        if (v == null) {
            if (version != null) {
                c.add(o.at("version"), "unknown kernel version \"" + version + "\"; one of " + KernelVersions.accepted(),
                        null);
            }
            version = KernelVersions.DEFAULT;
            v = KernelVersions.of(version);
        }
        KernelSpec.Throttle throttle = c.enumValue(o, "throttle", KernelSpec.Throttle.class, v.throttle());
        KernelSpec.Unthrottle unthrottle = c.enumValue(o, "unthrottle", KernelSpec.Unthrottle.class, v.unthrottle());
        long hz = c.integer(o, "hz", 1000, 1, 100_000);
        if (hz != 100 && hz != 250 && hz != 300 && hz != 1000) {
            c.add(o.at("hz"), "hz must be 100, 250, 300 or 1000 (CONFIG_HZ), not " + hz, null);
            hz = 1000;
        }
        JsonNode sl = o.get("bandwidth_slice_us");
        long slice = 5000;
        if (sl != null) {
            if (!sl.isIntegralNumber()) {
                c.add(o.at("bandwidth_slice_us"), "must be an integer, not " + type(sl), null);
            } else if (!sl.canConvertToLong() || sl.longValue() < 1 || sl.longValue() > Integer.MAX_VALUE) {
                // the sysctl's own range check (sched_cfs_bandwidth_slice_us, proc_dointvec_minmax)
                c.add(o.at("bandwidth_slice_us"), "sched_cfs_bandwidth_slice_us " + sl + " is outside 1.."
                        + Integer.MAX_VALUE, "EINVAL");
            } else {
                slice = sl.longValue();
            }
        }
        KernelSpec.TimerPlacement tp = c.enumValue(o, "timer_placement", KernelSpec.TimerPlacement.class,
                v.timerPlacement());
        KernelSpec.Preempt preempt = c.enumValue(o, "preempt", KernelSpec.Preempt.class, KernelSpec.Preempt.VOLUNTARY);
        KernelSpec.ListInsert li = c.enumValue(o, "throttled_list_insert", KernelSpec.ListInsert.class, v.listInsert());
        boolean expiry = c.bool(o, "slice_expiry", v.sliceExpiry());
        boolean stale = c.bool(o, "stale_expiry", v.staleExpiry());
        KernelSpec.PeriodOverrun overrun = c.enumValue(o, "period_overrun", KernelSpec.PeriodOverrun.class,
                v.periodOverrun());
        boolean burst = c.bool(o, "burst", v.burst());
        boolean burstStats = c.bool(o, "burst_stats", v.burstStats());
        boolean burstUnitsBug = c.bool(o, "burst_units_bug", v.burstUnitsBug());
        boolean statLocal = c.bool(o, "cpu_stat_local", v.cpuStatLocal());
        KernelSpec.ThrottledClockStart tcs = c.enumValue(o, "throttled_clock_start", KernelSpec.ThrottledClockStart.class,
                clockStartFor(throttle, v));
        boolean rtGroupSched = c.bool(o, "rt_group_sched", false);
        long rtPeriod = c.integer(o, "sched_rt_period_us", 1_000_000, 1, Integer.MAX_VALUE);
        long rtRuntime = c.integer(o, "sched_rt_runtime_us", 950_000, -1, Integer.MAX_VALUE);
        if (rtRuntime > rtPeriod) {
            c.add(o.at("sched_rt_runtime_us"), "sched_rt_runtime_us " + rtRuntime + " exceeds sched_rt_period_us "
                    + rtPeriod, "EINVAL");
        }
        o.finish(c);
        return new KernelSpec(version, throttle, unthrottle, (int) hz, slice, tp, preempt, li, expiry, stale, overrun,
                burst, burstStats, burstUnitsBug, statLocal, tcs, rtGroupSched, rtRuntime, rtPeriod, cgroupVersion);
    }

    /**
     * When throttled time starts counting, if not given: the version's rule for its own throttle model; a task
     * model counts from the first park (the only time its tasks leave the CPU), and the cfs_rq model on a
     * version that has the task model counts as 6.6–6.17 did.
     */
    private static KernelSpec.ThrottledClockStart clockStartFor(KernelSpec.Throttle throttle, KernelVersions.Switches v) {
        if (throttle != KernelSpec.Throttle.CFS_RQ) return KernelSpec.ThrottledClockStart.FIRST_PARK;
        return v.clockStart() == KernelSpec.ThrottledClockStart.FIRST_PARK ? KernelSpec.ThrottledClockStart.NONEMPTY
                : v.clockStart();
    }
}
