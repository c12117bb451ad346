import { describe, expect, it } from 'vitest';
import { ColorRegistry, distinctColors, PALETTE } from '../src/colors';
import { durationTicks } from '../src/units';
import { formatDuration } from '../src/format';
import { niceStep } from '../src/cputimeline';

describe('series colours', () => {
  it('give a name the same colour in every chart of a page, and 20+ names distinct colours', () => {
    const page = new ColorRegistry();
    const names = Array.from({ length: 24 }, (_, i) => `/app/g${i}`);
    const first = names.map((n) => page.color(n));
    expect(new Set(first).size).toBe(24);
    // a second chart asking in another order gets the same colours
    expect([...names].reverse().map((n) => page.color(n))).toEqual([...first].reverse());
    expect(PALETTE.length).toBeGreaterThanOrEqual(24);
  });

  it('agree between pages that register the same names first, whatever order the charts ask in', () => {
    const names = Array.from({ length: 12 }, (_, i) => `/g${i}`);
    const runPage = new ColorRegistry();
    runPage.registerAll(names);
    const comparePage = new ColorRegistry();
    comparePage.registerAll([...names].reverse());
    expect([...names].reverse().map((n) => comparePage.color(n))).toEqual([...names].reverse().map((n) => runPage.color(n)));
  });

  it('start from a hash of the name, so that two pages agree on a name that does not collide', () => {
    expect(new ColorRegistry().color('/app/web')).toBe(new ColorRegistry().color('/app/web'));
  });
});

describe('durations', () => {
  it('read as a person reads them, with the tables\' one rule (format.ts)', () => {
    expect(formatDuration(0)).toBe('0 ns');
    expect(formatDuration(0, 1e3)).toBe('0 µs');
    expect(formatDuration(800)).toBe('800 ns');
    expect(formatDuration(12_345)).toBe('12.3 µs');
    expect(formatDuration(2_219_000_000_000)).toBe('2,219 s'); // a legend said "2219 s"
    expect(formatDuration(340e6)).toBe('340 ms');
    expect(formatDuration(1.5e9)).toBe('1.50 s');
    expect(formatDuration(undefined)).toBe('');
  });

  it('tick in one unit with the decimals the step needs (no "2B")', () => {
    expect(durationTicks([0, 5e8, 1e9, 1.5e9])).toEqual(['0', '0.5 s', '1 s', '1.5 s']);
    expect(durationTicks([0, 1e12, 2e12])).toEqual(['0', '1,000 s', '2,000 s']);
    // 0.25 s apart: read as 0.25 s, 0.5 s, 0.75 s (not 0.3 s, 0.5 s, 0.8 s)
    expect(durationTicks([2.5e8, 5e8, 7.5e8, 1e9])).toEqual(['0.25 s', '0.5 s', '0.75 s', '1 s']);
    expect(durationTicks([0, 2000, 4000])).toEqual(['0', '2 µs', '4 µs']);
  });

  it('time axis steps are 1, 2 or 5 × 10^k', () => {
    expect(niceStep(60e9)).toBe(1e10);
    expect(niceStep(2e9)).toBe(5e8);
    expect(niceStep(1)).toBe(1);
  });
});

describe('distinctColors', () => {
  it('keeps each name its registry colour while the page has seen fewer names than the palette holds', () => {
    const r = new ColorRegistry();
    const names = Array.from({ length: 20 }, (_, i) => `task${i}`);
    const m = distinctColors(r, names);
    for (const n of names) expect(m.get(n)).toBe(r.color(n));
  });
  it('gives 20 lines 20 colours after the page has seen 60 names (a streaming top 20 of many tasks)', () => {
    const r = new ColorRegistry();
    for (let i = 0; i < 60; i++) r.color(`w${i}`);
    const shown = Array.from({ length: 20 }, (_, i) => `w${i * 3}`);
    const m = distinctColors(r, shown);
    expect(new Set(shown.map((n) => m.get(n))).size).toBe(20);
  });
});
