import { describe, expect, it } from 'vitest';
import { ABSENT, deltaClass, durationTitle, format, formatCount, formatDelta, formatDurationNs, formatP, formatPercent, kindOfKey } from '../src/format';

describe('one formatting rule per quantity kind', () => {
  it('counts: integers as integers (nr_periods 600, never 600.000), a mean that is not whole with one decimal', () => {
    expect(formatCount(600)).toBe('600');
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCount(0)).toBe('0');
    expect(formatCount(599.44)).toBe('599.4');
    expect(formatCount(-200)).toBe('-200');
  });

  it("kernel µs counters (cpu.stat's *_usec) as the kernel prints them, the duration on hover", () => {
    expect(format('counter', 376497246)).toBe('376,497,246');
    expect(durationTitle(376497246)).toBe('376 s');
    expect(kindOfKey('throttled_usec')).toBe('counter');
    expect(kindOfKey('nr_periods')).toBe('count');
  });

  it('durations: 3 significant digits in their own unit, zeros kept, so that a column reads alike', () => {
    expect(formatDurationNs(54_000)).toBe('54.0 µs');
    expect(formatDurationNs(54_100)).toBe('54.1 µs');
    expect(formatDurationNs(7.38e9)).toBe('7.38 s');
    expect(formatDurationNs(50.1e9)).toBe('50.1 s');
    expect(formatDurationNs(51e6)).toBe('51.0 ms');
    expect(formatDurationNs(155e6)).toBe('155 ms');
    expect(formatDurationNs(800)).toBe('800 ns');
    expect(formatDurationNs(2_000e9)).toBe('2,000 s');
    expect(formatDurationNs(0)).toBe('0 ns');
    // zero with the unit it was measured in: a latency (µs) of 0 beside 12.3 µs, never a bare 0
    expect(formatDurationNs(0, 1e3)).toBe('0 µs');
    expect(formatDurationNs(2_219e9)).toBe('2,219 s');
  });

  it('ratios in % with one decimal, probabilities with four decimals or an exponent', () => {
    expect(formatPercent(78.66)).toBe('78.7 %');
    expect(formatPercent(100)).toBe('100.0 %');
    expect(formatP(0.03125)).toBe('0.0313');
    // below 0.0001 as a paper prints it, never JavaScript's 6e-12
    expect(formatP(0.00001234)).toBe('1.2×10⁻⁵');
    expect(formatP(6e-12)).toBe('6.0×10⁻¹²');
    expect(formatP(1e-4)).toBe('0.0001');
    expect(formatP(0)).toBe('< 1.0×10⁻³⁰⁰');
    expect(formatP(1)).toBe('1.0000');
    expect(format('cpus', 1.5)).toBe('1.50 CPUs');
  });

  it('an absent value is the dash in every kind', () => {
    for (const k of ['count', 'counter', 'duration', 'percent', 'cpus', 'p'] as const) {
      expect(format(k, undefined)).toBe(ABSENT);
      expect(format(k, null)).toBe(ABSENT);
      expect(format(k, NaN)).toBe(ABSENT);
    }
  });
});

describe('differences B − A', () => {
  it('are "–" where a side lacks the value, never B − 0', () => {
    expect(formatDelta('counter', undefined, 5000)).toBe(ABSENT);
    expect(formatDelta('count', 600, undefined)).toBe(ABSENT);
    expect(formatDelta('count', 600, 400)).toBe('-200');
    expect(formatDelta('counter', 100, 1100)).toBe('+1,000');
    expect(formatDelta('count', 3, 3)).toBe('0');
  });

  it('are red or green only where lower is better (throttling); neutral for periods, usage, bursts', () => {
    expect(deltaClass('nr_throttled', 1, 3)).toBe('up');
    expect(deltaClass('throttled_usec', 3, 1)).toBe('down');
    expect(deltaClass('nr_periods', 600, 400)).toBe('neutral');
    expect(deltaClass('usage_usec', 1, 9)).toBe('neutral');
    expect(deltaClass('nr_bursts', 0, 1)).toBe('neutral');
    expect(deltaClass('throttled_usec', undefined, 1)).toBe('neutral');
  });
});

describe('a count and its noun', () => {
  it('agree: 1 group, 2 groups, 0 calls, 1,234 runs', async () => {
    const { plural } = await import('../src/format');
    expect(plural(1, 'group')).toBe('1 group');
    expect(plural(2, 'group')).toBe('2 groups');
    expect(plural(0, 'call')).toBe('0 calls');
    expect(plural(1234, 'run')).toBe('1,234 runs');
    expect(plural(1, 'CPU')).toBe('1 CPU');
  });

  it('go through plural() on every page: no "${n} groups" written by hand (a newcomer read "1 groups")', async () => {
    const { readdirSync, readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const dir = join(__dirname, '../src');
    const files = [...readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => join(dir, f)),
      ...readdirSync(join(dir, 'pages')).map((f) => join(dir, 'pages', f))];
    const nouns = 'groups|cgroups|tasks|runs|calls|CPUs|arms|events|samples|snapshots|rows|lines|repeats|keys|buckets|wake-ups';
    // a decimal amount (1.50 CPUs) is plural whatever its value
    const byHand = new RegExp(`\\$\\{(?![^}]*toFixed)[^}]+\\} (${nouns})\\b`, 'g');
    const found = files.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(byHand)].map((m) => `${f.replace(dir, 'src')}: ${m[0]}`));
    expect(found).toEqual([]);
  });
});
