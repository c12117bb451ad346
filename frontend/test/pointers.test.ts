import { describe, expect, it } from 'vitest';
import { pointerSteps, readablePath, readableTable, unescapeStep } from '../src/pointers';
import { metricAxis } from '../src/charts';

// Experiment pages showed metric names with RFC 6901's escapes (`cgroups/~1web~1backend/...`): every path shown
// is unescaped, a step holding a `/` in brackets after its parent.
describe('readablePath', () => {
  it('unescapes ~1 and ~0 in RFC 6901 order', () => {
    expect(unescapeStep('~01')).toBe('~1');
    expect(unescapeStep('a~1b~0c')).toBe('a/b~c');
    expect(pointerSteps('/kernel/hz')).toEqual(['kernel', 'hz']);
    expect(pointerSteps('cgroups/~1a/cpu.stat/usage_usec')).toEqual(['cgroups', '/a', 'cpu.stat', 'usage_usec']);
  });

  it('shows a group path or a task instance in brackets, never an escape', () => {
    expect(readablePath('cgroups/~1web~1backend/cpu.stat/throttled_usec')).toBe('cgroups[/web/backend]/cpu.stat/throttled_usec');
    expect(readablePath('tasks/nop~10/usage_usec')).toBe('tasks[nop/0]/usage_usec');
    expect(readablePath('benchmarks/hb/completion_s')).toBe('benchmarks/hb/completion_s');
    expect(readablePath('/arms/1/set/~1kernel~1hz')).toBe('/arms/1/set[/kernel/hz]');
    expect(readablePath('/cgroups/0/cpu.max')).toBe('/cgroups/0/cpu.max');
    expect(readablePath('a~0b/c')).toBe('a~b/c');
    for (const p of ['cgroups/~1a~1b/x', 'tasks/~0x~1y/z', '/arms/0/set/~1cgroups~10~1cpu.max']) {
      expect(readablePath(p)).not.toMatch(/~[01]/);
    }
  });

  it('the metric axis title is the last step, unescaped', () => {
    expect(metricAxis('tasks/nop~10/usage_usec').title).toBe('usage_usec (time)');
  });
});

describe('readableTable', () => {
  it('replaces metric paths in the seeds\' text table without moving any column', () => {
    const text = [
      'metric                                 10%             5%              diff',
      'cgroups/~1e1/cpu.stat/usage_usec       511424±0.57%    256195±0.55%    -49.9%',
      'cgroups/~1a~1b/cpu.stat/nr_throttled   50.00±0.00%     50.00±0.00%     noise',
      '',
      'cgroups/~1e1/cpu.stat/usage_usec',
    ].join('\n');
    const out = readableTable(text, ['cgroups/~1e1/cpu.stat/usage_usec', 'cgroups/~1a~1b/cpu.stat/nr_throttled']);
    expect(out).not.toMatch(/~[01]/);
    expect(out).toContain('cgroups[/e1]/cpu.stat/usage_usec       511424');
    const lines = out.split('\n');
    const before = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      expect(lines[i].length).toBe(before[i].length);
      if (before[i].includes('±')) expect(lines[i].indexOf('±')).toBe(before[i].indexOf('±'));
    }
  });
});
