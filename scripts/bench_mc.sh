#!/usr/bin/env bash
# The marching-cubes benchmark of issue 6: procedural fields on 128³, 256³ and 512³ grids (f32), the
# whole pipeline timed by stage (median of 10 after a warm-up; device allocation included, as a user
# pays it), cells/s and triangles/s; the gyroid also welded. Writes OUTDIR/bench_mc.jsonl, prints a table.
#   scripts/bench_mc.sh BIN_DIR OUTDIR [--quick]
set -u
bin=$1; out=$2; quick=${3:-}
mkdir -p "$out"
: > "$out/bench_mc.jsonl"
grids="128 256 512"; [ "$quick" = "--quick" ] && grids="128 256"
status=0
for g in $grids; do
  for field in sphere metaballs gyroid "gyroid --weld"; do
    "$bin/marching_cubes" --field $field --grid "$g" --repeat 10 -q --json - >> "$out/bench_mc.jsonl" || status=1
  done
done
python3 - "$out/bench_mc.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith("{")]
print("%-5s %-16s %11s %10s %9s %9s %9s | %8s %8s %8s %8s %8s %8s" % ("grid", "field", "triangles", "active", "ms",
      "Gcells/s", "Mtri/s", "classify", "compact", "offsets", "alloc", "emit", "weld"))
for r in rows:
    s = r["stage_ms"]
    print("%4d³ %-16s %11d %10d %9.3f %9.2f %9.1f | %8.3f %8.3f %8.3f %8.3f %8.3f %8.3f" % (r["nx"],
          r["source"].replace(" field", "") + (" weld" if r["welded"] else ""), r["triangles"], r["active_cells"],
          r["time_ms"], r["cells_per_s"] / 1e9, r["triangles_per_s"] / 1e6, s["classify"], s["compact"],
          s["offsets"], s["allocate"], s["emit"], s["weld"]))
PY
exit $status
