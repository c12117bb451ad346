import { describe, expect, it } from 'vitest';
import { callsCaption } from '../src/calls';
import type { DistributeCall } from '../src/stream';

const call = (at_ns: number, duration_ns: number): DistributeCall => ({ at_ns, cpu: 0, cgroup: '/a', duration_ns, rqs: 1, remote_rqs: 0, cfs_rqs: 1, tasks: 1 });
// 14,759 calls in all; the result kept the first 10,000; the slowest kept is 61.8 µs, the histogram has 3 in [64K, 128K)
const hist = { count: 14_759, sum: 0, buckets: [
  { low: 2048, high: 4096, count: 14_000 }, { low: 32768, high: 65536, count: 756 }, { low: 65536, high: 131072, count: 3 }] };
const kept = [call(1e9, 3000), call(41.2e9, 61_800)];

describe('the distribute calls list says what it lists', () => {
  it('names the cap and the histogram\'s calls slower than any listed (a done run that kept the first 10,000)', () => {
    const c = callsCaption('slowest', kept, 10_000, hist, 60e9);
    expect(c.title).toBe('Slowest of the first 10,000 distribute_cfs_runtime() calls');
    expect(c.note).toContain('first 10,000 of the run\'s 14,759 calls');
    expect(c.note).toContain('record.max_distribute_calls');
    expect(c.note).toContain('3 calls in the histogram (its [64K, 128K) bucket and up) are slower than any listed here');
  });

  it('says the latest kept is not the run\'s latest', () => {
    const c = callsCaption('latest', kept, 10_000, hist, 60e9);
    expect(c.title).toBe('Latest of the first 10,000 distribute_cfs_runtime() calls');
    expect(c.note).toContain('the latest at 41.2 s of 60.0 s simulated; the 4,759 after it are in the histogram only');
  });

  it('says nothing more when the list is of every call (all kept, or live)', () => {
    expect(callsCaption('slowest', kept, 14_759, hist, 60e9)).toEqual({ title: 'Slowest distribute_cfs_runtime() calls', note: '' });
    expect(callsCaption('latest', kept, null, hist, 60e9).note).toBe('');
  });
});
