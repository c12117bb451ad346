import { describe, expect, it } from 'vitest';
import { PaceWatch } from '../src/pacing';

/** Reports every 250 ms of a run going at `rate` simulated s per wall s, from wall time 0 to `untilMs`. */
function feed(w: PaceWatch, rate: number, untilMs: number, fromMs = 0, fromSimNs = 0): string | null {
  let note: string | null = null;
  for (let t = fromMs; t <= untilMs; t += 250) note = w.observe(fromSimNs + (t - fromMs) * rate * 1e6, t);
  return note;
}

describe('a paced run that falls behind', () => {
  it('says the pace it achieves and the one asked', () => {
    expect(feed(new PaceWatch(10), 2.8, 4000)).toBe('running at 2.8×, behind 10×: the machine is busy');
  });
  it('says nothing while the pace is kept, or before enough time is seen', () => {
    expect(feed(new PaceWatch(10), 9.7, 8000)).toBeNull();
    expect(feed(new PaceWatch(10), 1, 1500)).toBeNull();
  });
  it('follows the load: a run that catches up loses the note', () => {
    const w = new PaceWatch(10);
    expect(feed(w, 3, 4000)).not.toBeNull();
    expect(feed(w, 10, 15000, 4250, 4000 * 3 * 1e6 + 250 * 10 * 1e6)).toBeNull();
  });
});

describe('one pace format', () => {
  it('the chip, the runs list and the behind note write a pace alike: 1×, never 1.0×', async () => {
    const { formatPace } = await import('../src/format');
    expect([0.1, 1, 2.8, 10, 100, 0.25].map(formatPace)).toEqual(['0.1×', '1×', '2.8×', '10×', '100×', '0.25×']);
    expect(feed(new PaceWatch(1), 0.6, 4000)).toBe('running at 0.6×, behind 1×: the machine is busy');
  });
});
