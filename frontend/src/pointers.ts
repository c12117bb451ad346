// JSON pointers and metric paths as a person reads them. The API speaks RFC 6901 (`~1` for a `/` inside a name,
// `~0` for `~`: `cgroups/~1web~1backend/cpu.stat/throttled_usec`); the pages never show those escapes: a step
// that holds a `/` (a cgroup path, a task instance `nop/0`) is shown in brackets after its parent,
// `cgroups[/web/backend]/cpu.stat/throttled_usec`, the form the compare page's "settings that differ" uses too.

/** One step of a pointer, unescaped (`~1` → `/`, then `~0` → `~`, in RFC 6901's order). */
export function unescapeStep(step: string): string {
  return step.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The unescaped steps of a metric path or pointer (a leading `/` optional). */
export function pointerSteps(path: string): string[] {
  const p = path.startsWith('/') ? path.slice(1) : path;
  return p === '' ? [] : p.split('/').map(unescapeStep);
}

/**
 * A metric path or JSON pointer for display: its steps unescaped and joined with `/`, a step that holds a `/`
 * in brackets (`cgroups/~1a/cpu.stat/usage_usec` → `cgroups[/a]/cpu.stat/usage_usec`, `/arms/1/set/~1kernel~1hz`
 * → `/arms/1/set[/kernel/hz]`); a leading `/` is kept. Text without escapes or inner `/` comes back as it was.
 */
export function readablePath(path: string): string {
  if (!path.includes('~')) return path;
  const lead = path.startsWith('/') ? '/' : '';
  let out = '';
  for (const step of pointerSteps(path)) {
    if (step.includes('/')) out += `[${step}]`;
    else out += (out === '' ? '' : '/') + step;
  }
  return lead + out;
}

/**
 * The seeds' text table (`GET /api/experiments/{id}/table`) with its metric paths readable: each path is replaced by
 * its readable form padded with spaces to the path's length. The readable form is never longer (`/~1x` and `[/x]`
 * are the same length, each further `~1` or `~0` one character shorter), so every column stays aligned.
 */
export function readableTable(text: string, metrics: string[]): string {
  let out = text;
  for (const m of [...metrics].sort((a, b) => b.length - a.length)) {
    const r = readablePath(m);
    if (r === m) continue;
    out = out.split(m).join(r.length <= m.length ? r.padEnd(m.length) : r);
  }
  return out;
}
