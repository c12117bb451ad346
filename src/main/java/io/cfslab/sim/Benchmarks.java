package io.cfslab.sim;

import io.cfslab.kernel.Kernel;
import io.cfslab.metrics.Stats;
import io.cfslab.scenario.TaskSpec;
import io.cfslab.scenario.WorkloadSpec;
import io.cfslab.workload.Hackbench;
import io.cfslab.workload.NetperfUdpRr;
import io.cfslab.workload.WorkloadInstance;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result's {@code benchmarks}: each task entry's own figures, as the benchmark program would print them
 * (contract v1.1). Entries whose workload has no figure (hog, periodic) have none.
 */
public final class Benchmarks {
    private Benchmarks() {}

    private static final List<String> FIXED_WORK = List.of("completion_s", "finished", "tasks");
    private static final List<String> HACKBENCH = List.of("time_s", "time_s_stddev", "time_s_min", "time_s_max",
            "completion_s", "messages", "finished", "instances");
    private static final List<String> NETPERF = List.of("transactions_per_s", "total_transactions_per_s", "transactions");

    /**
     * Every figure a task entry of workload {@code w} can have (some only when every task finished), in the order the
     * result writes them; empty for a workload without figures (hog, periodic, go-sleep-loop). An experiment's
     * {@code benchmarks/ENTRY/KEY} metric is checked against it.
     */
    public static List<String> keys(WorkloadSpec w) {
        if (w instanceof WorkloadSpec.FixedWork) return FIXED_WORK;
        if (w instanceof WorkloadSpec.Hackbench) return HACKBENCH;
        if (w instanceof WorkloadSpec.NetperfUdpRr) return NETPERF;
        return List.of();
    }

    /**
     * The {@code machine} keys a run on {@code m} leaves out: {@code power_w} and {@code energy_j} without a power
     * model ({@code generic}), {@code llc_migrations} then and on a machine of one LLC (as {@code machineStats} of
     * the simulation writes them).
     */
    public static List<String> absentMachineKeys(io.cfslab.machine.MachineProfile m) {
        if (m.power() == null) return List.of("power_w", "energy_j", "llc_migrations");
        return m.topology().llcs() > 1 ? List.of() : List.of("llc_migrations");
    }

    /**
     * The figures of one task entry, or null if its workload has none.
     *
     * @param ids       its tasks' kernel indices
     * @param instances its workload instances
     * @param endNs     when the run ended, ns
     */
    static Map<String, Double> of(TaskSpec ts, int[] ids, List<WorkloadInstance> instances, Kernel kernel, long endNs) {
        WorkloadSpec w = ts.workload();
        if (w instanceof WorkloadSpec.FixedWork) return fixedWork(ids, kernel);
        if (w instanceof WorkloadSpec.Hackbench) return hackbench(instances);
        if (w instanceof WorkloadSpec.NetperfUdpRr) return netperf(instances, endNs);
        return null;
    }

    /** {@code completion_s}: when the last task finished (when all did), {@code finished}, {@code tasks}. */
    private static Map<String, Double> fixedWork(int[] ids, Kernel kernel) {
        long last = 0;
        int finished = 0;
        for (int t : ids) {
            long e = kernel.exitTimeNs(t);
            if (e >= 0) { finished++; last = Math.max(last, e); }
        }
        Map<String, Double> b = new LinkedHashMap<>();
        if (finished == ids.length) b.put(FIXED_WORK.get(0), last / 1e9);
        b.put(FIXED_WORK.get(1), (double) finished);
        b.put(FIXED_WORK.get(2), (double) ids.length);
        return b;
    }

    /**
     * {@code time_s}: the mean of the instances' "Time:", {@code time_s_stddev}: their sample standard deviation
     * (divisor n − 1; 0 for one instance), {@code time_s_min} and {@code time_s_max}, and {@code completion_s}: when
     * the last instance finished (all five only when every instance finished), {@code messages}: messages read,
     * {@code finished} and {@code instances}. The spread over instances is what a report such as seed 00's
     * "104 ± 4.33 %" (200 hackbench instances, one per leaf cgroup, each printing its own Time:) compares.
     */
    private static Map<String, Double> hackbench(List<WorkloadInstance> instances) {
        double[] times = new double[instances.size()];
        long last = 0, messages = 0;
        int finished = 0;
        for (WorkloadInstance i : instances) {
            Hackbench h = (Hackbench) i;
            messages += h.messagesRead();
            if (h.finishNs() >= 0) {
                times[finished++] = h.timeS();
                last = Math.max(last, h.finishNs());
            }
        }
        Map<String, Double> b = new LinkedHashMap<>();
        if (finished == instances.size() && finished > 0) { // an entry of no instance has no time to give
            timeFigures(times, b);
            b.put(HACKBENCH.get(4), last / 1e9);
        }
        b.put(HACKBENCH.get(5), (double) messages);
        b.put(HACKBENCH.get(6), (double) finished);
        b.put(HACKBENCH.get(7), (double) instances.size());
        return b;
    }

    /**
     * Puts {@code time_s} (the mean, summed in instance order as before so that it stays byte for byte),
     * {@code time_s_stddev} (sample standard deviation, Commons Math through {@link Stats#of}), {@code time_s_min}
     * and {@code time_s_max} of the instances' times into {@code b}.
     *
     * @param timesS every instance's "Time:", seconds, at least one
     */
    static void timeFigures(double[] timesS, Map<String, Double> b) {
        double sum = 0, min = Double.POSITIVE_INFINITY, max = Double.NEGATIVE_INFINITY;
        for (double t : timesS) {
            sum += t;
            min = Math.min(min, t);
            max = Math.max(max, t);
        }
        b.put(HACKBENCH.get(0), sum / timesS.length);
        b.put(HACKBENCH.get(1), Stats.of(timesS).stddev());
        b.put(HACKBENCH.get(2), min);
        b.put(HACKBENCH.get(3), max);
    }

    /**
     * {@code transactions_per_s}: the mean over pairs of transactions per second of the run, as each netperf
     * prints it; {@code total_transactions_per_s}: their sum; {@code transactions}: in all.
     */
    private static Map<String, Double> netperf(List<WorkloadInstance> instances, long endNs) {
        double rateSum = 0;
        long transactions = 0;
        for (WorkloadInstance i : instances) {
            NetperfUdpRr n = (NetperfUdpRr) i;
            transactions += n.transactions();
            long span = endNs - Math.max(0, n.startNs());
            if (span > 0) rateSum += n.transactions() / (span / 1e9);
        }
        Map<String, Double> b = new LinkedHashMap<>();
        b.put(NETPERF.get(0), rateSum / instances.size());
        b.put(NETPERF.get(1), rateSum);
        b.put(NETPERF.get(2), (double) transactions);
        return b;
    }
}
