#!/usr/bin/env bash
# An A/B of the sort, built here (no GPU needed; about a minute a variant on 2 cores) and run in one
# device call: experiments/ab_small_sorts.cu compiled at sm_90 once per variant against CUB 3.6 (the
# cuda-cccl 1.2.1 wheel's headers, fetched from PyPI unless PARASCAN_CUB_INCLUDE names a folder),
# each into carry/exp/ab_NAME, and carry/exp/ab_run.sh, which runs them alternately (ROUNDS times, default
# 2) into $OUT/ab.txt. The harness is this tree's; the parascan headers are the variant's.
#
#   scripts/ab_build.sh NAME=REV[:FLAGS] ...
#     REV    a git revision (its core/include, by git archive) or `.` (this working tree's)
#     FLAGS  extra nvcc flags, e.g. -DPARASCAN_ONESWEEP_UNSTABLE_GROUP_KEYS='(1LL<<40)' (pass.cuh's A/B knobs)
#   e.g. scripts/ab_build.sh main=5d7bad2 new=. gate=.:-DPARASCAN_ONESWEEP_UNSTABLE_GROUP_KEYS='(1LL<<40)'
#   then the device call: command `bash carry/exp/ab_run.sh 20 24 28`, carry ["carry/exp"]
#   (AB_ROWS=keys,keys-few,... limits the rows; scripts/device_build.sh can run beside it).
# Each binary is ~7 MB: the device tool carries 64 MiB in all, so at most ~8 variants.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || { sed -n 2,16p "$0"; exit 2; }
root=$PWD
cub=${PARASCAN_CUB_INCLUDE:-}
if [ -z "$cub" ]; then
  cub=/tmp/parascan-cccl-1.2.1/cuda/cccl/headers/include
  if [ ! -f "$cub/cub/version.cuh" ]; then
    mkdir -p /tmp/parascan-wheels
    python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
      --platform manylinux_2_26_x86_64 -d /tmp/parascan-wheels cuda-cccl==1.2.1
    python3 -m zipfile -e /tmp/parascan-wheels/cuda_cccl-1.2.1-*.whl /tmp/parascan-cccl-1.2.1
  fi
fi
[ -f "$cub/cub/version.cuh" ] || { echo "ab_build: no cub/version.cuh under $cub" >&2; exit 2; }
mkdir -p carry/exp
names=()
for spec in "$@"; do
  name=${spec%%=*}; rest=${spec#*=}
  rev=${rest%%:*}; flags=; [ "$rest" != "$rev" ] && flags=${rest#*:}
  [[ "$name" =~ ^[A-Za-z0-9_-]+$ && "$name" != "$spec" ]] || { echo "ab_build: bad variant '$spec' (NAME=REV[:FLAGS])" >&2; exit 2; }
  if [ "$rev" = . ]; then inc=$root/core/include
  else
    inc=/tmp/parascan-ab/$name/core/include
    rm -rf "/tmp/parascan-ab/$name"; mkdir -p "/tmp/parascan-ab/$name"
    git archive "$rev" core/include | tar -x -C "/tmp/parascan-ab/$name"
  fi
  t0=$(date +%s)
  # shellcheck disable=SC2086  # FLAGS are words for nvcc
  nvcc -O3 -std=c++17 -arch=sm_90 --expt-relaxed-constexpr $flags -I "$cub" -I "$inc" -I experiments \
    experiments/ab_small_sorts.cu -o "carry/exp/ab_$name"
  echo "ab_build: carry/exp/ab_$name from ${rev} ${flags:+($flags) }in $(( $(date +%s) - t0 )) s"
  names+=("$name")
done
{
  echo '#!/usr/bin/env bash'
  echo "# Written by scripts/ab_build.sh $(date -u +%F): $*"
  echo '# bash carry/exp/ab_run.sh [log2 n ...]: each variant in turn, ROUNDS times, into $OUT/ab.txt.'
  echo 'out=${OUT:-/tmp/out}; mkdir -p "$out"; rc=0'
  echo 'for r in $(seq ${ROUNDS:-2}); do'
  echo "  for v in ${names[*]}; do"
  echo '    echo "== ab_${v}_$r" >> "$out/ab.txt"'
  echo '    carry/exp/ab_$v $v "$@" >> "$out/ab.txt" 2>&1 || rc=1'
  echo '  done'
  echo 'done'
  echo 'exit $rc'
} > carry/exp/ab_run.sh
chmod +x carry/exp/ab_run.sh
echo "ab_build: carry/exp/ab_run.sh runs ${names[*]}"
