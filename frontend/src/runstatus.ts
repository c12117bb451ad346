// The run page's status badge, progress bar and progress text: one source of truth. The page hears of a run's
// status from several sources that do not arrive in order — the server-rendered page, the first GET, the events
// stream's `progress` and `done`/`failed`, the polling fallback, the final GET — and used to let each write the
// badge or the bar on its own ("queued" beside a full bar). Every report now goes through mergeStatus, and one
// view writes badge, bar and text together from the merged facts.
import { fmtSeconds } from './api';
import { formatDurationNs } from './format';

export type RunStatusWord = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/** What the page shows of a run's status. */
export interface StatusFacts {
  status: RunStatusWord;
  /** 0..100 %, over all repeats */
  progress: number;
  simulatedNs: number;
  durationNs: number;
  etaMs: number | null;
}

const RANK: Record<RunStatusWord, number> = { queued: 0, running: 1, done: 2, failed: 2, cancelled: 2 };

export function isFinished(status: string): boolean {
  return status === 'done' || status === 'failed' || status === 'cancelled';
}

/**
 * The facts to show, given those shown (`held`, or null) and a report from any source (`next`):
 * - a run's status only moves forward (queued → running → an end): a report of an earlier status is older news
 *   from a slower source and changes nothing; an end is final;
 * - progress belongs to its status: a queued run has none, a done run all of it, and an ETA only while running.
 * (A run re-queued because its instance stopped shows "running" until it runs again; its progress then restarts.)
 */
export function mergeStatus(held: StatusFacts | null, next: StatusFacts): StatusFacts {
  if (!(next.status in RANK)) return held ?? next;
  if (held && (isFinished(held.status) || RANK[next.status] < RANK[held.status])) return held;
  const clamped = Math.min(100, Math.max(0, Number.isFinite(next.progress) ? next.progress : 0));
  const progress = next.status === 'queued' ? 0 : next.status === 'done' ? 100 : clamped;
  const durationNs = next.durationNs > 0 ? next.durationNs : held?.durationNs ?? 0;
  const simulatedNs = next.status === 'queued' ? 0 : next.status === 'done' && durationNs > 0 ? durationNs : next.simulatedNs;
  return { status: next.status, progress, simulatedNs, durationNs, etaMs: next.status === 'running' ? next.etaMs : null };
}

/**
 * The word the badge shows: the status, but `storing` for a run whose simulation has reached its end while the
 * server still writes the result (status `running` at 100 %: a 300 s, 16-CPU run spends seconds building and storing
 * its result after its last simulated event; the badge said "running" beside a full bar until `done`).
 */
export function shownStatus(f: Pick<StatusFacts, 'status' | 'progress'>): string {
  return f.status === 'running' && f.progress >= 100 ? 'storing' : f.status;
}

/** The badge, bar and text of a status line, written only from merged facts. */
export class StatusView {
  private facts: StatusFacts | null = null;

  constructor(
    private readonly badge: HTMLElement,
    private readonly bar: HTMLProgressElement,
    private readonly text: HTMLElement,
    private readonly onChange: (f: StatusFacts) => void = () => {},
  ) {}

  /** The facts shown, or null before the first report. */
  get current(): StatusFacts | null {
    return this.facts;
  }

  /** Takes a report from any source; returns the facts now shown. */
  report(next: StatusFacts): StatusFacts {
    const merged = mergeStatus(this.facts, next);
    if (merged === this.facts) return merged;
    this.facts = merged;
    const word = shownStatus(merged);
    this.badge.textContent = word;
    this.badge.dataset.status = merged.status;
    this.badge.dataset.shown = word;
    this.badge.className = `badge ${word}`;
    this.badge.title = word === 'storing' ? 'the simulation has ended; the service is writing its result (done next)' : '';
    this.bar.value = merged.progress;
    this.bar.dataset.progress = String(merged.progress);
    const eta = merged.etaMs != null ? ` · ETA ${formatDurationNs(merged.etaMs * 1e6, 1e6)}` : '';
    const storing = word === 'storing' ? ' · simulation done, storing the result' : '';
    this.text.textContent = `${merged.progress.toFixed(1)} % · ${fmtSeconds(merged.simulatedNs)} of ${fmtSeconds(merged.durationNs)}${storing || eta}`;
    this.onChange(merged);
    return merged;
  }
}

/**
 * A finished run's status and its reason in one phrase, each said once: the stored reason of a cancel already
 * names it ("cancelled by request", "cancelled while queued"), so the word is not put before it again; any other
 * reason follows the word ("failed: max events exceeded (…)"). No reason: the word alone.
 */
export function outcome(status: string, error: string | null | undefined): string {
  const why = (error ?? '').trim();
  if (!why) return status;
  if (why.toLowerCase().startsWith(status.toLowerCase())) return why;
  return `${status}: ${why}`;
}

/** The reason without a leading repeat of the status word: "by request" of a cancelled run's "cancelled by request". */
export function reasonAfter(status: string, error: string | null | undefined): string {
  const why = (error ?? '').trim();
  return why.toLowerCase().startsWith(status.toLowerCase()) ? why.slice(status.length).replace(/^[\s:,;-]+/, '') : why;
}

/** What a run's page says of attempts that died with their instance (crash recovery re-queued it), or ''. */
export function interruptionNote(r: { interruptions?: number | null; attempts?: number | null; interruptedWorker?: string | null;
  interruptedAt?: string | null; status: string }): string {
  const n = r.interruptions ?? 0;
  if (n <= 0) return '';
  const where = r.interruptedWorker ? ` (last on ${r.interruptedWorker}${r.interruptedAt ? `, ${r.interruptedAt.replace('T', ' ').replace(/\.\d+Z?$|Z$/, '')} UTC` : ''})` : '';
  const lost = `${n === 1 ? 'an earlier attempt' : `${n} earlier attempts`} stopped with ${n === 1 ? 'its' : 'their'} instance${where}`;
  if (r.status === 'failed' || r.status === 'cancelled') return ''; // its reason says how it ended
  if (r.status === 'done') return `${lost}; attempt ${r.attempts ?? n + 1} ran it from the start`;
  return `${lost}; it runs again from the start`;
}
