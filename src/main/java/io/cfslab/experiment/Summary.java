package io.cfslab.experiment;

import java.util.Arrays;
import org.apache.commons.math3.stat.descriptive.DescriptiveStatistics;
import org.apache.commons.math3.stat.descriptive.moment.Mean;

/**
 * One arm's values of one metric, summarised as seed 04's table does (mmtests' rows: Min, Max, Median, AMean,
 * GMean, HMean, Stddev, CoefVar), computed with Apache Commons Math 3 ({@link DescriptiveStatistics}).
 *
 * @param n       number of values
 * @param min     smallest value
 * @param max     largest value
 * @param median  the middle value, or the mean of the two middle ones ({@code getPercentile(50)}, whose
 *                default estimator places the 50th percentile at position (n + 1) / 2)
 * @param amean   arithmetic mean
 * @param gmean   geometric mean ({@code exp(mean(ln x))}); null unless every value is &gt; 0
 * @param hmean   harmonic mean ({@code 1 / mean(1/x)}); null unless every value is &gt; 0
 * @param stddev  sample standard deviation (divisor n − 1); 0 for one value
 * @param coefvar coefficient of variation in percent, {@code 100 × stddev / |amean|} (seed 04's
 *                "AMean CoefVar … pct"); 0 when stddev is 0; null when the mean is 0 and stddev is not
 */
public record Summary(int n, double min, double max, double median, double amean, Double gmean, Double hmean,
                      double stddev, Double coefvar) {

    /**
     * @param values at least one, all finite
     * @throws IllegalArgumentException if empty or a value is not finite
     */
    public static Summary of(double[] values) {
        if (values.length == 0) throw new IllegalArgumentException("no values");
        DescriptiveStatistics d = new DescriptiveStatistics();
        boolean positive = true;
        for (double v : values) {
            if (!Double.isFinite(v)) throw new IllegalArgumentException("not a finite value: " + v);
            d.addValue(v);
            positive &= v > 0;
        }
        double mean = d.getMean();
        double sd = values.length > 1 ? d.getStandardDeviation() : 0;
        double min = d.getMin(), max = d.getMax();
        Double gmean = positive ? within(d.getGeometricMean(), min, max) : null;
        Double hmean = null;
        if (positive) {
            double[] reciprocals = Arrays.stream(values).map(v -> 1 / v).toArray();
            hmean = within(1 / new Mean().evaluate(reciprocals), min, max);
        }
        mean = within(mean, min, max);
        Double cv = sd == 0 ? Double.valueOf(0) : mean == 0 ? null : 100 * sd / Math.abs(mean);
        return new Summary(values.length, min, max, d.getPercentile(50), mean, gmean, hmean, sd, cv);
    }

    /**
     * A mean clamped to {@code [min, max]}, where every mean of the values lies: exp(mean(ln x)) and 1/mean(1/x) miss
     * by an ulp or so, and one value of 513822 printed a gmean of 513822.0000000003, 50 one of 49.99999999999999
     * (breaker 6 F13); equal values have that value as every mean.
     */
    private static double within(double mean, double min, double max) {
        return Math.max(min, Math.min(max, mean));
    }
}
