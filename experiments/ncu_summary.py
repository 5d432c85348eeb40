"""Sums an `ncu --csv` metrics listing per kernel: launches, total µs, DRAM MB (experiments)."""
import collections
import sys

from ncu_csv import launches

acc = collections.defaultdict(lambda: [0, 0.0, 0.0])
with open(sys.argv[1]) as f:
    for (_, kernel), m in launches(f).items():
        name = kernel.split("(")[0][:90]
        if "gpu__time_duration.sum" in m:
            acc[name][0] += 1
            acc[name][1] += m["gpu__time_duration.sum"]
        acc[name][2] += m.get("dram__bytes.sum", 0.0) / 1e6
total = sum(a[1] for a in acc.values())
for name, (n, us, mb) in sorted(acc.items(), key=lambda kv: -kv[1][1]):
    print(f"{us:9.1f} us {n:4d}x {mb:9.1f} MB  {name}")
print(f"{total:9.1f} us in all")
