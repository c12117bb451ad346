package io.cfslab.scenario;

import static io.cfslab.scenario.ParseContext.type;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.JsonNodeFactory;

/** The scenario's {@code kernel} section: the version switches and sysctls ({@link KernelSpec}). */
final class KernelSection {
    private KernelSection() {}

    static KernelSpec parse(CheckedObject top, ParseContext c) {
        JsonNode n = top.get("kernel");
        CheckedObject o = n == null ? null : c.obj(n, "/kernel");
        if (o == null) o = new CheckedObject(JsonNodeFactory.instance.objectNode(), "/kernel");
        KernelSpec.Throttle throttle = c.enumValue(o, "throttle", KernelSpec.Throttle.class, KernelSpec.Throttle.TASK);
        KernelSpec.Unthrottle unthrottle = c.enumValue(o, "unthrottle", KernelSpec.Unthrottle.class, KernelSpec.Unthrottle.ASYNC);
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
                KernelSpec.TimerPlacement.RANDOM);
        KernelSpec.Preempt preempt = c.enumValue(o, "preempt", KernelSpec.Preempt.class, KernelSpec.Preempt.VOLUNTARY);
        KernelSpec.ListInsert li = c.enumValue(o, "throttled_list_insert", KernelSpec.ListInsert.class, KernelSpec.ListInsert.TAIL);
        boolean expiry = c.bool(o, "slice_expiry", false);
        KernelSpec.ThrottledClockStart tcs = c.enumValue(o, "throttled_clock_start", KernelSpec.ThrottledClockStart.class,
                throttle == KernelSpec.Throttle.CFS_RQ ? KernelSpec.ThrottledClockStart.NONEMPTY
                        : KernelSpec.ThrottledClockStart.FIRST_PARK);
        long rtPeriod = c.integer(o, "sched_rt_period_us", 1_000_000, 1, Integer.MAX_VALUE);
        long rtRuntime = c.integer(o, "sched_rt_runtime_us", 950_000, -1, Integer.MAX_VALUE);
        if (rtRuntime > rtPeriod) {
            c.add(o.at("sched_rt_runtime_us"), "sched_rt_runtime_us " + rtRuntime + " exceeds sched_rt_period_us "
                    + rtPeriod, "EINVAL");
        }
        o.finish(c);
        return new KernelSpec(throttle, unthrottle, (int) hz, slice, tp, preempt, li, expiry, tcs, rtRuntime, rtPeriod);
    }
}
