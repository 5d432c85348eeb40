"""Sums an `ncu --csv` metrics listing per kernel: launches, total µs, DRAM MB (experiments)."""
import collections
import csv
import sys

rows = [r for r in csv.reader(l for l in open(sys.argv[1]) if l.startswith('"'))]
head, body = rows[0], rows[1:]
name_at, metric_at, value_at = head.index("Kernel Name"), head.index("Metric Name"), head.index("Metric Value")
unit_at = head.index("Metric Unit")
acc = collections.defaultdict(lambda: [0, 0.0, 0.0])
for r in body:
    name = r[name_at].split("(")[0][:90]
    v = float(r[value_at].replace(",", ""))
    if r[metric_at] == "gpu__time_duration.sum":
        acc[name][0] += 1
        unit = r[unit_at]
        acc[name][1] += v / 1000 if unit in ("ns", "nsecond") else v if unit in ("us", "usecond") else v * 1000
    elif r[metric_at] == "dram__bytes.sum":
        scale = {"byte": 1e-6, "Kbyte": 1e-3, "Mbyte": 1, "Gbyte": 1e3}.get(r[unit_at], 1)
        acc[name][2] += v * scale
total = sum(a[1] for a in acc.values())
for name, (n, us, mb) in sorted(acc.items(), key=lambda kv: -kv[1][1]):
    print(f"{us:9.1f} us {n:4d}x {mb:9.1f} MB  {name}")
print(f"{total:9.1f} us in all")
