// Compare: two finished runs, histograms overlaid, per-group cpu.stat with their differences.
import { el, fmtInt, getJson, showError } from '../api';
import { HistogramChart, LineChart, sharedScales } from '../charts';
import { cgroupLines, xsSeconds } from '../series';
import { armColors, pageColors } from '../colors';
import { formatBpftrace, printedBuckets, type Histogram } from '../hist';
import type { CgroupStats, CpuStat, Sample } from '../stream';
import { deltaClass, durationTitle, format, formatDelta, kindOfKey } from '../format';

const HIST = 'distribute_cfs_runtime_ns';
const KEYS: (keyof CpuStat)[] = ['usage_usec', 'nr_periods', 'nr_throttled', 'throttled_usec', 'nr_bursts'];
const MAX_ROWS = 500;

interface Result {
  cgroups: Record<string, CgroupStats>;
  histograms: Record<string, Histogram>;
  series?: Sample[];
}

export interface DiffRow {
  path: string;
  a: Partial<CpuStat>;
  b: Partial<CpuStat>;
}

/** Groups of both runs, those whose throttled_usec differs the most first. */
export function diffRows(a: Record<string, CgroupStats>, b: Record<string, CgroupStats>): DiffRow[] {
  const paths = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  const rows = paths.map((path) => ({ path, a: a[path]?.['cpu.stat'] ?? {}, b: b[path]?.['cpu.stat'] ?? {} }));
  // a group that one run lacks has no difference: after those that both have, the most throttled first
  const d = (r: DiffRow) => (r.a.throttled_usec == null || r.b.throttled_usec == null ? -1 : Math.abs(r.b.throttled_usec - r.a.throttled_usec));
  const one = (r: DiffRow) => r.a.throttled_usec ?? r.b.throttled_usec ?? 0;
  return rows.sort((x, y) => d(y) - d(x) || one(y) - one(x) || x.path.localeCompare(y.path));
}

export function initComparePage(body: HTMLElement): void {
  const a = body.dataset.a ?? '';
  const b = body.dataset.b ?? '';
  const errorEl = document.getElementById('compare-error');
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
      document.getElementById('hist-totals')!.textContent = `A: ${fmtInt(ha?.count ?? 0)} calls · B: ${fmtInt(hb?.count ?? 0)} calls`;
      document.getElementById('hist-text-a')!.textContent = 'A\n' + formatBpftrace(HIST, { buckets: ha ? printedBuckets(ha) : [] });
      document.getElementById('hist-text-b')!.textContent = 'B\n' + formatBpftrace(HIST, { buckets: hb ? printedBuckets(hb) : [] });

      // one colour per group in both charts (the page's registry), the same groups on the same y scale unit
      const lines = [ra, rb].map((r) => cgroupLines(r.series ?? [], 'throttled_usec').lines);
      // the names the run page registers (the lines of its three group charts), so that a group has its run-page colour
      pageColors.registerAll([ra, rb].flatMap((r) => (['nr_throttled', 'throttled_usec', 'usage_usec'] as const)
        .flatMap((k) => cgroupLines(r.series ?? [], k).lines.map((l) => l.label))));
      // A and B on one x and one y scale (the longer run's time, the larger value), so that the two charts compare
      const xs = [ra, rb].map((r) => xsSeconds(r.series ?? []));
      const scales = sharedScales(xs, lines);
      [ra, rb].forEach((_r, i) => {
        const chart = new LineChart(document.getElementById(i === 0 ? 'compare-throttled-a' : 'compare-throttled-b')!, 'throttled time', 'usec');
        chart.setScales(scales);
        chart.update(xs[i], lines[i]);
      });

      const table = document.getElementById('compare-table')!;
      const head = el('tr', {}, el('th', { rowspan: '2' }, 'cgroup'), ...KEYS.map((k) => el('th', { colspan: '3' }, k)));
      const sub = el('tr', {}, ...KEYS.flatMap(() => [el('th', {}, 'A'), el('th', {}, 'B'), el('th', {}, 'B − A')]));
      table.querySelector('thead')!.replaceChildren(head, sub);
      const rows = diffRows(ra.cgroups ?? {}, rb.cgroups ?? {});
      table.querySelector('tbody')!.replaceChildren(
        ...rows.slice(0, MAX_ROWS).map((r) =>
          el('tr', {}, el('td', { class: 'path' }, r.path),
            ...KEYS.flatMap((k) => {
              // one rule per kind (format.ts): counts and the kernel's µs counters as integers, "–" where a side
              // lacks the value (a group only one run has), and colour only where lower is better (throttling)
              const va = r.a[k];
              const vb = r.b[k];
              const kind = kindOfKey(k);
              const title = (v: number | undefined): Record<string, string> => (kind === 'counter' && v != null ? { title: durationTitle(v) } : {});
              return [el('td', title(va), format(kind, va)), el('td', title(vb), format(kind, vb)),
                el('td', { class: deltaClass(k, va, vb), 'data-key': k }, formatDelta(kind, va, vb))];
            })),
        ),
      );
      if (rows.length > MAX_ROWS) table.after(el('p', { class: 'hint' }, `${MAX_ROWS} of ${rows.length} groups shown (largest throttled_usec difference first)`));
      body.dataset.loaded = 'true';
    } catch (e) {
      showError(errorEl, e);
    }
  })();
}
