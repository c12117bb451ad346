package io.cfslab.metrics;

import java.util.Collection;
import java.util.Locale;

import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;

/**
 * Mean and spread of one figure over repeated runs (seeds), as kernel benchmark reports give them:
 * {@code 85.45 ± 3.98%}, the mean and the sample standard deviation relative to the mean. Computed with
 * Apache Commons Math's {@link DescriptiveStatistics}.
 */
public final class Stats {
    private Stats() {}

    /**
     * Mean and sample standard deviation of {@code n} values.
     *
     * @param mean       arithmetic mean, in the values' unit
     * @param stddev     sample standard deviation (divisor {@code n - 1}), in the values' unit; 0 when n = 1
     * @param coefVarPct coefficient of variation, {@code 100 * stddev / |mean|}, percent; 0 when stddev is 0,
     *                   NaN when the mean is 0 and stddev is not
     * @param n          number of values
     */
    public record MeanStd(double mean, double stddev, double coefVarPct, int n) {
        /**
         * The usual report form with 2 decimals: mean, then the relative standard deviation.
         *
         * @return for example {@code "85.45 ± 3.98%"} (decimal point, whatever the default locale)
         */
        public String format() {
            return format(2);
        }

        /**
         * The report form with a chosen number of decimals for the mean (the percentage keeps 2).
         *
         * @param decimals digits after the decimal point of the mean, {@code >= 0}
         * @return for example {@code format(3)} of hackbench seconds: {@code "0.598 ± 1.20%"}
         */
        public String format(int decimals) {
            return String.format(Locale.ROOT, "%." + decimals + "f ± %.2f%%", mean, coefVarPct);
        }
    }

    /**
     * Mean ± sample standard deviation of the values.
     *
     * @param values one figure per run, at least one
     * @return mean, sample standard deviation, coefficient of variation in percent, and count
     * @throws IllegalArgumentException if there is no value or a value is not finite
     */
    public static MeanStd of(double... values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values");
        }
        DescriptiveStatistics d = new DescriptiveStatistics();
        for (double v : values) {
            if (!Double.isFinite(v)) {
                throw new IllegalArgumentException("not a finite value: " + v);
            }
            d.addValue(v);
        }
        double mean = d.getMean();
        double sd = d.getStandardDeviation(); // bias-corrected (n - 1); 0 for a single value
        double cv = sd == 0 ? 0 : (mean == 0 ? Double.NaN : 100 * sd / Math.abs(mean));
        return new MeanStd(mean, sd, cv, values.length);
    }

    /**
     * Mean ± sample standard deviation of the values.
     *
     * @param values one figure per run, at least one, none null
     * @return as {@link #of(double...)}
     * @throws IllegalArgumentException if there is no value or a value is not finite
     */
    public static MeanStd of(Collection<? extends Number> values) {
        return of(values.stream().mapToDouble(Number::doubleValue).toArray());
    }
}
