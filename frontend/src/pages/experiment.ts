// Experiment page: progress per arm while it runs (GET /api/experiments/{id}, polled), then the table
// (GET …/result), the arms' merged histograms overlaid and a strip/box plot per metric with every run visible.
import { cancel, del, el, fmtInt, getJson, getText, showError, type ExperimentResult, type ExperimentView, type RunView } from '../api';
import { derivedChanges, type DerivedChange } from '../settings';
import { type ChartFormat, HistogramChart, metricAxis, StripChart, unitFormat } from '../charts';
import { tickLabels } from '../strip';
import { formatBpftrace, printedBuckets } from '../hist';
import { outcome } from '../runstatus';
import { readablePath, readableTable } from '../pointers';
import { armColors } from '../colors';
import { labelCells } from '../tables';
import { betterDirection, formatCount, formatCounter, formatDurationNs, formatP, formatPercent, plural } from '../format';

const HIST = 'distribute_cfs_runtime_ns';
const FINISHED = ['done', 'failed', 'cancelled'];

/**
 * mean±coefvar%, as seed 00 prints it, the mean in its metric's kind (format.ts): counts and the kernel's µs counters
 * as integers (one decimal for a mean that is not whole), durations in their unit, rates per second.
 */
export function meanCv(m: { amean?: number; coefvar?: number | null } | undefined, metric = '',
  decimals = meanDecimals([m?.amean], metric)): string {
  if (!m || m.amean == null) return 'n/a';
  const cv = m.coefvar == null ? '-' : `${m.coefvar.toFixed(2)}%`;
  return `${fmtValue(m.amean, metric, decimals)}±${cv}`;
}

/**
 * The decimals of one metric's means across its arms, so that a row never mixes precisions (`50` beside `49.8`): a
 * count's means get one decimal when any of them is not whole, else none; a µs counter's are the integers the
 * kernel prints (no `4,464,353.2` beside `4,714,783`); durations and percentages have their own rule (format.ts).
 */
export function meanDecimals(means: (number | null | undefined)[], metric = ''): number {
  const { unit } = metricAxis(metric || 'count');
  if (unit !== 'count' && unit !== 'per_s') return 0;
  return means.some((v) => v != null && Number.isFinite(v) && Math.round(v * 10) / 10 !== Math.round(v)) ? 1 : 0;
}

/**
 * A strip plot's legend text of metric `metric`'s values, in the results table's format (an arm's mean with the
 * decimals of the row, `means`; a run's value as the table's hover lists it in that format), so that one mean never
 * reads two ways on the page (the legend said `511 ms` beside the table's `511,424` usage_usec).
 */
export function legendValue(metric: string, means: (number | null | undefined)[]): (v: number, mean: boolean) => string {
  const decimals = meanDecimals(means, metric);
  return (v, mean) => fmtValue(v, metric, mean ? decimals : Number.isInteger(v) ? 0 : decimals);
}

/**
 * A strip plot's axis and legend in one unit: the legend as the results table (legendValue), the ticks in the same
 * unit: a kernel µs counter (`usage_usec`, `throttled_usec`) as the raw count the table prints (`500,000`), not as a
 * duration (`500 ms` ticks beside a legend of `511,424`); every other kind is already one unit in both.
 */
export function metricFormat(metric: string, means: (number | null | undefined)[]): ChartFormat {
  const { unit } = metricAxis(metric || 'count');
  return { ticks: unit === 'usec' ? tickLabels : unitFormat(unit).ticks, value: legendValue(metric, means) };
}

/** A metric's value by the kind its name says (`_s`/`_ns` durations, `_usec` counters, `_per_s` rates; counts otherwise). */
export function fmtValue(v: number, metric = '', decimals = Number.isInteger(v) ? 0 : 1): string {
  const { unit } = metricAxis(metric || 'count');
  const fixed = (x: number) => x.toLocaleString('en-US', { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  switch (unit) {
    case 'sec': return formatDurationNs(v * 1e9);
    case 'nsec': return formatDurationNs(v);
    case 'usec': return formatCounter(v);
    case 'per_s': return `${fixed(v)}/s`;
    case 'percent': return formatPercent(v);
    default: return fixed(v);
  }
}

/**
 * The colour of a metric's verdict, by the pages' one rule (format.ts betterDirection): red or green only where lower
 * is better (throttling: nr_throttled, throttled_usec), "noise" muted, every other difference (usage, periods, a
 * latency) neutral: usage_usec +98.7 % is no worse than −98.7 %.
 */
export function verdictClass(metric: string, verdict: string): string {
  if (verdict === 'noise') return 'noise';
  const key = metric.split('/').pop() ?? metric;
  if (betterDirection(key) === 'none') return 'neutral';
  // a signed difference (+5.0%); "-" alone is no verdict
  return /^\+\d/.test(verdict) ? 'up' : /^-\d/.test(verdict) ? 'down' : 'neutral';
}

/** A description split at its first blank line: [summary, details] (details '' when there is none). */
/**
 * What follows from an arm's settings, after them in its row: each setting the arm does not set but changes (base's
 * value → the arm's), marked as following from the arm's settings; nothing for an arm that changes nothing else.
 */
export function derivedNote(changes: DerivedChange[] | undefined): HTMLElement[] {
  if (!changes?.length) return [];
  return [el('div', { class: 'derived hint', 'data-derived': changes.map((c) => c.key).join(' '),
    title: "not set by the arm: the model's value for the arm's settings, from its runs' effective settings (compare a run of each arm to see every setting)" },
  'and, following from these: ', changes.map((c) => `${c.key} ${c.from} → ${c.to}`).join(', '))];
}

/**
 * An arm's row label, the rule of the server's tables (ArmNames.label; both held to frontend/test/fixtures/arm-labels.json
 * by ArmLabelsTest and ui11.test.ts): the first arm, the one the others are compared with, marked "(base)" unless its
 * name already says base ("base (cfs_rq)"), or "(the first arm)" when another arm's name says base (arms head, base).
 */
export function armLabel(names: readonly string[], index: number): string {
  const saysBase = (n: string) => /(?<![A-Za-z0-9_])base(?![A-Za-z0-9_])/i.test(n);
  const name = names[index];
  if (index !== 0 || saysBase(name)) return name;
  return `${name} ${names.some(saysBase) ? '(the first arm)' : '(base)'}`;
}

export function splitDescription(d: string): [string, string] {
  const t = d.trim();
  const i = t.indexOf('\n\n');
  return i < 0 ? [t, ''] : [t.slice(0, i).trim(), t.slice(i).trim()];
}

export function initExperimentPage(body: HTMLElement): void {
  const id = body.dataset.experimentId!;
  const $ = <T extends HTMLElement>(x: string) => document.getElementById(x) as T;
  const errorEl = $('exp-error');
  const statusEl = $('exp-status');
  const progressEl = $<HTMLProgressElement>('exp-progress');
  const progressText = $('exp-progress-text');
  const cancelBtn = $<HTMLButtonElement>('cancel-experiment');
  const deleteBtn = $<HTMLButtonElement>('delete-experiment');
  let shownResult = false;

  cancelBtn.addEventListener('click', async () => {
    cancelBtn.disabled = true;
    try {
      await cancel(`/api/experiments/${id}`);
    } catch (e) {
      showError(errorEl, e);
    }
  });
  deleteBtn.addEventListener('click', async () => {
    if (!confirm('Delete this experiment, its runs and their results?')) return;
    try {
      await del(`/api/experiments/${id}`);
      location.href = '/#experiments';
    } catch (e) {
      showError(errorEl, e);
    }
  });
  $<HTMLInputElement>('table-as-text').addEventListener('change', (ev) => {
    const text = (ev.target as HTMLInputElement).checked;
    $('table-text').hidden = !text;
    $('summary-table').hidden = text;
  });

  // per arm, what follows from its settings (its first run's effective settings beside the base arm's first run's)
  const derived = new Map<string, DerivedChange[]>();
  let derivedAsked = false;
  let lastView: ExperimentView | null = null;
  async function askDerived(x: ExperimentView): Promise<void> {
    const first = x.arms.map((a) => a.runs?.[0]?.id);
    if (derivedAsked || x.arms.length < 2 || first.some((r) => !r)) return;
    derivedAsked = true;
    try {
      const views = await Promise.all(first.map((r) => getJson<RunView>(`/api/runs/${r}`)));
      if (views.some((v) => !v.settings)) { derivedAsked = false; return; }
      x.arms.forEach((a, i) => { if (i > 0) derived.set(a.name, derivedChanges(views[0].settings, views[i].settings, a.set)); });
      if (lastView) drawStatus(lastView);
    } catch {
      derivedAsked = false; // asked again at the next tick; the arms' own settings still show
    }
  }

  function drawStatus(x: ExperimentView): void {
    lastView = x;
    void askDerived(x);
    statusEl.textContent = x.status;
    statusEl.dataset.status = x.status;
    statusEl.className = `badge ${x.status}`;
    progressEl.value = x.progress;
    progressEl.dataset.progress = String(x.progress);
    progressText.textContent = `${formatPercent(x.progress)} · ${x.done} of ${plural(x.total, 'run')} done · ${plural(x.arms.length, 'arm')} × ${x.repeats}`;
    cancelBtn.hidden = FINISHED.includes(x.status);
    deleteBtn.hidden = !FINISHED.includes(x.status);
    // one paragraph first; the setup and what was scaled down behind "details"
    const [summary, details] = splitDescription(x.description ?? '');
    $('exp-description').textContent = summary;
    $('exp-details-text').textContent = details;
    $('exp-details').hidden = details === '';
    if (x.error) showError(errorEl, new Error(outcome(x.status, x.error)));
    drawResultsNote(x);
    const tbody = document.querySelector('#arms tbody')!;
    tbody.replaceChildren(...x.arms.map((a, i) => {
      const bar = el('progress', { max: '100', class: 'arm-progress' });
      bar.value = a.progress;
      bar.dataset.progress = String(a.progress);
      const runs = !a.runs?.length ? el('span', { class: 'hint' }, 'no runs: the experiment has none left for this arm')
        : el('span', { class: 'runs' }, ...a.runs.map((r) =>
        // no seed here: a 64-bit seed read as a JavaScript number loses its last digits; the run page shows it exactly
        el('a', { href: `/runs/${r.id}`, class: `run-dot ${r.status}`, title: `run ${r.repeat + 1}: ${outcome(r.status, r.error)} (its seed on its page)` }, String(r.repeat + 1))));
      const set = Object.entries(a.set).map(([k, v]) => `${readablePath(k)} = ${JSON.stringify(v)}`).join(', ') || '(the scenario as it is)';
      return el('tr', { 'data-arm': a.name },
        el('td', {}, armLabel(x.arms.map((b) => b.name), i)), el('td', { class: 'mono' }, set, ...derivedNote(derived.get(a.name))),
        el('td', {}, el('span', { class: `badge ${a.status}` }, a.status)),
        el('td', { class: 'progress-col' }, bar, ` ${a.done}/${a.total}`), el('td', {}, runs));
    }));
  }

  /** Until every run is done the results panels are hidden: this note says when they come, or why they never will. */
  function drawResultsNote(x: ExperimentView): void {
    const note = $('results-note');
    let text = '';
    if (x.total === 0) {
      text = 'No runs: this experiment has no runs, so it has no results.';
    } else if (x.status === 'queued' || x.status === 'running') {
      text = `The results table, histograms and per-metric plots appear here when ${x.total === 1 ? 'its run is' : `all ${plural(x.total, 'run')} are`} done (${x.done} so far).`;
    } else if (x.status !== 'done') {
      text = `No results: the experiment ${x.status === 'failed' ? 'failed' : 'was cancelled'} with ${x.done} of ${plural(x.total, 'run')} done` +
        `${x.error ? ` (${x.error})` : ''}; its table needs every run done (a run a cancel stopped covers less simulated time, so ` +
        'it is no repeat). Each done run\'s page still shows its own result, and a run stopped while it ran its partial one.';
    }
    note.textContent = text;
    note.hidden = text === '';
    note.dataset.status = x.status;
  }

  function drawResult(r: ExperimentResult): void {
    const table = $('summary-table');
    const others = r.arms.slice(1);
    table.querySelector('thead')!.replaceChildren(el('tr', {}, el('th', {}, 'metric'), ...r.arms.map((a) => el('th', {}, a)),
      ...others.map((a) => el('th', {}, others.length === 1 ? 'diff' : `diff ${a}`)), ...others.map((a) => el('th', {}, others.length === 1 ? 'p (Welch)' : `p ${a}`))));
    table.querySelector('tbody')!.replaceChildren(...Object.entries(r.metrics).map(([metric, byArm]) =>
      // the metric as a person reads it; its path as an experiment document writes it (escaped) on hover
      el('tr', { 'data-metric': metric }, el('td', { class: 'path', title: `metric path: ${metric}` }, readablePath(metric)),
        ...r.arms.map((a) => el('td', { title: (byArm[a]?.values ?? []).map((v) => (v == null ? 'n/a' : String(v))).join(', ') }, meanCv(byArm[a], metric, meanDecimals(r.arms.map((x) => byArm[x]?.amean), metric)))),
        ...others.map((a) => {
          const v = byArm[a]?.verdict ?? '-';
          return el('td', { class: verdictClass(metric, v) }, v);
        }),
        ...others.map((a) => el('td', {}, formatP(byArm[a]?.p_value))))));
    labelCells(table as HTMLTableElement);
    $('table-panel').hidden = false;

    const hists = r.arms.map((a) => r.histograms?.[a]?.[HIST]);
    if (hists.some((h) => h && h.count > 0)) {
      $('hist-panel').hidden = false;
      armColors.registerAll(r.arms, false); // in the arms' order: base first
      new HistogramChart($('exp-hist'), r.arms, 300, undefined, armColors).update(hists);
      $('exp-hist').dataset.arms = String(r.arms.length);
      $('exp-hist-text').textContent = r.arms.map((a, i) => `${a}\n` + formatBpftrace(HIST, { buckets: hists[i] ? printedBuckets(hists[i]!) : [] })).join('\n');
    }

    const host = $('metric-plots');
    host.replaceChildren();
    for (const [metric, byArm] of Object.entries(r.metrics)) {
      const verdicts = others.map((a) => `${others.length > 1 ? a + ': ' : ''}${byArm[a]?.verdict ?? '-'}`).join(', ');
      const chart = el('div', { class: 'chart strip' });
      host.append(el('div', { class: 'metric-plot', 'data-metric': metric }, el('h3', { class: 'mono', title: `metric path: ${metric}` }, readablePath(metric), ' ', el('span', { class: 'hint' }, verdicts)), chart));
      const axis = metricAxis(metric);
      new StripChart(chart, 220, axis.title, armColors, metricFormat(metric, r.arms.map((a) => byArm[a]?.amean)))
        .update(r.arms, r.arms.map((a) => byArm[a]?.values ?? []));
    }
    $('metrics-panel').hidden = false;
    body.dataset.loaded = 'true';
  }

  async function showResult(): Promise<void> {
    if (shownResult) return;
    shownResult = true;
    try {
      const [r, text] = await Promise.all([
        getJson<ExperimentResult>(`/api/experiments/${id}/result`),
        getText(`/api/experiments/${id}/table`),
      ]);
      // the seeds' layout with readable metric paths (the download links keep the escaped form a document takes)
      $('table-text').textContent = readableTable(text, Object.keys(r.metrics));
      drawResult(r);
    } catch (e) {
      shownResult = false;
      showError(errorEl, e);
    }
  }

  async function tick(): Promise<void> {
    try {
      const x = await getJson<ExperimentView>(`/api/experiments/${id}`);
      drawStatus(x);
      if (x.status === 'done') {
        await showResult();
        return;
      }
      if (FINISHED.includes(x.status)) {
        body.dataset.loaded = 'true';
        return;
      }
    } catch (e) {
      showError(errorEl, e);
    }
    setTimeout(tick, 500);
  }
  void tick();
}
