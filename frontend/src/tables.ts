// Tables whose columns depend on what the run recorded: a column that no row fills (cpu.stat's burst keys before
// 5.16, cpu.stat.local before 6.6, cgroup v1's user/system time, a run-stretch time where no task is periodic) is
// hidden rather than shown blank, and a note under the table names each hidden column and says why it is empty.

/** A cell with nothing to read: no text, or only the pages' "absent" dash, and no drawing (a meter) inside. */
export function isBlankCell(cell: Element): boolean {
  const t = (cell.textContent ?? '').trim();
  return (t === '' || t === '–' || t === '-') && cell.querySelector('div, canvas, svg, progress, a, input, button') === null;
}

/**
 * The indexes of the columns of `rows` (cells by position) that are blank in every row; none when there are no
 * rows (an empty table says so on its own).
 */
export function blankColumns(rows: Element[][]): number[] {
  if (rows.length === 0) return [];
  const width = Math.max(...rows.map((r) => r.length));
  const out: number[] = [];
  for (let i = 0; i < width; i++) {
    if (rows.every((r) => r[i] == null || isBlankCell(r[i]))) out.push(i);
  }
  return out;
}

/**
 * Why hidden columns are empty: one sentence for all of them, or a reason per column name (columns with the same
 * reason are named together).
 */
export type BlankReason = string | ((column: string) => string);

/**
 * The note under a table that names its hidden columns and says why, as one sentence: the names first, then each
 * reason after the columns it explains. `Not shown, empty in every row: nr_bursts, burst_usec (this kernel's cpu.stat
 * has no such key …).` or `…: run-stretch wall p50, run-stretch wall max (no task is periodic); exit (no task exits).`
 * (the reason used to come first, in parentheses, and the names after a colon at its end: "…tasks that exit): exit.").
 */
export function hiddenColumnsNote(names: string[], why: BlankReason): string {
  if (names.length === 0) return '';
  const reasonOf = typeof why === 'string' ? () => why : why;
  const groups = new Map<string, string[]>();
  for (const n of names) {
    const r = reasonOf(n);
    groups.set(r, [...(groups.get(r) ?? []), n]);
  }
  return `Not shown, empty in every row: ${[...groups].map(([r, cols]) => `${cols.join(', ')} (${r})`).join('; ')}.`;
}

/**
 * Hides the columns of a simple table (one header row, no spans) that no body row fills, and says which under it
 * (`#<table id>-hidden`, {@link hiddenColumnsNote}). Call again after each redraw: columns are shown again first.
 */
export function hideBlankColumns(table: HTMLTableElement, why: BlankReason = 'no row has a value'): string[] {
  const head = [...(table.tHead?.rows[0]?.cells ?? [])];
  const body = [...(table.tBodies[0]?.rows ?? [])].map((r) => [...r.cells]);
  for (const c of [...head, ...body.flat()]) c.hidden = false;
  const blank = blankColumns(body);
  for (const i of blank) {
    if (head[i]) head[i].hidden = true;
    for (const r of body) if (r[i]) r[i].hidden = true;
  }
  const names = blank.map((i) => head[i]?.textContent?.trim() || `column ${i + 1}`);
  const noteId = `${table.id}-hidden`;
  let note = document.getElementById(noteId);
  if (names.length === 0) {
    note?.remove();
  } else {
    if (!note) {
      note = Object.assign(document.createElement('p'), { id: noteId, className: 'hint hidden-columns' });
      (table.closest('.table-x, .table-scroll') ?? table).after(note);
    }
    note.textContent = hiddenColumnsNote(names, why);
  }
  table.dataset.hiddenColumns = names.join(',');
  return names;
}

/**
 * Gives each body cell of `table` its column's name as `data-label` (from the last header row), which a narrow
 * window shows before the cell when the table stacks its rows (`table.stack-narrow` in style.css). Cells of a column
 * without a name (a checkbox, the Delete button) get none.
 */
export function labelCells(table: HTMLTableElement): void {
  const headRows = table.tHead?.rows;
  const head = headRows?.length ? [...headRows[headRows.length - 1].cells].map((c) => c.textContent?.trim() ?? '') : [];
  for (const row of table.tBodies[0]?.rows ?? []) {
    [...row.cells].forEach((cell, i) => {
      if (head[i] && cell.colSpan === 1) cell.dataset.label = head[i];
      else delete cell.dataset.label;
    });
  }
}

/**
 * Where a long value may wrap: after each `,` `:` `/` and `{`/`[` of a JSON value or a path (`{"name":"h",` then
 * `"cgroup":"/a"}`), as segments with a `<wbr>` between them. A cell left to `overflow-wrap: anywhere` breaks a
 * compact JSON value mid-word ("wo" over "rkload"), and its min-content width lets the table squeeze the column.
 */
export function breakPoints(text: string): string[] {
  return text.split(/(?<=[,:/{[])/);
}

/** Gives each cell of `cells` its value's wrap points ({@link breakPoints}); the text stays the same. */
export function addBreakPoints(cells: Iterable<Element>): void {
  for (const cell of cells) {
    if (cell.children.length > 0) continue; // only plain-text cells
    const parts = breakPoints(cell.textContent ?? '');
    if (parts.length < 2) continue;
    cell.replaceChildren(...parts.flatMap((p, i) => (i === 0 ? [p] : [document.createElement('wbr'), p])));
  }
}
