#!/usr/bin/env bash
# The multi-GPU check (issue 19) on a machine with 2 or more GPUs and NCCL (the device tool's
# nvidia-h200-x2): builds only what it needs, runs the `multigpu` tests (the API's, the two-process job,
# the tools' --gpus runs) and `bench --primitive dist`,
# logging under OUTDIR. NVLink multicast stays off (NCCL_NVLS_ENABLE=0; the device README says why).
#   scripts/gpu_check_dist.sh OUTDIR [--tests-only | --bench-only]
set -uo pipefail
out=${1:?usage: scripts/gpu_check_dist.sh OUTDIR [--tests-only|--bench-only]}
mode=${2:-all}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${build:-$root/build-dist}
export NCCL_NVLS_ENABLE=0
mkdir -p "$out"
nvidia-smi -L > "$out/gpus.txt" 2>&1
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
        -DPARASCAN_WITH_NCCL=ON > "$out/configure.log" 2>&1 || { tail -20 "$out/configure.log"; exit 1; }
fi
cmake --build "$build" -j "$(nproc)" --target gpu_dist_tests dist_process_test cli_tests bench unit_tests > "$out/build.log" 2>&1 ||
  { tail -30 "$out/build.log"; exit 1; }
rc=0
if [ "$mode" != "--bench-only" ]; then
  "$build/tests/unit_tests" --gtest_filter='dist_cuts.*' > "$out/unit.log" 2>&1 || rc=1
  ctest --test-dir "$build" -L multigpu --output-on-failure > "$out/multigpu.log" 2>&1 || rc=1
  grep -E "PASSED|FAILED" "$out/unit.log" | tail -2
  grep -E "tests passed|tests failed|Skipped|Failed" "$out/multigpu.log" | tail -8
fi
if [ "$mode" != "--tests-only" ]; then
  "$build/bin/bench" --primitive dist --log-sizes 28,31 --csv "$out/dist.csv" > "$out/dist.txt" 2>&1 || rc=1
  cat "$out/dist.txt"
fi
exit $rc
