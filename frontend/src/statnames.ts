// One name per cpu.stat quantity on every page (newcomer walk 4, item 8): the kernel's key, with its file where the
// file is not cpu.stat (`throttled_usec (cpu.stat.local)`), and one axis title per key (`nr_throttled (periods)`),
// so that the run page's table and charts, the compare page and an experiment's strip plots say the same.

/** The name a table column or heading gives key `key` of `file`: the key as the kernel prints it, and its file unless cpu.stat. */
export function statLabel(file: 'cpu.stat' | 'cpu.stat.local', key: string): string {
  return file === 'cpu.stat' ? key : `${key} (cpu.stat.local)`;
}

/**
 * What a cpu.stat key's value counts, for an axis title: `periods` for nr_periods, nr_throttled and nr_bursts (the
 * kernel counts each once per enforcement period: "nr_throttled: the number of periods above in which execution was
 * throttled", Nikhil Rao's cpu.stat patch; nr_bursts the periods in which a burst occurred, sched-bwc.rst), `time`
 * for a `*_usec` value, `count` for anything else.
 */
export function statMeasure(key: string): 'periods' | 'time' | 'count' {
  if (key === 'nr_periods' || key === 'nr_throttled' || key === 'nr_bursts') return 'periods';
  if (/_usec$|_us$|_ns$|_time$/.test(key)) return 'time';
  return 'count';
}

/** An axis's title for a cpu.stat key: `nr_throttled (periods)`, `throttled_usec (time)`. */
export function statAxisTitle(key: string): string {
  return `${key} (${statMeasure(key)})`;
}

/**
 * Why cpu.stat.local's throttled_usec can exceed the group's cpu.stat throttled_usec, or be non-zero for a group
 * with no quota (kernel 6.6, 677ea015f231 "sched: add throttled time stat for throttled children", Josh Don): the
 * local value counts the time this group's own runqueues spent throttled whoever's limit throttled them (its own
 * cpu.max or an ancestor's: throttle_cfs_rq marks every cfs_rq below the limited one, tg_throttle_down), and only
 * while they had a task queued; cpu.stat's throttled_usec counts the group's own cpu.max only.
 */
export const LOCAL_THROTTLED_NOTE =
  "throttled_usec (cpu.stat.local) is the time this group's own runqueues were throttled by any limit, its own cpu.max " +
  "or an ancestor's, counted only while they had a task queued (kernel 6.6 on); cpu.stat's throttled_usec counts its own " +
  'cpu.max only. So a group without a quota under a limited parent reads 0 in cpu.stat and more than 0 locally, and a ' +
  'limited group whose parent throttles it too can read more locally than in cpu.stat.';

/**
 * Shows the note on cpu.stat.local's throttled_usec after `table` (as `#<table id>-local-note`) while the table shows
 * that column (a heading naming cpu.stat.local that is not hidden), and removes it otherwise.
 */
export function showLocalNote(table: HTMLTableElement): void {
  const shown = [...(table.tHead?.rows[0]?.cells ?? [])].some((c) => !c.hidden && /cpu\.stat\.local/.test(c.textContent ?? ''));
  const id = `${table.id}-local-note`;
  let note = document.getElementById(id);
  if (!shown) {
    note?.remove();
    return;
  }
  if (!note) {
    note = Object.assign(document.createElement('p'), { id, className: 'hint local-note' });
    (table.closest('.table-x, .table-scroll') ?? table).after(note);
  }
  note.textContent = LOCAL_THROTTLED_NOTE;
}
