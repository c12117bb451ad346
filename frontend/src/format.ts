// One formatting rule per kind of quantity, used by every table of every page (run, compare, experiment, home), so
// that a column never mixes precisions ("54 µs" above "54.1 µs", nr_periods as "600.000").
//
//   count     an integer as an integer with thousands separators (nr_periods 600, 1,234,567); a mean of counts that
//             is not whole gets one decimal (599.4)
//   counter   a cpu.stat `*_usec` value as the kernel prints it: an integer number of µs (thousands separated);
//             `durationTitle` gives the same as a duration for hover
//   duration  3 significant digits in the largest unit it reaches, trailing zeros kept (54.0 µs, 7.38 s, 155 ms,
//             2,219 s); zero with the unit measured in (0 µs)
//   percent   a ratio in % with one decimal (78.7 %)
//   cpus      CPUs (a quota over a period, a busy average) with two decimals (1.50 CPUs)
//   p         a probability: four decimals, below 0.0001 two significant digits × a power of ten (6.0×10⁻¹²)
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

/**
 * A duration in ns: 3 significant digits in its own unit, zeros kept (54.0 µs, not 54 µs beside 54.1 µs), 1,000 s
 * and more in whole seconds with separators. Zero keeps a unit too, that of what was measured (`resolutionNs`: 1 for
 * ns, 1e3 for the µs a latency or cpu.stat counts in): `0 µs`, never a bare `0` beside `12.3 µs`. The one duration
 * format of every table, legend, hover and note.
 */
export function formatDurationNs(ns: number | null | undefined, resolutionNs = 1): string {
  if (absent(ns)) return ABSENT;
  if (ns === 0) return `0 ${durationUnit(resolutionNs)[1]}`;
  const [div, unit] = durationUnit(ns);
  const v = ns / div;
  // 1000 s and more: whole seconds (toPrecision(3) would write 1.23e+3)
  const text = Math.abs(v) >= 1000 ? Math.round(v).toLocaleString('en-US') : v.toPrecision(3);
  return `${text} ${unit}`;
}

/** A duration for a hover or a chart's legend: the table format, and '' (nothing to show) when absent. */
export function formatDuration(ns: number | null | undefined, resolutionNs = 1): string {
  return absent(ns) ? '' : formatDurationNs(ns, resolutionNs);
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

const SUPERSCRIPT: Record<string, string> = { '-': '⁻', '0': '⁰', '1': '¹', '2': '²', '3': '³', '4': '⁴', '5': '⁵', '6': '⁶', '7': '⁷', '8': '⁸', '9': '⁹' };

/**
 * A probability (a p-value): four decimals from 0.0001 up (0.0313); below, two significant digits times a power of
 * ten, as a paper prints it (6.0×10⁻¹²), never JavaScript's `6e-12`; a p that underflowed to 0 is `< 1.0×10⁻³⁰⁰`.
 */
export function formatP(v: number | null | undefined): string {
  if (absent(v)) return ABSENT;
  if (v >= 1e-4) return v.toFixed(4);
  if (v <= 0) return '< 1.0×10⁻³⁰⁰';
  const [mantissa, exp] = v.toExponential(1).split('e');
  return `${mantissa}×10${[...String(Number(exp))].map((ch) => SUPERSCRIPT[ch]).join('')}`;
}

/**
 * A pace (simulated seconds per wall-clock second) as a multiple of real time, the one form of the pace chip, the runs
 * list and the "behind" note: at most 3 significant digits, no trailing zeros (`1×`, `0.1×`, `2.8×`, `10×`; never
 * `1.0×` beside `1×`), as the server's chip (PageController.pace) writes it.
 */
export function formatPace(x: number): string {
  return `${Number(x.toPrecision(3)).toLocaleString('en-US')}×`;
}

/**
 * A count and its noun in agreement: `1 group`, `2 groups`, `1,234 calls` (the count as formatCount writes it). Every
 * page's "N things" goes through it (format.test.ts scans the sources); the server's twin is io.cfslab.scenario.Plural.
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
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
