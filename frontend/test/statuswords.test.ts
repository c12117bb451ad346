// Issue 12: a finished run's status and its reason are said once in every label and banner ("cancelled by
// request", never "cancelled: cancelled by request" nor "cancelled (cancelled by request)"), and an attempt lost
// with its instance is said once beside the status.
import { describe, expect, it } from 'vitest';
import { interruptionNote, outcome, reasonAfter } from '../src/runstatus';
import { partialNote, statusNote } from '../src/emptynotes';
import { us } from '../src/pages/latency';

describe('outcome: the status and its reason, each once', () => {
  it('does not put the word before a reason that starts with it', () => {
    expect(outcome('cancelled', 'cancelled by request')).toBe('cancelled by request');
    expect(outcome('cancelled', 'cancelled while queued')).toBe('cancelled while queued');
    expect(outcome('failed', 'Failed to parse')).toBe('Failed to parse');
  });
  it('puts any other reason after the word, and the word alone without one', () => {
    expect(outcome('failed', 'max events exceeded (1000)')).toBe('failed: max events exceeded (1000)');
    expect(outcome('failed', null)).toBe('failed');
    expect(outcome('cancelled', '  ')).toBe('cancelled');
  });
  it('gives the reason after the word', () => {
    expect(reasonAfter('cancelled', 'cancelled by request')).toBe('by request');
    expect(reasonAfter('failed', 'max wall time exceeded (PT10M)')).toBe('max wall time exceeded (PT10M)');
    expect(reasonAfter('failed', undefined)).toBe('');
  });
});

describe('statusNote: the one statement of a run that ended without a result', () => {
  it('says a cancel before the start once, with where it stopped and that nothing is kept', () => {
    const n = statusNote('cancelled', 'cancelled while queued', 0, 300e9);
    expect(n).toBe('cancelled while queued at 0 s of 300 s simulated. A run cancelled before it started keeps no ' +
      'result, so this page draws nothing: run the scenario again to see it.');
    expect(n.match(/cancel/g)).toHaveLength(2); // "cancelled while queued at …" and "A run cancelled before it started"
    expect(statusNote('cancelled', null, 0, 5e9)).toMatch(/^cancelled at 0 s of 5.00 s simulated\./);
    expect(statusNote('cancelled', 'cancelled while queued', 0, 0)).toMatch(/^cancelled while queued\. A run cancelled before/);
  });
  it('says a failure once, with its reason', () => {
    const n = statusNote('failed', 'max events exceeded (1000)', 0, 1e9);
    expect(n).toBe('failed: max events exceeded (1000). A failed run keeps no result, so this page draws nothing.');
    expect(statusNote('failed', null, 0, 1e9)).toBe('failed. A failed run keeps no result, so this page draws nothing.');
  });
});

describe('partialNote: the one statement of a run cancelled while it ran', () => {
  it('says where it stopped, of the duration, and that the result is partial', () => {
    const n = partialNote('cancelled', 'cancelled by request', { stopped_at_ns: 3.3e9, duration_ns: 300e9 }, 3.3e9, 300e9);
    expect(n).toMatch(/^cancelled by request at 3.30 s of 300 s simulated: partial result\. /);
    expect(n).toContain('0 to 3.30 s only');
    expect(n.match(/cancel/g)).toHaveLength(2); // the outcome, and why it is not repeatable
  });
  it('says a first repeat shown is whole when the cancel came later', () => {
    expect(partialNote('cancelled', 'cancelled by request', null, 1e9, 5e9))
      .toBe("cancelled by request at 1.00 s of 5.00 s simulated in a later repeat: the result shown, the first repeat's, is whole.");
  });
});

describe('interruptionNote: attempts that died with their instance', () => {
  const base = { interruptions: 1, attempts: 2, interruptedWorker: 'node-a', interruptedAt: '2026-11-30T22:10:03.123Z' };
  it('is said beside a re-queued or running run, and a done one', () => {
    expect(interruptionNote({ ...base, status: 'queued' }))
      .toBe('an earlier attempt stopped with its instance (last on node-a, 2026-11-30 22:10:03 UTC); it runs again from the start');
    expect(interruptionNote({ ...base, status: 'done' })).toContain('; attempt 2 ran it from the start');
    expect(interruptionNote({ ...base, interruptions: 2, attempts: 3, status: 'running' })).toMatch(/^2 earlier attempts stopped with their instance/);
  });
  it('is not said twice: a failure after them says so in its reason; none without interruptions', () => {
    expect(interruptionNote({ ...base, status: 'failed' })).toBe('');
    expect(interruptionNote({ ...base, interruptions: 0, status: 'done' })).toBe('');
    expect(interruptionNote({ status: 'running' })).toBe('');
  });
});

describe('latency durations as a person reads them', () => {
  it('goes up to seconds (run_delay of a busy task is tens of seconds, not 28427.81 ms)', () => {
    expect(us(28_427_810)).toBe('28.4 s');
    expect(us(1_500)).toBe('1.50 ms'); // 3 significant digits, zeros kept (format.ts)
    expect(us(12.5)).toBe('12.5 µs');
    expect(us(undefined)).toBe('–');
  });
});
