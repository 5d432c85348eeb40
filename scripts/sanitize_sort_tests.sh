#!/usr/bin/env bash
# compute-sanitizer over every sort test (scripts/sanitize_tests.sh), one test per process, in three groups at
# once: the split sizes tests once per algorithm, and split1 once per distribution (PARASCAN_TEST_SORT_DISTS);
# the other tests that loop over the algorithms once per algorithm; the rest whole. On the device
# (scripts/device_run.sh, EXTRA='bash scripts/sanitize_sort_tests.sh') it runs the carried gpu_tests.
#
# SAN_TOOLS (default memcheck), SAN_DEADLINE (epoch seconds, default now + 540), SAN_LIMIT (seconds a run),
# J1 / J2 (processes for the first two groups, default 10 / 5), SAN_GROUPS (default "split alg plain"),
# SAN_SPLIT_FILTER / SAN_ALG_FILTER (gtest filters replacing the split and alg groups' tests, e.g. the runs a
# call left: 'sort_typed/7.sizes*:sort_typed/8.sizes*'), SAN_ALG_VARIANTS (the alg group's settings, by default
# one per algorithm, e.g. PARASCAN_TEST_SORT_ALGORITHMS=split1),
# SAN_CHECK_CUB=1 (racecheck CUB's sort kernels too: by default racecheck skips the kernels whose names hold
# DeviceRadixSort, CUB's reference sort that each check runs beside ours, which doubles racecheck's
# time and checks NVIDIA's code, not ours; memcheck checks them always), SAN_SPLIT_SIZES (racecheck's sizes
# for the split sorts, below), SAN_OUT (default /tmp/logs); summaries in $OUT (or SAN_OUT) as
# sanitize-<group>-summary.txt. Exit 0 only when every run finished clean. Stop 58 on an H200: memcheck,
# 135 runs in 243 s; racecheck 20-70x slower a run (docs/gpu-run-stop58-h200.txt, performance.md entry 68).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
if [ -x "$root/carry/bin/gpu_tests" ]; then
  mkdir -p /tmp/sanb/tests && ln -sfn "$root/carry/bin/gpu_tests" /tmp/sanb/tests/gpu_tests
  export PARASCAN_BUILD_DIR=/tmp/sanb
fi
logs=${SAN_OUT:-/tmp/logs} OUT=${OUT:-${SAN_OUT:-/tmp/logs}}
export DEADLINE=${SAN_DEADLINE:-$(( $(date +%s) + 540 ))} LIMIT=${SAN_LIMIT:-540}
P=PARASCAN_TEST_SORT_ALGORITHMS
ALGS="$P=onesweep $P=split8 $P=split4 $P=split1"
# Racecheck costs ~150 ms a launch here (memcheck ~7), and the split sorts launch 2-3 kernels a pass (split1:
# 32 passes a u32 sort), so under racecheck the split sorts take the sizes in SAN_SPLIT_SIZES
# (PARASCAN_TEST_SORT_SIZES: one key, a partial warp, a partial block, the one-block rows' edges, several
# tiles); the Onesweep, the default, keeps every size. memcheck takes every size for every algorithm.
sizes=
if [ "${SAN_TOOLS:-memcheck}" = racecheck ]; then sizes="+PARASCAN_TEST_SORT_SIZES=${SAN_SPLIT_SIZES:-1,31,257,1025,4097,8193,19969}"; fi
SPLIT_V="$P=onesweep $P=split4$sizes $P=split8$sizes"
for d in uniform few_unique sorted reverse all_equal; do SPLIT_V="$SPLIT_V $P=split1+PARASCAN_TEST_SORT_DISTS=$d$sizes"; done
SPLIT='sort_typed/4.sizes_and_distributions_*:sort_typed/6.sizes_and_distributions_*:sort_typed/7.sizes_and_distributions_*:sort_typed/8.sizes_and_distributions_*'
ALG='sort_typed/4.bit_ranges_and_directions:sort_typed/6.bit_ranges_and_directions:sort_typed/7.bit_ranges_and_directions:sort_typed/8.bit_ranges_and_directions:sort_test.special_floats_and_integer_limits:sort_test.passes_whose_keys_share_a_digit_are_skipped:sort_test.tiles_whose_keys_share_a_digit:sort_test.first_pass_of_keys_alone_ranks_unstably:sort_test.later_passes_rank_warps_that_share_the_bits_below_unstably:sizes/sort_values.*'
PLAIN='half_keys_test.*:sort_test.bad_arguments_are_refused'
T=${SAN_TOOLS:-memcheck} groups=${SAN_GROUPS:-split alg plain}
if [ "$T" = racecheck ] && [ -z "${SAN_CHECK_CUB:-}" ]; then export SANITIZER_ARGS="--kernel-name-exclude kns=DeviceRadixSort"; fi
group() {  # group NAME JOBS FILTER [VARIANTS]
  case " $groups " in *" $1 "*) ;; *) return 0 ;; esac
  JOBS=$2 VARIANTS=${4:-} bash "$root/scripts/sanitize_tests.sh" "$logs/san_$1" "$3" $T > /dev/null
}
group split "${J1:-10}" "${SAN_SPLIT_FILTER:-$SPLIT}" "$SPLIT_V" & p1=$!
group alg "${J2:-5}" "${SAN_ALG_FILTER:-$ALG}" "${SAN_ALG_VARIANTS:-$ALGS}" & p2=$!
group plain 1 "$PLAIN" & p3=$!
rc=0; for p in $p1 $p2 $p3; do wait $p || rc=1; done
for g in $groups; do
  cp $logs/san_$g/sanitize-summary.txt "$OUT/sanitize-$g-summary.txt"; echo "== $g: $(tail -1 $logs/san_$g/sanitize-summary.txt)"
done
grep -l "ERROR SUMMARY: [1-9]\|RACECHECK SUMMARY: [1-9]" $logs/san_*/*.log 2>/dev/null | head -3 | xargs -r -I{} sh -c 'echo "== {}"; head -60 {}'
exit $rc  # 0 only when every run of every group finished clean
