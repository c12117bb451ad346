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
  it('marks the base arm once, never twice', () => {
    expect(armLabel('cfs_rq', true)).toBe('cfs_rq (base)');
    expect(armLabel('base (cfs_rq)', true)).toBe('base (cfs_rq)');
    expect(armLabel('Base', true)).toBe('Base');
    expect(armLabel('baseline', true)).toBe('baseline (base)');
    expect(armLabel('head (task)', false)).toBe('head (task)');
  });
});
