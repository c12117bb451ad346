import { describe, expect, it } from 'vitest';
import { mergeStatus, type StatusFacts } from '../src/runstatus';

const f = (status: StatusFacts['status'], progress: number, etaMs: number | null = null): StatusFacts =>
  ({ status, progress, simulatedNs: progress * 1e7, durationNs: 1e9, etaMs });

describe('mergeStatus: one status line from reports of several sources', () => {
  it('never goes back from running to queued, nor leaves an end', () => {
    const running = mergeStatus(null, f('running', 40, 500));
    expect(mergeStatus(running, f('queued', 0))).toBe(running);
    const done = mergeStatus(running, f('done', 100));
    expect(mergeStatus(done, f('running', 99))).toBe(done);
    expect(mergeStatus(done, f('queued', 0))).toBe(done);
    expect(mergeStatus(done, f('failed', 50))).toBe(done);
  });

  it('keeps progress in step with the status: a queued run has none, a done run all, an ETA only while running', () => {
    expect(mergeStatus(null, f('queued', 100))).toMatchObject({ status: 'queued', progress: 0, simulatedNs: 0 });
    expect(mergeStatus(null, f('done', 37, 900))).toMatchObject({ status: 'done', progress: 100, simulatedNs: 1e9, etaMs: null });
    expect(mergeStatus(null, f('running', 150, 10))).toMatchObject({ progress: 100, etaMs: 10 });
    expect(mergeStatus(null, f('cancelled', 30, 10))).toMatchObject({ progress: 30, etaMs: null });
  });

  it('takes a later report of the same status, and keeps the duration a report leaves out', () => {
    const a = mergeStatus(null, f('running', 10));
    const b = mergeStatus(a, { status: 'running', progress: 20, simulatedNs: 2e8, durationNs: 0, etaMs: null });
    expect(b).toMatchObject({ progress: 20, durationNs: 1e9 });
  });
});

describe('the badge at the end of the simulation', () => {
  it('says storing, not running, while a run at 100 % has its result written; done once it is', async () => {
    const { shownStatus } = await import('../src/runstatus');
    expect(shownStatus(mergeStatus(null, f('running', 100)))).toBe('storing');
    expect(shownStatus(mergeStatus(null, f('running', 99.9)))).toBe('running');
    expect(shownStatus(mergeStatus(null, f('done', 100)))).toBe('done');
    expect(shownStatus(mergeStatus(null, f('queued', 100)))).toBe('queued');
  });
});
