// One colour per series name across every panel of a page: a registry that every chart of the page shares.
// A name's first choice is a fixed hash of the name into the palette, so that the same cgroup or task gets the
// same colour on the run page and on the compare page; a name whose choice is already taken in this registry
// gets the next free colour, so that the first PALETTE.length names of a page are all distinct.

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

export class ColorRegistry {
  private readonly byName = new Map<string, number>();
  private readonly used = new Set<number>();

  /**
   * @param ordered names take the palette's colours in the order they are registered (a page's experiment arms, A
   *                and B): the palette's first colours are the most distinct of all (each picked farthest from those
   *                before it), so two or three series never land on two neighbouring hues, as a hash can put them
   */
  constructor(private readonly ordered = false) {}

  /**
   * Assigns colours to names in sorted order (those not yet known), so that two pages that register the same set
   * of names first (the run page and the compare page of one scenario's groups) give each the same colour
   * whatever order their charts then ask in.
   */
  registerAll(names: Iterable<string>, sorted = true): void {
    const list = [...new Set(names)];
    for (const n of sorted ? list.sort() : list) this.color(n);
  }

  /** The colour of a series name: the same for every call with that name on this registry. */
  color(name: string): string {
    let i = this.byName.get(name);
    if (i === undefined) {
      const first = this.ordered ? this.byName.size % PALETTE.length : nameHash(name) % PALETTE.length;
      i = first;
      if (this.used.size < PALETTE.length) {
        while (this.used.has(i)) i = (i + 1) % PALETTE.length;
      }
      this.byName.set(name, i);
      this.used.add(i);
    }
    return PALETTE[i];
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

/** The registry of the page's cgroup paths, shared by every chart of the page that draws groups. */
export const pageColors = new ColorRegistry();
/** The registry of the page's task names (a namespace of its own: a page's groups and tasks together exceed the palette). */
export const taskColors = new ColorRegistry();

/** The page's experiment arms (or compare's A and B), in their order: the most distinct colours first. */
export const armColors = new ColorRegistry(true);
