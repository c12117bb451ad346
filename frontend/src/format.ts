// One formatting rule per kind of quantity, used by every table of every page (run, compare, experiment, home), so
// that a column never mixes precisions ("54 µs" above "54.1 µs", nr_periods as "600.000").
//
//   count     an integer as an integer with thousands separators (nr_periods 600, 1,234,567); a mean of counts that
//             is not whole gets one decimal (599.4)
//   counter   a cpu.stat `*_usec` value as the kernel prints it: an integer number of µs (thousands separated);
//             `durationTitle` gives the same as a duration for hover
//   duration  3 significant digits in the largest unit it reaches, trailing zeros kept (54.0 µs, 7.38 s, 155 ms, 0)
//   percent   a ratio in % with one decimal (78.7 %)
//   cpus      CPUs (a quota over a period, a busy average) with two decimals (1.50 CPUs)
//   p         a probability: four decimals, or one significant digit in exponent form below 0.0001
// A value that is absent (undefined, null, NaN) is the pages' dash "–" in every kind.
import { durationUnit } from './units';

export const ABSENT = '–';

export type Quantity = 'count' | 'counter' | 'duration' | 'percent' | 'cpus' | 'p';

function absent(v: number | null | undefined): v is null | undefined {
  return v == null || !Number.isFinite(v);
}

/** A count: whole numbers whole, a mean of counts with one decimal. */
export function formatCount(v: number | null | undefined): string {
  if (absent(v)) return ABSENT;
  if (Number.isInteger(v)) return v.toLocaleString('en-US');
  return v.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/** A kernel counter in µs (cpu.stat's *_usec): the integer the kernel prints. */
export function formatCounter(v: number | null | undefined): string {
  if (absent(v)) return ABSENT;
  return Math.round(v).toLocaleString('en-US');
}

/** A duration in ns: 3 significant digits in its own unit, zeros kept (54.0 µs, not 54 µs beside 54.1 µs). */
export function formatDurationNs(ns: number | null | undefined): string {
  if (absent(ns)) return ABSENT;
  if (ns === 0) return '0';
  const [div, unit] = durationUnit(ns);
  const v = ns / div;
  // 1000 s and more: whole seconds (toPrecision(3) would write 1.23e+3)
  const text = Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : v.toPrecision(3);
  return `${text} ${unit}`;
}

/** The hover text of a kernel µs counter: the same amount as a duration. */
export function durationTitle(usec: number | null | undefined): string {
  return absent(usec) ? '' : formatDurationNs(usec * 1e3);
}

export function formatPercent(v: number | null | undefined): string {
  if (absent(v)) return ABSENT;
  return `${v.toFixed(1)} %`;
}

export function formatCpus(v: number | null | undefined): string {
  if (absent(v)) return ABSENT;
  return `${v.toFixed(2)} CPUs`;
}

export function formatP(v: number | null | undefined): string {
  if (absent(v)) return ABSENT;
  return v !== 0 && v < 1e-4 ? v.toExponential(0) : v.toFixed(4);
}

/** The rule of a kind (durations in ns). */
export function format(kind: Quantity, v: number | null | undefined): string {
  switch (kind) {
    case 'count': return formatCount(v);
    case 'counter': return formatCounter(v);
    case 'duration': return formatDurationNs(v);
    case 'percent': return formatPercent(v);
    case 'cpus': return formatCpus(v);
    case 'p': return formatP(v);
  }
}

/**
 * The kind of a cpu.stat key or an experiment metric's last name, from the suffix the result spells
 * (`*_usec`: a kernel counter in a cpu.stat table; `nr_*`: counts).
 */
export function kindOfKey(key: string): Quantity {
  return /_usec$/.test(key) ? 'counter' : 'count';
}

/**
 * Which way a difference is better, for colouring B − A: throttling (nr_throttled, throttled_usec) is better
 * lower; the rest (usage, periods, bursts) has no better direction and stays neutral.
 */
export function betterDirection(key: string): 'lower' | 'none' {
  return /^(nr_throttled|throttled_usec)$/.test(key) ? 'lower' : 'none';
}

/** A difference B − A of two values of one kind: "–" when either side lacks the value, "+" before an increase. */
export function formatDelta(kind: Quantity, a: number | null | undefined, b: number | null | undefined): string {
  if (absent(a) || absent(b)) return ABSENT;
  const d = b - a;
  const text = format(kind, d);
  return d > 0 ? `+${text}` : text;
}

/** The CSS class of a difference: `up`/`down` (red/green) only where lower is better; neutral otherwise. */
export function deltaClass(key: string, a: number | null | undefined, b: number | null | undefined): string {
  if (absent(a) || absent(b) || betterDirection(key) === 'none') return 'neutral';
  const d = b - a;
  return d > 0 ? 'up' : d < 0 ? 'down' : 'neutral';
}
