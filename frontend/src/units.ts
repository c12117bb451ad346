// Durations' units and axis ticks (0.5 s, 1 s, 1.5 s); a single duration is format.ts's formatDurationNs.

const UNITS: [number, string][] = [[1e9, 's'], [1e6, 'ms'], [1e3, 'µs'], [1, 'ns']];

/** The unit for a magnitude in ns: the largest of s, ms, µs, ns that it reaches (ns below 1 µs). */
export function durationUnit(ns: number): [number, string] {
  const a = Math.abs(ns);
  for (const u of UNITS) if (a >= u[0]) return u;
  return UNITS[UNITS.length - 1];
}

/**
 * The decimals a tick step needs to be printed exactly (0.25 → 2, 0.5 → 1, 0.05 → 2, 5 → 0; at most 6): a step
 * rounded to fewer would print 0.25-spaced ticks as 0.3, 0.5, 0.8.
 */
export function stepDecimals(step: number): number {
  if (!(step > 0) || !Number.isFinite(step)) return 0;
  for (let d = 0; d < 6; d++) {
    const scaled = step * 10 ** d;
    if (Math.abs(scaled - Math.round(scaled)) < 1e-6 * Math.max(1, scaled)) return d;
  }
  return 6;
}

/**
 * Axis ticks (ns) in one unit, that of the largest tick, with as many decimals as the step needs:
 * [0, 5e8, 1e9, 1.5e9] → 0, 0.5 s, 1 s, 1.5 s.
 */
export function durationTicks(splits: number[]): string[] {
  if (splits.length === 0) return [];
  const top = Math.max(...splits.map((v) => Math.abs(v)));
  const [div, unit] = durationUnit(top);
  const step = splits.length > 1 ? Math.abs(splits[1] - splits[0]) : top || 1;
  const decimals = stepDecimals(step / div);
  // thousands separated as in the tables (1,000 s); a tick's zero is the axis's origin, bare as on every axis
  return splits.map((v) => (v === 0 ? '0' : `${(v / div).toLocaleString('en-US', { minimumFractionDigits: 0, maximumFractionDigits: decimals })} ${unit}`));
}

/**
 * The unit a tick or legend text reads in: `duration` (`1.5 s`, `500 ms`, `54.0 µs`, `0 ns`), `rate` (`41,234.5/s`),
 * `percent` (`12.3 %`, `12.3 % (45)`), `number` (a bare count or raw counter: `511,424`, `0.25`), or null for a text
 * that names its own unit in words (`1,234 calls`) or is empty. An axis and its legend read alike when every non-zero
 * tick and every value have one kind (a bare `0` tick is every axis's origin). The same rule is layout-faults.js's,
 * over each chart a page draws.
 */
export type UnitKind = 'duration' | 'rate' | 'percent' | 'number';
export function unitKind(text: string): UnitKind | null {
  const t = text.trim();
  if (/^-?[\d,]*\.?\d+ ?(ns|µs|ms|s|min|h)$/.test(t)) return 'duration';
  if (/^-?[\d,]*\.?\d+ ?\/s$/.test(t)) return 'rate';
  if (/^-?[\d,]*\.?\d+ ?%( \([\d,]+\))?$/.test(t)) return 'percent';
  if (/^-?[\d,]*\.?\d+$/.test(t)) return 'number';
  return null;
}
