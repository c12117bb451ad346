package io.cfslab.kernel;

import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link Divisor} agrees with {@code /} for every divisor a machine can have and numerators up to 2^31 - 1. */
class DivisorTest {

    @Test
    void agreesWithDivisionEverywhereThatMatters() {
        SplittableRandom r = new SplittableRandom(11);
        for (int d = 1; d <= 4096; d++) {
            Divisor x = new Divisor(d);
            assertThat(x.divisor()).isEqualTo(d);
            for (int n = 0; n < 4 * d + 100; n++) check(x, d, n);
            for (int k = 1; k < 200; k++) { // around multiples of d, up to the largest int
                int m = r.nextInt(Integer.MAX_VALUE / d) * d;
                for (int n = Math.max(0, m - 1); n <= m + 1 && n >= 0; n++) check(x, d, n);
            }
            for (int n = Integer.MAX_VALUE; n > Integer.MAX_VALUE - 3; n--) check(x, d, n);
        }
        for (int d : new int[] {5_000, 65_535, 65_536, 1 << 20, 1_000_003, Integer.MAX_VALUE}) {
            Divisor x = new Divisor(d);
            for (int k = 0; k < 100_000; k++) check(x, d, r.nextInt(Integer.MAX_VALUE));
            check(x, d, Integer.MAX_VALUE);
        }
    }

    @Test
    void exhaustiveForTheSeedsMachines() {
        for (int d : new int[] {2, 16, 384}) {
            Divisor x = new Divisor(d);
            for (int n = 0; n < 2_202 * 384 * 4; n++) check(x, d, n);
        }
    }

    @Test
    void refusesZero() {
        assertThatThrownBy(() -> new Divisor(0)).isInstanceOf(IllegalArgumentException.class);
    }

    private static void check(Divisor x, int d, int n) {
        if (x.div(n) != n / d) throw new AssertionError(n + " / " + d + ": " + x.div(n) + " instead of " + n / d);
    }
}
