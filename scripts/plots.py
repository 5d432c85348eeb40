#!/usr/bin/env python3
"""Plots of the benchmark results: throughput against size for every variant, beside CUB and the
measured copy bandwidth. Reads the CSVs of `bench --csv` (the sort's from `bench --primitive sort --csv`).

    scripts/plots.py [--csv docs/bench-h100.csv] [--sat docs/bench-sat-h100.csv]
                     [--sort docs/bench-sort-h100.csv] [--peers docs/bench-python-peers-h100.csv]
                     [--batched docs/bench-python-batched-h200.csv]
                     [--out docs/plots]
"""
import argparse
import csv
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def log2(n):
    return int(n).bit_length() - 1


def save(fig, ax, out, name, title, xlabel, ylabel, legend_cols=1, legend_size=7):
    """Label, lay out and write one figure; returns its path."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=legend_size, ncol=legend_cols)
    ax.grid(alpha=0.3)
    path = os.path.join(out, name)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def copy_line(ax, rows):
    """The measured device-copy bandwidth of the rows, against log2(n)."""
    copy = sorted({(int(r["n"]), float(r["copy_gb_per_s"])) for r in rows})
    ax.plot([log2(n) for n, _ in copy], [g for _, g in copy], ls="--", color="gray", label="device copy")


def scan_plot(rows, out):
    rows = [r for r in rows if r["primitive"] == "scan" and r["type"] == "u32"]
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(7, 4.5))
    series = {}
    for r in rows:
        key = "CUB DeviceScan" if r["algorithm"] == "CUB" else f'{r["algorithm"]} / {r["strategy"]}'
        series.setdefault(key, []).append((int(r["n"]), float(r["gb_per_s"])))
    for key, pts in sorted(series.items()):
        pts.sort()
        style = dict(lw=2.5, color="black") if key.startswith("CUB") else dict(lw=1, alpha=0.8)
        if "single_pass" in key and "warp_shuffle" in key:
            style = dict(lw=2.5, color="tab:red")
        ax.plot([log2(n) for n, _ in pts], [g for _, g in pts], marker="o", ms=3, label=key, **style)
    copy_line(ax, rows)
    return save(fig, ax, out, "scan_u32.png", "Exclusive sum, u32, H100", "log2(n), u32 items",
                "GB/s of minimal traffic (read n + write n)", legend_cols=2, legend_size=6)


def select_plot(rows, out):
    rows = [r for r in rows if r["primitive"] == "select" and r["type"] == "u32"]
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(7, 4.5))
    series = {}
    for r in rows:
        who = "CUB" if r["algorithm"] == "CUB" else "parascan"
        kept = r["strategy"].split()[-1]
        series.setdefault(f"{who} {kept}", []).append((int(r["n"]), float(r["gb_per_s"])))
    for key, pts in sorted(series.items()):
        pts.sort()
        ax.plot([log2(n) for n, _ in pts], [g for _, g in pts], marker="o", ms=3, label=key,
                ls=":" if key.startswith("CUB") else "-")
    copy_line(ax, rows)
    return save(fig, ax, out, "select_u32.png", "Compaction (select if), u32, H100", "log2(n), u32 items",
                "GB/s (read n, write the kept ones)", legend_cols=2)


def sat_plot(rows, out):
    rows = [r for r in rows if r["primitive"] == "sat"]
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(7, 4.5))
    series = {}
    for r in rows:
        side = int(r["strategy"].split("^")[0])
        layout = r["strategy"].split()[-1]
        key = f'{r["algorithm"]} {r["type"]} {layout}'
        series.setdefault(key, []).append((side, 100 * float(r["fraction_of_copy"])))
    for key, pts in sorted(series.items()):
        pts.sort()
        ax.plot([s for s, _ in pts], [f for _, f in pts], marker="o", ms=3, label=key,
                ls=":" if key.startswith("CUB") else "-")
    ax.axhline(70, color="gray", ls="--", lw=1, label="issue target (70%)")
    ax.set_xscale("log", base=2)
    return save(fig, ax, out, "sat.png", "Summed-area table, H100", "image side (u8 pixels)",
                "% of copy bandwidth (image read once, table written once)")


def sort_plot(rows, out):
    """Left: G keys/s of u32 keys by input, onesweep beside CUB. Right: onesweep's ratio to CUB."""
    rows = [r for r in rows if r["primitive"] == "sort"]
    if not rows:
        return None
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(12, 4.5))
    for r_alg, style in (("onesweep", "-"), ("CUB", ":")):
        series = {}
        for r in rows:
            if r["type"] == "u32" and r["strategy"].startswith("keys/") and r["algorithm"] == r_alg:
                series.setdefault(r["strategy"][5:], []).append((log2(r["n"]), float(r["items_per_s"]) / 1e9))
        for key, pts in sorted(series.items()):
            pts.sort()
            ax.plot([k for k, _ in pts], [g for _, g in pts], marker="o", ms=3, ls=style, label=f"{r_alg} {key}")
    ax.set_title("Radix sort of u32 keys, H100")
    ax.set_xlabel("log2(n)")
    ax.set_ylabel("G keys/s")
    ax.legend(fontsize=7, ncol=2)
    ax.grid(alpha=0.3)
    cases = ["u32 keys/uniform", "u32 keys/few_distinct", "f32 keys/uniform", "u64 keys/uniform",
             "u32 pairs-u32/uniform", "u32 argsort/uniform", "u64 argsort/uniform"]
    for case in cases:
        pts = sorted((log2(r["n"]), float(r["ratio_to_cub"])) for r in rows
                     if r["algorithm"] == "onesweep" and f'{r["type"]} {r["strategy"]}' == case)
        if pts:
            bx.plot([k for k, _ in pts], [x for _, x in pts], marker="o", ms=3, label=case)
    bx.axhline(1.0, color="black", lw=1)
    return save(fig, bx, out, "radix_sort.png", "Onesweep time ratio to CUB (> 1: faster), H100", "log2(n)",
                "CUB time / onesweep time")


def peers_plot(rows, out):
    """`python -m parascan.bench --csv`: per operation, the peer's time / parascan's time against size."""
    rows = [r for r in rows if r["op"] != "overhead"]
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for (op, peer) in sorted({(r["op"], r["peer"]) for r in rows}):
        pts = sorted((log2(r["n"]), float(r["ratio"])) for r in rows if r["op"] == op and r["peer"] == peer)
        ax.plot([k for k, _ in pts], [x for _, x in pts], marker="o", ms=3,
                ls="-" if peer.startswith("torch") else "--", label=f"{op}: vs {peer}")
    ax.axhline(1.0, color="black", lw=1)
    return save(fig, ax, out, "python_peers.png", "parascan from Python beside torch and cupy, H100 (> 1: faster)",
                "log2(n)", "peer time / parascan time", legend_cols=2)


def batched_plot(rows, out, card):
    """`python -m parascan.bench --batched --csv`: each batched case's peer time / parascan's time."""
    rows = [r for r in rows if not r["peer"].startswith("parascan")]
    if not rows:
        return None
    fig, ax = plt.subplots(figsize=(8, 0.22 * len(rows) + 1.2))
    labels = [f'{r["op"]} {r["shape"]} vs {r["peer"]}' for r in rows]
    ratios = [float(r["ratio"]) for r in rows]
    ax.barh(range(len(rows)), ratios, color=["tab:green" if x >= 1 else "tab:red" for x in ratios])
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(labels, fontsize=6)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.axvline(1.0, color="black", lw=1)
    ax.set_xlabel("peer time / parascan time (> 1: parascan faster), log scale")
    ax.set_title(f"Batched rows from Python beside torch and CuPy, {card}")
    ax.grid(alpha=0.3, axis="x")
    path = os.path.join(out, "python_batched.png")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--csv", default="docs/bench-h100.csv")
    p.add_argument("--sat", default="docs/bench-sat-h100.csv")
    p.add_argument("--sort", default="docs/bench-sort-h100.csv")
    p.add_argument("--peers", default="docs/bench-python-peers-h100.csv")
    p.add_argument("--batched", default="docs/bench-python-batched-h100.csv")
    p.add_argument("--out", default="docs/plots")
    a = p.parse_args()
    os.makedirs(a.out, exist_ok=True)
    made = []
    if os.path.exists(a.csv):
        rows = read_csv(a.csv)
        made += [scan_plot(rows, a.out), select_plot(rows, a.out)]
    if os.path.exists(a.sat):
        made.append(sat_plot(read_csv(a.sat), a.out))
    if os.path.exists(a.sort):
        made.append(sort_plot(read_csv(a.sort), a.out))
    if os.path.exists(a.peers):
        made.append(peers_plot(read_csv(a.peers), a.out))
    if os.path.exists(a.batched):
        card = "H200" if "h200" in os.path.basename(a.batched) else "H100"  # the run's card, in the file's name
        made.append(batched_plot(read_csv(a.batched), a.out, card))
    for m in made:
        if m:
            print("wrote", m)


if __name__ == "__main__":
    main()
