#!/usr/bin/env bash
# Issue 34: which kernel of the library's u32 sort pays for sorted keys (~11% slower than uniform ones on
# the H100 at 2^20-2^28, where CUB's sort is ~3% faster on them; performance.md entries 76 and 78).
# Each of histogram_kernel and the four pass_kernel launches of two sorts under ncu (kernel time, HBM
# bytes read and written), for uniform keys and for the same keys sorted, at each size; CSVs in $OUT.
#
#   bash experiments/ncu_sort_kernels.sh SORT_PHASES [log2 n ...]   (default 24 28)
# SORT_PHASES: experiments/sort_phases built at sm_90, e.g. here (no GPU needed, ~2 minutes) with
#   nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -I core/include -I experiments \
#     experiments/sort_phases.cu -o carry/exp/sort_phases
# and carried: device call `bash experiments/ncu_sort_kernels.sh carry/exp/sort_phases 24 28`, carry ["carry/exp"].
set -u
bin=${1:?the sort_phases binary}; shift
sizes=${*:-24 28}
out=${OUT:-/tmp/out}; mkdir -p "$out"
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
for sorted in "" 1; do
  for lg in $sizes; do
    # --launch-skip 10: past the untimed first sort (and the sorting of the input where SORTED)
    env ${sorted:+SORTED=1} timeout 120 "$ncu" --clock-control none \
      --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum \
      -k regex:'histogram_kernel|pass_kernel' --launch-skip 10 --launch-count 10 --csv "$bin" "$lg" \
      > "$out/ncu-sort${sorted:+-sorted}-$lg.csv" 2>&1
    echo "ncu_sort_kernels: ${sorted:+sorted}${sorted:-uniform} 2^$lg rc=$?"
  done
done
