// Empty panels that say why (issue 12): a panel of the run page that has nothing to draw shows a sentence instead —
// what the scenario's `record` section kept out of the result (from the server, which parsed the scenario), why a
// finished run left it empty, or that the run was cancelled or failed and kept no result.
import { el, fmtSeconds } from './api';
import { reasonAfter } from './runstatus';

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

/** Why a run that ended without a result shows nothing. */
export function statusNote(status: string, error: string | null | undefined, simulatedNs: number, durationNs: number): string {
  // the reason is said once: "cancelled by request", never "cancelled (cancelled by request)"
  const why = reasonAfter(status, error);
  if (status === 'cancelled') {
    const how = why && /^(by|while|with|after|before|at|on|from|because)\b/i.test(why) ? ` ${why}` : '';
    return `No result: the run was cancelled${how} at ${fmtSeconds(simulatedNs)} of ${fmtSeconds(durationNs)} simulated` +
      `${why && !how ? ` (${why})` : ''}. A cancelled run keeps no result: run the scenario again to fill this panel.`;
  }
  return `No result: the run failed${why ? `: ${why}` : ''}. A failed run keeps no result.`;
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
