// Home: Run buttons (POST /api/runs), ready-made experiments (POST /api/experiments), the experiments table and
// the runs table (runs that belong to no experiment, with the settings they ran with), refreshed every second
// while something is active; finished runs and experiments can be deleted.
import { formatDurationNs, formatPace, plural } from '../format';
import { clearErrorBeside, del, el, getJson, paceOption, sendJson, showError, showErrorBeside, startRun, type ExperimentView, type RunView } from '../api';
import { summarize } from '../settings';
import { outcome, shownStatus } from '../runstatus';
import { labelCells } from '../tables';

const FINISHED = ['done', 'failed', 'cancelled'];

export function initHomePage(): void {
  const errorEl = document.getElementById('run-error');
  const expErrorEl = document.getElementById('experiment-error');
  const form = document.getElementById('compare-form') as HTMLFormElement;
  const picked: string[] = [];
  const pace = paceOption();

  for (const btn of document.querySelectorAll<HTMLButtonElement>('.run-btn')) {
    btn.addEventListener('click', async () => {
      btn.disabled = true;
      clearErrorBeside(btn);
      try {
        const run = await startRun(btn.dataset.scenarioId!, pace());
        location.href = `/runs/${run.id}`;
      } catch (e) {
        showErrorBeside(btn, e);
        btn.disabled = false;
      }
    });
  }

  // a saved scenario can be deleted here (DELETE /api/scenarios/{id}); ready-made ones say they cannot
  for (const btn of document.querySelectorAll<HTMLButtonElement>('.delete-scenario-btn')) {
    btn.addEventListener('click', async () => {
      if (!confirm(`Delete the scenario "${btn.dataset.scenarioName}"? Its finished runs stay.`)) return;
      btn.disabled = true;
      clearErrorBeside(btn);
      try {
        await del(`/api/scenarios/${encodeURIComponent(btn.dataset.scenarioId!)}`);
        const tr = btn.closest('tr')!;
        const tbody = tr.parentElement!;
        tr.remove();
        if (!tbody.children.length) {
          tbody.append(el('tr', {}, el('td', { colspan: '2', class: 'hint' }, 'No saved scenarios left.')));
        }
      } catch (e) {
        showErrorBeside(btn, e);
        btn.disabled = false;
      }
    });
  }

  for (const btn of document.querySelectorAll<HTMLButtonElement>('.run-experiment-btn')) {
    btn.addEventListener('click', async () => {
      btn.disabled = true;
      clearErrorBeside(btn);
      try {
        const doc = await getJson<unknown>(`/api/experiments/ready-made/${encodeURIComponent(btn.dataset.experimentId!)}`);
        const x = await sendJson<ExperimentView>('POST', '/api/experiments', doc);
        location.href = `/experiments/${x.id}`;
      } catch (e) {
        showErrorBeside(btn, e);
        btn.disabled = false;
      }
    });
  }

  const created = new Map<string, string>();
  function updateCompare(): void {
    const [a, b] = oldestFirst(picked.map((id) => ({ id, createdAt: created.get(id) ?? '' })));
    (form.elements.namedItem('a') as HTMLInputElement).value = a?.id ?? '';
    (form.elements.namedItem('b') as HTMLInputElement).value = b?.id ?? '';
    form.querySelector('button')!.disabled = picked.length !== 2;
  }

  const tbody = document.querySelector('#runs tbody')!;
  const rows = new Map<string, HTMLTableRowElement>();

  function deleteButton(url: string, what: string, after: () => void): HTMLButtonElement {
    const b = el('button', { type: 'button', class: 'small delete-btn', title: `delete this ${what} and its results` }, 'Delete');
    b.addEventListener('click', async () => {
      if (!confirm(`Delete this ${what} and its results?`)) return;
      b.disabled = true;
      clearErrorBeside(b);
      try {
        await del(url);
        after();
      } catch (e) {
        showErrorBeside(b, e);
        b.disabled = false;
      }
    });
    return b;
  }

  function row(r: RunView): HTMLTableRowElement {
    let tr = rows.get(r.id);
    if (!tr) {
      const box = el('input', { type: 'checkbox', title: 'compare' });
      box.addEventListener('change', () => {
        const i = picked.indexOf(r.id);
        if (box.checked && i < 0) picked.push(r.id);
        if (!box.checked && i >= 0) picked.splice(i, 1);
        while (picked.length > 2) {
          const dropped = picked.shift()!;
          const other = rows.get(dropped)?.querySelector('input');
          if (other) other.checked = false;
        }
        updateCompare();
      });
      const s = summarize(r.settings);
      tr = el('tr', { 'data-run-id': r.id },
        el('td', {}, box),
        el('td', {}, el('a', { href: `/runs/${r.id}`, class: 'mono' }, r.id.slice(0, 8))),
        el('td', {}, r.scenarioName ?? ''),
        el('td', {}, el('span', { class: 'badge' })),
        el('td', { class: 'progress-col' }, el('progress', { max: '100' })),
        el('td', { class: 'num' }), el('td', { class: 'num' }),
        el('td', { class: 'pace' }, paceText(r.pace)),
        // one cell that wraps between its values, never inside one ("generic, 4 / CPUs"): task/async · 6.18 · HZ 1000 ·
        // generic, 16 CPUs (each value findable by its data-setting)
        el('td', { class: 'ran-with' }, el('span', { 'data-setting': 'throttle' }, s.throttle), '/',
          el('span', { 'data-setting': 'unthrottle' }, s.unthrottle), ' · ', el('span', { 'data-setting': 'version' }, s.version),
          ' · ', el('span', { class: 'nowrap' }, 'HZ ', el('span', { 'data-setting': 'hz' }, s.hz)), ' · ', el('span', { 'data-setting': 'machine' }, s.machine)),
        el('td', { class: 'when' }, ...whenCell(r.createdAt)), el('td', { class: 'actions' }));
      rows.set(r.id, tr);
    }
    const cells = tr.children;
    const badge = cells[3].firstElementChild as HTMLElement;
    const word = shownStatus(r);
    badge.textContent = word;
    badge.className = `badge ${word}`;
    badge.title = r.error ? outcome(r.status, r.error) : '';
    const bar = cells[4].firstElementChild as HTMLProgressElement;
    bar.value = r.progress;
    bar.dataset.progress = String(r.progress);
    created.set(r.id, r.createdAt);
    const box = cells[0].firstElementChild as HTMLInputElement;
    box.disabled = r.status !== 'done';
    box.title = compareTitle(r);
    cells[5].textContent = `${formatDurationNs(r.simulatedNs)} / ${formatDurationNs(r.durationNs)}`;
    cells[6].textContent = r.wallMs > 0 ? formatDurationNs(r.wallMs * 1e6) : '–';
    const actions = cells[10] as HTMLElement;
    if (FINISHED.includes(r.status) && !actions.firstChild) {
      actions.append(deleteButton(`/api/runs/${r.id}`, 'run', () => {
        tr!.remove();
        rows.delete(r.id);
      }));
    }
    return tr;
  }

  async function refresh(): Promise<void> {
    try {
      const runs = await getJson<RunView[]>('/api/runs?standalone=true');
      if (runs.length === 0) {
        tbody.replaceChildren(el('tr', {}, el('td', { colspan: '11', class: 'hint' }, 'No runs yet: press Run on a scenario.')));
      } else {
        tbody.replaceChildren(...runs.slice(0, 200).map(row));
        labelCells(tbody.closest('table') as HTMLTableElement);
      }
      const active = runs.some((r) => r.status === 'queued' || r.status === 'running');
      setTimeout(refresh, active ? 1000 : 3000);
    } catch (e) {
      showError(errorEl, e);
      setTimeout(refresh, 5000);
    }
  }
  void refresh();

  const expBody = document.querySelector('#experiments-table tbody');
  async function refreshExperiments(): Promise<void> {
    if (!expBody) return;
    try {
      const list = await getJson<ExperimentView[]>('/api/experiments');
      if (list.length === 0) {
        expBody.replaceChildren(el('tr', {}, el('td', { colspan: '6', class: 'hint' }, 'No experiments yet: press Run on a ready-made one.')));
      } else {
        expBody.replaceChildren(...list.map((x) => {
          const bar = el('progress', { max: '100' });
          bar.value = x.progress;
          bar.dataset.progress = String(x.progress);
          const actions = el('td', { class: 'actions' });
          if (FINISHED.includes(x.status)) {
            actions.append(deleteButton(`/api/experiments/${x.id}`, 'experiment', () => void refreshExperiments()));
          }
          return el('tr', { 'data-experiment-id': x.id },
            el('td', {}, el('a', { href: `/experiments/${x.id}` }, x.name)),
            el('td', {}, el('span', { class: `badge ${x.status}`, title: x.error ? outcome(x.status, x.error) : '' }, x.status)),
            el('td', { class: 'progress-col' }, bar),
            el('td', { class: 'num' }, `${x.done}/${x.total} (${plural(x.arms.length, 'arm')} × ${x.repeats})`),
            el('td', { class: 'when' }, ...whenCell(x.createdAt)),
            actions);
        }));
      }
      const active = list.some((x) => !FINISHED.includes(x.status));
      setTimeout(refreshExperiments, active ? 1000 : 5000);
    } catch (e) {
      showError(expErrorEl, e);
      setTimeout(refreshExperiments, 5000);
    }
  }
  void refreshExperiments();
}

/** A run's pace as the run page's chip says it: "10× real time", or "as fast as possible" when none was asked. */
/**
 * The two runs ticked for compare, the older first: A is the base, B the change, so the compare page's B − A reads
 * new minus old whatever order they were ticked in (ISO 8601 instants in UTC sort as text).
 */
export function oldestFirst<T extends { createdAt: string }>(runs: T[]): T[] {
  return [...runs].sort((x, y) => (x.createdAt < y.createdAt ? -1 : x.createdAt > y.createdAt ? 1 : 0));
}

/** A run's compare checkbox hover: what ticking it does, or why it is disabled (only a done run's result is whole). */
export function compareTitle(r: Pick<RunView, 'status'>): string {
  switch (r.status) {
    case 'done': return 'compare: tick two done runs (the older is A, the newer B)';
    case 'queued': case 'running': return `cannot compare yet: the run is ${r.status}; only a done run can be compared`;
    case 'failed': return 'cannot compare: the run failed, so it has no result';
    case 'cancelled': return "cannot compare: a cancelled run's partial result covers less simulated time; only a done run can be compared";
  }
}

export function paceText(pace: number | null | undefined): string {
  return pace == null ? 'as fast as possible' : `${formatPace(pace)} real time`;
}

/**
 * When something was created, as a person here reads it: the date and time in this browser's time zone with the
 * zone's name ("2026-12-01 08:30:05 GMT+1", "2026-12-01 02:30:05 EST"); the exact instant, ISO 8601 in UTC, is the
 * cell's hover text and its `datetime`.
 */
export function whenText(iso: string, timeZone?: string): string {
  const p = Object.fromEntries(new Intl.DateTimeFormat('en-CA', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    hourCycle: 'h23', timeZoneName: 'short',
  }).formatToParts(new Date(iso)).map((x) => [x.type, x.value]));
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second} ${p.timeZoneName}`;
}

function whenCell(iso: string | null | undefined): Node[] {
  if (!iso) return [document.createTextNode('–')];
  const t = document.createElement('time');
  t.dateTime = new Date(iso).toISOString();
  t.title = t.dateTime;
  // the date over the time and zone (each kept whole), so that the column stays narrow
  const text = whenText(iso);
  const cut = text.indexOf(' ');
  t.append(el('span', { class: 'nowrap' }, text.slice(0, cut)), ' ', el('span', { class: 'nowrap' }, text.slice(cut + 1)));
  return [t];
}
