import { describe, expect, it } from 'vitest';
import { alignBuckets, scaleTitle, shares } from '../src/charts';

// The compare page compared histograms as raw counts: A with 40 calls and B with 4,000 looked unrelated even with
// the same shape. Shares of each run's calls are the default, raw counts one click away; the axis says which.
describe('histogram scale', () => {
  it('shares are each series over its own total, in percent', () => {
    const { counts } = alignBuckets([
      { count: 40, sum: 0, buckets: [{ low: 2048, high: 4096, count: 30 }, { low: 4096, high: 8192, count: 10 }] },
      { count: 4000, sum: 0, buckets: [{ low: 2048, high: 4096, count: 3000 }, { low: 4096, high: 8192, count: 1000 }] },
    ]);
    expect(counts).toEqual([[30, 10], [3000, 1000]]);
    expect(shares(counts)).toEqual([[75, 25], [75, 25]]);
    for (const s of shares(counts)) expect(s.reduce((a, v) => a + v, 0)).toBeCloseTo(100, 9);
  });

  it('a series without calls stays zero (no division by zero)', () => {
    expect(shares([[0, 0], [1, 3]])).toEqual([[0, 0], [25, 75]]);
  });

  it('the y axis title says which the bars are', () => {
    expect(scaleTitle('share', 'calls')).toMatch(/^share of calls, %/);
    expect(scaleTitle('count', 'calls')).toBe('calls (raw counts)');
  });
});
