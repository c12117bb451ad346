import { describe, expect, it } from 'vitest';
import { ColorRegistry, PALETTE } from '../src/colors';

// CIE Lab (D65) of an sRGB hex colour, and CIEDE2000 (Sharma, Wu, Dalal 2005): the perceptual distance the palette
// is held to. Checked below against the paper's own test pairs.
function hexToLab(hex: string): [number, number, number] {
  const n = parseInt(hex.slice(1), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255].map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047;
  const y = 0.2126729 * r + 0.7151522 * g + 0.072175 * b;
  const z = (0.0193339 * r + 0.119192 * g + 0.9503041 * b) / 1.08883;
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  return [116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))];
}

function deltaE2000([l1, a1, b1]: number[], [l2, a2, b2]: number[]): number {
  const rad = Math.PI / 180;
  const c1 = Math.hypot(a1, b1);
  const c2 = Math.hypot(a2, b2);
  const cb7 = ((c1 + c2) / 2) ** 7;
  const g = 0.5 * (1 - Math.sqrt(cb7 / (cb7 + 25 ** 7)));
  const a1p = (1 + g) * a1;
  const a2p = (1 + g) * a2;
  const c1p = Math.hypot(a1p, b1);
  const c2p = Math.hypot(a2p, b2);
  const hue = (b: number, a: number) => (b === 0 && a === 0 ? 0 : (Math.atan2(b, a) / rad + 360) % 360);
  const h1 = hue(b1, a1p);
  const h2 = hue(b2, a2p);
  let dh = 0;
  if (c1p * c2p !== 0) {
    dh = h2 - h1;
    if (dh > 180) dh -= 360;
    else if (dh < -180) dh += 360;
  }
  const dL = l2 - l1;
  const dC = c2p - c1p;
  const dH = 2 * Math.sqrt(c1p * c2p) * Math.sin((dh * rad) / 2);
  const lb = (l1 + l2) / 2;
  const cbp = (c1p + c2p) / 2;
  let hb = h1 + h2;
  if (c1p * c2p !== 0) hb = Math.abs(h1 - h2) > 180 ? (h1 + h2 + (h1 + h2 < 360 ? 360 : -360)) / 2 : (h1 + h2) / 2;
  const t = 1 - 0.17 * Math.cos((hb - 30) * rad) + 0.24 * Math.cos(2 * hb * rad) + 0.32 * Math.cos((3 * hb + 6) * rad)
    - 0.2 * Math.cos((4 * hb - 63) * rad);
  const dTheta = 30 * Math.exp(-(((hb - 275) / 25) ** 2));
  const cbp7 = cbp ** 7;
  const rc = 2 * Math.sqrt(cbp7 / (cbp7 + 25 ** 7));
  const sl = 1 + (0.015 * (lb - 50) ** 2) / Math.sqrt(20 + (lb - 50) ** 2);
  const sc = 1 + 0.045 * cbp;
  const sh = 1 + 0.015 * cbp * t;
  const rt = -Math.sin(2 * dTheta * rad) * rc;
  return Math.sqrt((dL / sl) ** 2 + (dC / sc) ** 2 + (dH / sh) ** 2 + rt * (dC / sc) * (dH / sh));
}

function minDistance(colors: string[]): { d: number; pair: [string, string] } {
  let best = { d: Infinity, pair: ['', ''] as [string, string] };
  for (let i = 0; i < colors.length; i++) {
    for (let j = 0; j < i; j++) {
      const d = deltaE2000(hexToLab(colors[i]), hexToLab(colors[j]));
      if (d < best.d) best = { d, pair: [colors[j], colors[i]] };
    }
  }
  return best;
}

describe('CIEDE2000 as computed here', () => {
  it("gives the paper's test pairs their published distances", () => {
    expect(deltaE2000([50, 2.6772, -79.7751], [50, 0, -82.7485])).toBeCloseTo(2.0425, 3);
    expect(deltaE2000([50, 2.5, 0], [73, 25, -18])).toBeCloseTo(27.1492, 3);
    expect(deltaE2000([50, -1, 2], [50, 0, 0])).toBeCloseTo(2.3669, 3);
    expect(deltaE2000([60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387])).toBeCloseTo(1.2644, 3);
    expect(hexToLab('#ffffff')[0]).toBeCloseTo(100, 3);
  });
});

describe('the series palette', () => {
  it('has 32 colours, no two of them near-duplicates (ΔE2000 ≥ 15)', () => {
    expect(PALETTE.length).toBeGreaterThanOrEqual(32);
    expect(new Set(PALETTE).size).toBe(PALETTE.length);
    const { d, pair } = minDistance(PALETTE);
    expect(d, `closest pair ${pair.join(' ')}`).toBeGreaterThanOrEqual(15);
  });

  it('shows every colour on the white page (CIE L* at most 82) and none is a grey', () => {
    for (const c of PALETTE) {
      const [l, a, b] = hexToLab(c);
      expect(l, c).toBeLessThanOrEqual(82);
      expect(Math.hypot(a, b), c).toBeGreaterThanOrEqual(20);
    }
  });

  it('gives 24 names of one page colours at least ΔE2000 15 apart (the first 24 series of any chart)', () => {
    const page = new ColorRegistry();
    const colors = Array.from({ length: 24 }, (_, i) => page.color(`/pool/${i}/${i}_1`));
    expect(minDistance(colors).d).toBeGreaterThanOrEqual(15);
  });
});

describe('ordered registries (experiment arms, A and B)', () => {
  it('give the first series the palette’s first, most distinct colours, in their order', () => {
    const arms = new ColorRegistry(true);
    arms.registerAll(['40%', '20%'], false);
    expect(arms.color('40%')).toBe(PALETTE[0]);
    expect(arms.color('20%')).toBe(PALETTE[1]);
    // any two of the first three are far apart: ΔE2000 of 30 or more
    expect(minDistance(PALETTE.slice(0, 3)).d).toBeGreaterThanOrEqual(30);
  });
});

describe('the colours one chart actually uses together', () => {
  it('are, for a chart of roles (a histogram\'s calls, wake-up latency and run-stretch time, A and B, arms), the palette\'s first ones: ΔE2000 30 or more for up to three', () => {
    // a histogram made without a registry of its own takes a fresh ordered one (charts.ts): its series in their order
    const registry = new ColorRegistry(true);
    registry.registerAll(['wakeup_latency_us', 'iteration_wall_us'], false);
    const two = ['wakeup_latency_us', 'iteration_wall_us'].map((n) => registry.color(n));
    expect(two).toEqual(PALETTE.slice(0, 2));
    for (let n = 2; n <= 3; n++) expect(minDistance(PALETTE.slice(0, n)).d, `first ${n}`).toBeGreaterThanOrEqual(30);
    // the hash would have put them anywhere: two of the palette's pairs are only ~16 apart
    expect(minDistance(PALETTE).d).toBeLessThan(30);
  });
});
