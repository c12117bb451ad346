package io.cfslab.kernel;

import io.cfslab.event.EventQueue;
import io.cfslab.machine.CacheTransferCosts;
import io.cfslab.machine.CostModel;
import io.cfslab.machine.IpcCosts;
import io.cfslab.machine.MachineProfile;
import io.cfslab.machine.SmtCurve;
import io.cfslab.machine.Topology;
import io.cfslab.scenario.Scenario;
import io.cfslab.scenario.ScenarioParser;
import io.cfslab.scenario.TaskSpec;
import io.cfslab.workload.Workloads;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an async {@code distribute_cfs_runtime()} call costs the timer CPU for the remote cfs_rqs it reaches: the
 * kernel takes each entry's {@code rq_lock_irqsave()} before looking at it (6.2+ through 6.18), a lock line the
 * remote CPU last wrote, so each entry reached costs the profile's line latency between the two CPUs (0 inside an
 * LLC, {@code cross_llc_line_ns} across LLCs of a socket, {@code cross_socket_line_ns} across sockets). A call
 * that stops early because the pool is spent (seed 03's short calls) pays only for the entries it reached.
 * Machine: 2 sockets × 2 LLCs × 2 cores, no SMT; one hog pinned to each CPU, quota on their group.
 */
class AsyncDistributeCostTest {
    private static final CacheTransferCosts COSTS = new CacheTransferCosts(60, 170, 4, 100);
    private static final Topology TOPO = new Topology(8, 1, 2, 2, false);

    record Call(long atNs, int cpu, long durationNs, int rqs, int remoteRqs) { }

    @Test
    void eachRemoteEntryReachedCostsItsRqLockLine() {
        List<Call> priced = run(COSTS, "20000 100000");
        List<Call> free = run(CacheTransferCosts.NONE, "20000 100000");
        // the first call is the same walk in both runs (same seed, nothing has diverged yet): every throttled
        // cfs_rq reached, the 7 remote ones each locked once
        Call a = priced.get(0), b = free.get(0);
        assertThat(a.rqs()).isEqualTo(8);
        assertThat(a.remoteRqs()).isEqualTo(7);
        assertThat(b.remoteRqs()).isEqualTo(7);
        long expected = 0;
        for (int c = 0; c < 8; c++) expected += COSTS.lineNs(TOPO, c, a.cpu());
        assertThat(expected).as("1 CPU of its LLC free, 2 across LLCs, 4 across sockets").isEqualTo(2 * 60 + 4 * 170);
        assertThat(a.durationNs() - b.durationNs()).isEqualTo(expected);
    }

    @Test
    void aCallThatRunsOutOfQuotaPaysOnlyForTheEntriesItReached() {
        // 3 ms of quota a period for 8 hogs: the debts left at a boundary (a tick each, HZ 1000) use up the pool
        // before the walk's end, so calls reach fewer than the 8 cfs_rqs
        List<Call> priced = run(COSTS, "3000 100000");
        List<Call> free = run(CacheTransferCosts.NONE, "3000 100000");
        Call a = priced.get(0), b = free.get(0);
        assertThat(a.rqs()).isEqualTo(b.rqs());
        long extra = a.durationNs() - b.durationNs();
        assertThat(extra).as("a lock line for each remote entry reached, at most 170 ns").isPositive()
                .isLessThanOrEqualTo(170L * a.remoteRqs() + 170L);
        assertThat(priced).as("some call stops before the end of the list").anyMatch(c -> c.rqs() < 8);
    }

    /** The distribute calls of 350 ms: 8 hogs, one pinned per CPU, async unthrottle, task-based throttle. */
    private static List<Call> run(CacheTransferCosts costs, String cpuMax) {
        Scenario s = ScenarioParser.parse("""
                {"duration": "1s", "machine": {"cpus": 8},
                 "kernel": {"throttle": "task", "unthrottle": "async", "hz": 1000},
                 "cgroups": [{"path": "/g"}],
                 "tasks": [{"name": "h", "cgroup": "/g", "count": 8, "workload": {"kind": "hog"}}]}
                """);
        GroupTree tree = new GroupTree(s.cgroups());
        MachineProfile machine = new MachineProfile("test", TOPO, CostModel.generic(),
                SmtCurve.twoLevel(1, 0.6), IpcCosts.generic(), null, costs);
        List<Call> calls = new ArrayList<>();
        EventQueue events = new EventQueue();
        Kernel k = new Kernel(machine, s.kernel(), tree, 8, events, new SplittableRandom(1), new KernelObserver() {
            @Override
            public void distribute(long atNs, int cpu, int group, long durationNs, int rqs, int remoteRqs,
                                   int cfsRqs, int tasks, boolean slack) {
                calls.add(new Call(atNs, cpu, durationNs, rqs, remoteRqs));
            }
        });
        int g = tree.indexOf("/g");
        TaskSpec ts = s.tasks().get(0);
        for (int t = 0; t < 8; t++) {
            BitSet one = new BitSet();
            one.set(t);
            k.initTask(t, g, ts.policy(), ts.rtPriority(), one, Workloads.create(ts.workload()));
        }
        for (int t = 0; t < 8; t++) k.startTask(t);
        String[] q = cpuMax.split(" ");
        k.setCfsBandwidth(g, Long.parseLong(q[1]) * 1000, Long.parseLong(q[0]) * 1000, 0, 0);
        while (!events.isEmpty() && events.peekTime() <= 350_000_000L) {
            events.pop();
            k.setNow(events.time());
            k.handle(events.type(), events.target(), events.arg());
        }
        assertThat(calls).isNotEmpty();
        return calls;
    }
}
