// Client of GET /api/runs/{id}/events (Server-Sent Events): parses each event type into one RunState,
// merges cpustat samples, throttles re-rendering to a bounded rate, reconnects after a dropped connection
// and closes on the terminal `done` / `failed` event. Falls back (onUnavailable) when the endpoint is
// missing, so the page can poll instead.
import type { Histogram } from './hist';

export type RunStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export interface Progress {
  run_id: string;
  status: RunStatus;
  progress: number;
  simulated_ns: number;
  duration_ns: number;
  events: number;
  wall_ms: number;
  eta_ms: number | null;
}

export interface CpuStat {
  usage_usec: number;
  user_usec: number;
  system_usec: number;
  nr_periods: number;
  nr_throttled: number;
  throttled_usec: number;
  nr_bursts: number;
  burst_usec: number;
}

export interface CgroupStats {
  'cpu.stat': CpuStat;
  'cpu.stat.local'?: { throttled_usec: number };
}

export interface Sample {
  at_ns: number;
  cgroups: Record<string, CgroupStats>;
  tasks: Record<string, { cpu_percent: number }>;
}

export interface DistributeCall {
  at_ns: number;
  cpu: number;
  cgroup: string;
  duration_ns: number;
  rqs: number;
  remote_rqs: number;
  cfs_rqs: number;
  tasks: number;
  slack?: boolean | number;
}

/**
 * The CPU timeline so far (the result's `cpu_timeline`): per CPU one character per column, '0' idle, '1' running,
 * '2' running in a throttled hierarchy, '3' idle with throttled work; column k covers [k, k + 1) × intervalNs.
 */
export interface CpuTimeline {
  intervalNs: number;
  cpus: string[];
}

export interface Terminal {
  run_id: string;
  status: RunStatus;
  error?: string | null;
}

/** Everything the run page draws, as the stream (or the final result) fills it in. */
export interface RunState {
  progress: Progress | null;
  histograms: Record<string, Histogram>;
  /** number of `histogram` events received */
  histogramUpdates: number;
  samples: Sample[];
  recent: DistributeCall[];
  slowest: DistributeCall[];
  cpuTimeline: CpuTimeline | null;
  cgroups: Record<string, CgroupStats>;
  cgroupsAtNs: number;
  terminal: Terminal | null;
  /** events received, all types */
  events: number;
}

export const EVENT_TYPES = ['progress', 'histogram', 'cpustat', 'distribute', 'cpus', 'cgroups', 'done', 'failed'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Most cpu.stat samples kept. */
export const MAX_SAMPLES = 20000;

export function emptyState(): RunState {
  return {
    progress: null,
    histograms: {},
    histogramUpdates: 0,
    samples: [],
    recent: [],
    slowest: [],
    cpuTimeline: null,
    cgroups: {},
    cgroupsAtNs: 0,
    terminal: null,
    events: 0,
  };
}

/**
 * Appends the samples newer than the last one held. A reconnecting client gets every sample so far again
 * in its first cpustat event; those already held are skipped, so the series never has duplicates.
 */
export function mergeSamples(held: Sample[], incoming: Sample[]): Sample[] {
  const lastAt = held.length ? held[held.length - 1].at_ns : -1;
  const fresh = incoming.filter((s) => s.at_ns > lastAt).sort((a, b) => a.at_ns - b.at_ns);
  const out = fresh.length ? held.concat(fresh) : held;
  return out.length > MAX_SAMPLES ? out.slice(out.length - MAX_SAMPLES) : out;
}

/** Applies one event to the state (mutates it). Unknown types are ignored. Returns false for bad data. */
export function applyEvent(state: RunState, type: string, data: unknown): boolean {
  if (data === null || typeof data !== 'object') return false;
  const d = data as Record<string, unknown>;
  switch (type) {
    case 'progress':
      state.progress = d as unknown as Progress;
      break;
    case 'histogram': {
      const name = String(d.name ?? 'distribute_cfs_runtime_ns');
      state.histograms = {
        ...state.histograms,
        [name]: { count: Number(d.count ?? 0), sum: Number(d.sum ?? 0), buckets: (d.buckets as Histogram['buckets']) ?? [] },
      };
      state.histogramUpdates++;
      break;
    }
    case 'cpustat':
      state.samples = mergeSamples(state.samples, (d.samples as Sample[]) ?? []);
      break;
    case 'distribute':
      state.recent = (d.recent as DistributeCall[]) ?? [];
      state.slowest = (d.slowest as DistributeCall[]) ?? [];
      break;
    case 'cpus': {
      // columns [from, from + n): appended; a reconnect's replay from 0 (or any overlap) replaces what it covers
      const from = Number(d.from ?? 0);
      const rows = (d.cpus as string[]) ?? [];
      const held = state.cpuTimeline;
      if (!held || from === 0 || held.cpus.length !== rows.length || from > held.cpus[0].length) {
        state.cpuTimeline = from === 0 ? { intervalNs: Number(d.interval_ns), cpus: rows } : held;
      } else {
        state.cpuTimeline = { intervalNs: held.intervalNs, cpus: held.cpus.map((r, c) => r.slice(0, from) + rows[c]) };
      }
      break;
    }
    case 'cgroups':
      state.cgroups = (d.cgroups as Record<string, CgroupStats>) ?? {};
      state.cgroupsAtNs = Number(d.at_ns ?? 0);
      break;
    case 'done':
    case 'failed':
      state.terminal = d as unknown as Terminal;
      if (state.progress) state.progress = { ...state.progress, status: state.terminal.status };
      break;
    default:
      return true;
  }
  state.events++;
  return true;
}

/** The part of EventSource the client uses (a fake one stands in for it in tests). */
export interface EventSourceLike {
  readonly readyState: number;
  onerror: ((ev: Event) => unknown) | null;
  onopen: ((ev: Event) => unknown) | null;
  addEventListener(type: string, listener: (ev: MessageEvent) => void): void;
  close(): void;
}

export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export interface StreamOptions {
  /** creates the EventSource; defaults to the browser's */
  open?: (url: string) => EventSourceLike;
  clock?: Clock;
  /** re-render at most once per this many ms (the latest state wins); default 200 */
  minIntervalMs?: number;
  /** reconnect attempts after the server closed the stream without a terminal event; default 5 */
  maxRetries?: number;
  retryDelayMs?: number;
  /** called with the latest state, at most once per minIntervalMs and once more at the end */
  onUpdate: (state: RunState) => void;
  /** the terminal event arrived; the stream is closed */
  onEnd?: (state: RunState) => void;
  /** the events endpoint answered nothing usable (missing, or it kept failing): poll instead */
  onUnavailable?: (state: RunState) => void;
}

const CLOSED = 2;

export class RunStream {
  readonly state: RunState = emptyState();
  private source: EventSourceLike | null = null;
  private readonly clock: Clock;
  private readonly minInterval: number;
  private lastRender = -Infinity;
  private pending: unknown = null;
  private retries = 0;
  private retryTimer: unknown = null;
  private closed = false;
  private receivedSinceOpen = 0;
  /** renders done (onUpdate calls) */
  renders = 0;

  constructor(private readonly url: string, private readonly opts: StreamOptions) {
    this.clock = opts.clock ?? realClock;
    this.minInterval = opts.minIntervalMs ?? 200;
  }

  start(): this {
    this.connect();
    return this;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  close(): void {
    this.closed = true;
    this.source?.close();
    this.source = null;
    if (this.pending !== null) this.clock.clearTimeout(this.pending);
    if (this.retryTimer !== null) this.clock.clearTimeout(this.retryTimer);
    this.pending = null;
    this.retryTimer = null;
  }

  private connect(): void {
    const open = this.opts.open ?? ((u: string) => new EventSource(u) as unknown as EventSourceLike);
    const es = open(this.url);
    this.source = es;
    this.receivedSinceOpen = 0;
    for (const type of EVENT_TYPES) {
      es.addEventListener(type, (ev: MessageEvent) => this.onMessage(type, ev));
    }
    es.onerror = () => this.onError(es);
  }

  private onMessage(type: EventType, ev: MessageEvent): void {
    if (this.closed) return;
    let data: unknown;
    try {
      data = JSON.parse(String(ev.data));
    } catch {
      return; // a malformed event is skipped, the stream goes on
    }
    if (!applyEvent(this.state, type, data)) return;
    this.receivedSinceOpen++;
    this.retries = 0;
    if (type === 'done' || type === 'failed') {
      this.close();
      this.flush();
      this.opts.onEnd?.(this.state);
      return;
    }
    this.scheduleRender();
  }

  private onError(es: EventSourceLike): void {
    if (this.closed || es !== this.source) return;
    if (es.readyState !== CLOSED) return; // the browser reconnects by itself (and gets the current state)
    // The server refused the stream (404, wrong content type) or ended it without a terminal event.
    es.close();
    this.source = null;
    const everReceived = this.state.events > 0;
    if (!everReceived || this.retries >= (this.opts.maxRetries ?? 5)) {
      this.close();
      this.opts.onUnavailable?.(this.state);
      return;
    }
    this.retries++;
    this.retryTimer = this.clock.setTimeout(() => {
      this.retryTimer = null;
      if (!this.closed) this.connect();
    }, (this.opts.retryDelayMs ?? 1000) * this.retries);
  }

  private scheduleRender(): void {
    if (this.pending !== null) return; // a render is due already; it will take the latest state
    const wait = this.lastRender + this.minInterval - this.clock.now();
    if (wait <= 0) {
      this.render();
    } else {
      this.pending = this.clock.setTimeout(() => {
        this.pending = null;
        this.render();
      }, wait);
    }
  }

  private flush(): void {
    this.render();
  }

  private render(): void {
    this.lastRender = this.clock.now();
    this.renders++;
    this.opts.onUpdate(this.state);
  }
}
