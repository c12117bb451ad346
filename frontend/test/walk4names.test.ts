// Newcomer walk 4, items 4, 8 and 9: time charts start at t = 0, one name per cpu.stat quantity on every page, and the
// note of a table's hidden columns reads as a sentence.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fromZero } from '../src/series';
import { metricAxis, timeRange } from '../src/charts';
import { LOCAL_THROTTLED_NOTE, statAxisTitle, statLabel } from '../src/statnames';
import { hiddenColumnsNote } from '../src/tables';
import { latencyBlankReason } from '../src/pages/latency';
import { statColumns } from '../src/pages/compare';

describe('time charts from the run\'s start', () => {
  it('put a point at 0 s before samples that start later: counters at 0, rates with no value', () => {
    const lines = [{ label: '/a', values: [10, 20] }];
    expect(fromZero([1, 2], lines, 0)).toEqual({ xs: [0, 1, 2], lines: [{ label: '/a', values: [0, 10, 20] }] });
    expect(fromZero([1, 2], lines, null).lines[0].values).toEqual([null, 10, 20]);
  });
  it('leave samples that start at 0, and no samples, as they are', () => {
    const lines = [{ label: '/a', values: [0, 5] }];
    expect(fromZero([0, 1], lines, 0)).toEqual({ xs: [0, 1], lines });
    expect(fromZero([], [], 0)).toEqual({ xs: [], lines: [] });
  });
  it('draw the time axis from 0 s, never from the first sample', () => {
    expect(timeRange(5)).toEqual([0, 5]);
    expect(timeRange(0)).toEqual([0, 1]);
    expect(timeRange(null)).toEqual([0, 1]);
  });
});

describe('one name per cpu.stat quantity', () => {
  it('names a key as the kernel prints it, with its file unless cpu.stat', () => {
    expect(statLabel('cpu.stat', 'throttled_usec')).toBe('throttled_usec');
    expect(statLabel('cpu.stat.local', 'throttled_usec')).toBe('throttled_usec (cpu.stat.local)');
    const cols = statColumns({ '/a': { 'cpu.stat': { throttled_usec: 1 }, 'cpu.stat.local': { throttled_usec: 2 } } as never });
    expect(cols.map((c) => c.label)).toEqual(['throttled_usec', statLabel('cpu.stat.local', 'throttled_usec')]);
  });
  it('gives the run page\'s axes and an experiment\'s strip plots the same title for a key', () => {
    for (const key of ['nr_periods', 'nr_throttled', 'throttled_usec', 'nr_bursts', 'burst_usec', 'usage_usec']) {
      expect(metricAxis(`cgroups/~1web/cpu.stat/${key}`).title).toBe(statAxisTitle(key));
    }
    expect(statAxisTitle('nr_throttled')).toBe('nr_throttled (periods)');
  });
  it('is the only name the sources and templates give cpu.stat.local\'s throttled_usec and nr_throttled\'s unit', () => {
    const root = join(__dirname, '..', '..');
    const files = [
      ...readdirSync(join(root, 'frontend/src'), { recursive: true }).map((f) => join(root, 'frontend/src', String(f))),
      ...readdirSync(join(root, 'src/main/resources/templates')).map((f) => join(root, 'src/main/resources/templates', f)),
    ].filter((f) => /\.(ts|html)$/.test(f));
    const other = [/local throttled_usec/, /nr_throttled \(count\)/, /'throttled time'/, /'CPU time used'/];
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      for (const re of other) expect(re.test(text), `${f}: ${re}`).toBe(false);
    }
  });
  it('says why cpu.stat.local\'s throttled_usec can exceed cpu.stat\'s, or be non-zero without a quota', () => {
    expect(LOCAL_THROTTLED_NOTE).toContain("an ancestor's");
    expect(LOCAL_THROTTLED_NOTE).toContain('a group without a quota under a limited parent');
  });
});

describe('the note of hidden columns', () => {
  it('names the columns first, each reason after the columns it explains', () => {
    expect(hiddenColumnsNote(['exit'], latencyBlankReason)).toBe('Not shown, empty in every row: exit (no task of this run exits).');
    expect(hiddenColumnsNote(['run-stretch wall p50', 'run-stretch wall max', 'exit'], latencyBlankReason)).toBe(
      'Not shown, empty in every row: run-stretch wall p50, run-stretch wall max (no task of this run is periodic); exit (no task of this run exits).');
    expect(hiddenColumnsNote(['timer'], 'the run recorded none')).toBe('Not shown, empty in every row: timer (the run recorded none).');
    expect(hiddenColumnsNote([], 'x')).toBe('');
  });
  it('never ends with a reason\'s own words and then the names ("…tasks that exit): exit.")', () => {
    const n = hiddenColumnsNote(['exit'], latencyBlankReason);
    expect(n).not.toMatch(/\): \w+\.$/);
  });
});
