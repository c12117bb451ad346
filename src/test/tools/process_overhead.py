#!/usr/bin/env python3
"""CPU time each reference group used beyond its sampled threads: the load generator's own start-up and exit.

The kernel reference (`kernel-6.18-2cpu-figures.json`, the team's, kept outside the repository with the
scoreboard) gives per run a group's usage and its threads' CPU time. Their difference is CPU time charged to the
group that no sampled thread ran: the `spin` process's exec, loading and set-up before its threads, and its exit
(docs/fidelity.md, "Ninth pass"). E1, E2, E3 and E6b: `usage_s - threads_cpu_s`; each child of E5a and E5b (one
process per child): `usage_cpus * elapsed_s - thread_cpu_s` (usage_cpus has four digits: about +-0.25 ms), and the
parent's usage less both threads. E11 reports no per-group thread sum and is left out.

Usage:
  process_overhead.py [FIGURES.json]   (default /work/shared/reference/kernel-6.18-2cpu-figures.json)

Output: one line per experiment with the per-run differences in ms, then the mean, median, least and most over
every process. Errors: exits with Python's message if the file is missing or lacks a key named above.
"""
import json
import statistics
import sys

SINGLE = ["E1", "E2", "E3", "E6_q2000_p10000"]
NESTED = ["E5_nolimit", "E5_a10"]


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "/work/shared/reference/kernel-6.18-2cpu-figures.json"
    exps = json.load(open(path))["experiments"]
    per_process = []
    for e in SINGLE:
        ms = [(r["usage_s"] - r["threads_cpu_s"]) * 1e3 for r in exps[e]["runs"]]
        per_process += ms
        print(f"{e}: " + " / ".join(f"{v:.1f}" for v in ms))
    for e in NESTED:
        for child in ("a", "b"):
            ms = [(r[f"{child}.usage_cpus"] * r["elapsed_s"] - r[f"{child}.thread_cpu_s"]) * 1e3 for r in exps[e]["runs"]]
            per_process += ms
            print(f"{e} {child}: " + " / ".join(f"{v:.1f}" for v in ms))
        parent = [(r["parent.usage_cpus"] * r["elapsed_s"] - r["a.thread_cpu_s"] - r["b.thread_cpu_s"]) * 1e3
                  for r in exps[e]["runs"]]
        print(f"{e} parent: " + " / ".join(f"{v:.1f}" for v in parent))
    print(f"per process ({len(per_process)}): mean {statistics.mean(per_process):.2f} ms, median "
          f"{statistics.median(per_process):.2f} ms, least {min(per_process):.1f} ms, most {max(per_process):.1f} ms")


if __name__ == "__main__":
    main()
