import { describe, expect, it } from 'vitest';
import { box, quantile, runX, stripData, tickLabels } from '../src/strip';
import { machineLabel, summarize, UNKNOWN } from '../src/settings';

describe('strip plot data', () => {
  it('puts every run of every arm at its own x, in run order, the arm at the centre', () => {
    expect(runX(0, 0, 5)).toBeCloseTo(-0.25);
    expect(runX(0, 4, 5)).toBeCloseTo(0.25);
    expect(runX(1, 2, 5)).toBeCloseTo(1);
    expect(runX(2, 0, 1)).toBe(2);
    const { xs, series } = stripData([[1, 2, 3], [4, null, 6]]);
    expect(xs).toHaveLength(6);
    expect(series[0]).toEqual([1, 2, 3, null, null, null]);
    expect(series[1]).toEqual([null, null, null, 4, null, 6]);
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
  });

  it('boxes are R type-7 quartiles (NumPy default), median, min, max and mean', () => {
    // type 7 by hand: sorted 207.33 207.83 207.99 208.10 210.20, h = (n − 1) p = 1, 2, 3 → 207.83, 207.99, 208.10
    const b = box([207.33, 207.83, 208.1, 210.2, 207.99])!;
    expect(b.q1).toBeCloseTo(207.83, 10);
    expect(b.median).toBeCloseTo(207.99, 10);
    expect(b.q3).toBeCloseTo(208.1, 10);
    expect(b.min).toBe(207.33);
    expect(b.max).toBe(210.2);
    expect(b.mean).toBeCloseTo(208.29, 10);
    // 4 values: h = 3p → q1 at 0.75 between the 1st and 2nd: 1 + 0.75 × (2 − 1)
    expect(quantile([1, 2, 3, 4], 0.25)).toBeCloseTo(1.75);
    expect(box([null, null])).toBeNull();
  });
});

describe('run settings', () => {
  it('shows throttle, unthrottle, version, HZ and machine, with – for what a run does not have', () => {
    const s = summarize({ seed: 1, duration: '5s', machine: { profile: 'generic', cpus: 384, smt: 2, sockets: 2 },
      kernel: { throttle: 'cfs_rq', unthrottle: 'sync', hz: 250 } });
    expect(s).toEqual({ throttle: 'cfs_rq', unthrottle: 'sync', version: UNKNOWN, hz: '250', machine: 'generic, 384 CPUs (2 sockets, SMT 2)' });
    expect(summarize(null).throttle).toBe(UNKNOWN);
    expect(summarize({ kernel: { version: '6.18' } }).version).toBe('6.18');
    expect(machineLabel({ profile: 'generic', cpus: 2, smt: 1, sockets: 1 })).toBe('generic, 2 CPUs');
  });
});

describe('strip plot axis', () => {
  it('gives each tick the decimals its step needs', () => {
    expect(tickLabels([4.65, 4.7, 4.75, 4.8])).toEqual(['4.65', '4.70', '4.75', '4.80']);
    expect(tickLabels([12_200_000, 12_200_500, 12_201_000])).toEqual(['12,200,000', '12,200,500', '12,201,000']);
    expect(tickLabels([70_000_000, 75_000_000, 80_000_000])).toEqual(['70,000,000', '75,000,000', '80,000,000']);
    expect(tickLabels([59, 59.5, 60])).toEqual(['59.0', '59.5', '60.0']);
    // a step of 0.25 keeps its second decimal (not 0.3, 0.5, 0.8)
    expect(tickLabels([0.25, 0.5, 0.75, 1])).toEqual(['0.25', '0.50', '0.75', '1.00']);
    expect(tickLabels([20_000, 40_000])).toEqual(['20,000', '40,000']);
    expect(tickLabels([0, 10_000, 20_000])).toEqual(['0', '10,000', '20,000']); // zero is a bare 0
  });
});

describe('metricAxis: an experiment metric plot reads in its unit', async () => {
  // the plot's heading names the whole metric (group, file); the axis its name and unit
  const { metricAxis, unitFormat } = await import('../src/charts');
  it('names the metric, its group or benchmark and the unit; durations read as durations', () => {
    expect(metricAxis('cgroups/~1web~1backend/cpu.stat/throttled_usec')).toEqual({ title: 'throttled_usec (time)', unit: 'usec' });
    expect(metricAxis('cgroups/~1pool/cpu.stat/nr_throttled')).toEqual({ title: 'nr_throttled (periods)', unit: 'count' });
    expect(metricAxis('benchmarks/hb/time_s')).toEqual({ title: 'time_s (time)', unit: 'sec' });
    expect(metricAxis('benchmarks/rr/transactions_per_s').unit).toBe('per_s');
    // 360.3M µs of usage is six minutes, not "360.3M"
    expect(unitFormat('usec').ticks([360.2e6, 360.3e6])).toEqual(['360.2 s', '360.3 s']);
    expect(unitFormat('sec').value(1.25)).toBe('1.25 s');
    expect(unitFormat('per_s').value(41234.5)).toBe('41,234.5/s');
  });
});

describe('a verdict\'s colour', () => {
  it('is red or green only where lower is better (throttling), neutral for usage and periods', async () => {
    const { verdictClass } = await import('../src/pages/experiment');
    expect(verdictClass('cgroups[/web]/cpu.stat/usage_usec', '+98.7%')).toBe('neutral');
    expect(verdictClass('cgroups[/web]/cpu.stat/nr_periods', '-3.0%')).toBe('neutral');
    expect(verdictClass('cgroups[/web]/cpu.stat/throttled_usec', '-12.0%')).toBe('down');
    expect(verdictClass('cgroups[/web]/cpu.stat/nr_throttled', '+5.0%')).toBe('up');
    expect(verdictClass('cgroups[/web]/cpu.stat/throttled_usec', 'noise')).toBe('noise');
    expect(verdictClass('cgroups[/web]/cpu.stat/throttled_usec', '-')).toBe('neutral'); // no verdict, not "better"
  });
});
