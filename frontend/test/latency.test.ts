import { describe, expect, it } from 'vitest';
import { latencyRows, type TaskResult } from '../src/pages/latency';

function task(p99: number | null, runDelay: number): TaskResult {
  return {
    usage_usec: 1, nr_switches: 1, run_delay_usec: runDelay,
    wakeup_latency_us: p99 == null ? { count: 0 } : { count: 3, p50: p99 / 2, p90: p99, p99, p999: p99, max: p99 },
  };
}

describe('per-task latency rows', () => {
  it('puts the most delayed wake-ups first, then run_delay, then the name', () => {
    const rows = latencyRows({ hog: task(null, 500), b: task(200, 1), a: task(200, 1), slow: task(9000, 1) });
    expect(rows.map(([n]) => n)).toEqual(['slow', 'a', 'b', 'hog']);
  });
  it('keeps at most the cap', () => {
    const many: Record<string, TaskResult> = {};
    for (let i = 0; i < 10; i++) many[`t/${i}`] = task(i, 0);
    expect(latencyRows(many, 3).map(([n]) => n)).toEqual(['t/9', 't/8', 't/7']);
  });
});
