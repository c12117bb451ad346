#!/usr/bin/env python3
"""Per-second CPU % of a result when the 1-second sampling windows start later than the run.

The scoreboard (`/work/shared/tools/fidelity.py`) reads per-second CPU % from the result's series, whose windows
start at the run's t = 0, where the task starts with a full quota (docs/fidelity.md, "Eighth pass"). The kernel
harness's per-thread samples start some milliseconds after the thread. This tool recomputes the largest per-second
value (or the mean or least, --stats) for windows [s + k, s + k + 1) s, k = 0..3 (the kernel's runs have 4 or 5
samples; s = 0 takes five, as the scoreboard does), for several offsets s, from a result recorded every 10 ms, using
each group's cumulative `cpu.stat` usage_usec (exact; one task per group in E1, E5a and E5b).

Usage:
  sampler_offset.py RESULT.json NAME=/cgroup [NAME=/cgroup ...] [--offsets-ms 0,10,20,30,50] [--stats max,min,mean]

Input: a `cfslab simulate` result whose `record.interval` is 10ms (series points every 10 ms from 10 ms on).
Output: one line per NAME and statistic: `NAME STAT offset_ms:pct ...` (CPU % of one CPU, two decimals).
Errors: exits with a message if a window edge has no series point (interval not 10 ms, or a run shorter than
offset + 4 s).
"""
import argparse
import json
import sys


def usage_at(result, cgroup):
    """{time in ms: cumulative usage in µs} of cgroup, from the series (0 at t = 0)."""
    out = {0: 0}
    for p in result["series"]:
        out[round(p["at_ns"] / 1e6)] = p["cgroups"][cgroup]["cpu.stat"]["usage_usec"]
    return out


def window_pcts(usage, offset_ms, windows):
    """CPU % of each of `windows` consecutive 1-second windows starting at offset_ms."""
    vals = []
    for k in range(windows):
        a, b = offset_ms + 1000 * k, offset_ms + 1000 * (k + 1)
        if a not in usage or b not in usage:
            sys.exit(f"no series point at {a} or {b} ms: record every 10 ms and run at least {b} ms")
        vals.append((usage[b] - usage[a]) / 1e4)  # µs per 1000 ms, as % of one CPU
    return vals


STATS = {"max": max, "min": min, "mean": lambda v: sum(v) / len(v)}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("result")
    ap.add_argument("pairs", nargs="+", metavar="NAME=/cgroup")
    ap.add_argument("--offsets-ms", default="0,10,20,30,50")
    ap.add_argument("--stats", default="max", help="comma-separated: max, min, mean")
    a = ap.parse_args()
    result = json.load(open(a.result))
    offsets = [int(x) for x in a.offsets_ms.split(",")]
    stats = a.stats.split(",")
    if any(st not in STATS for st in stats):
        sys.exit(f"--stats: one of {', '.join(STATS)}, got {a.stats!r}")
    for pair in a.pairs:
        name, _, cgroup = pair.partition("=")
        if not cgroup:
            sys.exit(f"expected NAME=/cgroup, got {pair!r}")
        usage = usage_at(result, cgroup)
        windows = {o: window_pcts(usage, o, 5 if o == 0 else 4) for o in offsets}
        for st in stats:
            print(name, st, " ".join(f"{o}:{STATS[st](windows[o]):.2f}" for o in offsets))


if __name__ == "__main__":
    main()
