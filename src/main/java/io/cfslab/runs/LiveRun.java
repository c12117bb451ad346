package io.cfslab.runs;

import io.cfslab.metrics.HistogramSnapshot;
import io.cfslab.metrics.LiveSnapshot;
import io.cfslab.metrics.SimulationResult;
import io.cfslab.store.RunStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A run executing on this instance, as its worker and its live streams see it. The worker and the
 * simulation thread write; streams read. Every hand-off is a volatile write of an immutable object (or of
 * an object whose mutable fields are only memoised JSON of immutable data): nothing here locks, and the
 * simulation thread never waits for a reader.
 */
public final class LiveRun {
    /** How the run ended, with its final figures; set by the worker once the end is in the database. */
    public record Terminal(RunStatus status, String error, double progress, long simulatedNs, long events, long wallMs) { }

    /**
     * A {@link LiveSnapshot} and its SSE frames ({@code event:…\ndata:…\n\n}, UTF-8), each encoded once, by
     * the first stream that needs it, and then written to every client as is (never copied per client).
     */
    public static final class Shot {
        private final LiveSnapshot snapshot;
        private volatile Map<String, byte[]> histograms;
        private volatile byte[] distribute;
        private volatile byte[] cgroups;

        public Shot(LiveSnapshot snapshot) { this.snapshot = snapshot; }

        public LiveSnapshot snapshot() { return snapshot; }

        /** {@code histogram} frame per histogram name. */
        public Map<String, byte[]> histogramFrames() {
            Map<String, byte[]> h = histograms;
            if (h == null) {
                Map<String, byte[]> m = new LinkedHashMap<>();
                snapshot.histograms().forEach((name, s) -> m.put(name, LiveJson.frame("histogram",
                        LiveJson.write(new LiveJson.Histogram(name, s.count(), s.sum(), s.buckets())))));
                histograms = h = Map.copyOf(m);
            }
            return h;
        }

        public byte[] distributeFrame() {
            byte[] f = distribute;
            if (f == null) {
                distribute = f = LiveJson.frame("distribute",
                        LiveJson.write(new LiveJson.Distribute(snapshot.recentCalls(), snapshot.slowestCalls())));
            }
            return f;
        }

        public byte[] cgroupsFrame() {
            byte[] f = cgroups;
            if (f == null) {
                cgroups = f = LiveJson.frame("cgroups", LiveJson.write(new LiveJson.Cgroups(snapshot.simulatedNs(), snapshot.cgroups())));
            }
            return f;
        }

        /**
         * {@code cpus} frame of the timeline's columns from {@code from} on (each client has its own cursor), or
         * null if there are none.
         */
        public byte[] cpusFrame(int from) {
            var cols = snapshot.cpus();
            if (cols == null || cols.columns() <= from) return null;
            return LiveJson.frame("cpus", LiveJson.write(LiveJson.Cpus.of(cols, from)));
        }
    }

    /** One repeat of the run: its samples so far and its latest snapshot. */
    public static final class Repeat {
        private final int index;
        private final SampleLog samples = new SampleLog();
        private volatile Shot shot;

        Repeat(int index) { this.index = index; }

        public int index() { return index; }

        public SampleLog samples() { return samples; }

        /** The latest snapshot, or null before the first. */
        public Shot shot() { return shot; }

        /** Simulation thread: a new series sample. */
        void sample(SimulationResult.SeriesSample s) { samples.append(s); }

        /** Simulation thread: a new snapshot. */
        void publish(LiveSnapshot s) { shot = new Shot(s); }

        /**
         * The final state of a stored result, as a finished repeat: its series (the last
         * {@link SampleLog#MAX_REPLAY}), histograms, cgroups, the last 50 and the slowest 20 distribute calls, the
         * CPU timeline.
         */
        public static Repeat fromResult(int index, SimulationResult r, long durationNs) {
            Repeat rep = new Repeat(index);
            List<SimulationResult.SeriesSample> series = r.series() == null ? List.of() : r.series();
            for (SimulationResult.SeriesSample s : series.subList(Math.max(0, series.size() - SampleLog.MAX_REPLAY), series.size())) {
                rep.samples.append(s);
            }
            List<SimulationResult.DistributeCall> calls = r.distributeCalls() == null ? List.of() : r.distributeCalls();
            List<SimulationResult.DistributeCall> recent = List.copyOf(calls.subList(Math.max(0, calls.size() - 50), calls.size()));
            List<SimulationResult.DistributeCall> slowest = new ArrayList<>(calls);
            slowest.sort(Comparator.comparingLong(SimulationResult.DistributeCall::durationNs).reversed()
                    .thenComparingLong(SimulationResult.DistributeCall::atNs));
            Map<String, HistogramSnapshot> histograms = r.histograms() == null ? Map.of() : r.histograms();
            rep.shot = new Shot(new LiveSnapshot(r.simulatedNs(), durationNs,
                    r.engine() == null ? 0 : r.engine().events(), histograms,
                    r.cgroups() == null ? Map.of() : r.cgroups(), recent,
                    List.copyOf(slowest.subList(0, Math.min(20, slowest.size()))),
                    LiveSnapshot.CpuColumns.of(r.cpuTimeline())));
            return rep;
        }
    }

    private final String id;
    private final long startNanos = System.nanoTime();
    private final long durationNs;
    private final int repeats;
    private volatile GuardedRunControl control;
    private volatile int repeat;
    private volatile long eventsBefore;
    private volatile Repeat current;
    private volatile Terminal terminal;

    /** Simulated s per wall s the run is held to, or null (for its ETA). */
    private final Double pace;

    LiveRun(String id, long durationNs, int repeats) {
        this(id, durationNs, repeats, null);
    }

    LiveRun(String id, long durationNs, int repeats, Double pace) {
        this.id = id;
        this.durationNs = durationNs;
        this.repeats = repeats;
        this.pace = pace;
    }

    public String id() { return id; }

    long startNanos() { return startNanos; }

    /** Worker: repeat {@code index} starts with this control and live sink. */
    void startRepeat(int index, GuardedRunControl control, Repeat live) {
        this.repeat = index;
        this.current = live;
        this.control = control;
    }

    /** The control whose events are already in {@link #eventsBefore} (the last repeat, once done). */
    private volatile GuardedRunControl counted;

    /** Worker: the current repeat finished normally (its events are counted once, here, not also as the current's). */
    void repeatDone(long events) {
        counted = control;
        eventsBefore += events;
    }

    /** Worker: the run's end is in the database. */
    void end(Terminal t) { terminal = t; }

    GuardedRunControl control() { return control; }

    /** The repeat executing (or last executed), or null before the first starts. */
    public Repeat current() { return current; }

    /** How the run ended, or null while it executes. */
    public Terminal terminal() { return terminal; }

    public long durationNs() { return durationNs; }

    double percent() {
        double total = (double) durationNs * repeats;
        if (total <= 0) return 0;
        GuardedRunControl c = control;
        double done = (double) repeat * durationNs + Math.min(c == null ? 0 : c.simulatedNs(), durationNs);
        return Math.min(100.0, 100.0 * done / total);
    }

    long simulatedNs() {
        GuardedRunControl c = control;
        return c == null ? 0 : c.simulatedNs();
    }

    long events() {
        GuardedRunControl c = control;
        return eventsBefore + (c == null || c == counted ? 0 : c.events());
    }

    long wallMs() { return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNanos); }

    /** Progress now: status running, or the terminal status and figures once ended. */
    public LiveJson.Progress progress() {
        Terminal t = terminal;
        if (t != null) {
            return LiveJson.Progress.of(id, t.status().word(), t.progress(), t.simulatedNs(), durationNs, t.events(), t.wallMs());
        }
        return LiveJson.Progress.of(id, RunStatus.RUNNING.word(), percent(), simulatedNs(), durationNs, events(), wallMs(),
                repeats, pace);
    }
}
