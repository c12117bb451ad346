package io.cfslab.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;

class StatsTest {

    @Test
    void sampleStandardDeviationByHand() {
        // 2,4,4,4,5,5,7,9: mean 5, squared deviations sum 32, sample variance 32/7.
        Stats.MeanStd s = Stats.of(2, 4, 4, 4, 5, 5, 7, 9);
        assertEquals(5.0, s.mean(), 1e-12);
        assertEquals(Math.sqrt(32.0 / 7), s.stddev(), 1e-12); // 2.13809, not the population 2.0
        assertEquals(100 * Math.sqrt(32.0 / 7) / 5, s.coefVarPct(), 1e-9); // 42.7618 %
        assertEquals(8, s.n());
        assertEquals("5.00 ± 42.76%", s.format());
    }

    @Test
    void twoRuns() {
        // 80, 90: mean 85, sample sd sqrt(25 + 25) = 7.0711, cv 8.3189 %.
        Stats.MeanStd s = Stats.of(List.of(80, 90));
        assertEquals(85.0, s.mean(), 1e-12);
        assertEquals(7.0710678118654755, s.stddev(), 1e-12);
        assertEquals("85.00 ± 8.32%", s.format());
        assertEquals("85.000 ± 8.32%", s.format(3));
    }

    @Test
    void formatRoundsAndIgnoresTheDefaultLocale() {
        Locale saved = Locale.getDefault();
        try {
            Locale.setDefault(Locale.GERMANY); // would print 85,45
            assertEquals("85.45 ± 3.98%", new Stats.MeanStd(85.4523, 3.4009, 3.97987, 5).format());
        } finally {
            Locale.setDefault(saved);
        }
    }

    @Test
    void edgeCases() {
        Stats.MeanStd one = Stats.of(3.5);
        assertEquals(new Stats.MeanStd(3.5, 0.0, 0.0, 1), one);
        Stats.MeanStd zeroMean = Stats.of(-1, 1);
        assertEquals(0.0, zeroMean.mean(), 1e-12);
        assertEquals(Math.sqrt(2), zeroMean.stddev(), 1e-12);
        assertTrue(Double.isNaN(zeroMean.coefVarPct()));
        assertThrows(IllegalArgumentException.class, Stats::of);
        assertThrows(IllegalArgumentException.class, () -> Stats.of(1, Double.NaN));
    }
}
