// One colour per series name on every page: the colour a cgroup path or a task name gets is remembered in the
// browser (localStorage, one table per namespace), so the run page, the compare page and another run's page give
// `/web/frontend` the same colour, whatever other names each page shows. A name's first choice is a fixed hash of
// the name into the palette, so that two fresh browsers agree on a name whose choice is free; a name whose choice
// another remembered name holds gets a free colour; when every colour is held, the one whose name was seen longest
// ago (and is not on this page) is given up. A page's names are therefore distinct while it shows at most
// PALETTE.length of them, and a name keeps its colour until PALETTE.length other names were seen after it.
// Series that are roles rather than names (a histogram's `calls`, wake-up latency and run-stretch time, A and B, an
// experiment's arms) take the palette's first colours in their order instead: the most distinct of all.

/**
 * 32 colours that stay distinct side by side, on a white page: picked greedily, each the sRGB colour (a grid of 17
 * steps a channel, CIE L* 30 to 82 so that a thin line shows on white, chroma 20 or more so that none is a grey)
 * farthest in CIEDE2000 from those already picked, starting from Tableau's blue. Any two differ by a ΔE2000 of 15.7
 * or more (colors.test.ts computes it); the palette before this one had two purples 4 apart (#aec7e8, #a1caf1).
 */
export const PALETTE = [
  '#1f77b4', '#aadd00', '#ff6600', '#005500', '#ff00dd', '#773333', '#00dddd', '#5500cc', '#bbbbee', '#886600',
  '#ffbb11', '#559966', '#ffaaaa', '#776688', '#ff0055', '#005555', '#33bbff', '#aa9977', '#aa0077', '#8866ff',
  '#aa4400', '#00dd77', '#aa7777', '#009999', '#889911', '#224488', '#ffaaee', '#bbcc99', '#555533', '#ffbb88',
  '#664422', '#7799ff',
];

/** FNV-1a of the name: a fixed, well-spread choice of a first colour. */
export function nameHash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Where a namespace's colour table is kept between pages: `localStorage` in a browser (a Storage's two methods). */
export interface ColorStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** One remembered colour: the name holding palette index `i`, and when a page last showed it (`t`, ms). */
interface Held {
  name: string;
  t: number;
}

/** The browser's localStorage, or none where it is unavailable (a sandboxed frame, storage disabled). */
export function browserStore(): ColorStore | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

export class ColorRegistry {
  /** this page's names and their palette indexes */
  private readonly byName = new Map<string, number>();
  /** the indexes this page gave out */
  private readonly used = new Set<number>();
  /** the remembered table when there is no store (or before it is read): index → holder */
  private memory: (Held | null)[] = new Array(PALETTE.length).fill(null);

  /**
   * @param ordered names take the palette's colours in the order they are registered (a page's experiment arms, A
   *                and B, a histogram's series): the palette's first colours are the most distinct of all (each
   *                picked farthest from those before it), so two or three series never land on two neighbouring hues
   * @param namespace the table's name in `store` (`groups`, `tasks`); none: remembered on this page only
   * @param store where the table is kept (localStorage by default); null: this page only
   * @param now the clock that says which name was seen longest ago
   */
  constructor(private readonly ordered = false, private readonly namespace: string | null = null,
              private readonly store: ColorStore | null = namespace ? browserStore() : null,
              private readonly now: () => number = () => Date.now()) {}

  /**
   * Gives colours to names in sorted order (those not yet known on this page), so that the names new to the browser
   * get the same colours whichever order a page's charts then ask in.
   */
  registerAll(names: Iterable<string>, sorted = true): void {
    const list = [...new Set(names)];
    for (const n of sorted ? list.sort() : list) this.color(n);
  }

  /** The colour of a series name: the same for every call with that name on this registry (and, with a store, on every page). */
  color(name: string): string {
    let i = this.byName.get(name);
    if (i === undefined) {
      i = this.ordered ? this.byName.size % PALETTE.length : this.assign(name);
      this.byName.set(name, i);
      this.used.add(i);
    }
    return PALETTE[i];
  }

  private storeKey(): string {
    return `cfslab.colors.${this.namespace}`;
  }

  /** The remembered table, as stored now (another tab may have written it since). */
  private load(): (Held | null)[] {
    if (!this.store) return this.memory;
    try {
      const raw = JSON.parse(this.store.getItem(this.storeKey()) ?? 'null');
      if (Array.isArray(raw) && raw.length === PALETTE.length) {
        return raw.map((h) => (h && typeof h.name === 'string' && typeof h.t === 'number' ? { name: h.name, t: h.t } : null));
      }
    } catch {
      // an unreadable table is started afresh
    }
    return new Array(PALETTE.length).fill(null);
  }

  private save(table: (Held | null)[]): void {
    this.memory = table;
    if (!this.store) return;
    try {
      this.store.setItem(this.storeKey(), JSON.stringify(table));
    } catch {
      // storage full or refused: this page keeps its colours, the next page may not
    }
  }

  /** A name's palette index: the one it holds, else a free one (its hash's first), else the stalest one not on this page. */
  private assign(name: string): number {
    const table = this.load();
    const now = this.now();
    let i = table.findIndex((h) => h?.name === name);
    if (i < 0 || this.used.has(i)) {
      const first = nameHash(name) % PALETTE.length;
      const order = Array.from({ length: PALETTE.length }, (_, k) => (first + k) % PALETTE.length).filter((k) => !this.used.has(k));
      const free = order.find((k) => table[k] == null);
      const stalest = order.reduce<number | undefined>((best, k) => (best === undefined || (table[k]?.t ?? 0) < (table[best]?.t ?? 0) ? k : best), undefined);
      // every colour is on this page (more names than the palette holds): the hash's, shared (distinctColors parts a chart's)
      i = free ?? stalest ?? first;
      if (free === undefined && stalest === undefined) return i;
    }
    for (let k = 0; k < table.length; k++) if (table[k]?.name === name) table[k] = null; // one entry a name
    table[i] = { name, t: now };
    this.save(table);
    return i;
  }
}

/**
 * The colours of lines drawn together in one chart. Each name keeps its registry colour; only when the page has seen
 * more names than the palette holds (a chart of the top 20 of 40 tasks, whose top set changes while a run streams)
 * can two of them share one, and then the later name in sorted order takes a colour that none of these lines has.
 */
export function distinctColors(registry: ColorRegistry, names: string[]): Map<string, string> {
  const taken = new Set<string>();
  const out = new Map<string, string>();
  const clashes: string[] = [];
  for (const n of [...new Set(names)].sort()) {
    const c = registry.color(n);
    if (taken.has(c)) clashes.push(n);
    else {
      taken.add(c);
      out.set(n, c);
    }
  }
  for (const n of clashes) {
    const free = PALETTE.find((c) => !taken.has(c)) ?? registry.color(n);
    taken.add(free);
    out.set(n, free);
  }
  return out;
}

/** The cgroup paths' colours, remembered across pages (`cfslab.colors.groups`), shared by every chart that draws groups. */
export const pageColors = new ColorRegistry(false, 'groups');
/** The task names' colours (a namespace of its own: a page's groups and tasks together exceed the palette). */
export const taskColors = new ColorRegistry(false, 'tasks');

/** The page's experiment arms (or compare's A and B), in their order: the most distinct colours first. */
export const armColors = new ColorRegistry(true);
