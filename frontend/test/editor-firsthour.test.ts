import { describe, expect, it } from 'vitest';
import { actionSummary, fileUnavailable, kernelOverrides, stableJson, workloadSummary, type ScenarioDefaults } from '../src/pages/editor';
import { labelStep } from '../src/charts';
import { LATENCY_NAMES } from '../src/pages/latency';

function defaults(version: string, kernel: Record<string, unknown>): ScenarioDefaults {
  return {
    version, versions: { default: '6.18', releases: [], distributions: {}, mainline: '6.18', latest: '6.18' },
    name: 'x', seed: 1, required: [], machine: {}, kernel, record: {}, task: {}, workloads: {},
  };
}

describe('unsaved changes', () => {
  it('compares documents whatever the order of their keys', () => {
    expect(stableJson({ a: 1, k: { y: 2, x: [1, { q: 1, p: 2 }] } })).toBe(stableJson({ k: { x: [1, { p: 2, q: 1 }], y: 2 }, a: 1 }));
    expect(stableJson({ machine: { cpus: 2 } })).not.toBe(stableJson({ machine: { cpus: 4 } }));
  });
});

describe('explicit kernel keys over a version', () => {
  const v61 = defaults('6.1', { version: '6.1', cgroup_version: 2, throttle: 'cfs_rq', unthrottle: 'sync', timer_placement: 'random', burst: true, hz: 1000 });
  it('names every explicit key that differs from the version default, and only those', () => {
    const kernel = { version: '6.1', throttle: 'task', unthrottle: 'async', timer_placement: 'random', cgroup_version: 1, hz: 1000 };
    expect(kernelOverrides(kernel, v61)).toEqual([
      { key: 'throttle', value: 'task', dflt: 'cfs_rq' },
      { key: 'unthrottle', value: 'async', dflt: 'sync' },
    ]);
  });
  it('has nothing to say of a scenario that names only its version', () => {
    expect(kernelOverrides({ version: '6.1' }, v61)).toEqual([]);
    expect(kernelOverrides(undefined, v61)).toEqual([]);
  });
  it('compares numbers and their text alike', () => {
    expect(kernelOverrides({ hz: '1000' }, v61)).toEqual([]);
    expect(kernelOverrides({ hz: 250 }, v61)).toEqual([{ key: 'hz', value: '250', dflt: '1000' }]);
  });
});

describe('version-dependent cgroup files', () => {
  it('says a burst file is not on a kernel before 5.14, for v1 and v2', () => {
    const v54 = defaults('5.4', { burst: false, rt_group_sched: false });
    expect(fileUnavailable('cpu.max.burst', v54)).toBe('not on 5.4 (5.14+)');
    expect(fileUnavailable('cpu.cfs_burst_us', v54)).toBe('not on 5.4 (5.14+)');
    expect(fileUnavailable('cpu.rt_runtime_us', v54)).toBe('not on 5.4 (CONFIG_RT_GROUP_SCHED)');
    expect(fileUnavailable('cpu.max', v54)).toBeNull();
  });
  it('leaves the files a kernel has editable', () => {
    expect(fileUnavailable('cpu.max.burst', defaults('6.18', { burst: true }))).toBeNull();
    expect(fileUnavailable('cpu.max.burst', null)).toBeNull();
  });
});

describe('readable tasks and timeline', () => {
  it('summarises each workload as its kind and parameters', () => {
    expect(workloadSummary({ kind: 'hog' })).toBe('hog');
    expect(workloadSummary({ kind: 'periodic', run: '5ms', sleep: '10ms' })).toBe('periodic · run 5ms, sleep 10ms');
    expect(workloadSummary({ kind: 'netperf-udp-rr', request_size: 1, response_size: 1 })).toBe('netperf-udp-rr · request size 1, response size 1');
    expect(workloadSummary(undefined)).toBe('hog');
  });
  it('writes timeline actions as the commands they model', () => {
    expect(actionSummary({ write: '/a/cpu.max', value: '50000 100000' })).toBe('echo 50000 100000 > /a/cpu.max');
    expect(actionSummary({ move: 't', to: '/b' })).toBe('move t → /b');
    expect(actionSummary({ chrt: 't', policy: 'rr', priority: 10 })).toBe('chrt rr 10 t');
  });
});

describe('histogram x labels', () => {
  it('labels every bucket when they fit and thins them when they would overlap', () => {
    expect(labelStep(8, 10, 1400)).toBe(1);
    expect(labelStep(10, 30, 600)).toBeGreaterThan(1);
    // labelled buckets are at least a label's width apart
    const step = labelStep(10, 30, 600);
    expect((600 / 30) * step).toBeGreaterThanOrEqual(10 * 7 + 10);
  });
  it('names each latency metric for people', () => {
    expect(LATENCY_NAMES.iteration_wall_us).toBe('run-stretch wall time');
    expect(LATENCY_NAMES.wakeup_latency_us).toBe('wake-up latency');
  });
});

describe('the editor after the last newcomer walk', () => {
  it("says a refused timeline write as the tree says a refused write: the kernel's echo command first", async () => {
    const { actionRefusal } = await import('../src/pages/editor');
    expect(actionRefusal({ at: '1s', write: '/web/cpu.max', value: '500 100000' }, 'quota 500 us is below the 1000 us minimum', 'EINVAL'))
      .toBe("at 1s: echo '500 100000' > /web/cpu.max: quota 500 us is below the 1000 us minimum (EINVAL)");
    // a reason that already names the command is not repeated
    expect(actionRefusal({ write: '/a/cpu.max', value: 'x' }, "echo 'x' > /a/cpu.max: bad", null)).toBe("echo 'x' > /a/cpu.max: bad");
    expect(actionRefusal({ at: '2s', taskset: 't', cpus: '99' }, 'no CPU 99', 'EINVAL')).toBe('at 2s: taskset 99 t: no CPU 99 (EINVAL)');
  });

  it('lays out the tree with taller rows where a refused write says why (the message wraps, never cut)', async () => {
    const { rowTops, ROW_HEIGHT, ERROR_HEIGHT } = await import('../src/pages/editor');
    const { tops, height } = rowTops(['/', '/a', '/b', '/c'], (p) => (p === '/a' ? ROW_HEIGHT + ERROR_HEIGHT : ROW_HEIGHT));
    expect(tops).toEqual([0, ROW_HEIGHT, 2 * ROW_HEIGHT + ERROR_HEIGHT, 3 * ROW_HEIGHT + ERROR_HEIGHT]);
    expect(height).toBe(4 * ROW_HEIGHT + ERROR_HEIGHT);
    // a row measured at its message's own height (one line: 54 px) moves the rows below by that much, no more
    expect(rowTops(['/', '/a', '/b'], (p) => (p === '/a' ? 54 : ROW_HEIGHT)).tops).toEqual([0, ROW_HEIGHT, ROW_HEIGHT + 54]);
  });

  it('creates a new scenario with the default name where none was typed, never a made-up duration, keys in order', async () => {
    const { withSuggestions, NEW_SCENARIO_PLACEHOLDERS } = await import('../src/pages/editor');
    expect(JSON.stringify(withSuggestions({ duration: '2s', kernel: { hz: 250 } }))).toBe('{"name":"new scenario","duration":"2s","kernel":{"hz":250}}');
    expect(JSON.stringify(withSuggestions({ name: 'mine', kernel: { hz: 250 } }))).toBe('{"name":"mine","kernel":{"hz":250}}');
    // the placeholders say what happens: the name's is used when left empty, the duration's is an example of a required value
    expect(NEW_SCENARIO_PLACEHOLDERS.name).toBe('left empty: new scenario');
    expect(NEW_SCENARIO_PLACEHOLDERS.duration).toMatch(/^required/);
  });
});

describe('a placeholder fits its field', () => {
  it('keeps a short default whole and cuts a long rule at a word, with "…"', async () => {
    const { shortPlaceholder } = await import('../src/pages/editor');
    expect(shortPlaceholder('default: 5000')).toBe('default: 5000');
    const long = 'default: duration/200 rounded up to 1, 2 or 5 × 10^k, at least 100ms';
    const p = shortPlaceholder(long);
    expect(p.length).toBeLessThanOrEqual(26);
    expect(p.endsWith('…')).toBe(true);
    expect(long.startsWith(p.slice(0, -1))).toBe(true);
  });
});
