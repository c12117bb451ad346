// Scenario editor: the cgroup tree as a virtual list (only the rows in view exist, so seed 01's 2,202
// groups stay fast), cgroupfs-style in-place writes of cpu.max, cpu.max.burst and cpu.weight with the
// kernel's message on a refused write, tasks, timeline, kernel options and machine, import/export.
import { ApiError, cgroupFileUrl, del, el, getJson, getText, paceOption, putText, sendJson, showError, startRun } from '../api';

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
const OVERSCAN = 10;

export const DEFAULT_SCENARIO = {
  name: 'new scenario',
  seed: 1,
  duration: '5s',
  machine: { profile: 'generic', cpus: 2 },
  kernel: { throttle: 'task', unthrottle: 'async', hz: 1000, bandwidth_slice_us: 5000, timer_placement: 'random' },
  record: { interval: '100ms' },
};

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
 * (periodic and go-sleep-loop: run and sleep; go-sleep-loop: threads; fixed-work: work), and the optional policy, priority and allowed CPUs. Empty fields are
 * left out (the contract's defaults apply).
 */
export function taskEntry(f: Record<string, string>): Record<string, unknown> {
  const v = (k: string) => (f[k] ?? '').trim();
  const kind = v('kind') || 'hog';
  const workload: Record<string, unknown> = { kind };
  if (kind === 'periodic' || kind === 'go-sleep-loop') {
    if (v('run')) workload.run = v('run');
    if (v('sleep')) workload.sleep = v('sleep');
  }
  // the 2017 reporters' Go program: its OS threads (the contract's default, 5, when left empty)
  if (kind === 'go-sleep-loop' && v('threads')) workload.threads = Number(v('threads'));
  if (kind === 'fixed-work' && v('work')) workload.work = v('work');
  // the benchmark workloads, with the seeds' parameters where a field is left empty (`hackbench -p -g 1 -f 20 -l 100`)
  if (kind === 'hackbench') {
    workload.mode = v('mode') || 'pipe';
    const given: Record<string, number> = { groups: 1, fds: 20, loops: 100, datasize: 100 };
    for (const k of Object.keys(given)) workload[k] = v(k) ? Number(v(k)) : given[k];
  }
  if (kind === 'netperf-udp-rr') {
    for (const k of ['request_size', 'response_size']) workload[k] = v(k) ? Number(v(k)) : 1;
  }
  const task: Record<string, unknown> = { name: v('name'), cgroup: v('cgroup'), count: Number(v('count') || '1'), workload };
  if (v('policy')) task.policy = v('policy');
  if (v('priority')) task.priority = Number(v('priority'));
  if (v('cpus_allowed')) task.cpus_allowed = v('cpus_allowed');
  return task;
}

function getPath(obj: Record<string, any>, dotted: string): unknown {
  return dotted.split('.').reduce<any>((o, k) => (o == null ? undefined : o[k]), obj);
}

function setPath(obj: Record<string, any>, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let o = obj;
  for (const k of keys.slice(0, -1)) o = o[k] ??= {};
  const last = keys[keys.length - 1];
  if (value === '' || value == null) delete o[last];
  else o[last] = value;
}

/** A task entry's scheduling policy as chrt names it: `normal` when left out, `rr 10` with an RT priority. */
export function policyText(t: { policy?: string; priority?: number }): string {
  return `${t.policy ?? 'normal'}${t.priority != null ? ` ${t.priority}` : ''}`;
}

/** What a key left out of a scenario means (docs/scenarios.md), shown in its empty field. */
export const OPTION_DEFAULTS: Record<string, string> = {
  'machine.profile': 'generic',
  'machine.cpus': '2',
  'kernel.throttle': "version's (task on 6.18)",
  'kernel.unthrottle': "version's (async on 6.18)",
  'kernel.hz': '1000',
  'kernel.bandwidth_slice_us': '5000',
  'kernel.timer_placement': "version's (random on 6.18)",
  'record.interval': '1s',
};

const NUMERIC = new Set(['seed', 'machine.cpus', 'kernel.hz', 'kernel.bandwidth_slice_us']);

function problemText(e: unknown): string {
  if (e instanceof ApiError) {
    const list = e.problem.errors ?? [];
    if (list.length > 1) return list.map((x) => `${x.pointer ?? ''}: ${x.reason}${x.errno ? ` (${x.errno})` : ''}`).join('\n');
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

  const nodes = new Map<string, TreeNode>();
  const expanded = new Set<string>();
  const rowErrors = new Map<string, string>();
  let rows: { path: string; depth: number }[] = [];
  const rendered = new Map<string, HTMLElement>();

  function fail(e: unknown): void {
    errorEl.hidden = false;
    errorEl.textContent = problemText(e);
    statusEl.textContent = ''; // no stale "ok" next to the error
  }
  function ok(msg: string): void {
    errorEl.hidden = true;
    statusEl.textContent = msg;
  }

  // ---- scenario document, options, import/export ----
  function fillOptions(): void {
    for (const input of optionsForm.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input[name],select[name]')) {
      const v = getPath(doc, input.name);
      const dflt = OPTION_DEFAULTS[input.name];
      if (input instanceof HTMLSelectElement) {
        // a key left out runs with its default: the select says which (not a blank)
        let auto = input.querySelector<HTMLOptionElement>('option[data-default]');
        if (dflt !== undefined && !auto) {
          auto = Object.assign(document.createElement('option'), { value: '', textContent: `default (${dflt})` });
          auto.dataset.default = 'true';
          input.prepend(auto);
        }
        input.value = v == null ? '' : String(v);
      } else {
        input.value = v == null ? '' : String(v);
        if (dflt !== undefined) input.placeholder = `default: ${dflt}`;
      }
      input.disabled = readOnly;
    }
    optionsForm.querySelector('button')!.hidden = readOnly;
    if (!id) optionsForm.querySelector('button')!.textContent = 'Create scenario';
  }

  async function loadDoc(): Promise<void> {
    const v = await getJson<ScenarioView>(`/api/scenarios/${id}`);
    doc = v.scenario;
    $('scenario-title').textContent = v.name;
    fillOptions();
  }

  async function createAndOpen(d: Record<string, any>): Promise<void> {
    const created = await sendJson<ScenarioView>('POST', '/api/scenarios', d);
    location.href = `/scenarios/${created.id}`;
  }

  optionsForm.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const next = structuredClone(doc);
    for (const input of optionsForm.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input[name],select[name]')) {
      const raw = input.value.trim();
      setPath(next, input.name, raw === '' ? null : NUMERIC.has(input.name) ? Number(raw) : raw);
    }
    try {
      if (!id) return await createAndOpen(next);
      await sendJson('PUT', `/api/scenarios/${id}`, next);
      await loadDoc();
      ok('options saved');
    } catch (e) {
      fail(e);
    }
  });

  $('export-json').addEventListener('click', async () => {
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
    try {
      const d = JSON.parse(await file.text());
      if (!id || readOnly) return await createAndOpen(d);
      await sendJson('PUT', `/api/scenarios/${id}`, d);
      location.reload();
    } catch (e) {
      fail(e);
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
    try {
      location.href = `/runs/${(await startRun(id, pace())).id}`;
    } catch (e) {
      fail(e);
    }
  });

  // ---- cgroup tree ----
  function rebuildRows(): void {
    rows = nodes.has('/') ? visibleRows(nodes, '/', expanded) : [];
    spacer.style.height = `${rows.length * ROW_HEIGHT}px`;
    treeEl.dataset.rows = String(rows.length);
    for (const r of rendered.values()) r.remove();
    rendered.clear();
    renderWindow();
  }

  function renderWindow(): void {
    const first = Math.max(0, Math.floor(treeEl.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(rows.length, Math.ceil((treeEl.scrollTop + treeEl.clientHeight) / ROW_HEIGHT) + OVERSCAN);
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
      r.style.top = `${i * ROW_HEIGHT}px`;
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
      input.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter') void write(path, file, input);
        if (ev.key === 'Escape') input.value = n.files?.[file] ?? '';
      });
      input.addEventListener('change', () => void write(path, file, input));
      row.append(input);
    }
    row.append(el('span', { class: 'c-tasks', title: n.tasks.join(', ') }, n.tasks.join(', ')));
    const err = rowErrors.get(path);
    row.append(el('span', { class: 'row-error', title: err ?? '' }, err ?? ''));
    row.classList.toggle('has-error', !!err);
    return row;
  }

  async function write(path: string, file: string, input: HTMLInputElement): Promise<void> {
    if (readOnly) return;
    const n = nodes.get(path)!;
    const value = input.value.trim();
    if (value === '') return; // a field emptied to type a new value: nothing to write yet
    if (input.dataset.busy === value) return; // Enter then change: one write
    input.dataset.busy = value;
    const row = input.closest('.tree-row') as HTMLElement;
    const errSpan = row.querySelector('.row-error') as HTMLElement;
    try {
      await putText(cgroupFileUrl(id, path, file), value);
      const now = (await getText(cgroupFileUrl(id, path, file))).trim();
      n.files![file] = now;
      input.value = now;
      rowErrors.delete(path);
      row.classList.remove('has-error');
      errSpan.textContent = '';
      errSpan.title = '';
      input.classList.add('saved');
      setTimeout(() => input.classList.remove('saved'), 800);
      ok(`echo '${value}' > ${path === '/' ? '' : path}/${file}: ok`);
    } catch (e) {
      const msg = problemText(e);
      // the kernel kept its value: the field shows it again (the refused text stays in the error)
      input.value = n.files?.[file] ?? '';
      rowErrors.set(path, msg);
      row.classList.add('has-error');
      errSpan.textContent = msg;
      errSpan.title = msg;
      input.classList.add('bad');
      setTimeout(() => input.classList.remove('bad'), 800);
      fail(e);
    } finally {
      setTimeout(() => delete input.dataset.busy, 0);
    }
  }

  async function loadTree(): Promise<void> {
    const list = await getJson<TreeNode[]>(`/api/scenarios/${id}/cgroups`);
    nodes.clear();
    for (const n of list) nodes.set(n.path, n);
    if (expanded.size === 0) {
      expanded.add('/');
      if (list.length <= 200) for (const n of list) expanded.add(n.path);
    }
    $('tree-count').textContent = `${list.length - 1} groups`;
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
        } catch (e) {
          fail(e);
        }
      });
      return el('tr', {}, el('td', {}, t.name), el('td', { class: 'path' }, t.cgroup), el('td', {}, String(t.count ?? 1)),
        el('td', { class: 'mono' }, JSON.stringify(t.workload ?? {})), el('td', { class: 'policy' }, policyText(t)),
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
        } catch (e) {
          fail(e);
        }
      });
      return el('tr', {}, el('td', {}, String(i)), el('td', {}, String(at)), el('td', { class: 'mono' }, JSON.stringify(action)), el('td', {}, rm));
    }));
    if (items.length === 0) tb.replaceChildren(el('tr', {}, el('td', { colspan: '4', class: 'hint' }, 'no timeline actions')));
  }

  const taskForm = $<HTMLFormElement>('task-form');
  taskForm.hidden = readOnly || !id;
  taskForm.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const f = taskForm.elements as any;
    try {
      await sendJson('POST', `/api/scenarios/${id}/tasks`, taskEntry(Object.fromEntries(new FormData(taskForm)) as Record<string, string>));
      await Promise.all([loadTasks(), loadTree()]);
      taskForm.reset();
      showWorkloadFields();
      ok('task added');
    } catch (e) {
      fail(e);
    }
  });
  // each workload's own parameters: only those of the chosen kind are shown
  function showWorkloadFields(): void {
    const kind = (taskForm.elements.namedItem('kind') as HTMLSelectElement).value;
    for (const span of taskForm.querySelectorAll<HTMLElement>('[data-kinds]')) span.hidden = !span.dataset.kinds!.split(' ').includes(kind);
  }
  (taskForm.elements.namedItem('kind') as HTMLSelectElement).addEventListener('change', showWorkloadFields);
  showWorkloadFields();
  $('mkdir-form').hidden = readOnly || !id;

  const timelineForm = $<HTMLFormElement>('timeline-form');
  timelineForm.hidden = readOnly || !id;
  timelineForm.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const f = timelineForm.elements as any;
    try {
      const entry = timelineEntry(f.at.value, f.kind.value, f.arg1.value, f.arg2.value);
      await sendJson('POST', `/api/scenarios/${id}/timeline`, entry);
      await loadTimeline();
      timelineForm.reset();
      ok('timeline action added');
    } catch (e) {
      fail(e);
    }
  });

  fillOptions();
  if (!id) {
    treeEl.replaceChildren(el('p', { class: 'hint' }, 'Create the scenario first (machine and kernel above), then add groups and tasks.'));
    return;
  }
  Promise.all([loadDoc(), loadTree(), loadTasks(), loadTimeline()]).then(
    () => (body.dataset.loaded = 'true'),
    (e) => showError(errorEl, e),
  );
}
