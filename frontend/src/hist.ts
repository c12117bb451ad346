// bpftrace's text form of a hist() map, as src/main/java/io/cfslab/metrics/BpftraceText.java produces it
// (bpftrace's TextOutput::hist_to_str and hist_index_label with k = 0).

export interface Bucket {
  low: number;
  high: number;
  count: number;
}

export interface Histogram {
  count: number;
  sum: number;
  buckets: Bucket[];
}

/** Width of the bar, bpftrace's max_width. */
export const BAR_WIDTH = 52;
const SUFFIXES = ['', 'K', 'M', 'G', 'T', 'P', 'E'];

/** log2 of a power of two up to 2^62 (exact for doubles: powers of two are representable). */
function log2Exact(v: number): number {
  const p = Math.round(Math.log2(v));
  if (p < 0 || 2 ** p !== v) throw new Error(`not a power of two: ${v}`);
  return p;
}

/** 2^p as bpftrace writes a bucket bound: 2^(p mod 10) and a suffix for p / 10 (1K, 16K, 1M, 512). */
export function powerLabel(p: number): string {
  const decade = Math.floor(p / 10);
  return String(2 ** (p - 10 * decade)) + SUFFIXES[decade];
}

/** A log2 bucket's label: [0], [1], or [lo, hi) with K M G T P E for powers of 1024. */
export function bucketLabel(b: { low: number; high: number }): string {
  if (b.low === 0) {
    if (b.high !== 1) throw new Error(`not a log2 bucket: [${b.low}, ${b.high})`);
    return '[0]';
  }
  const p = log2Exact(b.low);
  if (b.low === 1) return '[1]';
  return `[${powerLabel(p)}, ${powerLabel(p + 1)})`;
}

/** Number of '@' bpftrace draws: (int)(count / (float)max * 52), in single precision as bpftrace does. */
export function barWidth(count: number, max: number): number {
  if (max <= 0) return 0;
  const f = Math.fround(Math.fround(Math.fround(count) / Math.fround(max)) * BAR_WIDTH);
  return Math.trunc(f);
}

function padEnd(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

function padStart(s: string, n: number): string {
  return s.length >= n ? s : ' '.repeat(n - s.length) + s;
}

/** The buckets bpftrace prints: lowest to highest non-zero bucket, empty ones in between filled in. */
export function printedBuckets(h: { buckets: Bucket[] }): Bucket[] {
  const nonZero = h.buckets.filter((b) => b.count > 0).sort((a, b) => a.low - b.low);
  if (nonZero.length === 0) return [];
  const byLow = new Map(h.buckets.map((b) => [b.low, b]));
  const out: Bucket[] = [];
  let low = nonZero[0].low;
  const last = nonZero[nonZero.length - 1].low;
  for (;;) {
    const high = low === 0 ? 1 : low * 2;
    out.push(byLow.get(low) ?? { low, high, count: 0 });
    if (low >= last) break;
    low = high;
  }
  return out;
}

/**
 * The histogram as bpftrace prints it: "@name:\n" then one line per bucket, each ending in '\n':
 * label left-aligned in 16, count right-aligned in 8, " |", the bar padded to 52, "|".
 * Buckets are printed as given (the server already sends the lowest to the highest non-zero one).
 */
export function formatBpftrace(name: string, h: { buckets: Bucket[] }): string {
  let out = (name.startsWith('@') ? name : '@' + name) + ':\n';
  let max = 0;
  for (const b of h.buckets) max = Math.max(max, b.count);
  for (const b of h.buckets) {
    const bar = barWidth(b.count, max);
    out += padEnd(bucketLabel(b), 16) + padStart(String(b.count), 8) + ' |' + padEnd('@'.repeat(bar), BAR_WIDTH) + '|\n';
  }
  return out;
}

