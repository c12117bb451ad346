// Charts drawn with uPlot (https://github.com/leeoniya/uPlot): histogram bars with bpftrace's bucket
// labels, and time series (seconds of simulated time on x).
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { bucketLabel, printedBuckets, type Histogram } from './hist';
import { box, stripData, tickLabels } from './strip';
import { armColors, ColorRegistry, distinctColors, pageColors } from './colors';
import { durationTicks } from './units';
import { formatCount, formatDuration, formatPercent } from './format';
import { pointerSteps } from './pointers';
import { statMeasure } from './statnames';

/**
 * What a chart's values are: counts, durations in µs (cpu.stat's *_usec), ns or s (a benchmark's time_s), rates per
 * second, or percentages.
 */
export type Unit = 'count' | 'usec' | 'nsec' | 'sec' | 'per_s' | 'percent';

/**
 * An experiment metric's axis: a short title (the metric's last name and what it measures; the plot's heading names
 * the whole metric) and the unit its ticks and hover values read in, from the name's suffix as the result spells it
 * (`_usec`, `_ns`, `_s`, `_per_s`). `cgroups/~1web~1backend/cpu.stat/throttled_usec` → `throttled_usec (time)`, in
 * durations (360.3 s, not 360.3M).
 */
export function metricAxis(metric: string): { title: string; unit: Unit } {
  const parts = pointerSteps(metric);
  const name = parts[parts.length - 1] ?? metric;
  const unit: Unit = /_per_s$/.test(name) ? 'per_s' : /_usec$|_us$/.test(name) ? 'usec' : /_ns$/.test(name) ? 'nsec'
    : /_s$/.test(name) ? 'sec' : /_pct$|percent/.test(name) ? 'percent' : 'count';
  // a cpu.stat count is named as on the run page: nr_throttled counts periods (statnames.ts)
  const what = unit === 'count' ? (statMeasure(name) === 'periods' ? 'periods' : 'count')
    : { usec: 'time', nsec: 'time', sec: 'time', per_s: 'per second', percent: '%' }[unit];
  return { title: `${name} (${what})`, unit };
}

/**
 * Tick steps of an axis whose values are counts (calls, periods, throttles): whole numbers only, 1-2-5 per decade, so
 * that a count axis never reads 2.5 (uPlot's default steps include fractions).
 */
export const COUNT_INCRS: number[] = Array.from({ length: 15 }, (_, d) => [1, 2, 5].map((m) => m * 10 ** d)).flat();

/**
 * What a chart's y axis and its legend read in, as one thing: the axis's ticks and the legend's (or hover's) value
 * of a point (`mean`: an arm's mean where the strip plot's legend shows it), so that no chart takes its ticks from one
 * unit and its legend from another (the strip plot drew `500 ms` ticks beside a legend of `511,424` raw µs). Every
 * chart's pair is held to one unit by `unitKind` (units.ts) in axes.test.ts, and each drawn chart by layout-faults.js.
 */
export interface ChartFormat {
  ticks: (splits: number[]) => string[];
  value: (v: number, mean: boolean) => string;
}

/** A unit's ticks and values as one ChartFormat. */
export function chartFormat(unit: Unit): ChartFormat {
  const f = unitFormat(unit);
  return { ticks: f.ticks, value: (v) => f.value(v) };
}

/** Axis ticks and hover values of a unit. */
export function unitFormat(unit: Unit): { ticks: (splits: number[]) => string[]; value: (v: number | null | undefined) => string } {
  switch (unit) {
    case 'usec':
      return { ticks: (splits) => durationTicks(splits.map((v) => v * 1e3)), value: (v) => (v == null ? '' : formatDuration(v * 1e3, 1e3)) };
    case 'nsec':
      return { ticks: (splits) => durationTicks(splits), value: (v) => (v == null ? '' : formatDuration(v)) };
    case 'sec':
      return { ticks: (splits) => durationTicks(splits.map((v) => v * 1e9)), value: (v) => (v == null ? '' : formatDuration(v * 1e9, 1e9)) };
    case 'per_s':
      return { ticks: (splits) => tickLabels(splits).map((t) => (t === '0' ? t : `${t}/s`)), value: (v) => (v == null ? '' : `${Number(v.toPrecision(6)).toLocaleString('en-US')}/s`) };
    case 'percent':
      return { ticks: (splits) => tickLabels(splits).map((t) => (t === '0' ? t : `${t} %`)), value: (v) => (v == null ? '' : formatPercent(v)) };
    default:
      return { ticks: tickLabels, value: (v) => (v == null ? '' : formatCount(Math.round(v))) };
  }
}

/**
 * What a legend shows when the cursor is not over the plot (uPlot asks with `idx == null`): a line's latest value, a
 * histogram's total, a strip's mean, so the legend never sits there with a blank column.
 */
export function latestValue(values: ArrayLike<number | null | undefined>): number | null {
  for (let i = values.length - 1; i >= 0; i--) {
    const v = values[i];
    if (v != null && !Number.isNaN(v)) return v;
  }
  return null;
}

/** The sum of a series' values (a histogram's calls over all buckets), null when it has none. */
export function totalValue(values: ArrayLike<number | null | undefined>): number | null {
  let sum = 0;
  let any = false;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v != null && !Number.isNaN(v)) {
      sum += v;
      any = true;
    }
  }
  return any ? sum : null;
}

/**
 * A y axis's width from its longest tick label (at least `min` px), so that "421.25 ms" is not cut at the plot's
 * edge: uPlot calls it again with the labels it drew (cycleNum counts its layout passes; after two it keeps the size).
 */
export function fitTicks(min: number): uPlot.Axis.Size {
  return (u, values, axisIdx, cycleNum) => {
    const axis = u.axes[axisIdx] as uPlot.Axis & { _size?: number };
    if (cycleNum > 1 && axis._size) return axis._size;
    const longest = (values ?? []).reduce((a, v) => (String(v).length > a.length ? String(v) : a), '');
    if (!longest) return min;
    u.ctx.save();
    u.ctx.font = (axis.font as unknown as string[] | undefined)?.[0] ?? '12px system-ui';
    const w = u.ctx.measureText(longest).width / (window.devicePixelRatio || 1);
    u.ctx.restore();
    return Math.max(min, Math.ceil(w + 8 + 10)); // the label, the gap (5) and the tick (10)
  };
}

/**
 * `title` shortened until `fits` says it fits: the name cut with "…" before its "(unit)", which always stays
 * ("pulls_into_thr… (count)"), so that a label longer than its axis is never clipped at the canvas edge (uPlot draws
 * it centred and cuts both ends: "pulls_into_throttled (count" lost its parenthesis). The full title stays in the
 * chart's data-axes and its hover.
 */
export function shortenToFit(title: string, fits: (s: string) => boolean): string {
  if (fits(title)) return title;
  const m = /^(.*?)( \([^()]*\))$/.exec(title);
  const [name, unit] = m ? [m[1], m[2]] : [title, ''];
  for (let n = name.length - 1; n > 0; n--) {
    const s = `${name.slice(0, n)}…${unit}`;
    if (fits(s)) return s;
  }
  return unit.trim() || title.slice(0, 1) + '…';
}

/**
 * An axis label that fits its axis (the plot's width for x, its height for y, measured in canvas pixels at the
 * label's font); the labels drawn are kept in the chart's data-drawn-axes for layout-faults.js.
 */
export function fittedLabel(el: HTMLElement, title: string): uPlot.Axis.Label {
  return (u, axisIdx) => {
    const axis = u.axes[axisIdx] as uPlot.Axis & { labelFont?: unknown };
    const vertical = axis.side === 1 || axis.side === 3 || (axis.side == null && axisIdx > 0);
    const room = (vertical ? u.bbox.height : u.bbox.width) - 4 * (window.devicePixelRatio || 1);
    u.ctx.save();
    u.ctx.font = (axis.labelFont as string[] | undefined)?.[0] ?? 'bold 12px system-ui';
    const label = room > 0 ? shortenToFit(title, (s) => u.ctx.measureText(s).width <= room) : title;
    u.ctx.restore();
    const drawn = JSON.parse(el.dataset.drawnAxes ?? '[]') as string[];
    drawn[axisIdx] = label;
    el.dataset.drawnAxes = JSON.stringify(drawn);
    return label;
  };
}

/** The legend's filter: a text field above a chart that shows only the lines whose name contains its text. */
class SeriesFilter {
  readonly input: HTMLInputElement;

  constructor(chartEl: HTMLElement, private readonly apply: () => void) {
    this.input = Object.assign(document.createElement('input'), {
      type: 'search',
      className: 'series-filter',
      placeholder: 'filter lines (e.g. /web)',
    });
    this.input.setAttribute('aria-label', 'filter the lines of this chart by name');
    this.input.addEventListener('input', () => this.apply());
    chartEl.before(this.input);
  }

  matches(label: string): boolean {
    const q = this.input.value.trim().toLowerCase();
    return q === '' || label.toLowerCase().includes(q);
  }
}

/** The width a chart gets: its host's (at least 240 px, so that a phone's narrow panel is not overflowed). */
function width(el: HTMLElement): number {
  return Math.max(240, el.clientWidth || el.parentElement?.clientWidth || 600);
}

/** Aligns several histograms on one x axis of log2 buckets, from the lowest to the highest non-zero one. */
export function alignBuckets(hists: (Histogram | undefined)[]): { labels: string[]; counts: number[][] } {
  const lows = new Set<number>();
  for (const h of hists) if (h) for (const b of printedBuckets(h)) lows.add(b.low);
  if (lows.size === 0) return { labels: [], counts: hists.map(() => []) };
  const sorted = [...lows].sort((a, b) => a - b);
  const all = printedBuckets({ buckets: [{ low: sorted[0], high: sorted[0] === 0 ? 1 : sorted[0] * 2, count: 1 },
    { low: sorted[sorted.length - 1], high: sorted[sorted.length - 1] === 0 ? 1 : sorted[sorted.length - 1] * 2, count: 1 }] });
  const labels = all.map((b) => bucketLabel(b));
  const counts = hists.map((h) => {
    const by = new Map((h?.buckets ?? []).map((b) => [b.low, b.count]));
    return all.map((b) => by.get(b.low) ?? 0);
  });
  return { labels, counts };
}

/**
 * A uPlot chart redrawn in place: new data with the same series only updates the plot (cheap, keeps zoom);
 * other series rebuild it.
 */
abstract class ReusablePlot {
  protected plot: uPlot | null = null;
  private key = '';

  protected constructor(protected readonly el: HTMLElement) {
    // the plot follows its host's width (a window resized, a narrow screen turned): uPlot draws at a fixed size
    if (typeof ResizeObserver !== 'undefined') {
      new ResizeObserver(() => {
        const u = this.plot;
        const w = width(this.el);
        if (u && Math.abs(u.width - w) > 2) u.setSize({ width: w, height: u.height });
      }).observe(el);
    }
  }

  /** True if the existing plot took `data`; false after clearing it for a rebuild. */
  protected reuse(key: string, data: uPlot.AlignedData): boolean {
    if (this.plot && key === this.key) {
      this.plot.setData(data);
      return true;
    }
    this.key = key;
    this.plot?.destroy();
    this.el.textContent = '';
    return false;
  }
}

/** A bar chart of one or more histograms (overlaid side by side in each bucket). */
/**
 * Every how many buckets an x label fits without overlapping its neighbours: labels of `maxChars` characters
 * (about 7 px each at the axis font, plus a gap) over `slots` buckets in `widthPx`.
 */
export function labelStep(maxChars: number, slots: number, widthPx: number): number {
  if (slots <= 0 || widthPx <= 0) return 1;
  const need = maxChars * 7 + 10;
  return Math.max(1, Math.ceil(need / (widthPx / slots)));
}

/**
 * What a histogram chart's bars measure: `count` (calls in each bucket) or `share` (each series' calls in the
 * bucket as a percentage of that series' calls over all buckets), so that two runs with different numbers of calls
 * compare by shape.
 */
export type HistogramScale = 'count' | 'share';

/** Each series as percentages of its own total (a series with no calls stays all zero). */
export function shares(counts: number[][]): number[][] {
  return counts.map((c) => {
    const total = c.reduce((a, v) => a + v, 0);
    return c.map((v) => (total > 0 ? (100 * v) / total : 0));
  });
}

/** The y axis's title for a scale: says which the bars are. */
export function scaleTitle(scale: HistogramScale, countTitle: string): string {
  return scale === 'share' ? `share of ${countTitle}, % of each run's total` : `${countTitle} (raw counts)`;
}

/** How a histogram chart names its series and its y axis for people (the legend, the axis title). */
export interface HistogramNames {
  /** series name → the name shown in the legend (the page's heading and table use the same words) */
  display?: Record<string, string>;
  /** the y axis's title: what a bucket counts */
  yTitle?: string;
}

export class HistogramChart extends ReusablePlot {
  /** The x axis's title: the buckets' unit (ns for distribute_cfs_runtime_ns, µs for runqlat-style latencies). */
  private readonly xTitle: string;
  /** Raw counts, or shares of each series' total (setScale). */
  private scale: HistogramScale = 'count';
  private last: (Histogram | undefined)[] | null = null;
  /** The counts drawn last (a reused plot's legend reads them, not the ones it was built with). */
  private rawCounts: number[][] = [];
  /** True once the page offers both scales: the count axis then says "raw counts" too. */
  private scalable = false;

  /** Redraws the histograms shown in the other scale (the y axis's title says which). */
  setScale(scale: HistogramScale): void {
    this.scalable = true;
    if (scale === this.scale) return;
    this.scale = scale;
    if (this.last) this.update(this.last);
  }

  constructor(el: HTMLElement, private readonly names: string[], private readonly height = 260,
              private readonly emptyText = 'no distribute_cfs_runtime() calls yet',
              // a histogram's series are roles (calls; wake-up latency and run-stretch time): the palette's first colours
              private readonly colors: ColorRegistry = new ColorRegistry(true), private readonly bucketUnit: 'ns' | 'µs' = 'ns',
              private readonly naming: HistogramNames = {}) {
    super(el);
    this.xTitle = `duration, ${bucketUnit} (log2 buckets as ${bucketUnit === 'ns' ? 'bpftrace' : 'runqlat'} prints them)`;
  }

  update(hists: (Histogram | undefined)[]): void {
    this.last = hists;
    const { labels, counts } = alignBuckets(hists);
    const xs = labels.map((_, i) => i);
    const share = this.scale === 'share';
    this.rawCounts = counts;
    const data = [xs, ...(share ? shares(counts) : counts)] as uPlot.AlignedData;
    if (this.reuse(`${this.scale}|${labels.join('|')}`, data)) return;
    if (labels.length === 0) {
      this.el.append(Object.assign(document.createElement('p'), { className: 'hint', textContent: this.emptyText }));
      this.plot = null;
      return;
    }
    const n = this.names.length;
    const countTitle = this.naming.yTitle ?? 'calls';
    const yTitle = share || this.scalable ? scaleTitle(this.scale, countTitle) : countTitle;
    const maxChars = Math.max(...labels.map((l) => l.length));
    // not hovered: each series' calls over all buckets ("all buckets" in the bucket column)
    const series: uPlot.Series[] = [{ label: 'bucket', value: (_u, v, _s, idx) => (idx == null ? 'all buckets' : v == null ? '' : bucketHover(labels[v], this.bucketUnit)) }];
    this.names.forEach((name, i) => {
      const color = this.colors.color(name);
      series.push({
        label: this.naming.display?.[name] ?? name,
        stroke: color,
        fill: color + (n > 1 ? '99' : 'cc'),
        value: (u, v, sidx, idx) => {
          if (share) {
            // hovered: the bucket's share and its calls; not hovered: the series' calls over all buckets
            const raw = this.rawCounts[sidx - 1] ?? [];
            const total = raw.reduce((a, x) => a + x, 0);
            if (idx == null) return `${total.toLocaleString('en-US')} ${countTitle}`;
            return v == null ? '' : `${v.toFixed(1)} % (${(raw[idx] ?? 0).toLocaleString('en-US')})`;
          }
          const shown = idx == null ? totalValue(u.data[sidx] as (number | null)[]) : v;
          return shown == null ? '' : Math.round(shown).toLocaleString('en-US');
        },
        width: 1,
        paths: groupedBars(i, n),
        points: { show: false },
      });
    });
    this.plot = new uPlot(
      {
        width: width(this.el),
        height: this.height,
        scales: { x: { time: false, range: [-0.5, Math.max(0.5, labels.length - 0.5)] }, y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.05)] } },
        axes: [
          {
            label: fittedLabel(this.el, this.xTitle),
            // only every step-th bucket is labelled when the labels would overlap (a narrow panel, many buckets)
            values: (u, splits) => {
              const step = labelStep(maxChars, labels.length, u.bbox.width / (window.devicePixelRatio || 1));
              return splits.map((v) => (Number.isInteger(v) && v % step === 0 ? labels[v] ?? '' : ''));
            },
            splits: () => xs, gap: 4, size: 40,
          },
          { label: fittedLabel(this.el, yTitle), size: fitTicks(60), incrs: share ? undefined : COUNT_INCRS, values: (_u, splits) => drawnTicks(this.el, share ? tickLabels(splits).map((t) => (t === '0' ? t : `${t} %`)) : tickLabels(splits)) },
        ],
        series,
        legend: { show: true, live: true },
        cursor: { drag: { x: false, y: false } },
      },
      data,
      this.el,
    );  this.el.dataset.colors = JSON.stringify(Object.fromEntries(this.names.map((name) => [name, this.colors.color(name)])));
    this.el.dataset.axes = JSON.stringify([this.xTitle, yTitle]);
    this.el.dataset.scale = this.scale;
    this.el.dataset.legend = JSON.stringify(series.slice(1).map((x) => x.label));
  }
}

/** A bucket's label with its bounds as durations on hover: "[2K, 4K) ns = 2.05 µs – 4.1 µs" (µs buckets: × 1000). */
export function bucketHover(label: string | undefined, unit: 'ns' | 'µs' = 'ns'): string {
  if (!label) return '';
  const m = /^\[(\w+), (\w+)\)$/.exec(label);
  if (!m) return `${label} ${unit}`;
  const v = (t: string) => Number(t.replace(/[KMGTPE]$/, '')) * 1024 ** (' KMGTPE'.indexOf(t.slice(-1)) > 0 ? ' KMGTPE'.indexOf(t.slice(-1)) : 0);
  const ns = unit === 'ns' ? 1 : 1e3;
  return `${label} ${unit} = ${formatDuration(v(m[1]) * ns)} – ${formatDuration(v(m[2]) * ns)}`;
}

/**
 * Bars of series i of n side by side in each x slot (slot width 0.8 of the category), so that any number of
 * histograms (an experiment's arms) stay readable: series i takes the i-th n-th of the slot.
 */
export function groupedBars(i: number, n: number, slot = 0.8): uPlot.Series.PathBuilder {
  return (u, seriesIdx, idx0, idx1) => {
    const path = new Path2D();
    const xs = u.data[0];
    const ys = u.data[seriesIdx];
    const w = slot / n;
    const base = u.valToPos(0, 'y', true);
    for (let k = idx0; k <= idx1; k++) {
      const y = ys[k];
      if (y == null || y === 0) continue; // an empty bucket draws nothing (not a hairline)
      const left = u.valToPos(xs[k] - slot / 2 + i * w, 'x', true);
      const right = u.valToPos(xs[k] - slot / 2 + (i + 1) * w, 'x', true);
      const top = u.valToPos(y, 'y', true);
      path.rect(left, top, Math.max(1, right - left - 1), base - top);
    }
    return { stroke: path, fill: path };
  };
}

/**
 * One metric of an experiment: every run of every arm as a point (the arms at x = 0, 1, …, runs spread within
 * ±0.25 in run order) over each arm's box (quartiles, median line, whiskers at min and max, mean as a diamond).
 */
export class StripChart extends ReusablePlot {
  constructor(el: HTMLElement, private readonly height = 220, private readonly yTitle = '',
              private readonly colors: ColorRegistry = armColors,
              /** the y axis's ticks and the legend's text of a value (a run's, or `mean` for an arm's mean), in one
               *  unit: an experiment's metricFormat (the results table's format), or a unit's own */
              private readonly format: ChartFormat = chartFormat('count')) {
    super(el);
  }

  update(arms: string[], values: (number | null)[][]): void {
    const { xs, series } = stripData(values);
    const data = [xs, ...series] as uPlot.AlignedData;
    if (this.reuse(arms.join('\u0000') + '|' + xs.length, data)) return;
    const boxes = values.map(box);
    const color = (i: number) => this.colors.color(arms[i]);
    const fmt = this.format;
    this.plot = new uPlot(
      {
        width: width(this.el),
        height: this.height,
        scales: {
          x: { time: false, range: [-0.6, arms.length - 0.4] },
          y: {
            range: (_u, min, max) => {
              const pad = (max - min) * 0.1 || Math.abs(max) * 0.05 || 1;
              return [min - pad, max + pad];
            },
          },
        },
        axes: [
          { label: 'arm', values: (_u, splits) => splits.map((v) => (Number.isInteger(v) ? arms[v] ?? '' : '')), splits: () => arms.map((_, i) => i), size: 36 },
          { label: fittedLabel(this.el, this.yTitle), size: fitTicks(70), values: (_u, splits) => drawnTicks(this.el, fmt.ticks(splits)) },
        ],
        series: [
          // not hovered: each arm's mean (the diamond)
          { label: 'arm', value: (_u, v, _s, idx) => (idx == null ? 'mean' : v == null ? '' : arms[Math.round(v)] ?? '') },
          ...arms.map((name, i) => ({
            label: name,
            stroke: color(i),
            width: 0,
            paths: () => null,
            points: { show: true, size: 7, width: 1, fill: color(i) + 'cc' },
            value: (_u: uPlot, v: number | null, _s: number, idx: number | null) => {
              const x = idx == null ? boxes[i]?.mean ?? null : v;
              return x == null ? '' : fmt.value(x, idx == null);
            },
          })),
        ],
        // the run under the cursor: its arm's value in the legend below (runs sit at their own x, so one shows)
        legend: { show: true, live: true },
        cursor: { drag: { x: false, y: false } },
        hooks: {
          drawClear: [
            (u: uPlot) => {
              const ctx = u.ctx;
              boxes.forEach((b, i) => {
                if (!b) return;
                const x0 = u.valToPos(i - 0.35, 'x', true);
                const x1 = u.valToPos(i + 0.35, 'x', true);
                const xm = u.valToPos(i, 'x', true);
                const y = (v: number) => u.valToPos(v, 'y', true);
                ctx.save();
                ctx.strokeStyle = color(i);
                ctx.fillStyle = color(i) + '22';
                ctx.lineWidth = 1;
                ctx.fillRect(x0, y(b.q3), x1 - x0, y(b.q1) - y(b.q3));
                ctx.strokeRect(x0, y(b.q3), x1 - x0, y(b.q1) - y(b.q3));
                ctx.beginPath();
                ctx.moveTo(xm, y(b.max)); ctx.lineTo(xm, y(b.q3));
                ctx.moveTo(xm, y(b.q1)); ctx.lineTo(xm, y(b.min));
                ctx.moveTo(x0 + (x1 - x0) / 4, y(b.max)); ctx.lineTo(x1 - (x1 - x0) / 4, y(b.max));
                ctx.moveTo(x0 + (x1 - x0) / 4, y(b.min)); ctx.lineTo(x1 - (x1 - x0) / 4, y(b.min));
                ctx.stroke();
                ctx.lineWidth = 2;
                ctx.beginPath();
                ctx.moveTo(x0, y(b.median)); ctx.lineTo(x1, y(b.median));
                ctx.stroke();
                const ym = y(b.mean);
                ctx.beginPath();
                ctx.moveTo(xm, ym - 5); ctx.lineTo(xm + 5, ym); ctx.lineTo(xm, ym + 5); ctx.lineTo(xm - 5, ym); ctx.closePath();
                ctx.stroke();
                ctx.restore();
              });
            },
          ],
        },
      },
      data,
      this.el,
    );
    this.el.dataset.colors = JSON.stringify(Object.fromEntries(arms.map((name, a) => [name, color(a)])));
    this.el.dataset.axes = JSON.stringify(['arm', this.yTitle]);
  }
}

export interface Line {
  label: string;
  values: (number | null)[];
}

/** An x and a y range. */
export interface Ranges {
  x: [number, number];
  y: [number, number];
}

/**
 * The ranges that show every chart's data on one scale: x from 0 to the longest time, y from 0 to the largest value
 * (5 % headroom; at least 1 so that an all-zero chart still has an axis).
 */
export function sharedScales(xs: number[][], lines: Line[][]): Ranges {
  let xMax = 0;
  for (const x of xs) for (const v of x) if (v > xMax) xMax = v;
  let yMax = 0;
  let yMin = 0;
  for (const ls of lines) for (const l of ls) for (const v of l.values) {
    if (v != null && Number.isFinite(v)) {
      if (v > yMax) yMax = v;
      if (v < yMin) yMin = v;
    }
  }
  return { x: [0, xMax > 0 ? xMax : 1], y: [yMin, yMax > 0 ? yMax * 1.05 : 1] };
}

/**
 * The y axis's labels as drawn, also kept on the chart element (`data-yticks`): uPlot draws ticks on its canvas, and a
 * reader of the page (the browser tests) checks them against the tables' formats.
 */
function drawnTicks(el: HTMLElement, ticks: string[]): string[] {
  el.dataset.yticks = JSON.stringify(ticks);
  return ticks;
}

/**
 * A line chart's y range: from 0 (every line chart shows counts, CPU time or a share of a CPU, none below zero), so
 * that 1 % of noise on a task held at 10 % of a CPU does not fill the plot as a swing from 10.0 to 11.0 %; 5 %
 * headroom above the largest value, at least 1 for an all-zero chart.
 */
export function zeroBasedRange(min: number | null, max: number | null): [number, number] {
  const lo = min != null && Number.isFinite(min) ? Math.min(0, min) : 0;
  const hi = max != null && Number.isFinite(max) && max > 0 ? max * 1.05 : 1;
  return [lo, hi];
}

/**
 * A time axis's range: from the run's start, t = 0 s, to the latest sample (at least 1 s for a chart of one point at
 * 0), never from the first sample (E5a's axis ran 1 s – 5 s while its CPU timeline started at 0).
 */
export function timeRange(max: number | null): [number, number] {
  return [0, max != null && Number.isFinite(max) && max > 0 ? max : 1];
}

/** Where a line chart's lines start, `{"x": 0, "lines": {"/a": 0}}`, for a reader of the page (the first point drawn). */
function startOf(xs: number[], lines: Line[]): string {
  return JSON.stringify({ x: xs[0] ?? null, lines: Object.fromEntries(lines.map((l) => [l.label, l.values[0] ?? null])) });
}

/** A plot's x and y ranges as drawn, `{"x": [min, max], "y": [min, max]}` (null before uPlot has set a scale). */
function rangesOf(u: uPlot): string {
  const r = (k: string) => (u.scales[k]?.min != null ? [u.scales[k].min, u.scales[k].max] : null);
  return JSON.stringify({ x: r('x'), y: r('y') });
}

/**
 * Time series over simulated time, one colour per line name from the page's registry, values at the cursor in
 * the legend, a filter field above; redraws in place when the set of lines is unchanged.
 */
export class LineChart extends ReusablePlot {
  private readonly filter: SeriesFilter;
  /** Fixed x and y ranges shared with another chart (the compare page's A and B), or null: each fits its data. */
  private fixed: Ranges | null = null;

  /** Draws on these ranges from the next update on (two charts meant to be compared get the same); null: fit the data. */
  setScales(ranges: Ranges | null): void {
    this.fixed = ranges;
  }

  constructor(el: HTMLElement, private readonly yTitle: string, private readonly unit: Unit = 'count',
              private readonly height = 220, private readonly colors: ColorRegistry = pageColors) {
    super(el);
    this.filter = new SeriesFilter(el, () => this.applyFilter());
  }

  private applyFilter(): void {
    const u = this.plot;
    if (!u) return;
    u.batch(() => u.series.forEach((s, i) => {
      if (i > 0) {
        const show = this.filter.matches(String(s.label ?? ''));
        if (s.show !== show) u.setSeries(i, { show });
      }
    }));
  }

  update(xsSeconds: number[], lines: Line[]): void {
    const data = [xsSeconds, ...lines.map((l) => l.values)] as uPlot.AlignedData;
    if (this.reuse(lines.map((l) => l.label).join('\u0000') + JSON.stringify(this.fixed), data)) {
      this.el.dataset.start = startOf(xsSeconds, lines);
      return;
    }
    if (lines.length === 0 || xsSeconds.length === 0) {
      this.plot = null;
      this.el.append(Object.assign(document.createElement('p'), { className: 'hint', textContent: 'no samples yet' }));
      return;
    }
    const fmt = unitFormat(this.unit);
    const colorOf = distinctColors(this.colors, lines.map((l) => l.label));
    this.plot = new uPlot(
      {
        width: width(this.el),
        height: this.height,
        scales: this.fixed
          ? { x: { time: false, range: this.fixed.x }, y: { range: this.fixed.y } }
          : { x: { time: false, range: (_u, _min, max) => timeRange(max) }, y: { range: (_u, min, max) => zeroBasedRange(min, max) } },
        axes: [
          { label: fittedLabel(this.el, 'simulated time'), size: 40, values: (_u, splits) => durationTicks(splits.map((v) => v * 1e9)) },
          { label: fittedLabel(this.el, this.yTitle), size: fitTicks(70), incrs: this.unit === 'count' ? COUNT_INCRS : undefined, values: (_u, splits) => drawnTicks(this.el, fmt.ticks(splits)) },
        ],
        series: [
          // not hovered: the latest sample ("at" the last time, each line's last value)
          { label: 'at', value: (u, v, _s, idx) => {
            const t = idx == null ? latestValue(u.data[0] as number[]) : v;
            return t == null ? '' : `${formatDuration(t * 1e9)}${idx == null ? ' (latest)' : ''}`;
          } },
          ...lines.map((l) => ({
            label: l.label,
            stroke: colorOf.get(l.label)!,
            width: 1.5,
            points: { show: false },
            value: (u: uPlot, v: number | null, sidx: number, idx: number | null) =>
              fmt.value(idx == null ? latestValue(u.data[sidx] as (number | null)[]) : v),
          })),
        ],
        legend: { live: true },
        // the ranges drawn, for a reader of the page (uPlot sets auto-ranged scales after construction, not in it)
        hooks: { setScale: [(u) => { this.el.dataset.ranges = rangesOf(u); }] },
      },
      data,
      this.el,
    );
    this.el.dataset.colors = JSON.stringify(Object.fromEntries(lines.map((l) => [l.label, colorOf.get(l.label)!])));
    this.el.dataset.axes = JSON.stringify(['simulated time', this.yTitle]);
    this.el.dataset.ranges = rangesOf(this.plot);
    this.el.dataset.start = startOf(xsSeconds, lines);
    this.applyFilter();
  }
}
