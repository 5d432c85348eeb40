"""Where a kernel's warps stall, side by side for each launch of an `ncu --csv --page raw` listing taken with
the WarpStateStats, SchedulerStats, LaunchStats, Occupancy and SpeedOfLight sections (experiments):

    ncu --clock-control none --csv --page raw --section WarpStateStats --section SchedulerStats \
        --section LaunchStats --section Occupancy --section SpeedOfLight -k regex:NAME ... > x.csv
    python3 experiments/ncu_stalls.py x.csv [more.csv ...]

For each launch: time, registers, warps active an SM, issue slots busy, instructions, then every stall
reason as warp cycles per issued instruction (ncu's breakdown of `smsp__average_warp_latency_per_inst_issued`),
largest first, reasons under 0.05 left out."""
import sys

from ncu_csv import launches

KEYS = [("gpu__time_duration.sum", "time us"), ("launch__registers_per_thread", "registers"),
        ("sm__warps_active.avg.per_cycle_active", "warps active an SM"),
        ("smsp__issue_active.avg.pct_of_peak_sustained_active", "issue slots busy %"),
        ("smsp__inst_executed.sum", "warp instructions"),
        ("smsp__average_warp_latency_per_inst_issued.ratio", "warp cycles an issued instruction"),
        ("dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM % of peak"),
        ("sm__throughput.avg.pct_of_peak_sustained_elapsed", "SM % of peak")]
PREFIX, SUFFIX = "smsp__average_warps_issue_stalled_", "_per_issue_active.ratio"

for path in sys.argv[1:]:
    with open(path) as f:
        for (launch, kernel), m in launches(f).items():
            print(f"== {path}: launch {launch}: {kernel.split('(')[0][:110]}")
            for key, label in KEYS:
                if key in m:
                    print(f"   {label:36s} {m[key]:14.2f}")
            stalls = sorted(((v, k[len(PREFIX):-len(SUFFIX)]) for k, v in m.items()
                             if k.startswith(PREFIX) and k.endswith(SUFFIX)), reverse=True)
            print("   stalls (warp cycles an issued instruction): " +
                  ", ".join(f"{name} {v:.2f}" for v, name in stalls if v >= 0.05))
