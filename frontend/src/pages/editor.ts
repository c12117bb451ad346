// Scenario editor: the cgroup tree as a virtual list (only the rows in view exist, so seed 01's 2,202
// groups stay fast), cgroupfs-style in-place writes of cpu.max, cpu.max.burst and cpu.weight with the
// kernel's message on a refused write, tasks, timeline, kernel options and machine, import/export.
import { plural } from '../format';
import { ApiError, cgroupFileUrl, del, el, getJson, getText, paceOption, putText, sendJson, showError, startRun } from '../api';
import { importFailure, parseImport } from '../importfile';
import { readablePath } from '../pointers';

interface TreeNode {
  path: string;
  parent: string | null;
  children: string[];
  tasks: string[];
  files?: Record<string, string>;
}

interface ScenarioView {
  id: string;
  name: string;
  readyMade: boolean;
  scenario: Record<string, any>;
}

const FILES = ['cpu.max', 'cpu.max.burst', 'cpu.weight'] as const;
export const ROW_HEIGHT = 30;
/**
 * What a row with a refused write's message is first given (its cells, the grid's gap, three 16 px lines of message
 * and the padding): the row is then measured as drawn and keeps its own height, so that a one-line message has no
 * empty lines under it (newcomer walk 4, item 10).
 */
export const ERROR_HEIGHT = 54;

/** The top of each row (px) and the total height, each row `heightOf(path)` tall. */
export function rowTops(paths: string[], heightOf: (path: string) => number): { tops: number[]; height: number } {
  const tops: number[] = [];
  let y = 0;
  for (const p of paths) {
    tops.push(y);
    y += heightOf(p);
  }
  return { tops, height: y };
}
const OVERSCAN = 10;

/**
 * A new scenario: only what the form shows filled in (a name, and the duration the parser requires, which the user
 * types: no duration is made up). Every other key is left out, so it takes the parser's default for the chosen
 * kernel.version (docs/scenarios.md), and a later version switch is not silently overridden by values the user never
 * chose.
 */
export const DEFAULT_SCENARIO = {
  name: 'new scenario',
};

/**
 * What the new-scenario form shows greyed in its empty name and duration fields. The name is optional: left empty,
 * the placeholder says the name it gets. The duration is required (the parser has no default): its placeholder is an
 * example, never used, and the form does not submit while it is empty.
 */
export const NEW_SCENARIO_PLACEHOLDERS: Record<string, string> = { name: `left empty: ${DEFAULT_SCENARIO.name}`, duration: 'required, e.g. 5s' };

/** A new scenario's document with the default name where the user typed none (keys in order); the duration as typed. */
export function withSuggestions(d: Record<string, any>): Record<string, any> {
  return { name: d.name ?? DEFAULT_SCENARIO.name, ...d };
}

/** A placeholder that fits its field (about 26 characters): cut at a word, with "…"; the whole text goes in the title. */
export function shortPlaceholder(text: string, max = 26): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const at = Math.max(cut.lastIndexOf(' '), cut.lastIndexOf(','));
  return `${(at > max / 2 ? cut.slice(0, at) : cut).replace(/[ ,]+$/, '')}…`;
}

/** `GET /api/scenario-defaults?version=`: what each key means when left out (io.cfslab.scenario.ScenarioDefaults). */
export interface ScenarioDefaults {
  version: string;
  versions: { default: string; releases: string[]; distributions: Record<string, string>; mainline: string; latest: string };
  name: string;
  seed: number;
  required: string[];
  machine: Record<string, unknown>;
  kernel: Record<string, unknown>;
  record: Record<string, unknown>;
  task: Record<string, unknown>;
  workloads: Record<string, { required: string[]; defaults: Record<string, unknown> }>;
}

/** The defaults of `version` (the service's own resolution of kernel.version), or of the default version. */
export function fetchDefaults(version?: string): Promise<ScenarioDefaults> {
  const q = version && version.trim() ? `?version=${encodeURIComponent(version.trim())}` : '';
  return getJson<ScenarioDefaults>(`/api/scenario-defaults${q}`);
}

/** Visible rows of a tree: depth-first, children only under expanded nodes. */
export function visibleRows(nodes: Map<string, TreeNode>, root: string, expanded: Set<string>): { path: string; depth: number }[] {
  const out: { path: string; depth: number }[] = [];
  const stack: { path: string; depth: number }[] = [{ path: root, depth: 0 }];
  while (stack.length) {
    const cur = stack.pop()!;
    out.push(cur);
    const n = nodes.get(cur.path);
    if (n && expanded.has(cur.path)) {
      for (let i = n.children.length - 1; i >= 0; i--) stack.push({ path: n.children[i], depth: cur.depth + 1 });
    }
  }
  return out;
}

/** A contract timeline entry from the editor's form: write, move, taskset or chrt ("rr 10", "normal"). */
export function timelineEntry(at: string, kind: string, arg1: string, arg2: string): Record<string, unknown> {
  const a1 = arg1.trim();
  const a2 = arg2.trim();
  switch (kind) {
    case 'write':
      return { at: at.trim(), write: a1, value: a2 };
    case 'move':
      return { at: at.trim(), move: a1, to: a2 };
    case 'taskset':
      return { at: at.trim(), taskset: a1, cpus: a2 };
    case 'chrt': {
      const [policy, priority] = a2.split(/\s+/);
      return priority ? { at: at.trim(), chrt: a1, policy, priority: Number(priority) } : { at: at.trim(), chrt: a1, policy };
    }
    default:
      throw new Error(`unknown timeline action ${kind}`);
  }
}

/**
 * A contract task entry from the editor's task form: name, cgroup, count, the workload with its own parameters
 * (periodic and go-sleep-loop: run and sleep; go-sleep-loop: threads; fixed-work: work; hackbench and netperf-udp-rr
 * theirs), and the optional policy, priority and allowed CPUs. Only what was filled in is sent: an empty field is
 * left out, so the parser's default applies (the one the field's placeholder names).
 */
export function taskEntry(f: Record<string, string>): Record<string, unknown> {
  const v = (k: string) => (f[k] ?? '').trim();
  const kind = v('kind') || 'hog';
  const workload: Record<string, unknown> = { kind };
  for (const k of WORKLOAD_KEYS[kind] ?? []) {
    if (v(k)) workload[k] = NUMERIC_WORKLOAD_KEYS.has(k) ? Number(v(k)) : v(k);
  }
  const task: Record<string, unknown> = { name: v('name'), cgroup: v('cgroup') };
  if (v('count')) task.count = Number(v('count'));
  task.workload = workload;
  if (v('policy')) task.policy = v('policy');
  if (v('priority')) task.priority = Number(v('priority'));
  if (v('cpus_allowed')) task.cpus_allowed = v('cpus_allowed');
  return task;
}

/** The form's fields of each workload kind (the contract's keys). */
export const WORKLOAD_KEYS: Record<string, string[]> = {
  'hog': [],
  'periodic': ['run', 'sleep'],
  'fixed-work': ['work'],
  'hackbench': ['mode', 'groups', 'fds', 'loops', 'datasize'],
  'netperf-udp-rr': ['request_size', 'response_size'],
  'go-sleep-loop': ['run', 'sleep', 'threads'],
};
const NUMERIC_WORKLOAD_KEYS = new Set(['groups', 'fds', 'loops', 'datasize', 'request_size', 'response_size', 'threads']);

/** The required workload fields of `kind` left empty in the form (the parser's "is required"). */
export function missingRequired(f: Record<string, string>, d: ScenarioDefaults): string[] {
  const kind = (f.kind ?? '').trim() || 'hog';
  return (d.workloads[kind]?.required ?? []).filter((k) => !(f[k] ?? '').trim());
}

function getPath(obj: Record<string, any>, dotted: string): unknown {
  return dotted.split('.').reduce<any>((o, k) => (o == null ? undefined : o[k]), obj);
}

/** Sets a dotted key; an empty value removes it, and a section left empty by that goes too (nothing stored as `{}`). */
export function setPath(obj: Record<string, any>, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  const last = keys[keys.length - 1];
  if (value === '' || value == null) {
    const chain: Record<string, any>[] = [obj];
    for (const k of keys.slice(0, -1)) {
      const next = chain[chain.length - 1][k];
      if (next == null || typeof next !== 'object') return;
      chain.push(next);
    }
    delete chain[chain.length - 1][last];
    for (let i = chain.length - 1; i > 0 && Object.keys(chain[i]).length === 0; i--) delete chain[i - 1][keys[i - 1]];
    return;
  }
  let o = obj;
  for (const k of keys.slice(0, -1)) o = o[k] ??= {};
  o[last] = value;
}

/** A task entry's scheduling policy as chrt names it: `normal` when left out, `rr 10` with an RT priority. */
export function policyText(t: { policy?: string; priority?: number }): string {
  return `${t.policy ?? 'normal'}${t.priority != null ? ` ${t.priority}` : ''}`;
}

/** What a key left out of a scenario means, for the chosen version: shown in its empty field or select. */
export function optionDefault(name: string, d: ScenarioDefaults): string | undefined {
  if (name === 'name') return d.name;
  if (name === 'seed') return String(d.seed);
  if (name === 'kernel.version') return d.versions.default;
  const [section, key] = name.split('.');
  const from = section === 'machine' ? d.machine : section === 'kernel' ? d.kernel : section === 'record' ? d.record : undefined;
  const v = from && key ? from[key] : undefined;
  if (v == null) return undefined;
  // a kernel switch is the version's: say whose
  return section === 'kernel' && VERSION_SWITCHES.has(key) ? `${v}, ${d.version}'s` : String(v);
}
const VERSION_SWITCHES = new Set(['throttle', 'unthrottle', 'timer_placement']);

const NUMERIC = new Set(['seed', 'machine.cpus', 'kernel.hz', 'kernel.bandwidth_slice_us']);

/** JSON with keys sorted at every level: two documents with the same content give the same text. */
export function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${stableJson((v as any)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Kernel keys that are the scenario's own choice, not something a version switch changes under it. */
const NOT_ERA_KEYS = new Set(['version', 'cgroup_version']);

/**
 * The explicit `kernel` keys of a scenario that differ from what its kernel.version would give: the keys a version
 * switch does not change (a copy of a 6.18 scenario switched to "6.1" keeps task throttling unless these go).
 */
export function kernelOverrides(kernel: Record<string, unknown> | undefined, d: ScenarioDefaults): { key: string; value: string; dflt: string }[] {
  const out: { key: string; value: string; dflt: string }[] = [];
  for (const [key, value] of Object.entries(kernel ?? {})) {
    if (NOT_ERA_KEYS.has(key) || value == null || value === '') continue;
    const dflt = d.kernel[key];
    if (dflt === undefined || String(dflt) === String(value)) continue;
    out.push({ key, value: String(value), dflt: String(dflt) });
  }
  return out;
}

/** cgroup files that only some kernels have: the KernelSpec switch that says so, and since when. */
const FILE_SINCE: Record<string, { flag: string; since: string }> = {
  'cpu.max.burst': { flag: 'burst', since: '5.14+' },
  'cpu.cfs_burst_us': { flag: 'burst', since: '5.14+' },
  'cpu.rt_runtime_us': { flag: 'rt_group_sched', since: 'CONFIG_RT_GROUP_SCHED' },
  'cpu.rt_period_us': { flag: 'rt_group_sched', since: 'CONFIG_RT_GROUP_SCHED' },
};

/** Why `file` is not on the kernel of `d` ("not on 5.4 (5.14+)"), or null when it is there. */
export function fileUnavailable(file: string, d: ScenarioDefaults | null): string | null {
  const rule = FILE_SINCE[file];
  if (!rule || !d || d.kernel[rule.flag] !== false) return null;
  return `not on ${d.version} (${rule.since})`;
}

/** A workload as a person reads it: the kind and its parameters ("periodic · run 5ms, sleep 10ms"). */
export function workloadSummary(w: Record<string, unknown> | undefined): string {
  const { kind = 'hog', ...params } = w ?? {};
  const parts = Object.entries(params).map(([k, v]) => `${k.replace(/_/g, ' ')} ${typeof v === 'object' ? JSON.stringify(v) : v}`);
  return parts.length ? `${kind} · ${parts.join(', ')}` : String(kind);
}

/** A timeline action as the shell command it models ("echo 50000 100000 > /a/cpu.max", "taskset -p 0-3 t"). */
export function actionSummary(a: Record<string, any>): string {
  if ('write' in a) return `echo ${a.value} > ${a.write}`;
  if ('move' in a) return `move ${a.move} → ${a.to}`;
  if ('taskset' in a) return `taskset ${a.cpus} ${a.taskset}`;
  if ('chrt' in a) return `chrt ${a.policy ?? ''}${a.priority != null ? ` ${a.priority}` : ''} ${a.chrt}`;
  return JSON.stringify(a);
}

/**
 * A refused timeline action in the words the tree uses for a refused write: the command as the kernel would see it,
 * then the reason ("at 1s: echo '500 100000' > /web/cpu.max: quota 500 us is below the 1000 us minimum (EINVAL)").
 * The service's reason for a timeline entry names only the value; a reason that already starts with the command is
 * kept as it is.
 */
export function actionRefusal(entry: Record<string, any>, reason: string, errno?: string | null): string {
  const command = 'write' in entry ? `echo '${entry.value}' > ${entry.write}` : actionSummary(entry);
  const text = reason.startsWith(command) || reason.startsWith('echo ') ? reason : `${command}: ${reason}`;
  const withErrno = errno && !text.includes(`(${errno})`) ? `${text} (${errno})` : text;
  return entry.at ? `at ${entry.at}: ${withErrno}` : withErrno;
}

function problemText(e: unknown): string {
  if (e instanceof ApiError) {
    const list = e.problem.errors ?? [];
    if (list.length > 1) return list.map((x) => `${readablePath(x.pointer ?? '')}: ${x.reason}${x.errno ? ` (${x.errno})` : ''}`).join('\n');
    return e.message;
  }
  return e instanceof Error ? e.message : String(e);
}

export function initEditorPage(body: HTMLElement): void {
  const id = body.dataset.scenarioId ?? '';
  const readOnly = body.dataset.readOnly === 'true';
  const $ = <T extends HTMLElement>(x: string) => document.getElementById(x) as T;
  const errorEl = $('editor-error');
  const statusEl = $('editor-status');
  const treeEl = $('tree');
  const spacer = treeEl.querySelector('.tree-spacer') as HTMLElement;
  const optionsForm = $<HTMLFormElement>('options-form');
  let doc: Record<string, any> = structuredClone(DEFAULT_SCENARIO);
  // unsaved changes: the options form (and kernel keys dropped with "use the default") against what was stored
  const removedKernelKeys = new Set<string>();
  let baseline = '';
  let leaving = false;
  // the kernel of the version in the form: which cgroup files the tree offers
  let treeDefaults: ScenarioDefaults | null = null;

  const nodes = new Map<string, TreeNode>();
  const expanded = new Set<string>();
  const rowErrors = new Map<string, string>();
  /** The height each row with a message was measured at (px), as drawn: its message's lines, no more. */
  const errorRowHeights = new Map<string, number>();
  const heightOf = (path: string) => (rowErrors.has(path) ? errorRowHeights.get(path) ?? ROW_HEIGHT + ERROR_HEIGHT : ROW_HEIGHT);
  /** Measures a row with a message as its content lays out (its height let go for a moment) and keeps that height. */
  function measureRow(row: HTMLElement, path: string): void {
    row.style.height = 'auto';
    const h = Math.max(ROW_HEIGHT, Math.ceil(row.getBoundingClientRect().height));
    errorRowHeights.set(path, h);
    row.style.height = `${h}px`;
  }
  let rows: { path: string; depth: number }[] = [];
  const rendered = new Map<string, HTMLElement>();

  function fail(e: unknown): void {
    failWith(problemText(e));
  }
  function failWith(text: string): void {
    errorEl.hidden = false;
    errorEl.textContent = text;
    delete errorEl.dataset.about;
    statusEl.textContent = ''; // no stale "ok" next to the error
  }
  /**
   * A refusal of the scenario as a whole (Run, Export, Save options: the form's values or the stored scenario): it is
   * about the scenario as it was, so it goes when the scenario changes (scenarioChanged), not at the next Run.
   */
  function failScenario(e: unknown, prefix = ''): void {
    fail(e);
    if (prefix) errorEl.textContent = `${prefix}${errorEl.textContent}`;
    errorEl.dataset.about = 'scenario';
  }
  /**
   * Every successful change of the stored scenario (a write, a task or timeline action added or deleted, a group made,
   * options saved) says so here and clears the banner: a refusal shown there was about the scenario before it.
   */
  function ok(msg: string): void {
    errorEl.hidden = true;
    delete errorEl.dataset.about;
    statusEl.textContent = msg;
  }
  /**
   * The options form changed after a refusal of the scenario as a whole (the refused field edited, say): that refusal
   * judged values no longer shown, so it goes, and the status says that Run or Save options checks them again.
   */
  function scenarioChanged(): void {
    if (errorEl.hidden || errorEl.dataset.about !== 'scenario') return;
    ok('changed since the refusal: Run or Save options checks the scenario again');
  }

  // ---- scenario document, options, import/export ----
  // what a key left out means, for the version in the form: fetched from the service (its own resolution of
  // kernel.version), never a table of our own
  let defaults: ScenarioDefaults | null = null;
  const versionInput = optionsForm.querySelector<HTMLInputElement>('[name="kernel.version"]')!;
  const effectiveEl = $('kernel-effective');
  let defaultsFor: string | null = null;

  /** `base` with the options form's fields written over it and the dropped kernel keys removed. */
  function formDoc(base: Record<string, any>): Record<string, any> {
    const next = structuredClone(base);
    for (const input of optionsForm.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input[name],select[name],textarea[name]')) {
      const raw = input.value.trim();
      setPath(next, input.name, raw === '' ? null : NUMERIC.has(input.name) ? Number(raw) : raw);
    }
    for (const k of removedKernelKeys) setPath(next, `kernel.${k}`, null);
    return next;
  }
  function isDirty(): boolean {
    return !!id && !readOnly && baseline !== '' && stableJson(formDoc(doc)) !== baseline;
  }
  const unsavedNote = $('unsaved-note');
  function updateDirty(): void {
    const dirty = isDirty();
    unsavedNote.hidden = !dirty;
    body.dataset.dirty = String(dirty);
    renderOverrides();
  }
  optionsForm.addEventListener('input', updateDirty);
  optionsForm.addEventListener('change', () => {
    updateDirty();
    scenarioChanged();
  });
  window.addEventListener('beforeunload', (ev) => {
    if (leaving || !isDirty()) return;
    ev.preventDefault();
    ev.returnValue = ''; // the browser's own "leave site? changes may not be saved"
  });

  /** Explicit kernel keys that a version switch does not change, each with a one-click way back to the default. */
  const overridesEl = $('kernel-overrides');
  function renderOverrides(): void {
    const d = defaults;
    const list = d ? kernelOverrides(formDoc(doc).kernel, d) : [];
    overridesEl.hidden = list.length === 0;
    if (!d || !list.length) return overridesEl.replaceChildren();
    overridesEl.replaceChildren(el('span', {}, `explicit keys override ${d.version}'s defaults:`), ...list.map((o) => {
      const b = el('button', { type: 'button', class: 'small', 'data-key': o.key, title: `drop kernel.${o.key}: run with ${d.version}'s ${o.dflt}` },
        `use ${d.version}'s ${o.dflt}`);
      b.hidden = readOnly;
      b.addEventListener('click', () => {
        const field = optionsForm.querySelector<HTMLInputElement | HTMLSelectElement>(`[name="kernel.${o.key}"]`);
        if (field) field.value = '';
        else removedKernelKeys.add(o.key);
        updateDirty();
      });
      return el('span', { class: 'override', 'data-key': o.key }, el('code', {}, `${o.key}: ${o.value}`), ' ', b);
    }));
  }

  async function loadDefaults(version: string): Promise<void> {
    const wanted = version.trim();
    if (wanted === defaultsFor && defaults) return;
    try {
      const d = await fetchDefaults(wanted);
      if (versionInput.value.trim() !== wanted) return; // typed on since: the newer answer labels the form
      defaults = d;
      defaultsFor = wanted;
      // the tree offers the files of the version in the form at once, not only after Save (cpu.max.burst is gone as
      // soon as 5.4 is typed); a write is checked against the stored scenario's kernel all the same
      if (treeDefaults?.version !== d.version) {
        treeDefaults = d;
        treeEl.dataset.version = d.version;
        if (nodes.size) rebuildRows();
      }
      versionInput.classList.remove('bad');
      effectiveEl.classList.remove('error');
      labelDefaults();
    } catch (e) {
      // an unknown version: say so at the field (the parser's own words); the labels keep the last good version's
      versionInput.classList.add('bad');
      effectiveEl.classList.add('error');
      effectiveEl.textContent = problemText(e);
    }
  }

  /** Every empty field, select and placeholder says the default of the chosen version. */
  function labelDefaults(): void {
    const d = defaults;
    if (!d) return;
    const list = $('kernel-versions');
    if (!list.childElementCount) {
      list.replaceChildren(...d.versions.releases.map((v) => el('option', { value: v })),
        ...Object.entries(d.versions.distributions).map(([alias, base]) => el('option', { value: alias, label: `${alias} (${base})` })));
    }
    for (const input of optionsForm.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input[name],select[name],textarea[name]')) {
      const dflt = optionDefault(input.name, d);
      if (dflt === undefined) continue;
      if (input instanceof HTMLSelectElement) {
        // a key left out runs with its default: the select says which (not a blank)
        let auto = input.querySelector<HTMLOptionElement>('option[data-default]');
        if (!auto) {
          const keep = input.value;
          auto = Object.assign(document.createElement('option'), { value: '' });
          auto.dataset.default = 'true';
          input.prepend(auto);
          input.value = keep;
        }
        auto.textContent = `default (${dflt})`;
      } else if (id || NEW_SCENARIO_PLACEHOLDERS[input.name] === undefined) {
        // a rule too long for the field (record.interval's) is cut to what fits, whole on hover
        input.placeholder = shortPlaceholder(`default: ${dflt}`);
        input.title = `left empty: ${dflt}`;
      }
    }
    const shown = new Set(['version', 'cgroup_version', 'throttle', 'unthrottle', 'hz', 'bandwidth_slice_us', 'timer_placement']);
    effectiveEl.textContent = `${d.version} also sets: ` + Object.entries(d.kernel).filter(([k]) => !shown.has(k))
      .map(([k, v]) => `${k} ${v}`).join(' · ');
    effectiveEl.dataset.version = d.version;
    labelTaskForm(d);
    renderOverrides();
    optionsForm.dataset.defaults = d.version;
  }

  function fillOptions(): Promise<void> {
    for (const input of optionsForm.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input[name],select[name],textarea[name]')) {
      const v = getPath(doc, input.name);
      if (input instanceof HTMLSelectElement && !input.querySelector('option[data-default]')) {
        const auto = Object.assign(document.createElement('option'), { value: '', textContent: 'default' });
        auto.dataset.default = 'true';
        input.prepend(auto);
      }
      // a new scenario's name and duration are placeholders, not values: typing replaces them (empty: they are used)
      const suggested = !id ? NEW_SCENARIO_PLACEHOLDERS[input.name] : undefined;
      input.value = suggested !== undefined || v == null ? '' : String(v);
      if (suggested !== undefined) (input as HTMLInputElement).placeholder = suggested;
      input.disabled = readOnly;
    }
    // the name's box fits the name just filled in (its own input events do it while typing)
    optionsForm.querySelector('textarea[name="name"]')?.dispatchEvent(new Event('input'));
    optionsForm.querySelector('button')!.hidden = readOnly;
    if (!id) optionsForm.querySelector('button')!.textContent = 'Create scenario';
    removedKernelKeys.clear();
    baseline = stableJson(formDoc(doc));
    updateDirty();
    labelDefaults();
    return loadDefaults(versionInput.value);
  }
  let versionTimer: number | undefined;
  versionInput.addEventListener('input', () => {
    clearTimeout(versionTimer);
    versionTimer = window.setTimeout(() => void loadDefaults(versionInput.value), 250);
  });
  versionInput.addEventListener('change', () => void loadDefaults(versionInput.value));

  async function loadDoc(): Promise<void> {
    const v = await getJson<ScenarioView>(`/api/scenarios/${id}`);
    doc = v.scenario;
    $('scenario-title').textContent = v.name;
    await fillOptions(); // the tree follows the form's version (loadDefaults)
  }

  async function createAndOpen(d: Record<string, any>): Promise<void> {
    const created = await sendJson<ScenarioView>('POST', '/api/scenarios', d);
    leaving = true;
    location.href = `/scenarios/${created.id}`;
  }

  /**
   * Stores the options form. Written over the scenario as stored now (not the copy loaded with the page), so the
   * groups, tasks and timeline added since are kept.
   */
  async function saveOptions(): Promise<void> {
    const stored = (await getJson<ScenarioView>(`/api/scenarios/${id}`)).scenario;
    await sendJson('PUT', `/api/scenarios/${id}`, formDoc(stored));
    await loadDoc();
  }

  /**
   * Before an action that uses the stored scenario (run, export): unsaved changes are saved first; if they cannot be,
   * the action is refused with the reason (never run with what was stored while the form shows something else).
   */
  async function ensureSaved(action: string): Promise<boolean> {
    if (!isDirty()) return true;
    try {
      await saveOptions();
      ok(`unsaved changes saved before ${action}`);
      return true;
    } catch (e) {
      failScenario(e, `not ${action}: the unsaved changes could not be saved — `);
      return false;
    }
  }

  // the name is a one-line text that wraps (a ready-made scenario's name is longer than the field): Enter submits, as
  // in an input, and the box grows with the text so that none of it is cut off
  const nameBox = optionsForm.querySelector<HTMLTextAreaElement>('textarea[name="name"]');
  if (nameBox) {
    const grow = () => { nameBox.style.height = 'auto'; nameBox.style.height = `${nameBox.scrollHeight + 2}px`; };
    nameBox.addEventListener('input', grow);
    nameBox.addEventListener('keydown', (ev) => {
      if (ev.key === 'Enter') {
        ev.preventDefault();
        optionsForm.requestSubmit();
      }
    });
    new ResizeObserver(grow).observe(nameBox);
  }
  // a required field left empty (the duration): the browser keeps the form from submitting; say which and why here too
  optionsForm.addEventListener('invalid', (ev) => {
    const input = ev.target as HTMLInputElement;
    input.classList.add('missing'); // marked until something is typed
    input.addEventListener('input', () => input.classList.remove('missing'), { once: true });
    fail(new Error(`${input.name} is required${input.name === 'duration' ? ': how long to simulate, e.g. 5s or 300ms' : ''}`));
  }, true);
  optionsForm.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    try {
      if (!id) return await createAndOpen(withSuggestions(formDoc(doc)));
      await saveOptions();
      ok('options saved');
    } catch (e) {
      failScenario(e);
    }
  });

  document.getElementById('delete-scenario')?.addEventListener('click', async () => {
    if (!confirm(`Delete the scenario "${doc.name ?? id}"? Its finished runs stay.`)) return;
    try {
      await del(`/api/scenarios/${id}`);
      leaving = true;
      location.href = '/';
    } catch (e) {
      fail(e);
    }
  });

  $('export-json').addEventListener('click', async () => {
    if (!(await ensureSaved('exported'))) return;
    try {
      const d = id ? (await getJson<ScenarioView>(`/api/scenarios/${id}`)).scenario : doc;
      const blob = new Blob([JSON.stringify(d, null, 2) + '\n'], { type: 'application/json' });
      const a = el('a', { href: URL.createObjectURL(blob), download: `${String(d.name ?? 'scenario').replace(/[^\w.-]+/g, '_')}.json` });
      document.body.append(a);
      a.click();
      a.remove();
    } catch (e) {
      fail(e);
    }
  });

  $<HTMLInputElement>('import-json').addEventListener('change', async (ev) => {
    const file = (ev.target as HTMLInputElement).files?.[0];
    if (!file) return;
    (ev.target as HTMLInputElement).value = ''; // the same file chosen again (after fixing it) is read again
    try {
      const d = parseImport(file.name, await file.text());
      if (!id || readOnly) return await createAndOpen(d as Record<string, any>);
      await sendJson('PUT', `/api/scenarios/${id}`, d);
      leaving = true; // the imported file replaces the form's changes, as asked
      location.reload();
    } catch (e) {
      failWith(importFailure(file.name, e));
    }
  });

  document.getElementById('copy-to-edit')?.addEventListener('click', async () => {
    try {
      const d = structuredClone(doc);
      d.name = `${d.name ?? 'scenario'} (copy)`;
      await createAndOpen(d);
    } catch (e) {
      fail(e);
    }
  });

  const pace = paceOption();
  document.getElementById('run-scenario')?.addEventListener('click', async () => {
    if (!(await ensureSaved('run'))) return;
    try {
      leaving = true;
      location.href = `/runs/${(await startRun(id, pace())).id}`;
    } catch (e) {
      leaving = false;
      failScenario(e, 'not run: ');
    }
  });

  // ---- cgroup tree ----
  let tops: number[] = [];
  function rebuildRows(): void {
    rows = nodes.has('/') ? visibleRows(nodes, '/', expanded) : [];
    const layout = rowTops(rows.map((r) => r.path), heightOf);
    tops = layout.tops;
    spacer.style.height = `${layout.height}px`;
    treeEl.dataset.rows = String(rows.length);
    for (const r of rendered.values()) r.remove();
    rendered.clear();
    renderWindow();
  }

  /** The index of the row at `y` px (binary search over the tops: rows with a message are taller). */
  function rowAt(y: number): number {
    let lo = 0;
    let hi = tops.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (tops[mid] <= y) lo = mid;
      else hi = mid - 1;
    }
    return Math.max(0, lo);
  }

  function renderWindow(): void {
    const first = Math.max(0, rowAt(treeEl.scrollTop) - OVERSCAN);
    const last = Math.min(rows.length, rowAt(treeEl.scrollTop + treeEl.clientHeight) + 1 + OVERSCAN);
    const keep = new Set<string>();
    for (let i = first; i < last; i++) {
      const { path, depth } = rows[i];
      keep.add(path);
      let r = rendered.get(path);
      if (!r) {
        r = makeRow(path, depth);
        rendered.set(path, r);
        treeEl.append(r);
      }
      r.style.top = `${tops[i]}px`;
      r.style.height = `${heightOf(path)}px`;
    }
    for (const [path, r] of rendered) {
      if (!keep.has(path) && !r.contains(document.activeElement)) {
        r.remove();
        rendered.delete(path);
      }
    }
  }

  function makeRow(path: string, depth: number): HTMLElement {
    const n = nodes.get(path)!;
    const name = path === '/' ? '/' : path.slice(path.lastIndexOf('/') + 1);
    const toggle = el('button', { type: 'button', class: 'toggle', title: `${n.children.length} children` },
      n.children.length ? (expanded.has(path) ? '▾' : '▸') : '');
    toggle.disabled = n.children.length === 0;
    toggle.addEventListener('click', () => {
      if (expanded.has(path)) expanded.delete(path);
      else expanded.add(path);
      rebuildRows();
    });
    const pathCell = el('span', { class: 'c-path', style: `padding-left:${depth * 16}px`, title: path }, toggle,
      el('span', { class: 'name' }, name), n.children.length ? el('small', { class: 'hint' }, ` ${n.children.length}`) : '');
    const row = el('div', { class: 'tree-row', 'data-path': path }, pathCell);
    for (const file of FILES) {
      if (!n.files) {
        row.append(el('span', { class: 'c-file hint' }, path === '/' ? '(root)' : ''));
        continue;
      }
      const input = el('input', { class: 'c-file mono', 'data-file': file, value: n.files[file] ?? '', spellcheck: 'false' });
      input.readOnly = readOnly;
      const absent = fileUnavailable(file, treeDefaults);
      if (absent) {
        // the kernel has no such file: nothing to type into
        input.disabled = true;
        input.value = '';
        input.placeholder = '—';
        input.title = absent;
        row.append(input);
        continue;
      }
      input.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter') void write(path, file, input);
        if (ev.key === 'Escape') input.value = n.files?.[file] ?? '';
      });
      // leaving the cell commits it as Enter does, unless it shows the stored value (after a refused write the cell
      // is put back; that blur must not write the stored value again and replace the refusal with "ok")
      input.addEventListener('change', () => {
        if (input.value.trim() !== (n.files?.[file] ?? '')) void write(path, file, input);
      });
      row.append(input);
    }
    row.append(el('span', { class: 'c-tasks', title: n.tasks.join(', ') }, n.tasks.join(', ')));
    const err = rowErrors.get(path);
    row.append(el('span', { class: 'row-error', title: err ?? '' }, err ?? ''));
    row.classList.toggle('has-error', !!err);
    return row;
  }

  // one cell's writes go one after another, so the cell and its message show the answer to the last commit (an
  // emptied cell left by a click, then a value and Enter, must not end with the first answer drawn last)
  const cellWrites = new WeakMap<HTMLInputElement, Promise<void>>();
  function write(path: string, file: string, input: HTMLInputElement): Promise<void> {
    if (readOnly) return Promise.resolve();
    // an emptied cell is written too (echo '' > cpu.max): the service answers with its own refusal, and the cell shows
    // the stored value again; skipping it left a blank cell over an unchanged value beside an older message
    const value = input.value.trim();
    if (input.dataset.busy === value) return cellWrites.get(input) ?? Promise.resolve(); // Enter then change: one write
    input.dataset.busy = value;
    const next = (cellWrites.get(input) ?? Promise.resolve()).then(() => writeNow(path, file, input, value));
    cellWrites.set(input, next);
    return next;
  }

  async function writeNow(path: string, file: string, input: HTMLInputElement, value: string): Promise<void> {
    const n = nodes.get(path)!;
    // the cell shows the answer unless something new was typed into it meanwhile (that text is its own commit to come)
    const untouched = () => input.value.trim() === value || document.activeElement !== input;
    const row = input.closest('.tree-row') as HTMLElement;
    const errSpan = row.querySelector('.row-error') as HTMLElement;
    try {
      await putText(cgroupFileUrl(id, path, file), value);
      const now = (await getText(cgroupFileUrl(id, path, file))).trim();
      n.files![file] = now;
      if (untouched()) input.value = now;
      const had = rowErrors.delete(path);
      errorRowHeights.delete(path);
      row.classList.remove('has-error');
      errSpan.textContent = '';
      errSpan.title = '';
      if (had) relayout();
      input.classList.add('saved');
      setTimeout(() => input.classList.remove('saved'), 800);
      ok(`echo '${value}' > ${path === '/' ? '' : path}/${file}: ok`);
    } catch (e) {
      const msg = problemText(e);
      // the kernel kept its value: the field shows it again (the refused text stays in the error)
      if (untouched()) input.value = n.files?.[file] ?? '';
      rowErrors.set(path, msg);
      row.classList.add('has-error');
      errSpan.textContent = msg;
      errSpan.title = msg;
      measureRow(row, path);
      relayout();
      input.classList.add('bad');
      setTimeout(() => input.classList.remove('bad'), 800);
      fail(e);
    } finally {
      if (input.dataset.busy === value) setTimeout(() => delete input.dataset.busy, 0);
    }
  }

  /** Row tops again after a row gained or lost its message (the rendered rows are kept, so focus stays). */
  function relayout(): void {
    const layout = rowTops(rows.map((r) => r.path), heightOf);
    tops = layout.tops;
    spacer.style.height = `${layout.height}px`;
    renderWindow();
  }

  async function loadTree(): Promise<void> {
    const list = await getJson<TreeNode[]>(`/api/scenarios/${id}/cgroups`);
    nodes.clear();
    for (const n of list) nodes.set(n.path, n);
    if (expanded.size === 0) {
      expanded.add('/');
      if (list.length <= 200) for (const n of list) expanded.add(n.path);
    }
    $('tree-count').textContent = plural(list.length - 1, 'group');
    rebuildRows();
  }

  let scrollQueued = false;
  treeEl.addEventListener('scroll', () => {
    if (scrollQueued) return;
    scrollQueued = true;
    requestAnimationFrame(() => {
      scrollQueued = false;
      renderWindow();
    });
  });
  $('expand-all').addEventListener('click', () => {
    for (const n of nodes.values()) if (n.children.length) expanded.add(n.path);
    rebuildRows();
  });
  $('collapse-all').addEventListener('click', () => {
    expanded.clear();
    expanded.add('/');
    rebuildRows();
  });
  $<HTMLFormElement>('mkdir-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const input = (ev.target as HTMLFormElement).elements.namedItem('path') as HTMLInputElement;
    try {
      const parts = input.value.split('/').filter(Boolean).map(encodeURIComponent).join('/');
      await sendJson('PUT', `/api/scenarios/${id}/cgroups/${parts}`, undefined);
      // show the new group: expand every ancestor
      const segs = input.value.split('/').filter(Boolean);
      expanded.add('/');
      for (let i = 1; i < segs.length; i++) expanded.add('/' + segs.slice(0, i).join('/'));
      input.value = '';
      await loadTree();
      ok('created');
    } catch (e) {
      fail(e);
    }
  });

  // ---- tasks and timeline ----
  async function loadTasks(): Promise<void> {
    const tasks = await getJson<Record<string, any>[]>(`/api/scenarios/${id}/tasks`);
    const tb = document.querySelector('#tasks-table tbody')!;
    tb.replaceChildren(...tasks.map((t) => {
      const rm = el('button', { type: 'button', class: 'small' }, '✕');
      rm.hidden = readOnly;
      rm.addEventListener('click', async () => {
        try {
          await del(`/api/scenarios/${id}/tasks/${encodeURIComponent(t.name)}`);
          await Promise.all([loadTasks(), loadTree()]);
          ok(`task ${t.name} deleted`);
        } catch (e) {
          fail(e);
        }
      });
      return el('tr', {}, el('td', {}, t.name), el('td', { class: 'path' }, t.cgroup), el('td', {}, String(t.count ?? 1)),
        el('td', { class: 'workload', title: JSON.stringify(t.workload ?? {}) }, workloadSummary(t.workload)), el('td', { class: 'policy' }, policyText(t)),
        el('td', {}, t.cpus_allowed ?? 'all'), el('td', {}, rm));
    }));
    if (tasks.length === 0) {
      tb.replaceChildren(el('tr', {}, el('td', { colspan: '7', class: 'hint' }, readOnly ? 'no tasks' : 'no tasks yet: add one below')));
    }
  }

  async function loadTimeline(): Promise<void> {
    const items = await getJson<Record<string, any>[]>(`/api/scenarios/${id}/timeline`);
    const tb = document.querySelector('#timeline-table tbody')!;
    tb.replaceChildren(...items.map((t, i) => {
      const { at, ...action } = t;
      const rm = el('button', { type: 'button', class: 'small' }, '✕');
      rm.hidden = readOnly;
      rm.addEventListener('click', async () => {
        try {
          await del(`/api/scenarios/${id}/timeline/${i}`);
          await loadTimeline();
          ok(`timeline action ${i} deleted`);
        } catch (e) {
          fail(e);
        }
      });
      return el('tr', {}, el('td', {}, String(i)), el('td', {}, String(at)), el('td', { class: 'mono', title: JSON.stringify(action) }, actionSummary(action)), el('td', {}, rm));
    }));
    if (items.length === 0) tb.replaceChildren(el('tr', {}, el('td', { colspan: '4', class: 'hint' }, 'no timeline actions')));
  }

  const taskForm = $<HTMLFormElement>('task-form');
  taskForm.hidden = readOnly || !id;
  const taskField = (k: string) => taskForm.elements.namedItem(k) as HTMLInputElement | HTMLSelectElement | null;
  /** Placeholders from the parser: "groups: 10" for a default, "run: required" (marked) for a required key. */
  function labelTaskForm(d: ScenarioDefaults): void {
    const kind = (taskField('kind') as HTMLSelectElement).value;
    const w = d.workloads[kind];
    for (const k of WORKLOAD_KEYS[kind] ?? []) {
      const f = taskField(k);
      if (!f) continue;
      const required = w?.required.includes(k) ?? false;
      f.classList.toggle('required', required);
      f.toggleAttribute('aria-required', required);
      const dflt = w?.defaults[k];
      if (f instanceof HTMLSelectElement) {
        let auto = f.querySelector<HTMLOptionElement>('option[data-default]');
        if (!auto) {
          auto = Object.assign(document.createElement('option'), { value: '' });
          auto.dataset.default = 'true';
          f.prepend(auto);
          f.value = '';
        }
        auto.textContent = `default (${dflt})`;
      } else {
        f.placeholder = required ? `${k}: required` : `${k}: ${dflt}`;
        f.title = required ? `${k} is required for ${kind}` : `left empty: ${dflt} (the parser's default)`;
      }
    }
    taskField('count')!.setAttribute('placeholder', `count: ${d.task.count}`);
    taskField('cpus_allowed')!.setAttribute('placeholder', `cpus: ${d.task.cpus_allowed}`);
    const policyDefault = taskField('policy')!.querySelector('option[value=""]');
    if (policyDefault) policyDefault.textContent = `default (${d.task.policy})`;
  }
  taskForm.addEventListener('input', (ev) => (ev.target as HTMLElement).classList.remove('missing'));
  taskForm.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const fields = Object.fromEntries(new FormData(taskForm)) as Record<string, string>;
    const missing = defaults ? missingRequired(fields, defaults) : [];
    if (missing.length) {
      // no silent placeholder: the empty required fields are marked and named
      for (const k of missing) taskField(k)?.classList.add('missing');
      const example = { periodic: 'run 5ms, sleep 10ms', 'go-sleep-loop': 'run 5ms, sleep 100ms', 'fixed-work': 'work 1s' }[fields.kind] ?? '';
      fail(new Error(`${fields.kind} needs ${missing.join(' and ')}: fill the fields marked required${example ? ` (e.g. ${example})` : ''}`));
      return;
    }
    try {
      await sendJson('POST', `/api/scenarios/${id}/tasks`, taskEntry(fields));
      await Promise.all([loadTasks(), loadTree()]);
      taskForm.reset();
      showWorkloadFields();
      ok('task added');
    } catch (e) {
      fail(e);
    }
  });
  // each workload's own parameters: only those of the chosen kind are shown (and sent: the others are disabled)
  function showWorkloadFields(): void {
    const kind = (taskField('kind') as HTMLSelectElement).value;
    for (const span of taskForm.querySelectorAll<HTMLElement>('[data-kinds]')) {
      const on = span.dataset.kinds!.split(' ').includes(kind);
      span.hidden = !on;
      for (const f of span.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input,select')) f.disabled = !on;
    }
    for (const f of taskForm.querySelectorAll('.missing')) f.classList.remove('missing');
    if (defaults) labelTaskForm(defaults);
  }
  (taskField('kind') as HTMLSelectElement).addEventListener('change', showWorkloadFields);
  showWorkloadFields();
  $('mkdir-form').hidden = readOnly || !id;

  const timelineForm = $<HTMLFormElement>('timeline-form');
  timelineForm.hidden = readOnly || !id;
  timelineForm.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const f = timelineForm.elements as any;
    let entry: Record<string, unknown> | null = null;
    try {
      entry = timelineEntry(f.at.value, f.kind.value, f.arg1.value, f.arg2.value);
      await sendJson('POST', `/api/scenarios/${id}/timeline`, entry);
      await loadTimeline();
      timelineForm.reset();
      ok('timeline action added');
    } catch (e) {
      fail(e);
      // a refused write reads as the tree's do: the command, then the kernel's reason and errno
      if (entry && e instanceof ApiError && (e.problem.errors?.length ?? 1) <= 1) {
        errorEl.textContent = actionRefusal(entry, e.problem.detail ?? e.message, e.problem.errno);
      }
    }
  });

  void fillOptions();
  if (!id) {
    treeEl.replaceChildren(el('p', { class: 'hint' }, 'Create the scenario first (machine and kernel above), then add groups and tasks.'));
    // the tasks and timeline tables say the same, not bare headers (newcomer walk 4)
    document.querySelector('#tasks-table tbody')!.replaceChildren(el('tr', {}, el('td', { colspan: '7', class: 'hint' },
      'no tasks yet: create the scenario first, then add tasks here')));
    document.querySelector('#timeline-table tbody')!.replaceChildren(el('tr', {}, el('td', { colspan: '4', class: 'hint' },
      'no timeline actions yet: create the scenario first, then add them here')));
    return;
  }
  Promise.all([loadDoc(), loadTree(), loadTasks(), loadTimeline()]).then(
    () => (body.dataset.loaded = 'true'),
    (e) => showError(errorEl, e),
  );
}
