// Empty panels that say why (issue 12): a panel of the run page that has nothing to draw shows a sentence instead —
// what the scenario's `record` section kept out of the result (from the server, which parsed the scenario) or why a
// finished run left it empty. A run cancelled or failed keeps no result at all: that is said once, at the top, and
// the panels are not shown (newcomer walk 4: a reload showed the same sentence nine times, once per panel).
import { el, fmtSeconds } from './api';
import { outcome } from './runstatus';

/** The server's notes (run.html's data-panel-notes): panel host id → sentence. */
export interface PanelNotes {
  /** never filled for this scenario: shown at once */
  notRecorded: Record<string, string>;
  /** why the panel is empty if a finished run left it so */
  ifEmpty: Record<string, string>;
}

export function readPanelNotes(json: string | undefined): PanelNotes {
  try {
    const n = JSON.parse(json ?? '{}') as Partial<PanelNotes>;
    return { notRecorded: n.notRecorded ?? {}, ifEmpty: n.ifEmpty ?? {} };
  } catch {
    return { notRecorded: {}, ifEmpty: {} };
  }
}

/**
 * The one statement at the top of the page of a run that ended without a result (failed, or cancelled before it
 * started), the same whether the page watched it end or was opened afterwards: its outcome, said once (`cancelled
 * by request`, as every page says it: runstatus.ts), where it stopped, and that it has no result, so nothing is
 * drawn. A run cancelled while it ran keeps its result up to the cancel: {@link partialNote} says so instead.
 */
export function statusNote(status: string, error: string | null | undefined, simulatedNs: number, durationNs: number): string {
  const said = outcome(status, error);
  if (status === 'cancelled') {
    // a run cancelled while queued may not know its duration yet (0 until it starts): no "of 0 s"
    const where = durationNs > 0 ? ` at ${fmtSeconds(simulatedNs)} of ${fmtSeconds(durationNs)} simulated` : '';
    return `${said}${where}. A run cancelled before it ` +
      'started keeps no result, so this page draws nothing: run the scenario again to see it.';
  }
  return `${said}. A failed run keeps no result, so this page draws nothing.`;
}

/** What a stopped result says of itself (the contract's `partial`). */
export interface PartialMark {
  stopped_at_ns: number;
  duration_ns: number;
}

/**
 * Where a result's time axes end: its duration, or where a cancel stopped it (a partial result holds nothing after
 * that, so an axis to the full duration is blank past the stop). Every time axis of the run page uses it.
 */
export function resultEndNs(durationNs: number, partial: PartialMark | null | undefined): number {
  return partial ? partial.stopped_at_ns : durationNs;
}

/** The final cpu.stat table's heading: "at the end", or where a cancel stopped the run ("at 120 s (cancelled)"). */
export function finalStatHeading(partial: PartialMark | null | undefined): string {
  return partial ? `cpu.stat at ${fmtSeconds(partial.stopped_at_ns)} (cancelled)` : 'cpu.stat at the end';
}

/**
 * The one statement at the top of the page of a run cancelled while it ran, which keeps what it recorded: where it
 * stopped, that the result is partial and what the panels cover. `partial` is the shown result's (the first
 * repeat's); without it the cancel came in a later repeat, and the first repeat shown is whole.
 */
export function partialNote(status: string, error: string | null | undefined, partial: PartialMark | null | undefined,
  simulatedNs: number, durationNs: number): string {
  const said = outcome(status, error);
  if (!partial) {
    return `${said} at ${fmtSeconds(simulatedNs)} of ${fmtSeconds(durationNs)} simulated in a later repeat: ` +
      'the result shown, the first repeat\'s, is whole.';
  }
  const at = fmtSeconds(partial.stopped_at_ns);
  return `${said} at ${at} of ${fmtSeconds(partial.duration_ns)} simulated: partial result. Every panel covers ` +
    `simulated time 0 to ${at} only (where a cancel lands depends on wall time: no other run's result is the same byte for byte).`;
}

/**
 * Shows `note` in place of the element `host` of panel `panel` (hidden; a `p.empty-note` before it names the panel in
 * data-for),
 * or replaces the note already there.
 */
export function explain(host: HTMLElement, note: string, panel = host.id): void {
  let p = host.parentElement?.querySelector<HTMLElement>(`p.empty-note[data-for="${panel}"]`) ?? null;
  if (!p) {
    p = el('p', { class: 'empty-note hint', 'data-for': panel });
    host.before(p);
  }
  p.textContent = note;
  // a chart's line filter has nothing to filter beside the note
  for (const f of host.parentElement?.querySelectorAll<HTMLElement>(':scope > input.series-filter') ?? []) f.hidden = true;
  host.hidden = true;
  host.dataset.empty = 'true';
}
