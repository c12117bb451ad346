import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { barWidth, bucketLabel, formatBpftrace, powerLabel, printedBuckets } from '../src/hist';

const here = dirname(fileURLToPath(import.meta.url));
/** Seed 03's @durations map (src/test/resources/seeds/03-*.txt, a copy of the project's seed, lines 181-190), bpftrace's own output byte for byte. */
const SEED_03 = readFileSync(join(here, 'fixtures', 'seed03-durations.txt'), 'utf8');

const K = 1024;
const M = K * K;

describe('bucket labels', () => {
  it('are bpftrace labels with K M G T suffixes for powers of 1024', () => {
    expect(bucketLabel({ low: 8 * K, high: 16 * K })).toBe('[8K, 16K)');
    expect(bucketLabel({ low: M, high: 2 * M })).toBe('[1M, 2M)');
    expect(bucketLabel({ low: 512 * K, high: M })).toBe('[512K, 1M)');
    expect(bucketLabel({ low: 512, high: K })).toBe('[512, 1K)');
    expect(bucketLabel({ low: 2, high: 4 })).toBe('[2, 4)');
    expect(bucketLabel({ low: 2 ** 30, high: 2 ** 31 })).toBe('[1G, 2G)');
    expect(bucketLabel({ low: 2 ** 40, high: 2 ** 41 })).toBe('[1T, 2T)');
    expect(bucketLabel({ low: 2 ** 39, high: 2 ** 40 })).toBe('[512G, 1T)');
  });

  it('are [0] and [1] for the single-value buckets', () => {
    expect(bucketLabel({ low: 0, high: 1 })).toBe('[0]');
    expect(bucketLabel({ low: 1, high: 2 })).toBe('[1]');
  });

  it('refuse buckets that are not log2 buckets', () => {
    expect(() => bucketLabel({ low: 3, high: 6 })).toThrow();
    expect(() => bucketLabel({ low: 0, high: 2 })).toThrow();
  });

  it('write 2^p as 2^(p mod 10) and a suffix', () => {
    expect(powerLabel(0)).toBe('1');
    expect(powerLabel(9)).toBe('512');
    expect(powerLabel(10)).toBe('1K');
    expect(powerLabel(23)).toBe('8M');
  });
});

describe('bar width', () => {
  it('is (int)(count / (float)max * 52)', () => {
    expect(barWidth(665, 665)).toBe(52);
    expect(barWidth(274, 665)).toBe(21);
    expect(barWidth(6, 665)).toBe(0);
    expect(barWidth(0, 0)).toBe(0);
  });

  it('rounds in single precision as bpftrace does (one more @ than integer division here)', () => {
    expect(Math.floor((40549927 * 52) / 55489374)).toBe(37);
    expect(barWidth(40549927, 55489374)).toBe(38);
  });
});

describe('bpftrace text', () => {
  const seedBuckets = [
    { low: 8 * K, high: 16 * K, count: 274 },
    { low: 16 * K, high: 32 * K, count: 132 },
    { low: 32 * K, high: 64 * K, count: 6 },
    { low: 64 * K, high: 128 * K, count: 0 },
    { low: 128 * K, high: 256 * K, count: 2 },
    { low: 256 * K, high: 512 * K, count: 0 },
    { low: 512 * K, high: M, count: 117 },
    { low: M, high: 2 * M, count: 665 },
    { low: 2 * M, high: 4 * M, count: 10 },
  ];

  it("is seed 03's histogram byte for byte", () => {
    expect(formatBpftrace('durations', { buckets: seedBuckets })).toBe(SEED_03);
    expect(formatBpftrace('@durations', { buckets: seedBuckets })).toBe(SEED_03);
  });

  it('lays out each line: label in 16, count in 8, " |", 52 columns, "|"', () => {
    const line = formatBpftrace('x', { buckets: [{ low: 0, high: 1, count: 3 }] }).split('\n')[1];
    expect(line).toBe('[0]' + ' '.repeat(13) + '       3 |' + '@'.repeat(52) + '|');
    expect(line.length).toBe(16 + 8 + 2 + 52 + 1);
  });

  it('never cuts a label longer than 16 columns', () => {
    const text = formatBpftrace('x', { buckets: [{ low: 2 ** 59, high: 2 ** 60, count: 1 }] });
    expect(text.split('\n')[1].startsWith('[512P, 1E)      ')).toBe(true);
  });

  it('prints only the map line for an empty histogram', () => {
    expect(formatBpftrace('x', { buckets: [] })).toBe('@x:\n');
  });

  it('fills in zero buckets between the lowest and highest non-zero one', () => {
    const sparse = seedBuckets.filter((b) => b.count > 0).concat([{ low: 4 * M, high: 8 * M, count: 0 }]);
    expect(formatBpftrace('durations', { buckets: printedBuckets({ buckets: sparse }) })).toBe(SEED_03);
  });

  it("fixture matches seed 03's own text (the copy in src/test/resources/seeds)", () => {
    const seeds = join(here, '..', '..', 'src', 'test', 'resources', 'seeds');
    expect(existsSync(seeds)).toBe(true);
    const f = readdirSync(seeds).find((n) => n.startsWith('03-'));
    expect(f).toBeDefined();
    expect(readFileSync(join(seeds, f!), 'utf8')).toContain(SEED_03);
  });
});

describe('bucket hover values', () => {
  it('reads a bucket as durations in the unit of its histogram', async () => {
    const { bucketHover } = await import('../src/charts');
    expect(bucketHover('[2K, 4K)')).toBe('[2K, 4K) ns = 2.05 µs – 4.10 µs');
    // a runqlat-style latency histogram counts µs: [2K, 4K) µs is 2 to 4 ms
    expect(bucketHover('[2K, 4K)', 'µs')).toBe('[2K, 4K) µs = 2.05 ms – 4.10 ms');
  });
});

import { latestValue, totalValue } from '../src/charts';

describe('legend values when the cursor is away', () => {
  it('a line shows its latest sample, a histogram its total', () => {
    expect(latestValue([1, 2, null, 4, null])).toBe(4);
    expect(latestValue([null, null])).toBeNull();
    expect(totalValue([0, 3, null, 4])).toBe(7);
    expect(totalValue([])).toBeNull();
  });
});
