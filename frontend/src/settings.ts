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
