import { describe, expect, it } from 'vitest';
import { cgroupLines, cpuRuns, slowestCalls, taskLines } from '../src/series';
import { cgroupFileUrl, kernelMessage } from '../src/api';
import type { Sample } from '../src/stream';

const st = (thr: number) => ({
  usage_usec: thr * 10, user_usec: 0, system_usec: 0, nr_periods: 0, nr_throttled: thr, throttled_usec: 0, nr_bursts: 0, burst_usec: 0,
});

function samples(groups: number, n: number): Sample[] {
  const out: Sample[] = [];
  for (let t = 1; t <= n; t++) {
    const cgroups: Sample['cgroups'] = {};
    const tasks: Sample['tasks'] = {};
    for (let g = 0; g < groups; g++) {
      cgroups[`/g${g}`] = { 'cpu.stat': st(g * t) };
      tasks[`t${g}`] = { cpu_percent: g };
    }
    out.push({ at_ns: t * 1e9, cgroups, tasks });
  }
  return out;
}

describe('chart lines', () => {
  it('keep the top 20 of 2,202 groups, largest first', () => {
    const { lines, total } = cgroupLines(samples(2202, 3), 'nr_throttled');
    expect(total).toBe(2202);
    expect(lines).toHaveLength(20);
    expect(lines[0].label).toBe('/g2201');
    expect(lines[0].values).toEqual([2201, 4402, 6603]);
  });

  it('keep the busiest tasks by mean CPU %', () => {
    const { lines, total } = taskLines(samples(30, 2), 5);
    expect(total).toBe(30);
    expect(lines.map((l) => l.label)).toEqual(['t29', 't28', 't27', 't26', 't25']);
  });

  it('leave gaps (null) where a group has no sample', () => {
    const s = samples(1, 2);
    delete (s[0].cgroups as Record<string, unknown>)['/g0'];
    expect(cgroupLines(s, 'usage_usec').lines[0].values).toEqual([null, 0]);
  });
});

describe('slowest calls', () => {
  it('sorts by duration, slowest first', () => {
    const call = (d: number, at: number) => ({ at_ns: at, cpu: 0, cgroup: '/a', duration_ns: d, rqs: 1, remote_rqs: 0, cfs_rqs: 1, tasks: 1 });
    expect(slowestCalls([call(5, 1), call(9, 2), call(7, 3)], 2).map((c) => c.duration_ns)).toEqual([9, 7]);
  });
});

describe('per-CPU timeline', () => {
  it('merges runs of equal states into one rectangle each', () => {
    expect(cpuRuns('1120')).toEqual([{ state: 1, start: 0, end: 2 }, { state: 2, start: 2, end: 3 }, { state: 0, start: 3, end: 4 }]);
    expect(cpuRuns('')).toEqual([]);
  });
});

describe('api helpers', () => {
  it('show the kernel-style message with its errno', () => {
    expect(
      kernelMessage({ detail: "echo '500 100000' > /web/cpu.max: quota 500 us is below the 1000 us minimum", errno: 'EINVAL' }),
    ).toBe("echo '500 100000' > /web/cpu.max: quota 500 us is below the 1000 us minimum (EINVAL)");
    expect(kernelMessage({ title: 'Busy' })).toBe('Busy');
  });

  it('build cgroup file URLs part by part', () => {
    expect(cgroupFileUrl('s1', '/web/frontend', 'cpu.max')).toBe('/api/scenarios/s1/cgroups/web/frontend/cpu.max');
    expect(cgroupFileUrl('s1', '/', 'cpu.max')).toBe('/api/scenarios/s1/cgroups/cpu.max');
  });
});

import { timelineEntry, visibleRows } from '../src/pages/editor';

describe('editor helpers', () => {
  it('build timeline entries as the contract spells them', () => {
    expect(timelineEntry('5s', 'write', '/a/cpu.max', '50000 100000')).toEqual({ at: '5s', write: '/a/cpu.max', value: '50000 100000' });
    expect(timelineEntry('10s', 'move', 'nop', '/b')).toEqual({ at: '10s', move: 'nop', to: '/b' });
    expect(timelineEntry('15s', 'taskset', 'nop', '1')).toEqual({ at: '15s', taskset: 'nop', cpus: '1' });
    expect(timelineEntry('20s', 'chrt', 'nop', 'rr 10')).toEqual({ at: '20s', chrt: 'nop', policy: 'rr', priority: 10 });
    expect(timelineEntry('60s', 'chrt', 'nop', 'normal')).toEqual({ at: '60s', chrt: 'nop', policy: 'normal' });
  });

  it('list only the rows under expanded groups, depth first', () => {
    const n = (path: string, children: string[]) => ({ path, parent: null, children, tasks: [] });
    const nodes = new Map([
      ['/', n('/', ['/a', '/b'])], ['/a', n('/a', ['/a/x'])], ['/a/x', n('/a/x', [])], ['/b', n('/b', ['/b/y'])], ['/b/y', n('/b/y', [])],
    ]);
    expect(visibleRows(nodes, '/', new Set(['/', '/a'])).map((r) => `${r.depth}${r.path}`)).toEqual(['0/', '1/a', '2/a/x', '1/b']);
  });
});

import { diffRows } from '../src/pages/compare';

describe('compare', () => {
  it('lists every group of either run, the largest throttled_usec difference first', () => {
    const g = (throttled: number) => ({ 'cpu.stat': { ...st(0), throttled_usec: throttled } });
    const rows = diffRows({ '/a': g(100), '/b': g(5), '/only-a': g(1) }, { '/a': g(90), '/b': g(500), '/only-b': g(2) });
    expect(rows.map((r) => r.path)).toEqual(['/b', '/a', '/only-b', '/only-a']);
    expect(rows.find((r) => r.path === '/only-b')!.a).toEqual({});
  });
});

import { taskEntry, DEFAULT_SCENARIO } from '../src/pages/editor';

describe('editor task form', () => {
  it('sends each workload its own parameters, and policy, priority and CPUs when given', () => {
    expect(taskEntry({ name: 'p', cgroup: '/a', count: '2', kind: 'periodic', run: '3ms', sleep: '7ms', work: '9s', policy: 'rr', priority: '10', cpus_allowed: '0-1' }))
      .toEqual({ name: 'p', cgroup: '/a', count: 2, workload: { kind: 'periodic', run: '3ms', sleep: '7ms' }, policy: 'rr', priority: 10, cpus_allowed: '0-1' });
    expect(taskEntry({ name: 'f', cgroup: '/a', count: '', kind: 'fixed-work', work: '2s', run: '1ms', policy: '', priority: '', cpus_allowed: '' }))
      .toEqual({ name: 'f', cgroup: '/a', workload: { kind: 'fixed-work', work: '2s' } });
    expect(taskEntry({ name: 'g', cgroup: '/a', count: '1', kind: 'go-sleep-loop', run: '5ms', sleep: '100ms', threads: '3', work: '1s' }))
      .toEqual({ name: 'g', cgroup: '/a', count: 1, workload: { kind: 'go-sleep-loop', run: '5ms', sleep: '100ms', threads: 3 } });
  });

  it('starts a new scenario with only what the form shows filled in: every other key takes the parser\'s default', () => {
    expect(DEFAULT_SCENARIO).toEqual({ name: 'new scenario' }); // no made-up duration: the user types it
  });

  it('sends a benchmark workload only the parameters given: the parser\'s defaults apply to the rest', () => {
    expect(taskEntry({ name: 'h', cgroup: '/a', count: '', kind: 'hackbench', mode: '', groups: '', fds: '4', loops: '', datasize: '' }))
      .toEqual({ name: 'h', cgroup: '/a', workload: { kind: 'hackbench', fds: 4 } });
    expect(taskEntry({ name: 'n', cgroup: '/a', kind: 'netperf-udp-rr', request_size: '', response_size: '64' }))
      .toEqual({ name: 'n', cgroup: '/a', workload: { kind: 'netperf-udp-rr', response_size: 64 } });
  });

  it('stores a key only when its field is filled: an emptied field removes it and its section when empty', async () => {
    const { setPath } = await import('../src/pages/editor');
    const doc: Record<string, any> = { name: 'x', kernel: { hz: 250, preempt: 'full' } };
    setPath(doc, 'machine.cpus', null);
    setPath(doc, 'record.interval', '');
    setPath(doc, 'kernel.hz', null);
    expect(doc).toEqual({ name: 'x', kernel: { preempt: 'full' } });
    setPath(doc, 'kernel.preempt', '');
    setPath(doc, 'kernel.version', '5.4');
    expect(doc).toEqual({ name: 'x', kernel: { version: '5.4' } });
  });

  it('names the required fields left empty, from the parser\'s required keys', async () => {
    const { missingRequired } = await import('../src/pages/editor');
    const d = { workloads: { periodic: { required: ['run', 'sleep'], defaults: {} }, hog: { required: [], defaults: {} } } } as any;
    expect(missingRequired({ kind: 'periodic', run: '5ms', sleep: ' ' }, d)).toEqual(['sleep']);
    expect(missingRequired({ kind: 'hog' }, d)).toEqual([]);
  });
});

describe('editor tasks table', () => {
  it('shows each task policy as chrt names it', async () => {
    const { policyText } = await import('../src/pages/editor');
    expect(policyText({})).toBe('normal');
    expect(policyText({ policy: 'rr', priority: 10 })).toBe('rr 10');
    expect(policyText({ policy: 'batch' })).toBe('batch');
  });
});
