// Home: Run buttons (POST /api/runs) and the runs table, refreshed every second with live progress bars.
import { el, fmtSeconds, getJson, showError, startRun, type RunView } from '../api';

export function initHomePage(): void {
  const errorEl = document.getElementById('run-error');
  const form = document.getElementById('compare-form') as HTMLFormElement;
  const picked: string[] = [];

  for (const btn of document.querySelectorAll<HTMLButtonElement>('.run-btn')) {
    btn.addEventListener('click', async () => {
      btn.disabled = true;
      try {
        const run = await startRun(btn.dataset.scenarioId!);
        location.href = `/runs/${run.id}`;
      } catch (e) {
        showError(errorEl, e);
        btn.disabled = false;
      }
    });
  }

  function updateCompare(): void {
    (form.elements.namedItem('a') as HTMLInputElement).value = picked[0] ?? '';
    (form.elements.namedItem('b') as HTMLInputElement).value = picked[1] ?? '';
    form.querySelector('button')!.disabled = picked.length !== 2;
  }

  const tbody = document.querySelector('#runs tbody')!;
  const rows = new Map<string, HTMLTableRowElement>();

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
      tr = el('tr', { 'data-run-id': r.id },
        el('td', {}, box),
        el('td', {}, el('a', { href: `/runs/${r.id}`, class: 'mono' }, r.id.slice(0, 8))),
        el('td', {}, r.scenarioName ?? ''),
        el('td', {}, el('span', { class: 'badge' })),
        el('td', { class: 'progress-col' }, el('progress', { max: '100' })),
        el('td', { class: 'num' }), el('td', { class: 'num' }), el('td', {}));
      rows.set(r.id, tr);
    }
    const cells = tr.children;
    const badge = cells[3].firstElementChild as HTMLElement;
    badge.textContent = r.status;
    badge.className = `badge ${r.status}`;
    badge.title = r.error ?? '';
    const bar = cells[4].firstElementChild as HTMLProgressElement;
    bar.value = r.progress;
    bar.dataset.progress = String(r.progress);
    (cells[0].firstElementChild as HTMLInputElement).disabled = r.status !== 'done';
    cells[5].textContent = `${fmtSeconds(r.simulatedNs)} / ${fmtSeconds(r.durationNs)}`;
    cells[6].textContent = `${(r.wallMs / 1000).toFixed(1)} s`;
    cells[7].textContent = r.startedAt ? new Date(r.startedAt).toLocaleTimeString() : '';
    return tr;
  }

  async function refresh(): Promise<void> {
    try {
      const runs = await getJson<RunView[]>('/api/runs');
      if (runs.length === 0) {
        tbody.replaceChildren(el('tr', {}, el('td', { colspan: '8', class: 'hint' }, 'No runs yet: press Run on a scenario.')));
      } else {
        tbody.replaceChildren(...runs.slice(0, 200).map(row));
      }
      const active = runs.some((r) => r.status === 'queued' || r.status === 'running');
      setTimeout(refresh, active ? 1000 : 3000);
    } catch (e) {
      showError(errorEl, e);
      setTimeout(refresh, 5000);
    }
  }
  void refresh();
}
