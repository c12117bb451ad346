// A run's effective settings (GET /api/runs/{id} "settings": {"seed", "duration", "machine": {...}, "kernel": {...}})
// as the lists show them: the server's io.cfslab.web.RunSettings, for the rows the browser draws.
import { plural } from './format';

export interface Settings {
  seed?: number;
  duration?: string;
  machine?: Record<string, unknown>;
  kernel?: Record<string, unknown>;
}

export const UNKNOWN = '–';

export interface SettingsSummary {
  throttle: string;
  unthrottle: string;
  version: string;
  hz: string;
  machine: string;
}

function str(v: unknown): string {
  return v == null ? UNKNOWN : String(v);
}

/** "generic, 384 CPUs (2 sockets, SMT 2)". */
export function machineLabel(m: Record<string, unknown> | undefined): string {
  if (!m) return UNKNOWN;
  let s = `${str(m.profile)}`;
  if (m.cpus != null) s += `, ${plural(Number(m.cpus), 'CPU')}`;
  const extra: string[] = [];
  if (typeof m.sockets === 'number' && m.sockets > 1) extra.push(`${m.sockets} sockets`);
  if (typeof m.smt === 'number' && m.smt > 1) extra.push(`SMT ${m.smt}`);
  return extra.length ? `${s} (${extra.join(', ')})` : s;
}

export function summarize(s: Settings | null | undefined): SettingsSummary {
  const k = s?.kernel ?? {};
  return {
    throttle: str(k.throttle),
    unthrottle: str(k.unthrottle),
    version: str(k.version),
    hz: str(k.hz),
    machine: s ? machineLabel(s.machine) : UNKNOWN,
  };
}

/** Every setting flattened as the compare page's rows name them (`kernel.throttle`, `machine.cpus`), seed left out. */
export function flatSettings(s: Settings | null | undefined): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (prefix: string, v: unknown): void => {
    if (v != null && typeof v === 'object' && !Array.isArray(v)) {
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) walk(prefix ? `${prefix}.${k}` : k, x);
    } else if (prefix !== 'seed') {
      out.set(prefix, v == null ? UNKNOWN : typeof v === 'string' ? v : JSON.stringify(v));
    }
  };
  walk('', s ?? {});
  return out;
}

/** One setting an experiment arm changes without setting it: the model's value for the arm's settings. */
export interface DerivedChange { key: string; from: string; to: string }

/**
 * The settings that differ between the base arm's run and another arm's run (their effective settings, GET
 * /api/runs/{id}) other than those the arm sets (`set`, JSON pointers: `/kernel/throttle` is `kernel.throttle`):
 * what follows from the arm's settings (`/kernel/throttle` task moves `kernel.throttled_clock_start` from nonempty
 * to first-park), which the arm's overrides alone do not show.
 */
export function derivedChanges(base: Settings | null | undefined, arm: Settings | null | undefined, set: Record<string, unknown>): DerivedChange[] {
  const a = flatSettings(base);
  const b = flatSettings(arm);
  const own = new Set(Object.keys(set).map((p) => p.replace(/^\//, '').replaceAll('/', '.')));
  const out: DerivedChange[] = [];
  for (const key of new Set([...a.keys(), ...b.keys()])) {
    if (own.has(key) || [...own].some((o) => key.startsWith(o + '.'))) continue;
    const from = a.get(key) ?? UNKNOWN;
    const to = b.get(key) ?? UNKNOWN;
    if (from !== to) out.push({ key, from, to });
  }
  return out;
}
