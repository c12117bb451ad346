package io.cfslab.sim;

import io.cfslab.metrics.SimulationResult;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Removing a quota during a throttle (cpu.max becomes {@code max}, or v1's cpu.cfs_quota_us {@code -1}):
 * tg_set_cfs_bandwidth() unthrottles every cfs_rq, and unthrottle_cfs_rq() closes the pending throttle into
 * {@code throttled_usec} (kernel-model §5.4). One CPU, HZ=1000, 20 ms of quota on the 100 ms grid: the hog is
 * throttled at the 21 ms tick (the first context switch stole 2 µs, so the 20 ms tick was not yet an overrun);
 * the write at 51 ms closes 30 ms of throttle, which is also the hog's whole run_delay.
 */
class QuotaRemovalTest {

    @ParameterizedTest(name = "{0}, cgroup v{1}")
    @CsvSource({"task, 2", "task, 1", "cfs_rq, 2", "cfs_rq, 1", "task-account, 2"})
    void removingTheQuotaClosesThePendingThrottle(String model, int version) {
        String cgroup = version == 2 ? "{\"path\": \"/a\", \"cpu.max\": \"20000 100000\"}"
                : "{\"path\": \"/a\", \"cpu.cfs_quota_us\": \"20000\", \"cpu.cfs_period_us\": \"100000\"}";
        String write = version == 2 ? "{\"at\": \"51ms\", \"write\": \"/a/cpu.max\", \"value\": \"max 100000\"}"
                : "{\"at\": \"51ms\", \"write\": \"/a/cpu.cfs_quota_us\", \"value\": \"-1\"}";
        String json = """
                { "name": "quota removed during a throttle", "seed": 1, "duration": "200ms",
                  "machine": { "profile": "generic", "cpus": 1, "exact_time": true },
                  "kernel": { "throttle": "%s", "hz": 1000, "timer_placement": "aligned" },
                  "cgroups": [ %s ],
                  "tasks": [ { "name": "hog", "cgroup": "/a", "workload": { "kind": "hog" } } ],
                  "timeline": [ %s ] }""".formatted(model, cgroup, write);
        SimulationResult r = Scenarios.run(json);
        var stat = r.cgroups().get("/a").cpuStat();
        long throttledUs = version == 2 ? stat.throttledUsec() : stat.throttledTime() / 1000;
        assertThat(throttledUs).isEqualTo(51_000 - 21_000);
        assertThat(r.tasks().get("hog").runDelayUsec()).isEqualTo(30_000);
        // unlimited from 51 ms on: it runs to the end
        assertThat(r.tasks().get("hog").usageUsec()).isGreaterThan(200_000 - 30_000 - 10);
    }
}
