// Run page: live from GET /api/runs/{id}/events while running (polling GET /api/runs/{id} where the
// events endpoint is missing), from the result when done.
import { ApiError, cancel, el, fmtSeconds, getJson, showError, type RunView } from '../api';
import { HistogramChart, LineChart } from '../charts';
import { formatBpftrace, printedBuckets } from '../hist';
import { cgroupLines, fromZero, slowestCalls, taskLines, xsSeconds, MAX_LINES } from '../series';
import { drawTaskLatency, type TaskResult } from './latency';
import { emptyState, RunStream, type CgroupStats, type DistributeCall, type RunState, type Sample } from '../stream';
import { CpuTimelineView } from '../cputimeline';
import { durationTitle, format, formatCount, formatDuration, formatDurationNs, formatPercent, kindOfKey, plural } from '../format';
import { pageColors, taskColors } from '../colors';
import { interruptionNote, isFinished, StatusView, type RunStatusWord } from '../runstatus';
import { explain, finalStatHeading, partialNote, readPanelNotes, resultEndNs, statusNote, type PartialMark } from '../emptynotes';
import { PaceWatch } from '../pacing';
import { callsCaption } from '../calls';
import type { Histogram } from '../hist';
import { hideBlankColumns, labelCells } from '../tables';
import { showLocalNote, statAxisTitle } from '../statnames';

/** Why a cpu.stat column can be empty for a whole run: the kernel it simulates does not print that key. */
function cpuStatBlankReason(column: string): string {
  if (column === 'nr_bursts' || column === 'burst_usec') return "this kernel's cpu.stat has no such key: it prints them from 5.16";
  if (column.includes('cpu.stat.local')) return 'this kernel has no cpu.stat.local: it exists from 6.6';
  return "this kernel's cpu.stat has no such key (cgroup v1 prints its own keys)";
}

/** The panels (their hosts' ids) that can be empty, each then saying why. */
const PANELS = ['hist', 'chart-nr-throttled', 'chart-throttled-usec', 'chart-usage', 'chart-tasks', 'cpu-timeline', 'slowest',
  'latency-panel', 'final-panel'] as const;
type Panel = (typeof PANELS)[number];

const HIST = 'distribute_cfs_runtime_ns';

interface ResultCpu {
  cpu: number;
  busy_usec: number;
  irq_usec: number;
  sched_usec: number;
}

interface Result {
  simulated_ns: number;
  /** present when the run stopped before its duration (cancelled while it ran): where */
  partial?: PartialMark | null;
  cgroups: Record<string, CgroupStats>;
  histograms: Record<string, { count: number; sum: number; buckets: { low: number; high: number; count: number }[] }>;
  distribute_calls: DistributeCall[];
  series: Sample[];
  cpus?: ResultCpu[];
  cpu_timeline?: { interval_ns: number; cpus: string[] } | null;
  tasks?: Record<string, TaskResult>;
}

export function initRunPage(body: HTMLElement): void {
  const runId = body.dataset.runId!;
  const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
  const statusEl = $('run-status');
  const progressEl = $<HTMLProgressElement>('run-progress');
  const progressText = $('run-progress-text');
  const sourceEl = $('run-source');
  const errorEl = $('run-error');
  const interruptedEl = $('run-interrupted');
  const histEl = $('hist');
  const histText = $('hist-text');
  const histMeta = $('hist-meta');
  const asText = $<HTMLInputElement>('hist-as-text');
  const cancelBtn = $<HTMLButtonElement>('cancel-run');
  const histChart = new HistogramChart(histEl, ['calls']);
  const charts = {
    nrThrottled: new LineChart($('chart-nr-throttled'), statAxisTitle('nr_throttled'), 'count'),
    throttledUsec: new LineChart($('chart-throttled-usec'), statAxisTitle('throttled_usec'), 'usec'),
    usage: new LineChart($('chart-usage'), statAxisTitle('usage_usec'), 'usec'),
    tasks: new LineChart($('chart-tasks'), 'CPU (% of one CPU)', 'percent', 220, taskColors),
  };
  // panels that drew data, and panels that say why they are empty
  const drawn = new Set<Panel>();
  const explained = new Set<Panel>();
  const notes = readPanelNotes(body.dataset.panelNotes);
  function explainPanel(id: Panel, note: string): void {
    const host = $(id);
    if (id === 'latency-panel') {
      // the panel's own table and chart give way to the note; the panel itself shows
      host.hidden = false;
      for (const c of host.querySelectorAll<HTMLElement>('.table-scroll, #latency-hist, #latency-hist-title')) c.hidden = true;
      explain(host.querySelector<HTMLElement>('.table-scroll') ?? host, note, id);
    } else if (id === 'final-panel') {
      host.hidden = false;
      explain(host.querySelector<HTMLElement>('.table-scroll') ?? host, note, id);
    } else {
      explain(host, note);
    }
    explained.add(id);
    body.dataset.emptyPanels = [...explained].join(' ');
  }
  /** Every panel that drew nothing and says nothing yet: `note(id)` says why. */
  function explainTheRest(note: (id: Panel) => string): void {
    for (const id of PANELS) if (!drawn.has(id) && !explained.has(id)) explainPanel(id, note(id));
  }
  for (const [id, note] of Object.entries(notes.notRecorded)) {
    if ((PANELS as readonly string[]).includes(id)) explainPanel(id as Panel, note);
  }
  let histUpdates = 0;
  let durationNs = 0;
  let lastHistKey = '';
  let finalShown = false;
  let showRecent = false;
  let lastState: RunState | null = null;
  const recentBox = $<HTMLInputElement>('calls-recent');
  recentBox.addEventListener('change', () => {
    showRecent = recentBox.checked;
    if (lastState) drawCalls(lastState);
  });

  asText.addEventListener('change', () => {
    histText.hidden = !asText.checked;
    histEl.hidden = asText.checked;
  });
  cancelBtn.addEventListener('click', async () => {
    try {
      await cancel(`/api/runs/${runId}`);
    } catch (e) {
      showError(errorEl, e);
    }
  });

  // Badge, bar and text: written only by the status view, from every source's reports merged (runstatus.ts)
  const statusView = new StatusView(statusEl, progressEl, progressText, (f) => {
    if (f.durationNs > 0) durationNs = f.durationNs;
    // a run of an experiment is cancelled with its experiment
    cancelBtn.hidden = isFinished(f.status) || !!body.dataset.experimentId;
  });
  // a paced run that cannot keep its pace says so beside the pace it was asked for
  const paceChip = document.getElementById('run-pace');
  const paceWatch = paceChip?.dataset.pace ? new PaceWatch(Number(paceChip.dataset.pace)) : null;
  const paceNote = document.getElementById('pace-note');
  function setStatus(status: string, progress: number, simulatedNs: number, dur: number, etaMs: number | null): void {
    statusView.report({ status: status as RunStatusWord, progress, simulatedNs, durationNs: dur, etaMs });
    if (paceWatch && paceNote) {
      const note = status === 'running' ? paceWatch.observe(simulatedNs, performance.now()) : null;
      paceNote.hidden = !note;
      paceNote.textContent = note ?? '';
    }
  }
  // the server-rendered status is the first report (the page's first paint and the script agree from the start)
  setStatus(statusEl.dataset.status ?? 'queued', Number(progressEl.dataset.progress ?? 0),
    Number(progressEl.dataset.simulatedNs ?? 0), Number(progressEl.dataset.durationNs ?? 0), null);

  function drawHistogram(h: RunState['histograms'][string] | undefined, countUpdate: boolean): void {
    if (!h) return;
    const key = JSON.stringify(h.buckets);
    if (countUpdate && key !== lastHistKey) {
      histUpdates++;
      histEl.dataset.updates = String(histUpdates);
    }
    lastHistKey = key;
    if (h.count > 0) drawn.add('hist');
    const buckets = printedBuckets(h);
    histChart.update([{ ...h, buckets }]);
    histText.textContent = formatBpftrace(HIST, { buckets });
    histMeta.textContent = `${plural(h.count, 'call')} · mean ${h.count ? formatDuration(Math.round(h.sum / h.count)) : '-'}`;
  }

  function drawSeries(samples: Sample[]): void {
    const xs = xsSeconds(samples);
    // colours for the lines drawn (at most 20 a chart), given in sorted order: the same on the compare page
    const groupCharts = [cgroupLines(samples, 'nr_throttled'), cgroupLines(samples, 'throttled_usec'), cgroupLines(samples, 'usage_usec')];
    const taskChart = taskLines(samples);
    pageColors.registerAll(groupCharts.flatMap((r) => r.lines.map((l) => l.label)));
    taskColors.registerAll(taskChart.lines.map((l) => l.label));
    const put = (chart: LineChart, r: { lines: { label: string; values: (number | null)[] }[]; total: number }, id: Panel) => {
      // from t = 0: counters from their value at the start, a task's CPU % from its first interval (fromZero)
      const from0 = fromZero(xs, r.lines, id === 'chart-tasks' ? null : 0);
      chart.update(from0.xs, from0.lines);
      if (r.lines.length && xs.length) drawn.add(id);
      const note = document.getElementById(id)!.previousElementSibling as HTMLElement;
      note.dataset.total = String(r.total);
      note.title = r.total > MAX_LINES ? `top ${MAX_LINES} of ${r.total}` : '';
    };
    put(charts.nrThrottled, groupCharts[0], 'chart-nr-throttled');
    put(charts.throttledUsec, groupCharts[1], 'chart-throttled-usec');
    put(charts.usage, groupCharts[2], 'chart-usage');
    put(charts.tasks, taskChart, 'chart-tasks');
  }

  /** How many calls a done run's list was chosen from (the result's distribute_calls), and the histogram of all; null live. */
  let keptCalls: number | null = null;
  let allCalls: Histogram | undefined;
  let simulatedAt = 0;
  function drawCalls(state: RunState): void {
    const calls = showRecent ? [...state.recent].reverse() : state.slowest;
    const caption = callsCaption(showRecent ? 'latest' : 'slowest', calls, keptCalls, allCalls, simulatedAt);
    $('calls-title').textContent = caption.title;
    const note = $('calls-note');
    note.textContent = caption.note;
    note.hidden = caption.note === '';
    if (calls.length) drawn.add('slowest');
    drawSlowest(calls);
  }

  /** Live cpu.stat totals (the `cgroups` event), the groups most throttled first, at most 100 rows. */
  function drawLiveCgroups(state: RunState): void {
    const entries = Object.entries(state.cgroups);
    if (entries.length === 0 || finalShown) return;
    entries.sort((a, b) => (b[1]['cpu.stat']?.throttled_usec ?? 0) - (a[1]['cpu.stat']?.throttled_usec ?? 0) || a[0].localeCompare(b[0]));
    const shown = entries.slice(0, 100);
    $('live-title').textContent = `cpu.stat at ${fmtSeconds(state.cgroupsAtNs)} simulated` +
      (entries.length > shown.length ? ` (the ${shown.length} most throttled of ${plural(entries.length, 'group')})` : '');
    document.querySelector('#cpustat-live tbody')!.replaceChildren(...shown.map(([path, s]) => {
      const c = s['cpu.stat'];
      return el('tr', {}, el('td', { class: 'path' }, path),
        ...statCells([c.usage_usec, c.nr_periods, c.nr_throttled, c.throttled_usec, c.nr_bursts, c.burst_usec],
          ['usage_usec', 'nr_periods', 'nr_throttled', 'throttled_usec', 'nr_bursts', 'burst_usec']));
    }));
    hideBlankColumns(document.getElementById('cpustat-live') as HTMLTableElement, cpuStatBlankReason);
    labelCells(document.getElementById('cpustat-live') as HTMLTableElement);
    $('live-panel').hidden = false;
  }

  function drawSlowest(calls: DistributeCall[]): void {
    const tbody = document.querySelector('#slowest tbody')!;
    tbody.replaceChildren(
      ...calls.map((c) =>
        el('tr', {},
          el('td', {}, formatDurationNs(c.at_ns)), el('td', {}, String(c.cpu)), el('td', { class: 'path' }, c.cgroup ?? ''),
          el('td', {}, formatDurationNs(c.duration_ns)), el('td', {}, formatCount(c.rqs)), el('td', {}, formatCount(c.remote_rqs)),
          el('td', {}, formatCount(c.cfs_rqs)), el('td', {}, formatCount(c.tasks)),
          // which hrtimer ran the call: the period timer's refill, or the slack timer returning unused runtime early
          el('td', { class: c.slack ? 'slack' : '' }, c.slack ? 'slack' : 'period')),
      ),
    );
    hideBlankColumns(document.getElementById('slowest') as HTMLTableElement, 'the run recorded none');
  }

  let cpuView: CpuTimelineView | null = null;
  function drawCpuTimeline(tl: RunState['cpuTimeline'], source: 'live' | 'result', endNs = durationNs): void {
    if (!tl || tl.cpus.length === 0) return;
    const host = $('cpu-timeline');
    cpuView ??= new CpuTimelineView(host);
    drawn.add('cpu-timeline');
    cpuView.draw(tl, endNs || tl.intervalNs * tl.cpus[0].length, source);
  }

  function drawCpuTotals(cpus: ResultCpu[], simulatedNs: number): void {
    if (!cpus?.length) return;
    const host = $('cpu-totals-host');
    const total = simulatedNs / 1000;
    const table = el('table', { class: 'list num', id: 'cpu-totals' },
      el('thead', {}, el('tr', {}, ...['cpu', 'busy_usec', 'irq_usec', 'sched_usec', 'busy', ''].map((h) => el('th', {}, h)))));
    const tb = el('tbody');
    for (const c of cpus) {
      const pct = total ? (100 * c.busy_usec) / total : 0;
      const bar = el('div', { class: 'meter' }, el('i', { style: `width:${Math.min(100, pct).toFixed(1)}%` }));
      tb.append(el('tr', {}, el('td', {}, `cpu${c.cpu}`), ...statCells([c.busy_usec, c.irq_usec, c.sched_usec], ['busy_usec', 'irq_usec', 'sched_usec']),
        el('td', {}, formatPercent(pct)), el('td', { class: 'meter-cell' }, bar)));
    }
    table.append(tb);
    host.replaceChildren(el('div', { class: 'table-scroll' }, table));
  }

  function render(state: RunState): void {
    const p = state.progress;
    if (p) setStatus(p.status, p.progress, p.simulated_ns, p.duration_ns, p.eta_ms);
    drawHistogram(state.histograms[HIST], true);
    if (state.samples.length) drawSeries(state.samples);
    lastState = state;
    if (state.slowest.length || state.recent.length) drawCalls(state);
    drawCpuTimeline(state.cpuTimeline, 'live');
    drawLiveCgroups(state);
    body.dataset.events = String(state.events);
  }

  /**
   * Draws the stored result (a done run's, or the partial one a cancel kept); `noResult` is called instead when the
   * service has none (409: a run cancelled before it started).
   */
  async function showFinal(noResult?: () => void): Promise<void> {
    if (finalShown) return;
    finalShown = true;
    // a large result takes a moment: say so rather than "appears once the run starts"
    if (!drawn.has('cpu-timeline') && !explained.has('cpu-timeline')) {
      $('cpu-timeline').replaceChildren(el('p', { class: 'hint' }, 'Loading the stored result…'));
    }
    try {
      const [run, result, cpuStat] = await Promise.all([
        getJson<RunView>(`/api/runs/${runId}`),
        getJson<Result>(`/api/runs/${runId}/result`),
        getJson<Record<string, CgroupStats>>(`/api/runs/${runId}/cpu.stat`),
      ]);
      setStatus(run.status, run.progress, run.simulatedNs, run.durationNs, null);
      drawHistogram(result.histograms?.[HIST], false);
      drawSeries(result.series ?? []);
      const calls = result.distribute_calls ?? [];
      keptCalls = calls.length;
      allCalls = result.histograms?.[HIST];
      simulatedAt = result.simulated_ns;
      lastState = { ...(lastState ?? emptyState()), slowest: slowestCalls(calls), recent: calls.slice(-50) };
      drawCalls(lastState);
      $('live-panel').hidden = true;
      const tl = result.cpu_timeline;
      if (tl?.cpus?.length) drawCpuTimeline({ intervalNs: tl.interval_ns, cpus: tl.cpus }, 'result', resultEndNs(durationNs, result.partial));
      $('final-heading').textContent = finalStatHeading(result.partial);
      drawCpuTotals(result.cpus ?? [], result.simulated_ns);
      drawFinalTable(cpuStat);
      drawTaskLatency($('latency-panel'), result.tasks);
      if (Object.keys(result.tasks ?? {}).length) drawn.add('latency-panel');
      explainTheRest((id) => notes.ifEmpty[id] ?? emptyInResult(id, result.simulated_ns));
      const stopped = run.status === 'cancelled';
      sourceEl.textContent = `${stopped ? 'stopped after' : 'finished in'} ${formatDurationNs(run.wallMs * 1e6, 1e6)} wall time · ${plural(run.events, 'event')}`;
      if (stopped) {
        // said once, at the top, as a notice (a cancel is no error); the panels stay and show what it recorded
        showError(errorEl, new Error(partialNote(run.status, run.error, result.partial, run.simulatedNs, run.durationNs)));
        errorEl.classList.add('notice');
        body.dataset.ended = run.status;
      }
      body.dataset.partial = String(!!result.partial);
      body.dataset.final = 'true';
    } catch (e) {
      finalShown = false;
      if (noResult && e instanceof ApiError && e.status === 409) noResult();
      else showError(errorEl, e);
    }
  }

  function drawFinalTable(stats: Record<string, CgroupStats>): void {
    const tbody = document.querySelector('#cpustat-final tbody')!;
    const rows: HTMLElement[] = [];
    for (const [path, s] of Object.entries(stats)) {
      const c = s['cpu.stat'];
      rows.push(el('tr', {}, el('td', { class: 'path' }, path),
        ...statCells([c.usage_usec, c.user_usec, c.system_usec, c.nr_periods, c.nr_throttled, c.throttled_usec, c.nr_bursts, c.burst_usec,
          s['cpu.stat.local']?.throttled_usec], ['usage_usec', 'user_usec', 'system_usec', 'nr_periods', 'nr_throttled', 'throttled_usec',
          'nr_bursts', 'burst_usec', 'throttled_usec'])));
    }
    tbody.replaceChildren(...rows);
    hideBlankColumns(document.getElementById('cpustat-final') as HTMLTableElement, cpuStatBlankReason);
    showLocalNote(document.getElementById('cpustat-final') as HTMLTableElement);
    labelCells(document.getElementById('cpustat-final') as HTMLTableElement);
    if (rows.length) drawn.add('final-panel');
    $('final-panel').hidden = false;
  }

  /** Why a panel of a done run's page is empty when the scenario did not tell beforehand. */
  function emptyInResult(id: Panel, simulatedNs: number): string {
    switch (id) {
      case 'hist':
      case 'slowest':
        return `No distribute_cfs_runtime() calls: no group used up its quota in ${fmtSeconds(simulatedNs)} simulated, ` +
          'so the period timer never had a throttled runqueue to refill.';
      case 'cpu-timeline':
        return 'Not recorded: this run was stored before results kept a CPU timeline.';
      case 'latency-panel':
        return 'No per-task latency: the result has no tasks.';
      case 'final-panel':
        return 'No cpu.stat: the result has no groups.';
      default:
        return `No samples: the result's series is empty (the run, ${fmtSeconds(simulatedNs)} simulated, is shorter than record.interval).`;
    }
  }

  /**
   * A run that ended without a result (failed, or cancelled before it started): one statement at the top (its
   * outcome, where it stopped, that it keeps no result) and no panels, whether this page watched it end (its live
   * charts go: a reload could not show them) or was opened afterwards, so that the two agree.
   */
  function ended(status: string, error: string | null | undefined, simulatedNs: number): void {
    showError(errorEl, new Error(statusNote(status, error, simulatedNs, durationNs)));
    errorEl.classList.toggle('notice', status === 'cancelled'); // a cancel is no error
    for (const panel of document.querySelectorAll<HTMLElement>('main section.panel')) panel.hidden = true;
    body.dataset.ended = status;
  }

  /** Attempts lost with their instance (crash recovery), said once beside the status. */
  function showInterruptions(r: RunView): void {
    const note = interruptionNote(r);
    interruptedEl.textContent = note;
    interruptedEl.hidden = note === '';
  }

  function finished(r: RunView): void {
    if (r.status === 'done') void showFinal();
    // a run cancelled while it ran keeps its result up to the cancel (partial); one cancelled while queued has none
    else if (r.status === 'cancelled') void showFinal(() => ended(r.status, r.error, r.simulatedNs));
    else ended(r.status, r.error, r.simulatedNs);
  }

  // Fallback where the events endpoint is missing: poll the run four times a second.
  let polling = false;
  function poll(): void {
    if (polling) return;
    polling = true;
    sourceEl.textContent = 'polling';
    sourceEl.title = 'no events stream on this server: progress is polled, the charts appear when the run is done';
    if (!lastHistKey) histEl.replaceChildren(el('p', { class: 'hint' }, 'The charts fill in when the run is done (no live events stream on this server).'));
    const tick = async () => {
      try {
        const r = await getJson<RunView>(`/api/runs/${runId}`);
        setStatus(r.status, r.progress, r.simulatedNs, r.durationNs, r.etaMs);
        showInterruptions(r);
        if (isFinished(r.status)) {
          finished(r);
          return;
        }
      } catch (e) {
        showError(errorEl, e);
      }
      setTimeout(tick, 250);
    };
    void tick();
  }

  void (async () => {
    let r: RunView;
    try {
      r = await getJson<RunView>(`/api/runs/${runId}`);
    } catch (e) {
      showError(errorEl, e);
      return;
    }
    setStatus(r.status, r.progress, r.simulatedNs, r.durationNs, r.etaMs);
    showInterruptions(r);
    if (isFinished(r.status)) {
      finished(r);
      return;
    }
    if (typeof EventSource === 'undefined') {
      poll();
      return;
    }
    sourceEl.textContent = 'live';
    body.dataset.live = 'true';
    new RunStream(`/api/runs/${runId}/events`, {
      minIntervalMs: 200,
      onUpdate: render,
      onEnd: (s) => {
        sourceEl.textContent = '';
        // the end is a status report of its own (a stream may end before any progress event)
        if (s.terminal) setStatus(s.terminal.status, s.progress?.progress ?? 0, s.progress?.simulated_ns ?? 0, s.progress?.duration_ns ?? 0, null);
        const st = s.terminal?.status ?? 'failed';
        const noResult = () => ended(st, s.terminal?.error, s.progress?.simulated_ns ?? 0);
        // the stored result replaces what the stream drew, so that this page and a reload agree
        if (st === 'done') void showFinal();
        else if (st === 'cancelled') void showFinal(noResult);
        else noResult();
      },
      onUnavailable: () => {
        body.dataset.live = 'false';
        poll();
      },
    }).start();
  })();

}

/** Table cells of cpu.stat-like values by key: the kernel's integers (µs counters with their duration on hover), "–" when absent. */
function statCells(values: (number | undefined | null)[], keys: string[]): HTMLElement[] {
  return values.map((v, i) => {
    const kind = kindOfKey(keys[i]);
    return el('td', kind === 'counter' && v != null ? { title: durationTitle(v) } : {}, format(kind, v));
  });
}
