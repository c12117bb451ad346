// Run page, per-task latency (contract v1.1): a table of each task's run_delay, wake-up latency and run-stretch
// wall-time percentiles, and the log2 histogram (µs, as runqlat prints it) of the task chosen in the table.
import { el } from '../api';
import { HistogramChart } from '../charts';
import type { Bucket } from '../hist';
import { formatCount, formatDurationNs } from '../format';
import { hideBlankColumns, labelCells } from '../tables';

export interface Latency {
  count: number;
  p50?: number;
  p90?: number;
  p99?: number;
  p999?: number;
  max?: number;
  buckets?: Bucket[];
}

export interface TaskResult {
  usage_usec: number;
  nr_switches: number;
  run_delay_usec?: number;
  wakeup_latency_us?: Latency;
  iteration_wall_us?: Latency;
  exit_s?: number;
  cpu?: number;
}

/** Most task rows drawn (a large tree has thousands of tasks): the ones with the largest p99 wake-up latency. */
export const MAX_LATENCY_ROWS = 200;

/** Why a column of the latency table is empty for every task of a run: the kind of task that fills it. */
export function latencyBlankReason(column: string): string {
  if (column === 'exit') return 'no task of this run exits';
  if (column.startsWith('run-stretch')) return 'no task of this run is periodic';
  return 'no task of this run sleeps and wakes up';
}

/** A duration in µs as a person reads it (28.4 s, 340 ms, 12.5 µs, 0 µs; format.ts), '–' when absent. */
export function us(v: number | undefined): string {
  return v == null ? '–' : formatDurationNs(v * 1e3, 1e3);
}

/** The tasks worth a row, most delayed first (p99 wake-up latency, then run_delay). */
export function latencyRows(tasks: Record<string, TaskResult>, cap = MAX_LATENCY_ROWS): [string, TaskResult][] {
  const key = (t: TaskResult) => [t.wakeup_latency_us?.p99 ?? -1, t.run_delay_usec ?? 0];
  return Object.entries(tasks)
    .sort((a, b) => {
      const [ka, kb] = [key(a[1]), key(b[1])];
      return kb[0] - ka[0] || kb[1] - ka[1] || (a[0] < b[0] ? -1 : 1);
    })
    .slice(0, cap);
}

/** One human name per latency metric: the legend, the heading and the table's titles say the same. */
export const LATENCY_NAMES: Record<string, string> = {
  wakeup_latency_us: 'wake-up latency',
  iteration_wall_us: 'run-stretch wall time',
};

/** Fills the latency panel: the table, and the chosen task's histograms (wake-up latency and run-stretch wall time). */
export function drawTaskLatency(panel: HTMLElement, tasks: Record<string, TaskResult> | undefined): void {
  const tbody = panel.querySelector('#task-latency tbody')!;
  const title = panel.querySelector('#latency-hist-title')!;
  const chart = new HistogramChart(panel.querySelector('#latency-hist') as HTMLElement, ['wakeup_latency_us', 'iteration_wall_us'], 220, 'no wake-ups or run stretches recorded for this task', undefined, 'µs',
    { display: LATENCY_NAMES, yTitle: 'count' });
  const rows = latencyRows(tasks ?? {});
  if (rows.length === 0) return;
  const show = (name: string, t: TaskResult) => {
    title.textContent = `${name}: ${LATENCY_NAMES.wakeup_latency_us} and ${LATENCY_NAMES.iteration_wall_us}, µs (log2 buckets, as runqlat)`;
    chart.update([
      t.wakeup_latency_us?.buckets ? { count: t.wakeup_latency_us.count, sum: 0, buckets: t.wakeup_latency_us.buckets } : undefined,
      t.iteration_wall_us?.buckets ? { count: t.iteration_wall_us.count, sum: 0, buckets: t.iteration_wall_us.buckets } : undefined,
    ]);
    for (const tr of tbody.querySelectorAll('tr')) tr.classList.toggle('selected', tr.getAttribute('data-task') === name);
  };
  tbody.replaceChildren(...rows.map(([name, t]) => {
    const w = t.wakeup_latency_us;
    const i = t.iteration_wall_us;
    const tr = el('tr', { 'data-task': name }, el('td', { class: 'path' }, name),
      el('td', {}, t.cpu == null ? '–' : String(t.cpu)),
      el('td', {}, formatCount(t.nr_switches)),
      el('td', {}, us(t.run_delay_usec)),
      el('td', {}, formatCount(w?.count ?? 0)),
      ...[w?.p50, w?.p90, w?.p99, w?.p999, w?.max].map((v) => el('td', {}, us(v))),
      el('td', {}, i ? us(i.p50) : '–'),
      el('td', {}, i ? us(i.max) : '–'),
      el('td', {}, t.exit_s == null ? '–' : formatDurationNs(t.exit_s * 1e9)));
    tr.addEventListener('click', () => show(name, t));
    return tr;
  }));
  labelCells(panel.querySelector('#task-latency') as HTMLTableElement);
  hideBlankColumns(panel.querySelector('#task-latency') as HTMLTableElement, latencyBlankReason);
  panel.hidden = false;
  const first = rows.find(([, t]) => (t.wakeup_latency_us?.count ?? 0) > 0 || (t.iteration_wall_us?.count ?? 0) > 0) ?? rows[0];
  show(first[0], first[1]);
}
