import json,sys
# per-interval usage (CPUs) and throttles of the level-1 groups, from a result's series: the steady-state evidence
r=json.load(open(sys.argv[1]))
prev={}
for s in r['series']:
    row=[f"{s['at_ns']/1e9:.1f}s"]
    for g in ('/1','/2'):
        c=s['cgroups'][g]['cpu.stat']; p=prev.get(g,{'usage_usec':0,'nr_throttled':0,'nr_periods':0})
        row.append(f"{g}: {(c['usage_usec']-p['usage_usec'])/ (0.5e6):.1f} CPUs, throttled {c['nr_throttled']-p['nr_throttled']}/{c['nr_periods']-p['nr_periods']}")
        prev[g]=c
    print("  ".join(row))
print("benchmarks", json.dumps(r['benchmarks']), "machine", json.dumps(r['machine']))
