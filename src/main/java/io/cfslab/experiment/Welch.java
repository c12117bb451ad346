package io.cfslab.experiment;

import java.util.Locale;
import org.apache.commons.math3.stat.StatUtils;
import org.apache.commons.math3.stat.inference.TTest;

/**
 * Base vs one other arm: the difference of the arithmetic means in percent and the two-sided p-value of
 * Welch's t-test (unequal variances, Welch–Satterthwaite degrees of freedom), from Apache Commons Math 3
 * ({@link TTest#tTest(double[], double[])}). The verdict is the seeds' word: {@code "noise"} when p &ge;
 * {@value #ALPHA}, else the signed difference ({@code "-11.5%"}).
 *
 * <p>Cases the library leaves undefined: fewer than 2 values in an arm gives no p-value (verdict
 * {@code "n/a"}); both arms without any spread (every repeat gave the same value, e.g. a deterministic
 * counter) give p = 1 when the two values are equal and p = 0 when they differ.
 *
 * @param diffPercent {@code (arm − base) / |base| × 100} of the arithmetic means; null when the base mean is 0
 * @param pValue      two-sided p-value, or null with fewer than 2 values in an arm
 * @param verdict     {@code "noise"}, a signed percentage with one decimal, {@code "differs"} (significant but the
 *                    base mean is 0), or {@code "n/a"}
 */
public record Welch(Double diffPercent, Double pValue, String verdict) {
    /** Significance level: p below this is a difference, at or above it noise. */
    public static final double ALPHA = 0.05;

    /**
     * @param base the base arm's values
     * @param arm  the other arm's values
     */
    public static Welch compare(double[] base, double[] arm) {
        double mb = StatUtils.mean(base);
        double ma = StatUtils.mean(arm);
        Double diff = mb == 0 ? null : (ma - mb) / Math.abs(mb) * 100;
        Double p;
        if (base.length < 2 || arm.length < 2) {
            p = null;
        } else if (StatUtils.variance(base) == 0 && StatUtils.variance(arm) == 0) {
            p = mb == ma ? 1.0 : 0.0;
        } else {
            p = new TTest().tTest(base, arm);
        }
        String verdict;
        if (p == null) verdict = "n/a";
        else if (p >= ALPHA) verdict = "noise";
        else if (diff == null) verdict = "differs";
        else verdict = String.format(Locale.ROOT, "%+.1f%%", diff);
        return new Welch(diff, p, verdict);
    }
}
