import { describe, expect, it } from 'vitest';
import { ColorRegistry, distinctColors, nameHash, PALETTE } from '../src/colors';
import { durationTicks } from '../src/units';
import { formatDuration } from '../src/format';
import { niceStep } from '../src/cputimeline';

describe('series colours', () => {
  it('give a name the same colour in every chart of a page, and 20+ names distinct colours', () => {
    const page = new ColorRegistry();
    const names = Array.from({ length: 24 }, (_, i) => `/app/g${i}`);
    const first = names.map((n) => page.color(n));
    expect(new Set(first).size).toBe(24);
    // a second chart asking in another order gets the same colours
    expect([...names].reverse().map((n) => page.color(n))).toEqual([...first].reverse());
    expect(PALETTE.length).toBeGreaterThanOrEqual(24);
  });

  it('agree between pages that register the same names first, whatever order the charts ask in', () => {
    const names = Array.from({ length: 12 }, (_, i) => `/g${i}`);
    const runPage = new ColorRegistry();
    runPage.registerAll(names);
    const comparePage = new ColorRegistry();
    comparePage.registerAll([...names].reverse());
    expect([...names].reverse().map((n) => comparePage.color(n))).toEqual([...names].reverse().map((n) => runPage.color(n)));
  });

  it('start from a hash of the name, so that two pages agree on a name that does not collide', () => {
    expect(new ColorRegistry().color('/app/web')).toBe(new ColorRegistry().color('/app/web'));
  });
});

describe('durations', () => {
  it('read as a person reads them, with the tables\' one rule (format.ts)', () => {
    expect(formatDuration(0)).toBe('0 ns');
    expect(formatDuration(0, 1e3)).toBe('0 µs');
    expect(formatDuration(800)).toBe('800 ns');
    expect(formatDuration(12_345)).toBe('12.3 µs');
    expect(formatDuration(2_219_000_000_000)).toBe('2,219 s'); // a legend said "2219 s"
    expect(formatDuration(340e6)).toBe('340 ms');
    expect(formatDuration(1.5e9)).toBe('1.50 s');
    expect(formatDuration(undefined)).toBe('');
  });

  it('tick in one unit with the decimals the step needs (no "2B")', () => {
    expect(durationTicks([0, 5e8, 1e9, 1.5e9])).toEqual(['0', '0.5 s', '1 s', '1.5 s']);
    expect(durationTicks([0, 1e12, 2e12])).toEqual(['0', '1,000 s', '2,000 s']);
    // 0.25 s apart: read as 0.25 s, 0.5 s, 0.75 s (not 0.3 s, 0.5 s, 0.8 s)
    expect(durationTicks([2.5e8, 5e8, 7.5e8, 1e9])).toEqual(['0.25 s', '0.5 s', '0.75 s', '1 s']);
    expect(durationTicks([0, 2000, 4000])).toEqual(['0', '2 µs', '4 µs']);
  });

  it('time axis steps are 1, 2 or 5 × 10^k', () => {
    expect(niceStep(60e9)).toBe(1e10);
    expect(niceStep(2e9)).toBe(5e8);
    expect(niceStep(1)).toBe(1);
  });
});

describe('distinctColors', () => {
  it('keeps each name its registry colour while the page has seen fewer names than the palette holds', () => {
    const r = new ColorRegistry();
    const names = Array.from({ length: 20 }, (_, i) => `task${i}`);
    const m = distinctColors(r, names);
    for (const n of names) expect(m.get(n)).toBe(r.color(n));
  });
  it('gives 20 lines 20 colours after the page has seen 60 names (a streaming top 20 of many tasks)', () => {
    const r = new ColorRegistry();
    for (let i = 0; i < 60; i++) r.color(`w${i}`);
    const shown = Array.from({ length: 20 }, (_, i) => `w${i * 3}`);
    const m = distinctColors(r, shown);
    expect(new Set(shown.map((n) => m.get(n))).size).toBe(20);
  });
});

/** A Storage as two pages of one browser share it. */
function memoryStore(): { getItem(k: string): string | null; setItem(k: string, v: string): void } {
  const m = new Map<string, string>();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => void m.set(k, v) };
}

/** Names whose hashes pick the same first colour, so that which one a page probes past depends on the page. */
function colliding(count: number): string[] {
  const byFirst = new Map<number, string[]>();
  for (let i = 0; ; i++) {
    const n = `/web/g${i}`;
    const k = nameHash(n) % PALETTE.length;
    const list = [...(byFirst.get(k) ?? []), n];
    byFirst.set(k, list);
    if (list.length === count) return list;
  }
}

describe('one colour per name across pages (a browser\'s remembered table)', () => {
  it('gives a name the colour it had on an earlier page that showed other names (run, compare, another run)', () => {
    const store = memoryStore();
    const [x, y] = colliding(2);
    // the run page shows x and y: y, second in order, probes past x's colour
    const run = new ColorRegistry(false, 'groups', store);
    run.registerAll([x, y, '/db']);
    // another run's page shows y alone: a page-local registry would give y its hash's first colour, x's
    const other = new ColorRegistry(false, 'groups', store);
    other.registerAll([y, '/batch']);
    expect(other.color(y)).toBe(run.color(y));
    // the compare page shows both runs' groups, in another order
    const compare = new ColorRegistry(false, 'groups', store);
    compare.registerAll(['/batch', y, x, '/db']);
    for (const n of [x, y, '/db']) expect(compare.color(n), n).toBe(run.color(n));
    expect(compare.color('/batch')).toBe(other.color('/batch'));
    expect(new Set([x, y, '/db', '/batch'].map((n) => compare.color(n))).size).toBe(4);
  });

  it('keeps a page\'s 24 names distinct after the browser has seen hundreds, and a recent name its colour', () => {
    const store = memoryStore();
    let clock = 0;
    const page = () => new ColorRegistry(false, 'groups', store, () => ++clock);
    const recent = page();
    recent.registerAll(['/web/frontend']);
    const kept = recent.color('/web/frontend');
    for (let p = 0; p < 20; p++) {
      const names = Array.from({ length: 24 }, (_, i) => `/run${p}/g${i}`);
      const r = page();
      r.registerAll(names);
      expect(new Set(names.map((n) => r.color(n))).size, `page ${p}`).toBe(24);
      page().registerAll(['/web/frontend']); // shown again after each: never the stalest
    }
    expect(page().color('/web/frontend')).toBe(kept);
    // a name not seen for more than a palette's worth of names gives its colour up (the table is bounded)
    const stale = page();
    stale.registerAll(['/old']);
    for (let p = 0; p < 2; p++) page().registerAll(Array.from({ length: 24 }, (_, i) => `/later${p}/g${i}`));
    expect(JSON.parse(store.getItem('cfslab.colors.groups')!).map((h: { name: string } | null) => h?.name)).not.toContain('/old');
  });

  it('agrees with a fresh browser on a name whose first choice is free (the hash)', () => {
    expect(new ColorRegistry(false, 'groups', memoryStore()).color('/app/web')).toBe(PALETTE[nameHash('/app/web') % PALETTE.length]);
  });

  it('works without storage (this page only), and reads a damaged table as empty', () => {
    const broken = { getItem: () => '{not json', setItem: () => { throw new Error('quota'); } };
    const r = new ColorRegistry(false, 'groups', broken);
    r.registerAll(['/a', '/b']);
    expect(r.color('/a')).not.toBe(r.color('/b'));
  });
});
