// The page's layout faults, as a newcomer sees them at this window width (LayoutBrowserTest runs it at 1400 and 800 px):
//  - a table wider than the panel (or scroll box) that holds it: its last columns (Delete buttons) are cut off or
//    scroll out of sight;
//  - a header cell whose text is wider than its cell, so that it runs into its neighbour (cpu.max.burst, cpu.weight);
//  - an input or select whose value or placeholder is wider than its box (a name field, "default: …" placeholders);
//  - a table cell whose text wraps inside a word ("/timeline/5/taskse" over "t"): a line that ends with a letter or
//    digit while the next starts with one, in one text node (a break at a space, "/", "-" or "," is a wrap, not a fault);
//  - a heading that shows a full 36-character id (it wrapped onto a second line at 1400 px): headings show the
//    8-character short id, the full one on hover (docs/dashboard.md);
//  - a chart's axis label longer than its axis (uPlot draws it centred on the canvas and cuts both ends:
//    "pulls_into_throttled (count"): the labels drawn (data-drawn-axes, else the titles given, data-axes) measured at
//    uPlot's label font against the plot area (.u-over): x against its width, y against its height.
//  - a chart whose y axis reads in one unit and its legend in another (the strip plot drew "500 ms" ticks beside a
//    legend of "511,424" raw µs): the ticks drawn (data-yticks) and the legend's values but the x column's, each read
//    as a duration, rate, percentage or bare number by the rule of units.ts's unitKind (a text naming its own unit in
//    words, "1,234 calls", and a bare 0 tick are no unit).
// Returns one line per fault; an empty list when there is none. Hidden elements are skipped.
const faults = [];
const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
const name = (e) => e.id ? '#' + e.id : e.getAttribute('name') ? `[name=${e.getAttribute('name')}]` : e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ')[0] : '');
for (const t of document.querySelectorAll('main table')) {
  if (!shown(t)) continue;
  const box = t.closest('.table-x, .table-scroll, .panel, section, main');
  const tw = Math.ceil(t.getBoundingClientRect().width);
  const bw = box.clientWidth;
  if (tw > bw + 1) faults.push(`table ${name(t)}: ${tw} px in a ${bw} px ${name(box)}`);
}
// header cells: a table's, and the cgroup tree's header row (a grid of spans)
for (const th of document.querySelectorAll('main th, main .tree-head > *')) {
  {
    if (!shown(th)) continue;
    const t = th.closest('table, .tree-head');
    // text wider than the cell's box (overflowing into the next cell)
    const range = document.createRange();
    range.selectNodeContents(th);
    const text = range.getBoundingClientRect();
    const cell = th.getBoundingClientRect();
    if (text.width > 0 && (text.right > cell.right + 1 || text.left < cell.left - 1)) {
      faults.push(`header "${th.textContent.trim()}" of ${name(t)}: its text ${Math.ceil(text.width)} px in a ${Math.floor(cell.width)} px cell`);
    }
  }
}
const canvas = document.createElement('canvas').getContext('2d');
for (const i of document.querySelectorAll('main input:not([type=checkbox]):not([type=radio]):not([type=file]):not([type=hidden]), main select')) {
  if (!shown(i)) continue;
  const cs = getComputedStyle(i);
  canvas.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
  const inner = i.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - (i.tagName === 'SELECT' ? 20 : 0);
  const texts = i.tagName === 'SELECT' ? [i.selectedOptions[0]?.textContent ?? ''] : [i.value, i.placeholder];
  for (const text of texts) {
    const w = canvas.measureText(text).width;
    if (text && w > inner + 1) faults.push(`${i.tagName.toLowerCase()} ${name(i)}: "${text}" is ${Math.ceil(w)} px in ${Math.floor(inner)} px`);
  }
}
// a word broken across lines in a table cell: only text nodes drawn on more than one line are scanned, a character
// at a time (a Range per character gives its line box), so a page of single-line cells costs one Range per node
const word = /[\p{L}\p{N}_]/u;
for (const td of document.querySelectorAll('main td')) {
  if (!shown(td)) continue;
  const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n.textContent;
    if (text.trim().length < 2) continue;
    const whole = document.createRange();
    whole.selectNodeContents(n);
    const lines = new Set([...whole.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
    if (lines.size < 2) continue;
    const r = document.createRange();
    let prevTop = null;
    for (let k = 0; k < text.length; k++) {
      if (/\s/.test(text[k])) continue;
      r.setStart(n, k);
      r.setEnd(n, k + 1);
      const rect = [...r.getClientRects()].find((x) => x.width > 0);
      if (!rect) continue;
      const top = Math.round(rect.top);
      if (prevTop != null && top > prevTop + 2 && word.test(text[k]) && k > 0 && word.test(text[k - 1])) {
        faults.push(`cell of ${name(td.closest('table'))}: "${text.trim()}" breaks inside a word, before "${text.slice(k, k + 12)}"`);
        break;
      }
      prevTop = top;
    }
  }
}
const uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;
for (const h of document.querySelectorAll('main h1, main h2, main h3')) {
  if (shown(h) && uuid.test(h.textContent)) faults.push(`heading ${name(h)}: "${h.textContent.trim()}" shows a full id`);
}
const labelFont = 'bold 12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';
for (const c of document.querySelectorAll('main [data-axes]')) {
  const over = c.querySelector('.u-over');
  if (!shown(c) || !over) continue;
  const labels = JSON.parse(c.dataset.drawnAxes || c.dataset.axes);
  canvas.font = labelFont;
  const box = over.getBoundingClientRect();
  labels.forEach((label, i) => {
    if (!label) return;
    const w = canvas.measureText(label).width;
    const room = i === 0 ? box.width : box.height;
    if (w > room + 1) faults.push(`chart ${name(c)}: axis label "${label}" is ${Math.ceil(w)} px on a ${Math.floor(room)} px axis`);
  });
}
// the same rule as frontend/src/units.ts unitKind (axes.test.ts holds every chart's formats to it)
const unitKind = (text) => {
  const t = text.trim();
  if (/^-?[\d,]*\.?\d+ ?(ns|µs|ms|s|min|h)$/.test(t)) return 'duration';
  if (/^-?[\d,]*\.?\d+ ?\/s$/.test(t)) return 'rate';
  if (/^-?[\d,]*\.?\d+ ?%( \([\d,]+\))?$/.test(t)) return 'percent';
  if (/^-?[\d,]*\.?\d+$/.test(t)) return 'number';
  return null;
};
for (const c of document.querySelectorAll('main [data-yticks]')) {
  if (!shown(c)) continue;
  const ticks = new Set(JSON.parse(c.dataset.yticks).filter((t) => t !== '0').map(unitKind).filter((k) => k));
  const values = [...c.querySelectorAll('.u-legend .u-series')].slice(1) // the first is the x column (time, arm, bucket)
    .map((row) => row.querySelector('.u-value')?.textContent ?? '').filter((v) => unitKind(v));
  const other = values.find((v) => ticks.size > 0 && !ticks.has(unitKind(v)));
  if (ticks.size > 1 || other) {
    faults.push(`chart ${name(c)}: axis ticks ${JSON.stringify(JSON.parse(c.dataset.yticks))} ${other ? `but legend value "${other}"` : 'in more than one unit'}`);
  }
}
return faults;
