#!/usr/bin/env python3
"""E11's scoreboard rows over many seeds: how often each row's value lies in the kernel's band.

The scoreboard (`/work/shared/tools/fidelity.py`) judges a row by three seeds (11/12/13) against the kernel's three
runs, so a row whose value depends on the two top groups' random timer phases passes or fails by which phases three
seeds happen to draw (docs/fidelity.md, "Ninth pass"). This tool runs E11 for seeds FIRST..LAST-1 (one `java` at a
time; run it under `flock /work/team/heavy.lock`: 30 seeds take about 1.5 CPU-minutes), reads each result with the
scoreboard's own E11 row definitions (`spec_e11`, imported from the scoreboard file) and prints, per row whose value
is outside the widened band for some seed, the fraction of seeds inside it and the median value; then the expected
number of E11 rows in band for three seeds drawn at random (the sum over rows of fraction^3: rows taken as
independent) and the count for the first three seeds. With `--phases` it also prints, per seed, the distance in ms
between the two top groups' period-timer phases (from `distribute_calls`, folded into [0, 50]) and their throttled
time per period.

Usage:
  e11_seed_sweep.py JAR OUTDIR [--seeds 11:41] [--java-opt=-Dx=y ...] [--scoreboard PATH] [--phases]
  e11_seed_sweep.py --compare OUTDIR [OUTDIR ...]   (results already in the directories: one column each)

Input: the scenario `/work/shared/reference/kernel-6.18-2cpu/E11.json` (`--scenario`), recorded every 10 ms as the
scoreboard does. Results are kept in OUTDIR as r<seed>.json and reused when present.
Errors: a failed simulation stops the sweep with java's exit status.
"""
import argparse
import glob
import importlib.util
import json
import os
import re
import statistics
import subprocess
import sys

SCENARIO = "/work/shared/reference/kernel-6.18-2cpu/E11.json"
SCOREBOARD = "/work/shared/tools/fidelity.py"


def run(jar, outdir, seeds, java_opts, scenario):
    os.makedirs(outdir, exist_ok=True)
    s = json.load(open(scenario))
    s["record"] = {"interval": "10ms"}  # as the scoreboard runs E11
    sp = os.path.join(outdir, "E11.json")
    json.dump(s, open(sp, "w"))
    for seed in seeds:
        rp = os.path.join(outdir, f"r{seed}.json")
        if not os.path.exists(rp):
            rc = subprocess.run(["java", *java_opts, "-jar", jar, "simulate", sp, "--seed", str(seed), "--out", rp],
                                stdout=subprocess.DEVNULL).returncode
            if rc != 0:
                sys.exit(rc)


def load(outdir):
    paths = sorted(glob.glob(os.path.join(outdir, "r*.json")), key=lambda p: int(re.findall(r"r(\d+)\.json", p)[-1]))
    return [json.load(open(p)) for p in paths]


def timer_phase_ms(result, cgroup):
    """Median of the group's period-timer distribute times modulo 100 ms (the grid the timer keeps)."""
    ts = sorted(d["at_ns"] % 100_000_000 for d in result["distribute_calls"] if d["cgroup"] == cgroup and not d["slack"])
    return ts[len(ts) // 2] / 1e6 if ts else None


def phases(results):
    print("seed  phase distance ms  /1 and /2 throttled ms per period")
    for r in results:
        a, b = timer_phase_ms(r, "/1"), timer_phase_ms(r, "/2")
        d = None if a is None or b is None else min((a - b) % 100, (b - a) % 100)
        per = [r["cgroups"][g]["cpu.stat"]["throttled_usec"] / 1e3 / max(1, r["cgroups"][g]["cpu.stat"]["nr_periods"])
               for g in ("/1", "/2")]
        print(f"{r['seed']:4d}  {'-' if d is None else f'{d:5.1f}':>17}  {per[0]:6.1f} {per[1]:6.1f}")


def compare(fid, dirs):
    ref = fid.Ref(fid.DEF_REF)
    tables = []
    for d in dirs:
        board = fid.Board(ref, {"E11": load(d)}, {})
        fid.spec_e11(board, "E11")
        tables.append(board.rows)
    print(f"{'row':44s} {'band (widened)':24s}" + "".join(f"{os.path.basename(d.rstrip('/'))[-22:]:>26s}" for d in dirs))
    expected, first3 = [0.0] * len(dirs), [0] * len(dirs)
    for i, row in enumerate(tables[0]):
        w = fid.TOL * abs(row["km"])
        lo, hi = row["lo"] - w, row["hi"] + w
        cells, all_in = [], True
        for j, t in enumerate(tables):
            vals = t[i]["sims"]
            ok = [isinstance(v, float) and lo - 1e-12 <= v <= hi + 1e-12 for v in vals]
            f = sum(ok) / len(ok)
            expected[j] += f ** 3
            first3[j] += all(ok[:3])
            all_in &= f == 1
            nums = sorted(v for v in vals if isinstance(v, float))
            cells.append(f"{100 * f:4.0f}% med {nums[len(nums) // 2]:<9.4g}{' ' if all(ok[:3]) else 'x'}")
        if not all_in:
            print(f"{row['fig'][:44]:44s} {f'[{lo:.4g}, {hi:.4g}]':24s}" + "".join(f"{c:>26s}" for c in cells))
    print("expected E11 rows in band for 3 random seeds: " + " / ".join(f"{x:.1f}" for x in expected)
          + f"; in band with the first 3 seeds: " + " / ".join(map(str, first3)) + f" (of {len(tables[0])})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("jar", nargs="?")
    ap.add_argument("outdir", nargs="?")
    ap.add_argument("--seeds", default="11:41", help="FIRST:LAST (LAST excluded)")
    ap.add_argument("--java-opt", action="append", default=[], help="a JVM option, e.g. --java-opt=-Dname=value")
    ap.add_argument("--scenario", default=SCENARIO)
    ap.add_argument("--scoreboard", default=SCOREBOARD)
    ap.add_argument("--phases", action="store_true")
    ap.add_argument("--compare", nargs="+", metavar="OUTDIR")
    a = ap.parse_args()
    spec = importlib.util.spec_from_file_location("fidelity", a.scoreboard)
    fid = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fid)
    if a.compare:
        compare(fid, a.compare)
        return
    if not a.jar or not a.outdir:
        ap.error("JAR and OUTDIR are needed unless --compare is given")
    first, last = (int(x) for x in a.seeds.split(":"))
    run(a.jar, a.outdir, range(first, last), a.java_opt, a.scenario)
    if a.phases:
        phases(load(a.outdir))
    compare(fid, [a.outdir])


if __name__ == "__main__":
    main()
