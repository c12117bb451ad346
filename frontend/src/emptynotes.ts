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
 * The one statement at the top of the page of a run that ended without a result (cancelled or failed), the same
 * whether the page watched it end or was opened afterwards: its outcome, said once (`cancelled by request`, as every
 * page says it: runstatus.ts), where a cancel stopped it, and that the service keeps no result of such a run, so
 * nothing is drawn (the charts a watching page drew from the live stream go with it: a reload could not show them).
 */
export function statusNote(status: string, error: string | null | undefined, simulatedNs: number, durationNs: number): string {
  const said = outcome(status, error);
  if (status === 'cancelled') {
    return `${said} at ${fmtSeconds(simulatedNs)} of ${fmtSeconds(durationNs)} simulated. A cancelled run keeps no result ` +
      '(the service stores a result only when a run is done), so this page draws nothing: run the scenario again to see it.';
  }
  return `${said}. A failed run keeps no result, so this page draws nothing.`;
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
