package io.cfslab.runs;

import io.cfslab.metrics.SimulationResult.SeriesSample;
import java.util.ArrayList;
import java.util.List;

/**
 * The series samples of one executing repeat, for live streams: appended by the simulation thread (single
 * writer, no lock: a plain array slot write then a volatile count write), read by any number of streams.
 * Keeps the last {@value #CAPACITY} samples; a reader asks for at most {@link #MAX_REPLAY} of them.
 */
public final class SampleLog {
    /** Slots of the ring; more than {@link #MAX_REPLAY} so a reader copying the tail is rarely overtaken. */
    static final int CAPACITY = 4096;
    /** Most samples handed out at once (a late joiner gets the last this many). */
    public static final int MAX_REPLAY = 3600;

    private final Entry[] ring = new Entry[CAPACITY];
    private volatile long written;

    /** One sample and its JSON, made once by the first stream that needs it and shared by all. */
    public static final class Entry {
        private final SeriesSample sample;
        private volatile String json;

        Entry(SeriesSample sample) { this.sample = sample; }

        public SeriesSample sample() { return sample; }

        /** The sample as JSON (compact, {@code cpu_percent} rounded to 2 decimals as in the result). */
        public String json() {
            String j = json;
            if (j == null) json = j = LiveJson.sample(sample);
            return j;
        }
    }

    /**
     * Samples from number {@code from} on, at most the last {@code max}.
     *
     * @param entries the samples
     * @param next    the number to ask from next time
     */
    public record Batch(List<Entry> entries, long next) { }

    /** Simulation thread only. */
    void append(SeriesSample s) {
        long n = written;
        ring[(int) (n % CAPACITY)] = new Entry(s);
        written = n + 1;
    }

    /** Samples appended so far. */
    public long written() { return written; }

    /** Samples numbered {@code from} and later, at most the last {@code max} (≤ {@link #MAX_REPLAY}) of them. */
    public Batch since(long from, int max) {
        long w = written;
        long start = Math.max(Math.max(from, 0), w - Math.min(max, MAX_REPLAY));
        if (start >= w) return new Batch(List.of(), w);
        List<Entry> out = new ArrayList<>((int) (w - start));
        for (long i = start; i < w; i++) out.add(ring[(int) (i % CAPACITY)]);
        // slots below written - CAPACITY may have been overwritten by newer samples while we copied
        long lost = written - CAPACITY - start;
        if (lost > 0) out = new ArrayList<>(out.subList((int) Math.min(lost, out.size()), out.size()));
        return new Batch(out, w);
    }
}
