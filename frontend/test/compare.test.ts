import { describe, expect, it } from 'vitest';
import { diffRows, scalesNote, statColumns } from '../src/pages/compare';
import type { CgroupStats } from '../src/stream';

const v54 = { '/web': { 'cpu.stat': { usage_usec: 10, user_usec: 8, system_usec: 2, nr_periods: 5, nr_throttled: 4, throttled_usec: 900 } } } as unknown as Record<string, CgroupStats>;
const v618 = {
  '/web': {
    'cpu.stat': { usage_usec: 12, user_usec: 9, system_usec: 3, nr_periods: 5, nr_throttled: 3, throttled_usec: 700, nr_bursts: 1, burst_usec: 40 },
    'cpu.stat.local': { throttled_usec: 650 },
  },
} as unknown as Record<string, CgroupStats>;

describe('the compare table\'s columns', () => {
  it('are every cpu.stat and cpu.stat.local key either run has, in the kernel\'s order', () => {
    expect(statColumns(v54, v618).map((c) => c.label)).toEqual(['usage_usec', 'user_usec', 'system_usec', 'nr_periods',
      'nr_throttled', 'throttled_usec', 'nr_bursts', 'burst_usec', 'throttled_usec (cpu.stat.local)']);
    // whichever side has them
    expect(statColumns(v618, v54)).toEqual(statColumns(v54, v618));
  });

  it('keep a key the kernel order does not know (cgroup v1), after the known ones', () => {
    const v1 = { '/a': { 'cpu.stat': { nr_periods: 1, nr_throttled: 0, throttled_time: 0 } } } as unknown as Record<string, CgroupStats>;
    expect(statColumns(v1, v54).map((c) => c.key)).toEqual(['usage_usec', 'user_usec', 'system_usec', 'nr_periods',
      'nr_throttled', 'throttled_usec', 'throttled_time']);
  });

  it('read each side\'s own group, cpu.stat.local included', () => {
    const [row] = diffRows(v54, v618);
    expect(row.ga?.['cpu.stat.local']).toBeUndefined();
    expect(row.gb?.['cpu.stat.local']?.throttled_usec).toBe(650);
  });
});

describe('the note under the A and B charts', () => {
  it('says the scales are shared and how much of the time axis the shorter run fills', () => {
    const n = scalesNote(true, [2e9, 300e9]);
    expect(n).toContain('share one time axis (0 to 300 s, the longer run)');
    expect(n).toContain('A ran 2.00 s simulated and B 300 s, so the shorter run fills 1\u00a0% of the time axis');
    expect(scalesNote(true, [5e9, 5e9])).not.toContain('fills');
    expect(scalesNote(false, [2e9, 300e9])).toContain('own scales');
  });
});
