#!/usr/bin/env bash
# In a scripts/device_run.sh EXTRA: `bench` built on the GPU machine against a newer CUB than the
# toolkit's (the headers of a cuda-cccl wheel carried in carry/, e.g. cuda_cccl-1.2.1: CUB 3.6, which
# has cub::DeviceBatchedTopK), then `bench --primitive P ARGS` for each P, tables in $OUT/bench-cub-newer-P.txt.
#
#   EXTRA='bash scripts/device_cub_newer.sh topk,sort --filter "u32 keys"'
# The libparascan build of device_run.sh is reused (/tmp/dev); only parascan::validation and bench are
# rebuilt (-DPARASCAN_CUB_INCLUDE), so later calls on the same machine measure against this CUB too.
set -u
prims=${1:?primitives, e.g. topk,sort}; shift
whl=$(ls carry/cuda_cccl-*.whl 2>/dev/null | tail -1)
[ -n "$whl" ] || { echo "device_cub_newer: no carry/cuda_cccl-*.whl"; exit 2; }
dir=/tmp/cccl-newer
[ -f $dir/cuda/cccl/headers/include/cub/version.cuh ] || python3 -m zipfile -e "$whl" $dir
out=${OUT:-/tmp/out}
dev=${PARASCAN_DEVICE_BUILD:-/tmp/dev}  # build-dev where scripts/device_build.sh built everything
cmake -S . -B $dev -DPARASCAN_CUB_INCLUDE=$dir/cuda/cccl/headers/include > /tmp/logs/cub_newer_configure.log 2>&1 \
  || { tail -20 /tmp/logs/cub_newer_configure.log; exit 1; }
t0=$(date +%s)
cmake --build $dev --target bench -j "$(nproc)" > /tmp/logs/cub_newer_build.log 2>&1 \
  || { grep -E "error" /tmp/logs/cub_newer_build.log | head -20; exit 1; }
echo "device_cub_newer: bench against $(basename "$whl") built in $(( $(date +%s) - t0 )) s"
for p in ${prims//,/ }; do
  # The machine's own libstdc++ (the bench was built there by a newer g++ than the carried libraries).
  env -u LD_LIBRARY_PATH timeout 300 $dev/bin/bench --primitive "$p" "$@" --csv /tmp/logs/bench-cub-newer-$p.csv > $out/bench-cub-newer-$p.txt 2>&1
  echo "bench --primitive $p $* (newer CUB) rc=$?"
  cp /tmp/logs/bench-cub-newer-$p.csv $out/ 2>/dev/null
done
