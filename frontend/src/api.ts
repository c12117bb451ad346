// Small helpers over the REST API (docs/api.md). Errors are RFC 9457 problem bodies.
import { formatDurationNs } from './format';
import type { Settings } from './settings';

export interface ProblemBody {
  title?: string;
  status?: number;
  detail?: string;
  errno?: string;
  pointer?: string;
  errors?: { pointer?: string; reason?: string; errno?: string }[];
}

export class ApiError extends Error {
  constructor(readonly status: number, readonly problem: ProblemBody) {
    super(kernelMessage(problem, status));
  }
}

/** The kernel-style message of a problem body: its detail, then the errno in parentheses. */
export function kernelMessage(p: ProblemBody, status?: number): string {
  const detail = p.detail ?? p.title ?? `HTTP ${status ?? '?'}`;
  return p.errno ? `${detail} (${p.errno})` : detail;
}

/**
 * Headers of a state-changing request: with a token configured (the page then carries
 * <meta name="_csrf">), the session's CSRF token in the header the server names; otherwise none.
 */
export function csrfHeaders(doc: Pick<Document, 'querySelector'> = document): Record<string, string> {
  const token = doc.querySelector('meta[name="_csrf"]')?.getAttribute('content');
  const header = doc.querySelector('meta[name="_csrf_header"]')?.getAttribute('content');
  return token && header ? { [header]: token } : {};
}

async function check(res: Response): Promise<Response> {
  if (res.ok) return res;
  if (res.status === 401 && typeof window !== 'undefined' && document.querySelector('meta[name="_csrf"]')) {
    // the session of a token-protected service ended (e.g. it restarted): sign in again, then come back
    window.location.assign('/login');
  }
  let body: ProblemBody = {};
  try {
    body = await res.json();
  } catch {
    body = { detail: `${res.status} ${res.statusText}` };
  }
  throw new ApiError(res.status, body);
}

export async function getJson<T>(url: string): Promise<T> {
  return (await check(await fetch(url, { headers: { Accept: 'application/json' } }))).json();
}

export async function getText(url: string): Promise<string> {
  return (await check(await fetch(url, { headers: { Accept: 'text/plain' } }))).text();
}

export async function sendJson<T>(method: string, url: string, body: unknown): Promise<T> {
  const res = await check(
    await fetch(url, {
      method,
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...csrfHeaders() },
      body: JSON.stringify(body),
    }),
  );
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

/** echo value > file: PUT text/plain. */
export async function putText(url: string, value: string): Promise<void> {
  await check(await fetch(url, { method: 'PUT', headers: { 'Content-Type': 'text/plain', ...csrfHeaders() }, body: value }));
}

/**
 * Cancels a queued or running run or experiment: POST {url}/cancel. Idempotent and never deletes: 202 when it
 * stopped it, 200 when it had already ended (a double click or a late click changes nothing).
 */
export async function cancel(url: string): Promise<void> {
  await check(await fetch(`${url}/cancel`, { method: 'POST', headers: { Accept: 'application/json', ...csrfHeaders() } }));
}

export async function del(url: string): Promise<void> {
  await check(await fetch(url, { method: 'DELETE', headers: csrfHeaders() }));
}

/** URL of a cgroup file of a scenario: /api/scenarios/{id}/cgroups/a/b/cpu.max (each path part encoded). */
export function cgroupFileUrl(scenarioId: string, path: string, file: string): string {
  const parts = path.split('/').filter(Boolean).map(encodeURIComponent);
  return `/api/scenarios/${encodeURIComponent(scenarioId)}/cgroups/${parts.length ? parts.join('/') + '/' : ''}${file}`;
}

export interface RunView {
  id: string;
  scenarioId: string | null;
  scenarioName: string;
  status: 'queued' | 'running' | 'done' | 'failed' | 'cancelled';
  progress: number;
  simulatedNs: number;
  durationNs: number;
  events: number;
  wallMs: number;
  etaMs: number | null;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  experimentId?: string | null;
  arm?: string | null;
  repeat?: number | null;
  settings?: Settings | null;
  /** simulated seconds per wall-clock second it executes at, or null: as fast as possible */
  pace?: number | null;
  /** executions started (more than 1 after crash recovery re-queued it) */
  attempts?: number;
  /** attempts that died with their instance, the last one's instance and when it was noticed */
  interruptions?: number;
  interruptedWorker?: string | null;
  interruptedAt?: string | null;
}

export type Status = RunView['status'];

export interface ExperimentRunView {
  id: string;
  repeat: number;
  seed: number;
  status: Status;
  progress: number;
  wallMs: number;
  error: string | null;
}

export interface ExperimentArmView {
  name: string;
  set: Record<string, unknown>;
  status: Status;
  progress: number;
  done: number;
  total: number;
  runs?: ExperimentRunView[];
}

export interface ExperimentView {
  id: string;
  name: string;
  description: string | null;
  scenarioId: string | null;
  scenarioName: string;
  status: Status;
  progress: number;
  done: number;
  total: number;
  repeats: number;
  seed: number;
  seeds: number[];
  metrics: string[];
  cancelRequested: boolean;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
  arms: ExperimentArmView[];
}

/** GET /api/experiments/{id}/result (contract layout). */
export interface ExperimentMetricArm {
  values: (number | null)[];
  seeds: number[];
  min?: number;
  max?: number;
  median?: number;
  amean?: number;
  gmean?: number | null;
  hmean?: number | null;
  stddev?: number;
  coefvar?: number | null;
  diff_percent?: number | null;
  p_value?: number | null;
  verdict?: string;
  error?: string;
}

export interface ExperimentResult {
  experiment: string;
  arms: string[];
  repeats: number;
  seeds: number[];
  metrics: Record<string, Record<string, ExperimentMetricArm>>;
  histograms: Record<string, Record<string, { count: number; sum: number; buckets: { low: number; high: number; count: number }[] }>>;
}

/**
 * Starts a run of a stored scenario. `pace`: simulated seconds per wall-clock second (10 = ten times real time), or
 * undefined for as fast as possible.
 */
export async function startRun(scenarioId: string, pace?: number): Promise<RunView> {
  return sendJson<RunView>('POST', '/api/runs', pace === undefined ? { scenarioId } : { scenarioId, pace });
}

const PACE_KEY = 'cfslab.pace';

/**
 * The page's pace selects (`select.run-pace`, the layout's `pace` fragment): they show the pace chosen last (kept in
 * localStorage, so that it follows the user from page to page) and remember a new choice. Returns the pace chosen
 * now, or undefined for as fast as possible.
 */
export function paceOption(): () => number | undefined {
  const selects = [...document.querySelectorAll<HTMLSelectElement>('select.run-pace')];
  let saved = '';
  try {
    saved = localStorage.getItem(PACE_KEY) ?? '';
  } catch {
    // storage unavailable: every page starts at "as fast as possible"
  }
  for (const s of selects) {
    if ([...s.options].some((o) => o.value === saved)) s.value = saved;
    s.addEventListener('change', () => {
      try {
        localStorage.setItem(PACE_KEY, s.value);
      } catch {
        // not remembered
      }
    });
  }
  return () => {
    const v = selects[0]?.value ?? '';
    return v === '' ? undefined : Number(v);
  };
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') e.className = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
}

export function showError(target: HTMLElement | null, err: unknown): void {
  if (!target) return;
  target.hidden = false;
  target.textContent = err instanceof Error ? err.message : String(err);
}

/**
 * Shows an action's error beside the control that started it, and scrolls it into view: a long page's own error line
 * (at the top of its section) may be far out of view, so a refused Run looked like a button that did nothing.
 * The note is cleared by {@link clearErrorBeside} when the action is tried again.
 */
export function showErrorBeside(control: HTMLElement, err: unknown): void {
  let note = control.nextElementSibling as HTMLElement | null;
  if (!note || !note.classList.contains('action-error')) {
    note = el('span', { class: 'error action-error', role: 'alert' });
    control.after(note);
  }
  note.hidden = false;
  note.textContent = err instanceof Error ? err.message : String(err);
  note.scrollIntoView({ block: 'nearest' });
}

export function clearErrorBeside(control: HTMLElement): void {
  const note = control.nextElementSibling as HTMLElement | null;
  if (note && note.classList.contains('action-error')) note.remove();
}

export function fmtInt(n: number | undefined | null): string {
  return n == null ? '' : Math.round(n).toLocaleString('en-US');
}

/** A simulated time (ns) in a sentence: the one duration format (format.ts), e.g. `60.0 s`, `200 ms`, `0 s`. */
export function fmtSeconds(ns: number): string {
  return formatDurationNs(ns, 1e9);
}
