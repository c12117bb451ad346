import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareTitle, oldestFirst } from '../src/pages/home';
import { armLabel } from '../src/pages/experiment';

describe('compare from the home page', () => {
  it('puts the older run in A whatever order the two were ticked in (B − A reads new minus old)', () => {
    const older = { id: 'b', createdAt: '2026-12-01T22:10:00Z' };
    const newer = { id: 'a', createdAt: '2026-12-01T22:20:00Z' };
    expect(oldestFirst([newer, older]).map((r) => r.id)).toEqual(['b', 'a']);
    expect(oldestFirst([older, newer]).map((r) => r.id)).toEqual(['b', 'a']);
  });

  it("a disabled checkbox's hover says why the run cannot be compared", () => {
    expect(compareTitle({ status: 'cancelled' })).toContain("a cancelled run's partial result");
    expect(compareTitle({ status: 'failed' })).toContain('failed');
    expect(compareTitle({ status: 'running' })).toContain('running');
    expect(compareTitle({ status: 'queued' })).toContain('queued');
    for (const s of ['cancelled', 'failed', 'running', 'queued'] as const) expect(compareTitle({ status: s })).toMatch(/^cannot compare/);
    expect(compareTitle({ status: 'done' })).not.toMatch(/cannot/);
  });
});

describe('experiment arm labels', () => {
  it('marks the base arm once, never twice, as the server\'s tables do (fixtures/arm-labels.json, also ArmLabelsTest)', () => {
    const cases: { arms: string[]; labels: string[] }[] = JSON.parse(readFileSync(new URL('./fixtures/arm-labels.json', import.meta.url), 'utf8'));
    expect(cases.length).toBeGreaterThan(5);
    for (const c of cases) expect(c.arms.map((_, i) => armLabel(c.arms, i)), c.arms.join(', ')).toEqual(c.labels);
  });
});

describe("a cancelled run's page", () => {
  it('ends its time axes at the stop and says where its final cpu.stat is from', async () => {
    const { finalStatHeading, resultEndNs } = await import('../src/emptynotes');
    const partial = { stopped_at_ns: 120e9, duration_ns: 300e9 };
    expect(resultEndNs(300e9, partial)).toBe(120e9);
    expect(resultEndNs(300e9, null)).toBe(300e9);
    expect(finalStatHeading(partial)).toMatch(/^cpu\.stat at 120.* s \(cancelled\)$/);
    expect(finalStatHeading(undefined)).toBe('cpu.stat at the end');
  });
});

describe('one format for one quantity on the experiment page', () => {
  it("the strip plot's legend gives an arm's mean as the results table does", async () => {
    const { legendValue, meanCv, meanDecimals } = await import('../src/pages/experiment');
    const cases: [string, number[]][] = [['cgroups/web/usage_usec', [511424.3, 400000]], ['machine/sched_calls', [696646.8, 696000]],
      ['completion_s', [12.345, 13]], ['machine/pulls_into_throttled', [3, 4]]];
    for (const [metric, means] of cases) {
      const d = meanDecimals(means, metric);
      for (const m of means) {
        expect(legendValue(metric, means)(m, true)).toBe(meanCv({ amean: m, coefvar: 1 }, metric, d).replace(/±.*$/, ''));
      }
    }
    expect(legendValue('cgroups/web/usage_usec', [511424.3])(511424.3, true)).toBe('511,424');
    expect(legendValue('machine/sched_calls', [696646.8])(696646.8, true)).toBe('696,646.8');
  });
});

describe('axis labels', () => {
  it('are shortened to fit their axis, the unit kept, never cut at the canvas edge', async () => {
    const { shortenToFit } = await import('../src/charts');
    const fits = (max: number) => (s: string) => s.length <= max;
    expect(shortenToFit('pulls_into_throttled (count)', fits(40))).toBe('pulls_into_throttled (count)');
    const short = shortenToFit('pulls_into_throttled (count)', fits(20));
    expect(short.length).toBeLessThanOrEqual(20);
    expect(short).toMatch(/^pulls_into_.*… \(count\)$/);
    expect(shortenToFit('simulated time', fits(8)).length).toBeLessThanOrEqual(8);
  });
});

describe("an experiment arm's derived settings", () => {
  it('lists what changes beside what the arm sets, from the runs\' effective settings', async () => {
    const { derivedChanges } = await import('../src/settings');
    const base = { seed: 1, duration: '5s', machine: { cpus: 8 }, kernel: { throttle: 'cfs_rq', throttled_lb: 'pair', throttled_clock_start: 'nonempty', hz: 1000 } };
    const head = { seed: 2, duration: '5s', machine: { cpus: 8 }, kernel: { throttle: 'task', throttled_lb: 'dst', throttled_clock_start: 'first-park', hz: 1000 } };
    expect(derivedChanges(base, head, { '/kernel/throttle': 'task', '/kernel/throttled_lb': 'dst' }))
      .toEqual([{ key: 'kernel.throttled_clock_start', from: 'nonempty', to: 'first-park' }]);
    // what the arm sets is no derived change, nor is the seed (each run has its own)
    expect(derivedChanges(base, head, { '/kernel': { throttle: 'task', throttled_lb: 'dst', throttled_clock_start: 'first-park' } })).toEqual([]);
    expect(derivedChanges(base, base, {})).toEqual([]);
  });
});
