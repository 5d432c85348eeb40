#!/usr/bin/env bash
# The radix sort benchmark of issue 4, one process per row, every algorithm beside cub::DeviceRadixSort
# in the same process (SortKeys for keys, SortPairs with an index array for argsort): u32 keys, u32 keys with u32 indices (argsort), u64 keys, f32 keys; 2^20, 2^24,
# 2^28; uniform and few-unique keys. Writes OUTDIR/bench_sort.jsonl and prints a table.
#   scripts/bench_sort.sh BIN_DIR OUTDIR [--quick]
set -u
bin=$1; out=$2; quick=${3:-}
mkdir -p "$out"
: > "$out/bench_sort.jsonl"
sizes="20 24 28"; [ "$quick" = "--quick" ] && sizes="20 24"
status=0
for n in $sizes; do
  for spec in "--type u32" "--type u32 --argsort" "--type u64" "--type f32"; do
    for dist in uniform few-unique; do
      for alg in onesweep split4 split8 split1; do
        "$bin/radix_sort" --n $((1 << n)) $spec --dist $dist --algorithm $alg --repeat 5 -q --json - >> "$out/bench_sort.jsonl" || status=1
      done
    done
  done
done
python3 - "$out/bench_sort.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip().startswith("{")]
print("%-6s %-5s %-8s %-10s %-8s %10s %12s %-5s %10s %7s" % ("n", "type", "mode", "dist", "alg", "ms", "Gkeys/s", "CUB", "CUB ms", "vs CUB"))
for r in rows:
    print("2^%-4d %-5s %-8s %-10s %-8s %10.4f %12.2f %-5s %10.4f %6.2fx" % (r["n"].bit_length() - 1, r["type"], r["mode"], r.get("dist", ""),
          r["algorithm"], r["time_ms"], r["keys_per_s"] / 1e9, r.get("cub_mode", "keys"), r["cub_time_ms"], r["ratio_to_cub"]))
PY
exit $status
