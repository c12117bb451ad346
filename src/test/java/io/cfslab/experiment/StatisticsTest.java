package io.cfslab.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/**
 * {@link Summary} and {@link Welch} (Commons Math) against values computed independently: Python 3.11's
 * {@code statistics} module (median, mean, geometric_mean, harmonic_mean, stdev) and a hand-written Welch t-test
 * whose p-value was computed twice, with a continued-fraction regularized incomplete beta and with Simpson
 * integration of the t density (agreeing to 1e-12); the script is
 * {@code src/test/resources/experiment/expected_statistics.py}, run on 2026-12-01, its output copied here.
 */
class StatisticsTest {
    static final double TOL = 1e-9;

    // case "significant": seed 04's kind of data, head slower
    static final double[] SIG_BASE = {207.33, 207.83, 208.10, 210.20, 207.99};
    static final double[] SIG_HEAD = {214.20, 218.33, 222.47, 215.36, 218.44};
    // case "noise": the same kernel twice, 4 and 5 runs
    static final double[] NOISE_BASE = {176.1, 174.3, 178.9, 177.2};
    static final double[] NOISE_HEAD = {176.8, 179.1, 173.9, 177.5, 175.6};
    // case "with_zero": a counter that is 0 in one run
    static final double[] ZERO_BASE = {0.0, 3.0, 5.0};
    static final double[] ZERO_HEAD = {4.0, 6.0, 8.0};

    @Test
    void summariesMatchPythonsStatisticsModule() {
        assertSummary(Summary.of(SIG_BASE), 207.33, 210.2, 207.99, 208.29, 208.28765303903168, 208.28531514725347,
                1.1076326105708425, 0.5317742621205255);
        assertSummary(Summary.of(SIG_HEAD), 214.2, 222.47, 218.33, 217.76, 217.74104821241406, 217.72215952567151,
                3.217335854398792, 1.4774687060979024);
        // even n: the median is the mean of the two middle values
        assertSummary(Summary.of(NOISE_BASE), 174.3, 178.9, 176.64999999999998, 176.625, 176.61707999001482,
                176.60915777138567, 1.9311050377094083, 1.0933361855396508);
        assertSummary(Summary.of(NOISE_HEAD), 173.9, 179.1, 176.8, 176.58, 176.57127763595173, 176.56254759734514,
                1.9613770672667683, 1.1107583346170395);
        Summary z = Summary.of(ZERO_BASE);
        assertThat(z.gmean()).as("geometric mean needs positive values").isNull();
        assertThat(z.hmean()).as("harmonic mean needs positive values").isNull();
        assertThat(z.median()).isEqualTo(3.0);
        assertThat(z.stddev()).isCloseTo(2.516611478423583, within(TOL));
        assertThat(z.coefvar()).isCloseTo(94.37293044088437, within(TOL));
        assertSummary(Summary.of(ZERO_HEAD), 4, 8, 6, 6, 5.768998281229634, 5.538461538461538, 2.0, 33.333333333333336);
    }

    /** Breaker 6 F13: every mean of equal values is that value exactly (a gmean of 513822 printed 513822.0000000003). */
    @Test
    void everyMeanOfEqualValuesIsThatValue() {
        int checked = 0;
        for (double v : new double[] {513822, 50, 0.1, 1e-9, 3.3, 123456789.123, 7}) {
            for (int n = 1; n <= 12; n++) {
                double[] same = new double[n];
                java.util.Arrays.fill(same, v);
                Summary s = Summary.of(same);
                assertThat(s.amean()).as(n + " x " + v).isEqualTo(v);
                assertThat(s.gmean()).as(n + " x " + v).isEqualTo(v);
                assertThat(s.hmean()).as(n + " x " + v).isEqualTo(v);
                checked++;
            }
        }
        assertThat(checked).isEqualTo(84);
    }

    @Test
    void welchGivesADifferenceWherePythonsTTestDoes() {
        Welch w = Welch.compare(SIG_BASE, SIG_HEAD);
        // t = 6.223236892232801, df = 4.935040412412011
        assertThat(w.pValue()).isCloseTo(0.0016422322866907711, within(1e-10));
        assertThat(w.diffPercent()).isCloseTo(4.546545681501752, within(TOL));
        assertThat(w.verdict()).isEqualTo("+4.5%");
        Welch back = Welch.compare(SIG_HEAD, SIG_BASE);
        assertThat(back.pValue()).isCloseTo(0.0016422322866907711, within(1e-10));
        assertThat(back.verdict()).as("the sign follows (arm - base)").startsWith("-4.3");
    }

    @Test
    void welchSaysNoiseWherePythonsTTestDoes() {
        Welch w = Welch.compare(NOISE_BASE, NOISE_HEAD);
        // t = -0.03449626518293901, df = 6.615591091201394
        assertThat(w.pValue()).isCloseTo(0.9734990092544368, within(1e-10));
        assertThat(w.diffPercent()).isCloseTo(-0.025477707006362343, within(TOL));
        assertThat(w.verdict()).isEqualTo("noise");
        // t = 1.7960530202677492, df = 3.8059405940594067: a +125 % difference that 3 runs cannot tell from noise
        Welch z = Welch.compare(ZERO_BASE, ZERO_HEAD);
        assertThat(z.pValue()).isCloseTo(0.15055588618750068, within(1e-10));
        assertThat(z.diffPercent()).isCloseTo(125.00000000000003, within(TOL));
        assertThat(z.verdict()).isEqualTo("noise");
    }

    @Test
    void casesTheLibraryLeavesUndefined() {
        // no spread in either arm: equal values are noise, different ones a difference
        assertThat(Welch.compare(new double[] {5, 5, 5}, new double[] {5, 5, 5})).isEqualTo(new Welch(0.0, 1.0, "noise"));
        assertThat(Welch.compare(new double[] {4, 4}, new double[] {2, 2})).isEqualTo(new Welch(-50.0, 0.0, "-50.0%"));
        // one run per arm: no test
        assertThat(Welch.compare(new double[] {4}, new double[] {2}).verdict()).isEqualTo("n/a");
        // base mean 0: no percentage
        Welch w = Welch.compare(new double[] {0, 0, 0}, new double[] {3, 3, 3});
        assertThat(w.diffPercent()).isNull();
        assertThat(w.verdict()).isEqualTo("differs");
        Summary one = Summary.of(new double[] {7});
        assertThat(one.stddev()).isZero();
        assertThat(one.coefvar()).isZero();
        assertThat(one.median()).isEqualTo(7);
    }

    static void assertSummary(Summary s, double min, double max, double median, double amean, double gmean, double hmean,
                              double stddev, double coefvar) {
        assertThat(s.min()).isCloseTo(min, within(TOL));
        assertThat(s.max()).isCloseTo(max, within(TOL));
        assertThat(s.median()).isCloseTo(median, within(TOL));
        assertThat(s.amean()).isCloseTo(amean, within(TOL));
        assertThat(s.gmean()).isCloseTo(gmean, within(TOL));
        assertThat(s.hmean()).isCloseTo(hmean, within(TOL));
        assertThat(s.stddev()).isCloseTo(stddev, within(TOL));
        assertThat(s.coefvar()).isCloseTo(coefvar, within(TOL));
    }
}
