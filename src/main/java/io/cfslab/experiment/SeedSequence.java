package io.cfslab.experiment;

/**
 * The seeds of an experiment's repeats. Repeat {@code i} (0-based) of every arm runs with the same seed
 * (common random numbers): two arms differ only by their overrides, so identical arms give identical values
 * and a difference between arms is the change's, not the draw's.
 *
 * <p>Seed {@code i} is SplitMix64's output for {@code experimentSeed + (i + 1) × 0x9E3779B97F4A7C15} (Steele,
 * Lea, Flood: "Fast splittable pseudorandom number generators", OOPSLA 2014; the finaliser of
 * {@link java.util.SplittableRandom}), with the sign bit cleared so that it is a positive JSON integer. The seeds
 * of one experiment seed are therefore fixed forever, far apart, and reproduce any single repeat with
 * {@code simulate --seed}.
 */
public final class SeedSequence {
    private SeedSequence() {}

    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    /**
     * @param experimentSeed the experiment's seed
     * @param repeat         0-based repeat index
     * @return the seed of that repeat, &ge; 0
     */
    public static long seed(long experimentSeed, int repeat) {
        long z = experimentSeed + (repeat + 1L) * GOLDEN_GAMMA;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return (z ^ (z >>> 31)) & Long.MAX_VALUE;
    }

    /** The seeds of repeats 0..n-1. */
    public static long[] seeds(long experimentSeed, int n) {
        long[] out = new long[n];
        for (int i = 0; i < n; i++) out[i] = seed(experimentSeed, i);
        return out;
    }
}
