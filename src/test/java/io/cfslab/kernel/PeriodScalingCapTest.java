package io.cfslab.kernel;

import io.cfslab.event.EventQueue;
import io.cfslab.machine.MachineProfile;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioParser;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The period timer's scaling near the 1 s maximum period (issue 9: "capped at 1 s"): 2e8e19226398 (5.1–5.3)
 * scales by 147/128 but never past 1 s; 4929a4e6faa0 (5.4+) doubles only while the double stays below 1 s, and
 * otherwise logs that it cannot scale without losing precision and leaves period and quota as they are.
 */
class PeriodScalingCapTest {
    private static final long MS = 1_000_000L;

    record Setup(Kernel kernel, CfsBandwidth bandwidth, int group, List<String> log) { }

    private static Setup setup(String version, long periodMs, long quotaMs) {
        Scenario s = ScenarioParser.parse("{\"duration\": \"1s\", \"machine\": {\"cpus\": 1}, \"kernel\": {\"version\": \""
                + version + "\"}, \"cgroups\": [{\"path\": \"/a\"}]}");
        GroupTree tree = new GroupTree(s.cgroups());
        List<String> log = new ArrayList<>();
        Kernel k = new Kernel(MachineProfile.generic(1, 1, 1), s.kernel(), tree, 0, new EventQueue(),
                new SplittableRandom(1), new KernelObserver() {
                    @Override
                    public void log(long atNs, String message) { log.add(message); }
                });
        int g = tree.indexOf("/a");
        k.setCfsBandwidth(g, periodMs * MS, quotaMs * MS, 0, 0);
        return new Setup(k, k.bandwidth(g), g, log);
    }

    @Test
    void scalingBy147Over128StopsAtOneSecond() {
        Setup s = setup("5.3", 900, 90);
        s.kernel().bwc.scalePeriod(s.bandwidth(), s.group(), 0);
        // 900 ms × 147/128 = 1,033.6 ms: capped at 1 s, the quota by the same 1000/900
        assertThat(s.bandwidth().periodNs).isEqualTo(1000 * MS);
        assertThat(s.bandwidth().quotaNs).isEqualTo(100 * MS);
        assertThat(s.log()).containsExactly(
                "cfs_period_timer[cpu0]: period too short, scaling up (new cfs_period_us 1000000, cfs_quota_us = 100000)");
        // below the cap it is the plain 147/128
        Setup low = setup("5.3", 10, 1);
        low.kernel().bwc.scalePeriod(low.bandwidth(), low.group(), 0);
        assertThat(low.bandwidth().periodNs).isEqualTo(10 * MS * 147 / 128);
    }

    @Test
    void doublingStopsBelowOneSecondAndSaysSo() {
        Setup s = setup("5.4", 400, 40);
        s.kernel().bwc.scalePeriod(s.bandwidth(), s.group(), 0);
        assertThat(s.bandwidth().periodNs).isEqualTo(800 * MS);
        assertThat(s.bandwidth().quotaNs).isEqualTo(80 * MS);
        // 2 × 800 ms would pass 1 s: nothing changes, and the kernel says why
        s.kernel().bwc.scalePeriod(s.bandwidth(), s.group(), 0);
        assertThat(s.bandwidth().periodNs).isEqualTo(800 * MS);
        assertThat(s.bandwidth().quotaNs).isEqualTo(80 * MS);
        assertThat(s.log()).containsExactly(
                "cfs_period_timer[cpu0]: period too short, scaling up (new cfs_period_us = 800000, cfs_quota_us = 80000)",
                "cfs_period_timer[cpu0]: period too short, but cannot scale up without losing precision "
                        + "(cfs_period_us = 800000, cfs_quota_us = 80000)");
    }
}
