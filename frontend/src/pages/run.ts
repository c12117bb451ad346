// Run page: live from GET /api/runs/{id}/events while running (polling GET /api/runs/{id} where the
// events endpoint is missing), from the result when done.
import { el, fmtInt, fmtSeconds, getJson, showError, del, type RunView } from '../api';
import { HistogramChart, LineChart } from '../charts';
import { formatBpftrace, formatNs, printedBuckets } from '../hist';
import { cgroupLines, cpuGradient, CPU_STATE_COLORS, CPU_STATE_NAMES, slowestCalls, taskLines, xsSeconds, MAX_LINES } from '../series';
import { drawTaskLatency, type TaskResult } from './latency';
import { emptyState, RunStream, type CgroupStats, type DistributeCall, type RunState, type Sample } from '../stream';

const HIST = 'distribute_cfs_runtime_ns';

interface ResultCpu {
  cpu: number;
  busy_usec: number;
  irq_usec: number;
  sched_usec: number;
}

interface Result {
  simulated_ns: number;
  cgroups: Record<string, CgroupStats>;
  histograms: Record<string, { count: number; sum: number; buckets: { low: number; high: number; count: number }[] }>;
  distribute_calls: DistributeCall[];
  series: Sample[];
  cpus?: ResultCpu[];
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
  const histEl = $('hist');
  const histText = $('hist-text');
  const histMeta = $('hist-meta');
  const asText = $<HTMLInputElement>('hist-as-text');
  const cancelBtn = $<HTMLButtonElement>('cancel-run');
  const histChart = new HistogramChart(histEl, ['calls']);
  const charts = {
    nrThrottled: new LineChart($('chart-nr-throttled'), 'nr_throttled'),
    throttledUsec: new LineChart($('chart-throttled-usec'), 'µs'),
    usage: new LineChart($('chart-usage'), 'µs'),
    tasks: new LineChart($('chart-tasks'), '%CPU'),
  };
  let histUpdates = 0;
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
      await del(`/api/runs/${runId}`);
    } catch (e) {
      showError(errorEl, e);
    }
  });

  function setStatus(status: string, progress: number, simulatedNs: number, durationNs: number, etaMs: number | null): void {
    statusEl.textContent = status;
    statusEl.dataset.status = status;
    statusEl.className = `badge ${status}`;
    progressEl.value = progress;
    progressEl.dataset.progress = String(progress);
    const eta = etaMs != null && status === 'running' ? ` · ETA ${(etaMs / 1000).toFixed(1)} s` : '';
    progressText.textContent = `${progress.toFixed(1)} % · ${fmtSeconds(simulatedNs)} of ${fmtSeconds(durationNs)}${eta}`;
    // a run of an experiment is cancelled with its experiment
    cancelBtn.hidden = !(status === 'queued' || status === 'running') || !!body.dataset.experimentId;
  }

  function drawHistogram(h: RunState['histograms'][string] | undefined, countUpdate: boolean): void {
    if (!h) return;
    const key = JSON.stringify(h.buckets);
    if (countUpdate && key !== lastHistKey) {
      histUpdates++;
      histEl.dataset.updates = String(histUpdates);
    }
    lastHistKey = key;
    const buckets = printedBuckets(h);
    histChart.update([{ ...h, buckets }]);
    histText.textContent = formatBpftrace(HIST, { buckets });
    histMeta.textContent = `${fmtInt(h.count)} calls · mean ${h.count ? formatNs(Math.round(h.sum / h.count)) : '-'}`;
  }

  function drawSeries(samples: Sample[]): void {
    const xs = xsSeconds(samples);
    const put = (chart: LineChart, r: { lines: { label: string; values: (number | null)[] }[]; total: number }, id: string) => {
      chart.update(xs, r.lines);
      const note = document.getElementById(id)!.previousElementSibling as HTMLElement;
      note.dataset.total = String(r.total);
      note.title = r.total > MAX_LINES ? `top ${MAX_LINES} of ${r.total}` : '';
    };
    put(charts.nrThrottled, cgroupLines(samples, 'nr_throttled'), 'chart-nr-throttled');
    put(charts.throttledUsec, cgroupLines(samples, 'throttled_usec'), 'chart-throttled-usec');
    put(charts.usage, cgroupLines(samples, 'usage_usec'), 'chart-usage');
    put(charts.tasks, taskLines(samples), 'chart-tasks');
  }

  function drawCalls(state: RunState): void {
    const calls = showRecent ? [...state.recent].reverse() : state.slowest;
    $('calls-title').textContent = showRecent ? 'Latest distribute_cfs_runtime() calls' : 'Slowest distribute_cfs_runtime() calls';
    drawSlowest(calls);
  }

  /** Live cpu.stat totals (the `cgroups` event), the groups most throttled first, at most 100 rows. */
  function drawLiveCgroups(state: RunState): void {
    const entries = Object.entries(state.cgroups);
    if (entries.length === 0 || finalShown) return;
    entries.sort((a, b) => (b[1]['cpu.stat']?.throttled_usec ?? 0) - (a[1]['cpu.stat']?.throttled_usec ?? 0) || a[0].localeCompare(b[0]));
    const shown = entries.slice(0, 100);
    $('live-title').textContent = `cpu.stat at ${fmtSeconds(state.cgroupsAtNs)} simulated` +
      (entries.length > shown.length ? ` (the ${shown.length} most throttled of ${entries.length} groups)` : '');
    document.querySelector('#cpustat-live tbody')!.replaceChildren(...shown.map(([path, s]) => {
      const c = s['cpu.stat'];
      return el('tr', {}, el('td', { class: 'path' }, path),
        ...[c.usage_usec, c.nr_periods, c.nr_throttled, c.throttled_usec, c.nr_bursts, c.burst_usec].map((v) => el('td', {}, fmtInt(v))));
    }));
    $('live-panel').hidden = false;
  }

  function drawSlowest(calls: DistributeCall[]): void {
    const tbody = document.querySelector('#slowest tbody')!;
    tbody.replaceChildren(
      ...calls.map((c) =>
        el('tr', {},
          el('td', {}, fmtSeconds(c.at_ns)), el('td', {}, String(c.cpu)), el('td', { class: 'path' }, c.cgroup ?? ''),
          el('td', {}, formatNs(c.duration_ns)), el('td', {}, String(c.rqs)), el('td', {}, String(c.remote_rqs ?? '')),
          el('td', {}, String(c.cfs_rqs)), el('td', {}, String(c.tasks)), el('td', {}, c.slack ? 'yes' : '')),
      ),
    );
  }

  function drawCpuTimeline(state: RunState): void {
    const tl = state.cpuTimeline;
    if (tl.length === 0) return;
    const host = $('cpus');
    const ncpu = tl[tl.length - 1].states.length;
    const window = tl.slice(-240);
    let rows = host.querySelector('.cpu-rows') as HTMLElement | null;
    if (!rows || rows.childElementCount !== ncpu) {
      host.replaceChildren(legend(), (rows = el('div', { class: 'cpu-rows' })));
      for (let c = 0; c < ncpu; c++) rows.append(el('div', { class: 'cpu-row' }, el('span', { class: 'cpu-label' }, `cpu${c}`), el('div', { class: 'cpu-band' })));
    }
    rows.dataset.snapshots = String(tl.length);
    const span = `${fmtSeconds(window[0].at_ns)} – ${fmtSeconds(window[window.length - 1].at_ns)}`;
    rows.title = span;
    const caption = host.querySelector('.legend .span') ?? host.querySelector('.legend')!.appendChild(el('span', { class: 'span hint' }));
    caption.textContent = `${span} simulated · ${window.length} snapshots`;
    for (let c = 0; c < ncpu; c++) {
      const band = rows.children[c].lastElementChild as HTMLElement;
      band.style.background = cpuGradient(window.map((s) => s.states[c] ?? 0));
    }
  }

  function legend(): HTMLElement {
    return el('div', { class: 'legend' }, ...CPU_STATE_NAMES.map((n, i) => el('span', {}, el('i', { style: `background:${CPU_STATE_COLORS[i]}` }), n)));
  }

  function drawCpuTotals(cpus: ResultCpu[], simulatedNs: number): void {
    if (!cpus?.length) return;
    const host = $('cpus');
    const keepTimeline = host.querySelector('.cpu-rows');
    const total = simulatedNs / 1000;
    const table = el('table', { class: 'list num', id: 'cpu-totals' },
      el('thead', {}, el('tr', {}, ...['cpu', 'busy_usec', 'irq_usec', 'sched_usec', 'busy %', ''].map((h) => el('th', {}, h)))));
    const tb = el('tbody');
    for (const c of cpus) {
      const pct = total ? (100 * c.busy_usec) / total : 0;
      const bar = el('div', { class: 'meter' }, el('i', { style: `width:${Math.min(100, pct).toFixed(1)}%` }));
      tb.append(el('tr', {}, el('td', {}, `cpu${c.cpu}`), el('td', {}, fmtInt(c.busy_usec)), el('td', {}, fmtInt(c.irq_usec)),
        el('td', {}, fmtInt(c.sched_usec)), el('td', {}, pct.toFixed(1)), el('td', { class: 'meter-cell' }, bar)));
    }
    table.append(tb);
    const wrap = el('div', { class: 'table-scroll' }, table);
    if (keepTimeline) host.append(wrap);
    else host.replaceChildren(wrap);
  }

  function render(state: RunState): void {
    const p = state.progress;
    if (p) setStatus(p.status, p.progress, p.simulated_ns, p.duration_ns, p.eta_ms);
    drawHistogram(state.histograms[HIST], true);
    if (state.samples.length) drawSeries(state.samples);
    lastState = state;
    if (state.slowest.length || state.recent.length) drawCalls(state);
    drawCpuTimeline(state);
    drawLiveCgroups(state);
    body.dataset.events = String(state.events);
  }

  async function showFinal(): Promise<void> {
    if (finalShown) return;
    finalShown = true;
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
      lastState = { ...(lastState ?? emptyState()), slowest: slowestCalls(calls), recent: calls.slice(-50) };
      drawCalls(lastState);
      $('live-panel').hidden = true;
      drawCpuTotals(result.cpus ?? [], result.simulated_ns);
      drawFinalTable(cpuStat);
      drawTaskLatency($('latency-panel'), result.tasks);
      sourceEl.textContent = `finished in ${(run.wallMs / 1000).toFixed(1)} s wall time · ${fmtInt(run.events)} events`;
      body.dataset.final = 'true';
    } catch (e) {
      finalShown = false;
      showError(errorEl, e);
    }
  }

  function drawFinalTable(stats: Record<string, CgroupStats>): void {
    const tbody = document.querySelector('#cpustat-final tbody')!;
    const rows: HTMLElement[] = [];
    for (const [path, s] of Object.entries(stats)) {
      const c = s['cpu.stat'];
      rows.push(el('tr', {}, el('td', { class: 'path' }, path),
        ...[c.usage_usec, c.user_usec, c.system_usec, c.nr_periods, c.nr_throttled, c.throttled_usec, c.nr_bursts, c.burst_usec,
          s['cpu.stat.local']?.throttled_usec].map((v) => el('td', {}, fmtInt(v)))));
    }
    tbody.replaceChildren(...rows);
    $('final-panel').hidden = false;
  }

  function finished(r: RunView): void {
    if (r.status === 'done') void showFinal();
    else if (r.error) showError(errorEl, new Error(`${r.status}: ${r.error}`));
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
        if (['done', 'failed', 'cancelled'].includes(r.status)) {
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
    if (['done', 'failed', 'cancelled'].includes(r.status)) {
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
        if (s.terminal?.status === 'done') void showFinal();
        else showError(errorEl, new Error(`${s.terminal?.status}: ${s.terminal?.error ?? ''}`));
      },
      onUnavailable: () => {
        body.dataset.live = 'false';
        poll();
      },
    }).start();
  })();

}
