// Compare: two finished runs, histograms overlaid, per-group cpu.stat with their differences.
import { el, fmtSeconds, getJson, showError } from '../api';
import { HistogramChart, LineChart, sharedScales } from '../charts';
import { cgroupLines, fromZero, xsSeconds } from '../series';
import { armColors, pageColors } from '../colors';
import { addBreakPoints, labelCells } from '../tables';
import { showLocalNote, statAxisTitle, statLabel } from '../statnames';
import { formatBpftrace, printedBuckets, type Histogram } from '../hist';
import type { CgroupStats, CpuStat, Sample } from '../stream';
import { deltaClass, durationTitle, format, formatDelta, kindOfKey, plural } from '../format';

const HIST = 'distribute_cfs_runtime_ns';
/** cpu.stat's keys in the order the kernel prints them (cpu_stat_show, 6.18); any other key a run has follows. */
const CPU_STAT_ORDER = ['usage_usec', 'user_usec', 'system_usec', 'nr_periods', 'nr_throttled', 'throttled_usec', 'nr_bursts', 'burst_usec'];

/** A column of the table: a key of one of a group's files (`cpu.stat`, `cpu.stat.local`). */
export interface StatColumn {
  file: 'cpu.stat' | 'cpu.stat.local';
  key: string;
  /** the heading: the key, with its file where it is not cpu.stat (cpu.stat.local's throttled_usec) */
  label: string;
}

/**
 * Every cpu.stat and cpu.stat.local key that either run has in any group, cpu.stat's first in the kernel's order:
 * a key only one run prints (burst keys before 5.16, cpu.stat.local before 6.6, cgroup v1's keys) is a column, "–"
 * on the other side, rather than left out.
 */
export function statColumns(...runs: Record<string, CgroupStats>[]): StatColumn[] {
  const seen = { 'cpu.stat': new Set<string>(), 'cpu.stat.local': new Set<string>() };
  for (const cgroups of runs) {
    for (const g of Object.values(cgroups ?? {})) {
      for (const file of ['cpu.stat', 'cpu.stat.local'] as const) for (const k of Object.keys(g[file] ?? {})) seen[file].add(k);
    }
  }
  const ordered = (keys: Set<string>) => [...CPU_STAT_ORDER.filter((k) => keys.has(k)), ...[...keys].filter((k) => !CPU_STAT_ORDER.includes(k))];
  return [
    ...ordered(seen['cpu.stat']).map((key) => ({ file: 'cpu.stat' as const, key, label: statLabel('cpu.stat', key) })),
    ...ordered(seen['cpu.stat.local']).map((key) => ({ file: 'cpu.stat.local' as const, key, label: statLabel('cpu.stat.local', key) })),
  ];
}
const MAX_ROWS = 500;

interface Result {
  simulated_ns?: number;
  cgroups: Record<string, CgroupStats>;
  histograms: Record<string, Histogram>;
  series?: Sample[];
}

export interface DiffRow {
  path: string;
  a: Partial<CpuStat>;
  b: Partial<CpuStat>;
  /** each side's whole group (its cpu.stat.local too) */
  ga?: CgroupStats;
  gb?: CgroupStats;
}

/** Groups of both runs, those whose throttled_usec differs the most first. */
export function diffRows(a: Record<string, CgroupStats>, b: Record<string, CgroupStats>): DiffRow[] {
  const paths = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  const rows = paths.map((path) => ({ path, a: a[path]?.['cpu.stat'] ?? {}, b: b[path]?.['cpu.stat'] ?? {}, ga: a[path], gb: b[path] }));
  // a group that one run lacks has no difference: after those that both have, the most throttled first
  const d = (r: DiffRow) => (r.a.throttled_usec == null || r.b.throttled_usec == null ? -1 : Math.abs(r.b.throttled_usec - r.a.throttled_usec));
  const one = (r: DiffRow) => r.a.throttled_usec ?? r.b.throttled_usec ?? 0;
  return rows.sort((x, y) => d(y) - d(x) || one(y) - one(x) || x.path.localeCompare(y.path));
}

/**
 * What the A and B charts' scales are, said under them: shared (the longer run's time, the larger value), so that a
 * 2 s run beside a 300 s one is drawn in the first hundredth of its axis on purpose; or each its own.
 */
export function scalesNote(shared: boolean, [a, b]: [number, number]): string {
  if (!shared) return 'Each chart on its own scales: compare the shapes of the lines, not their heights or lengths.';
  const lengths = a === b ? '' : ` A ran ${fmtSeconds(a)} simulated and B ${fmtSeconds(b)}, so the shorter run fills ` +
    `${Math.max(1, Math.round((100 * Math.min(a, b)) / Math.max(a, b)))}\u00a0% of the time axis.`;
  return `A and B share one time axis (0 to ${fmtSeconds(Math.max(a, b))}, the longer run) and one y axis (the larger ` +
    `value), so that their lines compare at a glance.${lengths}`;
}

export function initComparePage(body: HTMLElement): void {
  const a = body.dataset.a ?? '';
  const b = body.dataset.b ?? '';
  const errorEl = document.getElementById('compare-error');
  // the settings' values (compact JSON, paths) wrap at their punctuation, never inside a word
  addBreakPoints(document.querySelectorAll('#settings-diff td.mono:not(:first-child), #settings-all td.mono:not(:first-child)'));
  if (!a || !b) return; // the page says what to do (#compare-empty)
  if (body.dataset.comparable === 'false') return; // the page says why not (#compare-unavailable)
  void (async () => {
    try {
      const [ra, rb] = await Promise.all([getJson<Result>(`/api/runs/${a}/result`), getJson<Result>(`/api/runs/${b}/result`)]);
      const ha = ra.histograms?.[HIST];
      const hb = rb.histograms?.[HIST];
      // shares of each run's calls by default (A and B rarely make the same number); raw counts one click away
      const hist = new HistogramChart(document.getElementById('compare-hist')!, ['A', 'B'], 300, undefined, armColors);
      const scaleOf = () => (document.querySelector<HTMLInputElement>('input[name="hist-scale"]:checked')?.value === 'count' ? 'count' : 'share');
      hist.setScale(scaleOf());
      hist.update([ha, hb]);
      for (const input of document.querySelectorAll<HTMLInputElement>('input[name="hist-scale"]')) {
        input.addEventListener('change', () => hist.setScale(scaleOf()));
      }
      document.getElementById('hist-totals')!.textContent = `A: ${plural(ha?.count ?? 0, 'call')} · B: ${plural(hb?.count ?? 0, 'call')}`;
      document.getElementById('hist-text-a')!.textContent = 'A\n' + formatBpftrace(HIST, { buckets: ha ? printedBuckets(ha) : [] });
      document.getElementById('hist-text-b')!.textContent = 'B\n' + formatBpftrace(HIST, { buckets: hb ? printedBuckets(hb) : [] });

      // one colour per group in both charts (the page's registry), the same groups on the same y scale unit
      // from t = 0, the counters' value at the start (fromZero), as on the run page
      const drawnLines = [ra, rb].map((r) => fromZero(xsSeconds(r.series ?? []), cgroupLines(r.series ?? [], 'throttled_usec').lines, 0));
      const lines = drawnLines.map((d) => d.lines);
      // the names the run page registers (the lines of its three group charts), so that a group has its run-page colour
      pageColors.registerAll([ra, rb].flatMap((r) => (['nr_throttled', 'throttled_usec', 'usage_usec'] as const)
        .flatMap((k) => cgroupLines(r.series ?? [], k).lines.map((l) => l.label))));
      // A and B on one x and one y scale (the longer run's time, the larger value), so that the two charts compare
      const xs = drawnLines.map((d) => d.xs);
      const scales = sharedScales(xs, lines);
      const charts = [0, 1].map((i) => new LineChart(document.getElementById(i === 0 ? 'compare-throttled-a' : 'compare-throttled-b')!, statAxisTitle('throttled_usec'), 'usec'));
      const own = document.getElementById('own-scales') as HTMLInputElement | null;
      const lengths: [number, number] = [ra.simulated_ns ?? 0, rb.simulated_ns ?? 0];
      const drawLines = () => {
        const shared = !own?.checked;
        charts.forEach((chart, i) => {
          chart.setScales(shared ? scales : null);
          chart.update(xs[i], lines[i]);
        });
        const note = document.getElementById('scales-note');
        if (note) note.textContent = scalesNote(shared, lengths);
      };
      own?.addEventListener('change', drawLines);
      drawLines();

      const table = document.getElementById('compare-table')!;
      const columns = statColumns(ra.cgroups ?? {}, rb.cgroups ?? {});
      // one column a key, each cell A over B over B − A: nine keys side by side fit the panel (27 columns did not)
      const head = el('tr', {}, el('th', {}, 'cgroup', el('div', { class: 'hint' }, 'A / B / B − A')),
        ...columns.map((c) => el('th', { 'data-file': c.file, 'data-key': c.key }, c.label)));
      table.querySelector('thead')!.replaceChildren(head);
      const rows = diffRows(ra.cgroups ?? {}, rb.cgroups ?? {});
      const value = (g: CgroupStats | undefined, c: StatColumn): number | undefined =>
        (g?.[c.file] as Record<string, number> | undefined)?.[c.key];
      table.querySelector('tbody')!.replaceChildren(
        ...rows.slice(0, MAX_ROWS).map((r) =>
          el('tr', {}, el('td', { class: 'path' }, r.path),
            ...columns.flatMap((c) => {
              // one rule per kind (format.ts): counts and the kernel's µs counters as integers, "–" where a side
              // lacks the value (a group only one run has, a key only one kernel prints), and colour only where
              // lower is better (throttling)
              const va = value(r.ga, c);
              const vb = value(r.gb, c);
              const kind = kindOfKey(c.key);
              const title = (v: number | undefined): Record<string, string> => (kind === 'counter' && v != null ? { title: durationTitle(v) } : {});
              return [el('td', { class: 'abd', 'data-key': c.file === 'cpu.stat' ? c.key : `${c.file}/${c.key}` },
                el('div', { ...title(va), 'data-side': 'a' }, format(kind, va)), el('div', { ...title(vb), 'data-side': 'b' }, format(kind, vb)),
                el('div', { class: deltaClass(c.key, va, vb), 'data-side': 'd' }, formatDelta(kind, va, vb)))];
            })),
        ),
      );
      labelCells(table as HTMLTableElement);
      showLocalNote(table as HTMLTableElement);
      if (rows.length > MAX_ROWS) table.after(el('p', { class: 'hint' }, `${MAX_ROWS} of ${plural(rows.length, 'group')} shown (largest throttled_usec difference first)`));
      body.dataset.loaded = 'true';
    } catch (e) {
      showError(errorEl, e);
    }
  })();
}
