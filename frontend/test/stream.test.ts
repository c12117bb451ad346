import { describe, expect, it } from 'vitest';
import { applyEvent, emptyState, mergeSamples, RunStream, type Clock, type EventSourceLike, type RunState } from '../src/stream';

/** Stands in for the browser's EventSource: the test emits named events and errors by hand. */
class FakeEventSource implements EventSourceLike {
  static instances: FakeEventSource[] = [];
  readyState = 0;
  onerror: ((ev: Event) => unknown) | null = null;
  onopen: ((ev: Event) => unknown) | null = null;
  closed = false;
  private listeners = new Map<string, ((ev: MessageEvent) => void)[]>();
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this);
  }
  addEventListener(type: string, l: (ev: MessageEvent) => void): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), l]);
  }
  close(): void {
    this.closed = true;
    this.readyState = 2;
  }
  emit(type: string, data: unknown): void {
    this.readyState = 1;
    const ev = { data: typeof data === 'string' ? data : JSON.stringify(data) } as MessageEvent;
    for (const l of this.listeners.get(type) ?? []) l(ev);
  }
  fail(readyState: number): void {
    this.readyState = readyState;
    this.onerror?.({} as Event);
  }
}

/** A clock the test advances by hand. */
class FakeClock implements Clock {
  t = 0;
  private timers: { at: number; fn: () => void; id: number }[] = [];
  private next = 1;
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.timers.push({ at: this.t + ms, fn, id });
    return id;
  }
  clearTimeout(h: unknown): void {
    this.timers = this.timers.filter((x) => x.id !== h);
  }
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at);
      const due = this.timers[0];
      if (!due || due.at > end) break;
      this.timers.shift();
      this.t = due.at;
      due.fn();
    }
    this.t = end;
  }
}

const stat = (n: number) => ({
  usage_usec: n, user_usec: n, system_usec: 0, nr_periods: n, nr_throttled: n,
  throttled_usec: n, nr_bursts: 0, burst_usec: 0,
});
const sample = (atNs: number) => ({
  at_ns: atNs,
  cgroups: { '/a': { 'cpu.stat': stat(atNs / 1e9), 'cpu.stat.local': { throttled_usec: 1 } } },
  tasks: { nop: { cpu_percent: 10.0 } },
});
const progress = (p: number, status = 'running') => ({
  run_id: 'r1', status, progress: p, simulated_ns: p * 1e7, duration_ns: 1e9, events: p * 100, wall_ms: p, eta_ms: 100 - p,
});
const histogram = (count: number) => ({
  name: 'distribute_cfs_runtime_ns', count, sum: count * 9000,
  buckets: [{ low: 8192, high: 16384, count }],
});

function setup(minIntervalMs = 200) {
  FakeEventSource.instances = [];
  const clock = new FakeClock();
  const updates: RunState[] = [];
  const ends: RunState[] = [];
  let unavailable = 0;
  const stream = new RunStream('/api/runs/r1/events', {
    open: (u) => new FakeEventSource(u),
    clock,
    minIntervalMs,
    retryDelayMs: 1000,
    maxRetries: 2,
    onUpdate: (s) => updates.push(structuredClone(s)),
    onEnd: (s) => ends.push(s),
    onUnavailable: () => unavailable++,
  }).start();
  const es = () => FakeEventSource.instances[FakeEventSource.instances.length - 1];
  return { clock, updates, ends, stream, es, unavailable: () => unavailable };
}

describe('applyEvent', () => {
  it('parses every event type into the state', () => {
    const s = emptyState();
    applyEvent(s, 'progress', progress(40));
    applyEvent(s, 'histogram', histogram(3));
    applyEvent(s, 'cpustat', { samples: [sample(1e9), sample(2e9)] });
    applyEvent(s, 'distribute', {
      recent: [{ at_ns: 5, cpu: 1, cgroup: '/a', duration_ns: 9000, rqs: 2, remote_rqs: 1, cfs_rqs: 2, tasks: 1, slack: false }],
      slowest: [],
    });
    applyEvent(s, 'cpus', { interval_ns: 1000, from: 0, cpus: ['01', '23'] });
    applyEvent(s, 'cgroups', { at_ns: 10, cgroups: { '/a': { 'cpu.stat': stat(7) } } });
    expect(s.progress?.progress).toBe(40);
    expect(s.histograms.distribute_cfs_runtime_ns.buckets[0]).toEqual({ low: 8192, high: 16384, count: 3 });
    expect(s.histogramUpdates).toBe(1);
    expect(s.samples.map((x) => x.at_ns)).toEqual([1e9, 2e9]);
    expect(s.recent[0].rqs).toBe(2);
    expect(s.cpuTimeline).toEqual({ intervalNs: 1000, cpus: ['01', '23'] });
    expect(s.cgroups['/a']['cpu.stat'].usage_usec).toBe(7);
    expect(s.events).toBe(6);
  });

  it('appends CPU timeline columns in order, and a replay from column 0 replaces them', () => {
    const s = emptyState();
    applyEvent(s, 'cpus', { interval_ns: 5, from: 0, cpus: ['01', '10'] });
    applyEvent(s, 'cpus', { interval_ns: 5, from: 2, cpus: ['3', '2'] });
    expect(s.cpuTimeline).toEqual({ intervalNs: 5, cpus: ['013', '102'] });
    applyEvent(s, 'cpus', { interval_ns: 5, from: 1, cpus: ['00', '00'] });
    expect(s.cpuTimeline?.cpus).toEqual(['000', '100']);
    applyEvent(s, 'cpus', { interval_ns: 5, from: 0, cpus: ['1', '1'] });
    expect(s.cpuTimeline?.cpus).toEqual(['1', '1']);
  });

  it('replaces a histogram with the full current buckets of each event', () => {
    const s = emptyState();
    applyEvent(s, 'histogram', histogram(3));
    applyEvent(s, 'histogram', histogram(8));
    expect(s.histograms.distribute_cfs_runtime_ns.count).toBe(8);
    expect(s.histograms.distribute_cfs_runtime_ns.buckets).toHaveLength(1);
    expect(s.histogramUpdates).toBe(2);
  });

  it('marks the terminal status', () => {
    const s = emptyState();
    applyEvent(s, 'progress', progress(50));
    applyEvent(s, 'failed', { run_id: 'r1', status: 'cancelled', error: 'cancelled by request' });
    expect(s.terminal?.status).toBe('cancelled');
    expect(s.progress?.status).toBe('cancelled');
  });

  it('ignores unknown event types and non-object data', () => {
    const s = emptyState();
    expect(applyEvent(s, 'future-thing', { x: 1 })).toBe(true);
    expect(applyEvent(s, 'progress', null)).toBe(false);
    expect(s.events).toBe(0);
  });
});

describe('mergeSamples', () => {
  it('appends only the samples newer than those held (a reconnect replays all so far)', () => {
    let held = mergeSamples([], [sample(1e9), sample(2e9)]);
    held = mergeSamples(held, [sample(3e9)]);
    held = mergeSamples(held, [sample(1e9), sample(2e9), sample(3e9), sample(4e9)]);
    expect(held.map((x) => x.at_ns)).toEqual([1e9, 2e9, 3e9, 4e9]);
  });
});

describe('RunStream', () => {
  it('connects to the events URL and renders the first event at once', () => {
    const t = setup();
    expect(t.es().url).toBe('/api/runs/r1/events');
    t.es().emit('progress', progress(1));
    expect(t.updates).toHaveLength(1);
    expect(t.updates[0].progress?.progress).toBe(1);
  });

  it('renders at a bounded rate however fast events come, the latest state winning', () => {
    const t = setup(200);
    for (let i = 1; i <= 100; i++) {
      t.es().emit('progress', progress(i % 100));
      t.es().emit('histogram', histogram(i));
      t.clock.advance(5); // 200 events per second
    }
    // 500 ms of events: one immediate render, then at most one per 200 ms
    expect(t.updates.length).toBeLessThanOrEqual(4);
    t.clock.advance(200);
    const last = t.updates[t.updates.length - 1];
    expect(last.histograms.distribute_cfs_runtime_ns.count).toBe(100);
    expect(last.histogramUpdates).toBe(100);
  });

  it('closes on done and renders the final state once more', () => {
    const t = setup(200);
    t.es().emit('progress', progress(10));
    t.es().emit('histogram', histogram(2)); // within the interval: deferred
    t.es().emit('done', { run_id: 'r1', status: 'done' });
    expect(t.es().closed).toBe(true);
    expect(t.stream.isClosed).toBe(true);
    expect(t.ends).toHaveLength(1);
    expect(t.updates[t.updates.length - 1].histogramUpdates).toBe(1);
    expect(t.updates[t.updates.length - 1].terminal?.status).toBe('done');
    const n = t.updates.length;
    t.clock.advance(1000);
    t.es().emit('progress', progress(20)); // nothing after the end
    expect(t.updates).toHaveLength(n);
  });

  it('closes on failed (a cancelled run) and does not reconnect', () => {
    const t = setup();
    t.es().emit('progress', progress(10));
    t.es().emit('failed', { run_id: 'r1', status: 'cancelled', error: 'cancelled' });
    t.es().fail(2);
    t.clock.advance(10_000);
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(t.ends[0].terminal).toEqual({ run_id: 'r1', status: 'cancelled', error: 'cancelled' });
  });

  it("leaves a transient error to the browser's own reconnect", () => {
    const t = setup();
    t.es().emit('progress', progress(10));
    t.es().fail(0); // CONNECTING: EventSource retries by itself
    t.clock.advance(10_000);
    expect(FakeEventSource.instances).toHaveLength(1);
    expect(t.stream.isClosed).toBe(false);
  });

  it('reconnects when the server ends the stream without a terminal event, and merges the replay', () => {
    const t = setup();
    const first = t.es();
    first.emit('cpustat', { samples: [sample(1e9), sample(2e9)] });
    first.fail(2);
    expect(FakeEventSource.instances).toHaveLength(1);
    t.clock.advance(1000);
    expect(FakeEventSource.instances).toHaveLength(2);
    t.es().emit('cpustat', { samples: [sample(1e9), sample(2e9), sample(3e9)] });
    t.clock.advance(1000);
    expect(t.stream.state.samples.map((s) => s.at_ns)).toEqual([1e9, 2e9, 3e9]);
  });

  it('gives up after maxRetries failed reconnects and asks for polling', () => {
    const t = setup();
    t.es().emit('progress', progress(1));
    t.es().fail(2);
    t.clock.advance(1000);
    t.es().fail(2);
    t.clock.advance(2000);
    t.es().fail(2);
    expect(t.unavailable()).toBe(1);
    expect(t.stream.isClosed).toBe(true);
  });

  it('asks for polling at once when the endpoint refuses the first connection (404)', () => {
    const t = setup();
    t.es().fail(2);
    expect(t.unavailable()).toBe(1);
    expect(FakeEventSource.instances).toHaveLength(1);
  });

  it('skips a malformed event and goes on', () => {
    const t = setup();
    t.es().emit('progress', '{not json');
    t.es().emit('progress', progress(3));
    expect(t.stream.state.progress?.progress).toBe(3);
  });
});
