"""Seed 03's distribute_cfs_runtime() histogram per phase of the quota script, from a result's distribute_calls.

usage: python3 phases.py RESULT.json [PHASE_START_S ...]

PHASE_START_S are the times of the script's quota writes (default 20 40 60 80: 20, 10, 5 CPUs, then unlimited).
Each phase's histogram is printed in bpftrace's layout, by the rules of io.cfslab.metrics.BpftraceText (labels
[lo, hi) with K/M/G suffixes, label in 16 columns, count in 8, a 52-wide bar of int(count / float(max) * 52) '@'),
followed by what the short calls (< 64K) reached: remote rqs, local cfs_rqs, slack-timer calls. The result must
keep every call (record.max_distribute_calls at least the number of calls).
"""
import json
import sys
from collections import Counter

r = json.load(open(sys.argv[1]))
starts = [float(x) for x in sys.argv[2:]] or [20.0, 40.0, 60.0, 80.0]
calls = r['distribute_calls']
total = sum(b['count'] for b in r['histograms']['distribute_cfs_runtime_ns']['buckets'])
if len(calls) < total:
    sys.exit(f"only {len(calls)} of {total} calls kept: raise record.max_distribute_calls")


def label(p):
    def one(q):
        return f"{1 << (q % 10)}{['', 'K', 'M', 'G', 'T', 'P', 'E'][q // 10]}"
    return f"[{one(p)}, {one(p + 1)})"


def hist(name, durations):
    print(f"@{name}:")
    if not durations:
        return
    c = Counter(d.bit_length() - 1 for d in durations)
    top = max(c.values())
    for p in range(min(c), max(c) + 1):
        n = c.get(p, 0)
        bar = int(n / top * 52)
        print(f"{label(p):<16}{n:>8} |{'@' * bar}{' ' * (52 - bar)}|")


bounds = [0.0] + starts + [float('inf')]
for lo, hi in zip(bounds, bounds[1:]):
    cs = [c for c in calls if lo * 1e9 <= c['at_ns'] < hi * 1e9]
    if not cs:
        continue
    short = [c for c in cs if c['duration_ns'] < 64_000]
    print(f"\n{lo:g}-{hi:g} s: {len(cs)} calls, {len(short)} below 64K "
          f"({100 * len(short) / len(cs):.0f} %), {sum(c['slack'] for c in cs)} from the slack timer")
    hist("durations", [c['duration_ns'] for c in cs])
    if short:
        rem = sorted(c['remote_rqs'] for c in short)
        print(f"short calls: remote rqs reached {rem[0]}-{rem[-1]} (median {rem[len(rem) // 2]}), "
              f"local cfs_rqs unthrottled {sum(c['cfs_rqs'] for c in short)}, slack {sum(c['slack'] for c in short)}")
cs = [c['duration_ns'] for c in calls]
print(f"\nwhole run: {len(cs)} calls, {sum(d < 64_000 for d in cs)} below 64K")
hist("durations", cs)
