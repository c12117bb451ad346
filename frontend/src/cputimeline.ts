// The run page's CPU timeline: each CPU's state over simulated time (the result's `cpu_timeline`, streamed as
// `cpus` events while the run executes), drawn on one canvas with a time axis and the state under the cursor.
import { CPU_STATE_COLORS, CPU_STATE_NAMES, cpuRuns } from './series';
import type { CpuTimeline } from './stream';
import { durationTicks } from './units';
import { formatDuration } from './format';

const LABEL_W = 52;
const AXIS_H = 34;

/** A step of 1, 2 or 5 × 10^k ns giving about `n` ticks over `spanNs`. */
export function niceStep(spanNs: number, n = 6): number {
  const raw = Math.max(1, spanNs / n);
  const pow = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (m * pow >= raw) return m * pow;
  return 10 * pow;
}

/** Row height (px) for a number of CPUs: readable for a few, still on one screen for hundreds. */
export function rowHeight(ncpu: number): number {
  return ncpu <= 16 ? 14 : ncpu <= 64 ? 8 : Math.max(1, Math.floor(512 / ncpu));
}

export class CpuTimelineView {
  private readonly canvas: HTMLCanvasElement;
  private readonly tip: HTMLElement;
  private last: { tl: CpuTimeline; durationNs: number } | null = null;

  constructor(private readonly host: HTMLElement) {
    const legend = document.createElement('div');
    legend.className = 'legend';
    CPU_STATE_NAMES.forEach((name, i) => {
      const item = document.createElement('span');
      const swatch = document.createElement('i');
      swatch.style.background = CPU_STATE_COLORS[i];
      item.append(swatch, name);
      legend.append(item);
    });
    this.canvas = document.createElement('canvas');
    this.canvas.className = 'cpu-timeline';
    this.tip = document.createElement('div');
    this.tip.className = 'cpu-tip mono hint';
    this.tip.textContent = ' ';
    host.replaceChildren(legend, this.canvas, this.tip);
    this.canvas.addEventListener('mousemove', (e) => this.hover(e));
    this.canvas.addEventListener('mouseleave', () => { this.tip.textContent = ' '; });
    // a narrower or wider window (a phone turned, a sidebar opened): drawn again at the host's new width
    if (typeof ResizeObserver !== 'undefined') {
      new ResizeObserver(() => {
        const l = this.last;
        if (l && Math.abs(this.canvasWidth() - this.drawnWidth) > 2) {
          this.last = null;
          this.draw(l.tl, l.durationNs, (this.host.dataset.source as 'live' | 'result') ?? 'result');
        }
      }).observe(host);
    }
  }

  private drawnWidth = 0;

  /** The canvas width that fits the host (at least 240 px). */
  private canvasWidth(): number {
    return Math.max(240, this.host.clientWidth || 600);
  }

  /** Draws the columns held so far over the whole run's duration (the columns still to come stay blank). */
  draw(tl: CpuTimeline, durationNs: number, source: 'live' | 'result'): void {
    // the page re-renders a few times a second: redraw only when there are new columns (a new timeline object)
    if (this.last && this.last.tl === tl && this.last.durationNs === durationNs && this.host.dataset.source === source) return;
    this.last = { tl, durationNs };
    const ncpu = tl.cpus.length;
    const columns = ncpu ? tl.cpus[0].length : 0;
    const total = Math.max(columns, Math.ceil(durationNs / tl.intervalNs));
    const h = rowHeight(ncpu);
    const gap = h >= 6 ? 1 : 0;
    const width = this.canvasWidth();
    this.drawnWidth = width;
    const plotW = width - LABEL_W - 8;
    const height = ncpu * (h + gap) + AXIS_H;
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(width * dpr);
    this.canvas.height = Math.round(height * dpr);
    this.canvas.style.width = `${width}px`;
    this.canvas.style.height = `${height}px`;
    const ctx = this.canvas.getContext('2d');
    Object.assign(this.host.dataset, { source, cpus: String(ncpu), columns: String(columns), intervalNs: String(tl.intervalNs), spanNs: String(total * tl.intervalNs) });
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    const x = (k: number) => LABEL_W + (k / total) * plotW;
    ctx.font = '10px ui-monospace, monospace';
    ctx.textBaseline = 'middle';
    const labelEvery = h >= 8 ? 1 : Math.ceil(10 / (h + gap));
    for (let c = 0; c < ncpu; c++) {
      const y = c * (h + gap);
      ctx.fillStyle = '#f4f4f4';
      ctx.fillRect(LABEL_W, y, plotW, h);
      for (const r of cpuRuns(tl.cpus[c])) {
        ctx.fillStyle = CPU_STATE_COLORS[r.state] ?? '#000';
        ctx.fillRect(x(r.start), y, Math.max(0.5, x(r.end) - x(r.start)), h);
      }
      if (c % labelEvery === 0) {
        ctx.fillStyle = '#666';
        ctx.fillText(`cpu${c}`, 2, y + Math.max(h, 10) / 2);
      }
    }
    // time axis: ticks at a round step, the unit of the largest tick, and the axis title
    const top = ncpu * (h + gap) + 2;
    const spanNs = total * tl.intervalNs;
    const step = niceStep(spanNs);
    const ticks: number[] = [];
    for (let t = 0; t <= spanNs + 1e-6; t += step) ticks.push(t);
    const labels = durationTicks(ticks);
    ctx.strokeStyle = '#999';
    ctx.fillStyle = '#555';
    ctx.beginPath();
    ctx.moveTo(LABEL_W, top);
    ctx.lineTo(LABEL_W + plotW, top);
    ticks.forEach((t) => {
      const px = LABEL_W + (t / spanNs) * plotW;
      ctx.moveTo(px, top);
      ctx.lineTo(px, top + 4);
    });
    ctx.stroke();
    ctx.textAlign = 'center';
    ticks.forEach((t, i) => ctx.fillText(labels[i], Math.min(LABEL_W + plotW - 12, LABEL_W + (t / spanNs) * plotW), top + 11));
    ctx.fillText('simulated time', LABEL_W + plotW / 2, top + 25);
    ctx.textAlign = 'start';
  }

  private hover(e: MouseEvent): void {
    if (!this.last) return;
    const { tl, durationNs } = this.last;
    const ncpu = tl.cpus.length;
    const rect = this.canvas.getBoundingClientRect();
    const h = rowHeight(ncpu);
    const gap = h >= 6 ? 1 : 0;
    const plotW = rect.width - LABEL_W - 8;
    const c = Math.floor((e.clientY - rect.top) / (h + gap));
    const total = Math.max(tl.cpus[0]?.length ?? 0, Math.ceil(durationNs / tl.intervalNs));
    const k = Math.floor(((e.clientX - rect.left - LABEL_W) / plotW) * total);
    if (c < 0 || c >= ncpu || k < 0 || k >= total) {
      this.tip.textContent = ' ';
      return;
    }
    const ch = tl.cpus[c].charCodeAt(k);
    const state = Number.isNaN(ch) ? 'not simulated yet' : CPU_STATE_NAMES[ch - 48] ?? '?';
    this.tip.textContent = `cpu${c} · ${formatDuration(k * tl.intervalNs)} – ${formatDuration((k + 1) * tl.intervalNs)}: ${state}`;
  }
}
