// Turns cpu.stat samples (the result's `series`, or the stream's `cpustat` events) into chart lines,
// keeping the top N groups or tasks so that a tree of thousands of groups stays drawable.
import type { CpuStat, DistributeCall, Sample } from './stream';
import type { Line } from './charts';

/** Most lines drawn per chart. */
export const MAX_LINES = 20;

export function xsSeconds(samples: Sample[]): number[] {
  return samples.map((s) => s.at_ns / 1e9);
}

/**
 * The lines of a time chart from the run's start, t = 0: the result's first sample is taken one record.interval in
 * (E5a's at 1 s), and a chart that began there drew nr_throttled "in mid-air" at 10, read as 10 throttles at t = 0.
 * Where the samples start later than 0, a point at 0 s is put first with `origin` on every line: 0 for cpu.stat's
 * cumulative counters (every group is made at t = 0, when the simulation applies the scenario's groups, and a new
 * group's counters read 0, as the kernel's do), null (no value, the line starts at its first sample) for a rate such
 * as a task's CPU % over an interval.
 */
export function fromZero(xs: number[], lines: Line[], origin: 0 | null): { xs: number[]; lines: Line[] } {
  if (xs.length === 0 || xs[0] <= 0) return { xs, lines };
  return { xs: [0, ...xs], lines: lines.map((l) => ({ ...l, values: [origin, ...l.values] })) };
}

/** One line per cgroup for a cpu.stat key, the `cap` groups with the largest last value first. */
export function cgroupLines(samples: Sample[], key: keyof CpuStat, cap = MAX_LINES): { lines: Line[]; total: number } {
  const last = new Map<string, number>();
  for (const s of samples) {
    for (const [path, st] of Object.entries(s.cgroups ?? {})) {
      const v = st?.['cpu.stat']?.[key];
      if (v != null) last.set(path, Math.max(last.get(path) ?? 0, v));
    }
  }
  const chosen = [...last.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, cap)
    .map(([p]) => p);
  const lines = chosen.map((path) => ({
    label: path,
    values: samples.map((s) => s.cgroups?.[path]?.['cpu.stat']?.[key] ?? null),
  }));
  return { lines, total: last.size };
}

/** One line per task of its CPU % (as pidstat 1 prints it), the `cap` busiest tasks on average first. */
export function taskLines(samples: Sample[], cap = MAX_LINES): { lines: Line[]; total: number } {
  const sum = new Map<string, number>();
  for (const s of samples) {
    for (const [name, t] of Object.entries(s.tasks ?? {})) {
      sum.set(name, (sum.get(name) ?? 0) + (t?.cpu_percent ?? 0));
    }
  }
  const chosen = [...sum.entries()]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, cap)
    .map(([n]) => n);
  const lines = chosen.map((name) => ({ label: name, values: samples.map((s) => s.tasks?.[name]?.cpu_percent ?? null) }));
  return { lines, total: sum.size };
}

/** The slowest calls, slowest first. */
export function slowestCalls(calls: DistributeCall[], n = 20): DistributeCall[] {
  return [...calls].sort((a, b) => b.duration_ns - a.duration_ns || a.at_ns - b.at_ns).slice(0, n);
}

export const CPU_STATE_NAMES = ['idle', 'running', 'running, throttled hierarchy', 'idle with throttled work'];
export const CPU_STATE_COLORS = ['#e8e8e8', '#2ca02c', '#d62728', '#ffbf66'];

/** A run of equal states in one CPU's row of the timeline: columns [start, end). */
export interface CpuRun {
  state: number;
  start: number;
  end: number;
}

/** One CPU's row ('0'..'3' per column) as runs of equal states, so that drawing costs one rectangle per run. */
export function cpuRuns(row: string): CpuRun[] {
  const out: CpuRun[] = [];
  let start = 0;
  for (let i = 1; i <= row.length; i++) {
    if (i === row.length || row.charCodeAt(i) !== row.charCodeAt(start)) {
      out.push({ state: row.charCodeAt(start) - 48, start, end: i });
      start = i;
    }
  }
  return out;
}
