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
import shutil
import subprocess
import sys

from ncu_csv import launches

METRICS = ("dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,"
           "dram__throughput.avg.pct_of_peak_sustained_elapsed")


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
    per_kernel = launches(out.splitlines())
    if not per_kernel:
        sys.exit("ncu_sort_bytes: ncu produced no rows (is ncu on PATH, and may it read the counters?)")
    n = 1 << a.log_size
    acc = collections.defaultdict(lambda: {"calls": 0, "read": 0.0, "write": 0.0, "us": 0.0, "pct_us": 0.0})
    for (_, name), m in per_kernel.items():
        f = family(name)
        if f is None:
            continue
        acc[f]["calls"] += "istogram" in name  # one histogram launch a sort call (CUB's and ours)
        acc[f]["read"] += m.get("dram__bytes_read.sum", 0.0)
        acc[f]["write"] += m.get("dram__bytes_write.sum", 0.0)
        acc[f]["us"] += m.get("gpu__time_duration.sum", 0.0)
        acc[f]["pct_us"] += m.get("dram__throughput.avg.pct_of_peak_sustained_elapsed", 0.0) * m.get(
            "gpu__time_duration.sum", 0.0)
    print(f"{a.filter} at 2^{a.log_size}: HBM bytes a key per sort call (ncu, caches kept), kernel time a call")
    for f, v in sorted(acc.items()):
        calls = max(v["calls"], 1)
        print(f"  {f:9s} {v['calls']:3d} calls  read {v['read'] / calls / n:6.2f}  write {v['write'] / calls / n:6.2f}  "
              f"total {(v['read'] + v['write']) / calls / n:6.2f} B/key  {v['us'] / calls:9.1f} us  "
              f"DRAM {v['pct_us'] / max(v['us'], 1e-9):5.1f}% of peak (time-weighted)")


if __name__ == "__main__":
    main()
