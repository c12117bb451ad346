// Every chart's axis formatter over sample values (issue 12, walk 3): one format per quantity kind on axes as in tables
// and legends (docs/dashboard.md, "Colours, scales and numbers").
import { describe, expect, it } from 'vitest';
import { unitFormat, zeroBasedRange, type Unit } from '../src/charts';
import { tickLabels } from '../src/strip';
import { durationTicks } from '../src/units';
import { formatCount } from '../src/format';

const SAMPLES: number[][] = [
  [0, 1000, 2000, 3000],
  [0, 2000, 4000, 6000, 8000],
  [0, 5000, 10_000, 15_000, 20_000],
  [12_200_000, 12_200_500, 12_201_000],
  [0, 0.25, 0.5, 0.75],
  [10, 10.5, 11],
  [0, 20, 40, 60],
];
const UNITS: Unit[] = ['count', 'usec', 'nsec', 'sec', 'per_s', 'percent'];

describe('axis ticks', () => {
  it('no tick of any unit is a bare number of 4 digits or more, nor a K/M abbreviation', () => {
    for (const unit of UNITS) {
      for (const s of SAMPLES) {
        for (const t of unitFormat(unit).ticks(s)) {
          expect(t, `${unit} ${s}`).not.toMatch(/(^|[^\d.,])\d{4}/); // an integer part of 4+ digits without separators
          expect(t, `${unit} ${s}`).not.toMatch(/\d[KMG]\b/);
        }
      }
    }
  });

  it('count ticks read as the tables and legends write the same counts', () => {
    for (const s of SAMPLES.filter((x) => x.every(Number.isInteger))) {
      expect(tickLabels(s)).toEqual(s.map((v) => (v === 0 ? '0' : formatCount(v))));
    }
    expect(unitFormat('count').ticks([0, 2000, 4000])).toEqual(['0', '2,000', '4,000']);
    expect(unitFormat('count').value(14_759)).toBe('14,759');
  });

  it('duration ticks are in one unit with separators, a bare 0 at the origin', () => {
    expect(unitFormat('usec').ticks([0, 500e6, 1000e6])).toEqual(['0', '500 s', '1,000 s']);
    expect(durationTicks([0, 5e8, 1e9, 1.5e9])).toEqual(['0', '0.5 s', '1 s', '1.5 s']);
    expect(unitFormat('percent').ticks([0, 5, 10])).toEqual(['0', '5 %', '10 %']);
  });

  it('a line chart starts at 0: a task at 10-11 % of a CPU is not drawn as a swing', () => {
    expect(zeroBasedRange(10, 11)).toEqual([0, 11 * 1.05]);
    expect(zeroBasedRange(34, 40)[0]).toBe(0);
    expect(zeroBasedRange(0, 0)).toEqual([0, 1]);
    expect(zeroBasedRange(null, null)).toEqual([0, 1]);
  });
});

describe('experiment table means', () => {
  it('one precision per metric row: µs counters as integers, counts all whole or all with one decimal', async () => {
    const { meanCv, meanDecimals } = await import('../src/pages/experiment');
    const usec = 'cgroups/~1a/cpu.stat/throttled_usec';
    expect(meanCv({ amean: 4_464_353.2, coefvar: 0.61 }, usec, meanDecimals([4_464_353.2, 4_714_783], usec))).toBe('4,464,353±0.61%');
    const count = 'cgroups/~1a/cpu.stat/nr_periods';
    const d = meanDecimals([50, 49.8], count);
    expect([50, 49.8].map((m) => meanCv({ amean: m, coefvar: 0 }, count, d))).toEqual(['50.0±0.00%', '49.8±0.00%']);
    const whole = meanDecimals([50, 51], count);
    expect([50, 51].map((m) => meanCv({ amean: m, coefvar: 0 }, count, whole))).toEqual(['50±0.00%', '51±0.00%']);
  });
});

describe('wrap points of a long value', () => {
  it('after , : / { [ only, the text unchanged', async () => {
    const { breakPoints } = await import('../src/tables');
    const v = '{"name":"h","cgroup":"/a","count":2,"workload":{"kind":"hog"}}';
    const parts = breakPoints(v);
    expect(parts.join('')).toBe(v);
    expect(parts.slice(0, 4)).toEqual(['{', '"name":', '"h",', '"cgroup":']);
    for (const p of parts.slice(0, -1)) expect(p).toMatch(/[,:/{[]$/);
  });
});

describe('count axes', () => {
  it('step in whole numbers only, 1-2-5 per decade, so a count of 10 never reads 2.5 (newcomer walk 4)', async () => {
    const { COUNT_INCRS } = await import('../src/charts');
    expect(COUNT_INCRS.slice(0, 6)).toEqual([1, 2, 5, 10, 20, 50]);
    for (const step of COUNT_INCRS) expect(Number.isInteger(step)).toBe(true);
    expect(COUNT_INCRS[COUNT_INCRS.length - 1]).toBeGreaterThanOrEqual(1e14);
  });
});

describe("a chart's axis and legend read in one unit", async () => {
  const { chartFormat, unitFormat: uf } = await import('../src/charts');
  const { metricFormat, legendValue } = await import('../src/pages/experiment');
  const { unitKind } = await import('../src/units');
  type Format = { ticks: (s: number[]) => string[]; value: (v: number, mean: boolean) => string };
  /** The kinds read by a format's non-zero ticks and values over SAMPLES (one kind: the axis and legend agree). */
  const kinds = (f: Format) => {
    const seen = new Set<string>();
    for (const s of SAMPLES) {
      for (const t of f.ticks(s)) if (t !== '0') seen.add(String(unitKind(t)));
      for (const v of s) if (v !== 0) { seen.add(String(unitKind(f.value(v, false)))); seen.add(String(unitKind(f.value(v, true)))); }
    }
    return [...seen];
  };
  // every chart the pages draw: line charts in a unit (run, compare pages), strip plots by metric (experiment page)
  const METRICS = ['cgroups/~1web/cpu.stat/usage_usec', 'cgroups/~1web/cpu.stat/throttled_usec', 'cgroups/~1web/cpu.stat/nr_throttled',
    'benchmarks/hb/time_s', 'tasks/a/wakeup_latency_ns', 'benchmarks/rr/transactions_per_s', 'tasks/a/cpu_pct', 'machine/sched_calls'];
  it('for every unit of a line chart and every metric of a strip plot', () => {
    for (const unit of UNITS) expect(kinds(chartFormat(unit)), `line chart in ${unit}`).toHaveLength(1);
    for (const m of METRICS) expect(kinds(metricFormat(m, [511_424.3, 8000])), `strip plot of ${m}`).toHaveLength(1);
  });
  it('fails the pairing the strip plot had: duration ticks beside a legend of raw µs', () => {
    const m = 'cgroups/~1web/cpu.stat/usage_usec';
    expect(kinds({ ticks: uf('usec').ticks, value: legendValue(m, [511_424.3]) }).sort()).toEqual(['duration', 'number']);
    expect(metricFormat(m, [511_424.3]).ticks([0, 250_000, 500_000])).toEqual(['0', '250,000', '500,000']);
  });
  it('knows the texts charts print', () => {
    expect(['1.5 s', '500 ms', '54.0 µs', '0 ns', '1,000 s'].map(unitKind)).toEqual(Array(5).fill('duration'));
    expect(['41,234.5/s', '12.3 %', '12.3 % (45)', '511,424', '0.25', '1,234 calls'].map(unitKind))
      .toEqual(['rate', 'percent', 'percent', 'number', 'number', null]);
  });
});

describe("layout-faults.js's copy of unitKind", () => {
  it('reads every sample as units.ts does (the browser script cannot import the module, so the two are held alike here)', async () => {
    const { readFileSync } = await import('node:fs');
    const { unitKind } = await import('../src/units');
    const script = readFileSync(new URL('../../src/test/resources/web/layout-faults.js', import.meta.url), 'utf8');
    const body = /const unitKind = (\(text\) => \{[\s\S]*?\n\});/.exec(script)?.[1];
    expect(body, 'unitKind in layout-faults.js').toBeTruthy();
    const copy = new Function(`return ${body}`)() as (t: string) => string | null;
    const samples = ['1.5 s', '500 ms', '54.0 µs', '0 ns', '1,000 s', '41,234.5/s', '12.3 %', '12.3 % (45)', '511,424', '0.25',
      '-3', '1,234 calls', '', 'mean', '[2K, 4K) ns', '20 %', '1 min'];
    for (const s of samples) expect(copy(s), s).toBe(unitKind(s));
  });
});
