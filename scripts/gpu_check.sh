#!/usr/bin/env bash
# The whole GPU check in one call: configure, build, the full test suite (unit, gpu, cli, slow), the
# sanitizer tests, `validate`, `scan --validate` for every algorithm × strategy, `compact --validate`
# in every mode, radix_sort --validate per algorithm, marching_cubes --validate per field and a rendered
# mesh, and the benchmarks (scan, select, sat, radix sort, marching cubes).
# Logs and a short summary (summary.txt) go to OUTDIR.
#
#   scripts/gpu_check.sh OUTDIR [--quick]     (--quick: validate --quick, bench --quick, no sanitizer racecheck/synccheck)
#   scripts/gpu_check.sh OUTDIR --tests-only  (build, the test suite and the sanitizer runs)
#   scripts/gpu_check.sh OUTDIR --no-tests    (build, then validate, the tool runs and the benchmarks)
# The last two split the whole check over two calls of a time-limited machine.
#
# Environment: PARASCAN_BUILD_DIR (default build-gpu), CMAKE_CUDA_ARCHITECTURES (default 90), JOBS.
set -u
if [ $# -lt 1 ]; then echo "usage: $0 OUTDIR [--quick]" >&2; exit 2; fi
out=$1; quick=${2:-}
mkdir -p "$out"
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PARASCAN_BUILD_DIR:-$root/build-gpu}
jobs=${JOBS:-$(nproc)}
summary=$out/summary.txt
: > "$summary"
status=0
note() { echo "$*" | tee -a "$summary"; }
step() {  # step NAME LOG COMMAND...: run, record pass/fail with the time taken
  local name=$1 log=$2; shift 2
  local t0=$(date +%s)
  "$@" > "$log" 2>&1
  local rc=$?
  note "$(printf '%-28s %s (exit %d, %ds)' "$name" "$([ $rc -eq 0 ] && echo PASS || echo FAIL)" $rc $(( $(date +%s) - t0 )))"
  [ $rc -eq 0 ] || status=1
  return $rc
}

if ! nvidia-smi -L > "$out/gpu.txt" 2>&1; then
  note "no GPU visible (nvidia-smi -L failed): this check needs a CUDA GPU"; exit 4
fi
note "gpu: $(head -1 "$out/gpu.txt")"
note "nvcc: $(nvcc --version | tail -1)"

step configure "$out/configure.log" cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CUDA_ARCHITECTURES="${CMAKE_CUDA_ARCHITECTURES:-90}" || { cat "$summary"; exit 1; }
step build "$out/build.log" cmake --build "$build" -j "$jobs" || { tail -30 "$out/build.log"; exit 1; }
bin=$build/bin

if [ "$quick" != "--no-tests" ]; then
# The multigpu label needs two GPUs (scripts/gpu_check_dist.sh runs it there); on one GPU it is left
# out and said so, rather than counted as skipped.
exclude=sanitizer
if [ "$(grep -c '^GPU' "$out/gpu.txt")" -lt 2 ]; then exclude="sanitizer|multigpu"; note "multigpu tests: not run (one GPU here; scripts/gpu_check_dist.sh on two)"; fi
step "tests (unit gpu cli slow)" "$out/tests.log" ctest --test-dir "$build" -LE "$exclude" --output-on-failure -j 6
note "  $(grep -E 'tests passed|tests failed' "$out/tests.log" | tail -1)"
skipped=$(grep -c ' (Skipped)$' "$out/tests.log")
note "  skipped tests: $skipped"
[ "$skipped" -eq 0 ] || status=1

if [ "$quick" = "--quick" ]; then
  step "sanitizer memcheck" "$out/sanitizer.log" ctest --test-dir "$build" -R sanitizer.memcheck -V
else
  step "sanitizer (mem/race/sync)" "$out/sanitizer.log" ctest --test-dir "$build" -L sanitizer -V -j 3
fi
note "  $(grep -E 'tests passed|tests failed' "$out/sanitizer.log" | tail -1)"
grep -h -E "ERROR SUMMARY|RACECHECK SUMMARY|PASSED  \]" "$out/sanitizer.log" | sed 's/^[0-9]*: /  /' | tee -a "$summary"

fi
if [ "$quick" = "--tests-only" ]; then note "overall: $([ $status -eq 0 ] && echo PASS || echo FAIL)"; exit $status; fi
# The matrix in VALIDATE_SHARDS processes at once (validate --shard I/K; default 8): its time is
# mostly the host's references, one core each. Their logs follow each other in validate.log.
validate_shards() {
  local k=${VALIDATE_SHARDS:-8} rc=0 pids=() i
  for ((i = 0; i < k; i++)); do
    "$bin/validate" $([ "$quick" = "--quick" ] && echo --quick) --shard $i/$k > "$out/validate.$i.log" 2>&1 &
    pids+=($!)
  done
  for i in "${pids[@]}"; do wait "$i" || rc=1; done
  for ((i = 0; i < k; i++)); do cat "$out/validate.$i.log"; rm -f "$out/validate.$i.log"; done
  return $rc
}
step validate "$out/validate.log" validate_shards
note "  $(awk '/^validate: [0-9]+ runs/ {r += $2; w += $5; p += $7; f += $9; k++}
              END {printf "validate: %d runs in %d rows: %d passed, %d failed (%d shards)", r, w, p, f, k}' "$out/validate.log")"

: > "$out/scan_variants.log"
variants_ok=0; variants=0
for alg in hillis_steele blelloch_padded brent_kung warp_shuffle; do
  for strat in recursive reduce_then_scan single_pass; do
    variants=$((variants + 1))
    if "$bin/scan" --n 10000019 --algorithm $alg --strategy $strat --validate --repeat 3 >> "$out/scan_variants.log" 2>&1; then
      variants_ok=$((variants_ok + 1))
    else status=1; fi
  done
done
note "$(printf '%-28s %s' 'scan --validate variants' "$variants_ok/$variants passed")"
for mode in "" --indices --split "--split --strategy reduce_then_scan" "--type f64 --keep gt:500"; do
  step "compact $mode" "$out/compact_$(echo $mode | tr -dc 'a-z0-9').log" "$bin/compact" --n 10000019 --validate $mode
done
step "sat on data/coins.pgm" "$out/sat_coins.log" "$bin/sat" "$root/data/coins.pgm" --rect 96,75,191,150 --validate
step "sat --box 3 (coins)" "$out/sat_box.log" "$bin/sat" "$root/data/coins.pgm" --box 3 --validate -o "$out/coins_box3.pgm"
for alg in onesweep split1 split4 split8; do
  step "radix_sort --validate $alg" "$out/sort_$alg.log" "$bin/radix_sort" --n 3000017 --type f32 --dist few_unique --argsort --descending --algorithm $alg --validate -o "$out/order_$alg.npy"
done
for field in sphere torus metaballs gyroid; do
  step "marching_cubes $field --validate" "$out/mc_$field.log" "$bin/marching_cubes" --field $field --grid 96 --weld --validate
done
step "marching_cubes picture" "$out/mc_picture.log" "$bin/marching_cubes" --field metaballs --grid 72 --weld -o "$out/metaballs.ply"
python3 "$root/scripts/render_mesh.py" "$out/metaballs.ply" "$out/metaballs.png" --title "marching_cubes --field metaballs --grid 72 --weld" >> "$out/mc_picture.log" 2>&1 || status=1
"$bin/marching_cubes" --field gyroid --grid 40 --weld -o "$out/gyroid.ply" >> "$out/mc_picture.log" 2>&1 || status=1
python3 "$root/scripts/render_mesh.py" "$out/gyroid.ply" "$out/gyroid.png" --title "marching_cubes --field gyroid --grid 40 --weld" >> "$out/mc_picture.log" 2>&1 || status=1
step "packages: consumer, pip, pytest" "$out/package.log" env build="$build" PARASCAN_PIP_OFFLINE=1 PARASCAN_STRICT_FRAMEWORKS=1 "$root/scripts/package.sh"
note "  $(grep -E 'consumer|passed|failed' "$out/package.log" | tr '\n' ' ')"
step "python peers (parascan.bench)" "$out/peers.log" env PYTHONPATH="$build/pysite" python3 -m parascan.bench --csv "$out/peers.csv"
step "scan on data/coins_u8.npy" "$out/scan_coins.log" "$bin/scan" "$root/data/coins_u8.npy" --acc u64 --inclusive --validate

if [ "$quick" = "--quick" ]; then
  step "bench --quick" "$out/bench.log" "$bin/bench" --quick --csv "$out/bench.csv"
else
  step bench "$out/bench.log" "$bin/bench" --log-sizes 20,24,28,30 --repeat 10 --csv "$out/bench.csv"
  step "bench sat" "$out/bench_sat.log" "$bin/bench" --primitive sat --repeat 10 --csv "$out/bench_sat.csv"
  step "bench sort" "$out/bench_sort.log" "$bin/bench" --primitive sort --repeat 10 --csv "$out/bench_sort.csv" --json "$out/bench_sort.json"
  step "bench marching_cubes" "$out/bench_mc.log" "$bin/bench" --primitive mc --repeat 10 --csv "$out/bench_mc.csv"
fi
cat "$out/bench.log"
echo
note "overall: $([ $status -eq 0 ] && echo PASS || echo FAIL)"
exit $status
