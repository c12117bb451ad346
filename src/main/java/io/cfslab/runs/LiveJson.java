package io.cfslab.runs;

import io.cfslab.metrics.HistogramSnapshot;
import io.cfslab.metrics.ResultJson;
import io.cfslab.metrics.SimulationResult;
import io.cfslab.metrics.SimulationResult.SeriesSample;
import io.cfslab.metrics.SimulationResult.TaskSample;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.ObjectWriter;
import tools.jackson.databind.SerializationFeature;

/**
 * The data of the live stream's events as JSON: the result JSON's conventions ({@link ResultJson#mapper()}:
 * snake_case, {@code cpu.stat}/{@code cpu.stat.local} keys, maps in their order), but on one line (an SSE
 * {@code data:} field each).
 */
public final class LiveJson {
    private static final ObjectWriter WRITER = ResultJson.mapper().writer().without(SerializationFeature.INDENT_OUTPUT);

    private LiveJson() {}

    /** {@code progress}: {@code status} is queued, running, done, failed or cancelled; progress 0..100 %. */
    public record Progress(String runId, String status, double progress, long simulatedNs, long durationNs,
                           long events, long wallMs, Long etaMs) {
        /** Same figures (wall time and ETA aside, which move by themselves). */
        public boolean sameAs(Progress o) {
            return o != null && status.equals(o.status) && progress == o.progress && simulatedNs == o.simulatedNs
                    && durationNs == o.durationNs && events == o.events;
        }

        /** @param progress percent, rounded here to 0.1 */
        public static Progress of(String runId, String status, double progress, long simulatedNs, long durationNs,
                                  long events, long wallMs) {
            return of(runId, status, progress, simulatedNs, durationNs, events, wallMs, 1, null);
        }

        /**
         * @param progress percent of all repeats, rounded here to 0.1
         * @param repeats  the run's repeats ({@code durationNs} is one repeat's)
         * @param pace     the run's pace (simulated s per wall s), or null
         */
        public static Progress of(String runId, String status, double progress, long simulatedNs, long durationNs,
                                  long events, long wallMs, int repeats, Double pace) {
            double pct = Math.round(Math.max(0, Math.min(100, progress)) * 10) / 10.0;
            return new Progress(runId, status, pct, simulatedNs, durationNs, events, wallMs,
                    LiveJson.etaMs(status, pct, wallMs, durationNs, repeats, pace));
        }
    }

    /**
     * The wall time a running run still needs, ms, or null (not running; not started yet and not paced).
     *
     * <p>Unpaced: the wall time so far scaled by the share still to do. A paced run is held to its pace at each
     * progress report ({@code GuardedRunControl}), so its simulated time is reported <em>ahead</em> of the wall clock
     * (it then waits there) and that scaling came out too short, down to 0 right after each report; and before its
     * first report it had no ETA at all. It ends when the wall clock reaches all repeats' simulated time / pace
     * (each repeat's set-up inside its share), so its ETA is that minus the wall time so far, or the scaled figure if
     * larger: a simulator that cannot keep up with the pace (10,000× on a large tree) is slower than the pace.
     *
     * @param pct        percent of all repeats done
     * @param wallMs     wall time since the run started, ms
     * @param durationNs one repeat's simulated duration
     * @param pace       simulated s per wall s, or null (as fast as possible)
     */
    public static Long etaMs(String status, double pct, long wallMs, long durationNs, int repeats, Double pace) {
        if (!"running".equals(status)) return null;
        Long scaled = pct > 0 ? Math.round(wallMs * (100.0 - pct) / pct) : null;
        if (pace == null || !(pace > 0)) return scaled;
        long paced = Math.max(0, Math.round((double) durationNs * Math.max(1, repeats) / pace / 1e6) - wallMs);
        return scaled == null ? paced : Math.max(paced, scaled);
    }

    /** {@code histogram}: one histogram, its full current buckets. */
    public record Histogram(String name, long count, long sum, List<HistogramSnapshot.Bucket> buckets) { }

    /** {@code distribute}: the latest calls (oldest first) and the slowest (slowest first). */
    public record Distribute(List<SimulationResult.DistributeCall> recent, List<SimulationResult.DistributeCall> slowest) { }

    /**
     * {@code cpus}: columns {@code [from, from + n)} of the CPU timeline (the result's {@code cpu_timeline}), one
     * string per CPU of n characters '0' idle, '1' running, '2' running in a throttled hierarchy, '3' idle with
     * throttled work.
     */
    public record Cpus(long intervalNs, int from, List<String> cpus) {
        /** Columns {@code [from, columns.columns())} of a timeline. */
        public static Cpus of(io.cfslab.metrics.LiveSnapshot.CpuColumns columns, int from) {
            List<String> rows = new java.util.ArrayList<>(columns.cpus());
            for (int c = 0; c < columns.cpus(); c++) rows.add(columns.row(c, from, columns.columns()));
            return new Cpus(columns.intervalNs(), from, rows);
        }
    }

    /** {@code cgroups}: every group's current cpu.stat and cpu.stat.local. */
    public record Cgroups(long atNs, Map<String, SimulationResult.CgroupStats> cgroups) { }

    /** {@code done}. */
    public record Done(String runId, String status) { }

    /** {@code failed}: status failed or cancelled, error the reason. */
    public record Failed(String runId, String status, String error) { }

    /** The keep-alive comment. */
    public static final byte[] KEEP_ALIVE = ":keep-alive\n\n".getBytes(StandardCharsets.UTF_8);

    /**
     * One SSE message, UTF-8: {@code event:NAME\ndata:JSON\n\n} (the form of Spring's SSE writer).
     *
     * @param json one line (this class writes no line breaks)
     */
    public static byte[] frame(String name, String json) {
        return ("event:" + name + "\ndata:" + json + "\n\n").getBytes(StandardCharsets.UTF_8);
    }

    /** One line of JSON. */
    public static String write(Object value) { return WRITER.writeValueAsString(value); }

    /** A series sample, {@code cpu_percent} rounded to 2 decimals as {@link ResultJson#write} does. */
    static String sample(SeriesSample s) {
        Map<String, TaskSample> tasks = new LinkedHashMap<>();
        if (s.tasks() != null) {
            s.tasks().forEach((n, t) -> tasks.put(n, t == null ? null : new TaskSample(ResultJson.round2(t.cpuPercent()), t.cpu())));
        }
        return write(new SeriesSample(s.atNs(), s.cgroups(), tasks));
    }

    /** The {@code cpustat} frame: {@code {"samples": [...]}} from samples already in JSON. */
    public static byte[] cpustatFrame(List<SampleLog.Entry> entries) {
        int size = 48;
        for (SampleLog.Entry e : entries) size += e.json().length() + 1;
        StringBuilder sb = new StringBuilder(size).append("event:cpustat\ndata:{\"samples\":[");
        for (int i = 0; i < entries.size(); i++) {
            if (i > 0) sb.append(',');
            sb.append(entries.get(i).json());
        }
        return sb.append("]}\n\n").toString().getBytes(StandardCharsets.UTF_8);
    }
}
