#!/usr/bin/env bash
# Fuzz the input parsers with libFuzzer (clang from the distribution; host only, no GPU):
#   scripts/fuzz.sh [SECONDS_PER_TARGET]   (default 60)
# Targets in fuzz/: the .npy header, PGM P2/P5, option values (numbers, --keep, --rect); seed corpora
# in fuzz/corpus/<target>/ (new inputs go to a scratch copy, the repo's corpus is not touched).
# A crash, a sanitizer report or a failed invariant stops it with exit 1 and leaves the input in
# build-fuzz/; the execution counts go to build-fuzz/fuzz_summary.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
out=build-fuzz
mkdir -p "$out"
if ! command -v clang++ > /dev/null; then
  if command -v apt-get > /dev/null && [ "$(id -u)" = 0 ]; then apt-get install -y -qq clang > /dev/null; fi
fi
command -v clang++ > /dev/null || { echo "fuzz: clang++ not found (apt-get install clang)" >&2; exit 2; }
cuda_inc=$(dirname "$(command -v nvcc 2>/dev/null || echo /usr/local/cuda/bin/nvcc)")/../include
flags=(-std=c++17 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
       -I apps/common -I core/include -I "$cuda_inc")
common=(apps/common/array_io.cpp apps/common/pgm.cpp apps/common/dtype.cpp apps/common/volume_io.cpp core/src/names.cpp)
: > "$out/fuzz_summary.txt"
status=0
for target in npy_header pgm options; do
  corpus=fuzz/corpus/${target%_header}
  work=$out/corpus_$target
  rm -rf "$work"; cp -r "$corpus" "$work"
  clang++ "${flags[@]}" "fuzz/${target}_fuzz.cpp" "${common[@]}" -o "$out/${target}_fuzz"
  log=$out/${target}.log
  if (cd "$out" && "./${target}_fuzz" "corpus_$target" -max_total_time="$seconds" -max_len=4096 -print_final_stats=1) > "$log" 2>&1; then
    runs=$(grep -E "^stat::number_of_executed_units" "$log" | awk '{print $2}')
    echo "$target: ${runs:-?} executions in ${seconds}s, no crash" | tee -a "$out/fuzz_summary.txt"
  else
    echo "$target: FAILED, see $log" | tee -a "$out/fuzz_summary.txt"
    tail -30 "$log"
    status=1
  fi
done
exit $status
