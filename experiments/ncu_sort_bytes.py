"""HBM bytes a key of one radix sort, ours beside CUB's, from Nsight Compute (issue 34; run on the GPU machine):

    python3 experiments/ncu_sort_bytes.py carry/bin/bench --log-size 24 --filter "f32 keys/uniform"

Runs `bench --primitive sort --filter F --log-sizes L --repeat 1` under ncu, profiling only the sorts' kernels
(CUB's DeviceRadixSort* and our Onesweep histogram_kernel / pass_kernel / copy_when_no_pass_kernel) for
dram__bytes_read.sum, dram__bytes_write.sum and gpu__time_duration.sum, caches not flushed between kernels
(as in a run). Each implementation's kernels are summed and divided by its sort calls (its histogram
launches) and by n: bytes a key read and written, and kernel time a call. (The u32 case also runs the split
sorts; their kernels are not profiled.) Prints one line per implementation.
"""
import argparse
import collections
import csv
import io
import shutil
import subprocess
import sys

METRICS = "dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum"
SCALE = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "ns": 1e-3, "nsecond": 1e-3, "us": 1, "usecond": 1,
         "ms": 1e3, "msecond": 1e3}


def family(name):
    if "DeviceRadixSort" in name:
        return "CUB"
    if "histogram_kernel" in name or "pass_kernel" in name:
        return "parascan"
    return None


def main():
    p = argparse.ArgumentParser()
    p.add_argument("bench")
    p.add_argument("--log-size", type=int, default=24)
    p.add_argument("--filter", default="f32 keys/uniform")
    a = p.parse_args()
    ncu = shutil.which("ncu") or "/usr/local/cuda/bin/ncu"
    cmd = [ncu, "--cache-control", "none", "--metrics", METRICS, "--csv",
           "--kernel-name", "regex:DeviceRadixSort|histogram_kernel|pass_kernel",
           a.bench, "--primitive", "sort", "--filter", a.filter, "--log-sizes", str(a.log_size), "--repeat", "1"]
    out = subprocess.run(cmd, capture_output=True, text=True).stdout
    lines = [line for line in out.splitlines() if line.startswith('"')]
    if not lines:
        sys.exit("ncu_sort_bytes: ncu produced no rows (is ncu on PATH, and may it read the counters?)")
    rows = list(csv.reader(io.StringIO("\n".join(lines))))
    head, body = rows[0], rows[1:]
    at = {k: head.index(k) for k in ("ID", "Kernel Name", "Metric Name", "Metric Unit", "Metric Value")}
    per_kernel = collections.defaultdict(dict)
    for r in body:
        per_kernel[(r[at["ID"]], r[at["Kernel Name"]])][r[at["Metric Name"]]] = (
            float(r[at["Metric Value"]].replace(",", "")) * SCALE.get(r[at["Metric Unit"]], 1))
    n = 1 << a.log_size
    acc = collections.defaultdict(lambda: {"calls": 0, "read": 0.0, "write": 0.0, "us": 0.0})
    for (_, name), m in per_kernel.items():
        f = family(name)
        if f is None:
            continue
        acc[f]["calls"] += "istogram" in name  # one histogram launch a sort call (CUB's and ours)
        acc[f]["read"] += m.get("dram__bytes_read.sum", 0.0)
        acc[f]["write"] += m.get("dram__bytes_write.sum", 0.0)
        acc[f]["us"] += m.get("gpu__time_duration.sum", 0.0)
    print(f"{a.filter} at 2^{a.log_size}: HBM bytes a key per sort call (ncu, caches kept), kernel time a call")
    for f, v in sorted(acc.items()):
        calls = max(v["calls"], 1)
        print(f"  {f:9s} {v['calls']:3d} calls  read {v['read'] / calls / n:6.2f}  write {v['write'] / calls / n:6.2f}  "
              f"total {(v['read'] + v['write']) / calls / n:6.2f} B/key  {v['us'] / calls:9.1f} us")


if __name__ == "__main__":
    main()
