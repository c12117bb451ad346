// Data of a strip/box plot: every run of every arm as a point (arm i at x = i, runs spread across ±0.25 in
// repeat order so that equal values stay visible side by side), and each arm's box: quartiles, median, whiskers
// at min and max, and the arithmetic mean. Pure functions (no DOM): drawn by charts.ts's StripChart.

import { stepDecimals } from './units';

export interface Box {
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
  mean: number;
}

/** Quartile by linear interpolation between order statistics (R's type 7, NumPy's default). */
export function quantile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const hi = Math.min(sorted.length - 1, lo + 1);
  return sorted[lo] + (h - lo) * (sorted[hi] - sorted[lo]);
}

export function box(values: (number | null)[]): Box | null {
  const xs = values.filter((v): v is number => v != null && Number.isFinite(v)).sort((a, b) => a - b);
  if (xs.length === 0) return null;
  return {
    min: xs[0],
    q1: quantile(xs, 0.25),
    median: quantile(xs, 0.5),
    q3: quantile(xs, 0.75),
    max: xs[xs.length - 1],
    mean: xs.reduce((s, v) => s + v, 0) / xs.length,
  };
}

/** x of run r (0-based) of arm a with n runs per arm: a − 0.25 … a + 0.25, evenly. */
export function runX(arm: number, run: number, runs: number): number {
  return runs <= 1 ? arm : arm - 0.25 + (0.5 * run) / (runs - 1);
}

/**
 * uPlot's aligned data for a strip plot: one shared x array (every run of every arm, in order), one series per arm
 * with its runs' values at its own x and null elsewhere.
 */
export function stripData(arms: (number | null)[][]): { xs: number[]; series: (number | null)[][] } {
  const xs: number[] = [];
  const owner: number[] = [];
  const index: number[] = [];
  arms.forEach((values, a) => values.forEach((_, r) => {
    xs.push(runX(a, r, values.length));
    owner.push(a);
    index.push(r);
  }));
  const series = arms.map((values, a) => xs.map((_, k) => (owner[k] === a ? values[index[k]] ?? null : null)));
  return { xs, series };
}

/**
 * Axis tick labels of counts with as many decimals as the tick step needs, thousands separated as the tables and
 * legends write counts (2,000 beside a legend's 14,759; never 2000, nor uPlot's compact "5K"/"12.2M", which repeats
 * itself when runs differ in the 4th digit). Zero is a bare 0 at the origin.
 */
export function tickLabels(splits: number[]): string[] {
  if (splits.length === 0) return [];
  const step = splits.length > 1 ? Math.abs(splits[1] - splits[0]) : Math.abs(splits[0]) || 1;
  const decimals = stepDecimals(step);
  return splits.map((v) => (v === 0 ? '0' : v.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals })));
}
