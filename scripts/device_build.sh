#!/usr/bin/env bash
# The lent GPU machine builds everything itself (16 cores: ~7 minutes at sm_90), where no local build/
# exists to pack (a fresh checkout here has 2 cores: the same build takes well over an hour). Then it lays
# out what scripts/device_run.sh runs, as scripts/device_pack.sh would have carried it: carry/bin (the test
# binaries, tools, consumer) and carry/prefix (the install prefix, libparascan included). The build folder
# (build-dev/, git-ignored) and carry/bin, carry/prefix stay on the warm machine for the next call, which
# runs `PREBUILT=1 bash scripts/device_run.sh MODE` (no pkg.tar.xz, no second libparascan build). Name
# neither carry/ nor build-dev in that call's carry (a carried path replaces what the machine holds);
# carry single files instead (carry/cuda_cccl-*.whl, .whl).
#
#   bash scripts/device_build.sh              (in a device call; logs in $OUT/build-summary.txt)
#   bash scripts/device_build.sh gpu_tests    (those targets only, nothing laid out: a first call that also
#                                             runs some tests; the next call's whole build is incremental)
#   AB_SIZES="20 24 28": carry/exp/ab_run.sh (scripts/ab_build.sh, built off the GPU machine) runs beside
#                       the build (niced; the A/B is GPU-bound), into $OUT/ab.txt; carry ["carry/exp"]
#   TESTS=FILTER: after the build (and the A/B), gpu_tests --gtest_filter=FILTER until $DEADLINE s
#                       from the start (default 585), into $OUT/tests.txt (e.g. the sort tests:
#                       TESTS='sort_test.*:half_keys_test.*:sort_typed/*' with target gpu_tests)
set -u
root=$PWD
out=${OUT:-/tmp/out}
mkdir -p "$out" /tmp/logs
S=$out/build-summary.txt
t0=$(date +%s)
note() { echo "[$(( $(date +%s) - t0 ))s] $*" | tee -a "$S"; }
build=${PARASCAN_DEVICE_BUILD:-build-dev}
ab_pid=
if [ -n "${AB_SIZES:-}" ]; then
  if [ -x carry/exp/ab_run.sh ]; then
    nvidia-smi -L >> "$S" 2>&1
    # shellcheck disable=SC2086  # the sizes are words
    ( bash carry/exp/ab_run.sh $AB_SIZES; note "ab rc=$? ($(grep -c ' ok$' "$out/ab.txt") rows ok, $(grep -c ' WRONG$' "$out/ab.txt") WRONG)" ) &
    ab_pid=$!
  else note "AB_SIZES: no carry/exp/ab_run.sh (scripts/ab_build.sh writes it)"; fi
fi
run_tests() {  # after the build and the A/B: the TESTS filter until DEADLINE
  [ -n "$ab_pid" ] && wait "$ab_pid"
  [ -n "${TESTS:-}" ] || return 0
  local left=$(( ${DEADLINE:-585} - ($(date +%s) - t0) ))
  [ $left -gt 10 ] || { note "TESTS: no time left"; return 1; }
  note "gpu_tests '$TESTS' with $left s left"
  timeout $left "$build/tests/gpu_tests" --gtest_filter="$TESTS" > "$out/tests.txt" 2>&1
  note "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' "$out/tests.txt" | tr '\n' ' ')"
  grep -E '^\[  FAILED' "$out/tests.txt" | head -10 >> "$S"
}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > /tmp/logs/device_configure.log 2>&1 \
  || { note "configure failed"; tail -30 /tmp/logs/device_configure.log | tee -a "$S"; exit 1; }
nice cmake --build "$build" -j "$(nproc)" ${1:+--target "$@"} > /tmp/logs/device_build.log 2>&1; rc=$?
note "build ${*:-all} rc=$rc"
[ $rc -eq 0 ] || { grep -E "error|FAILED" /tmp/logs/device_build.log | head -30 | tee -a "$S"; [ -n "$ab_pid" ] && wait "$ab_pid"; exit 1; }
[ $# -eq 0 ] || { run_tests; exit $?; }
rm -rf carry/bin carry/prefix
mkdir -p carry/bin
cmake --install "$build" --prefix "$root/carry/prefix" > /tmp/logs/device_install.log 2>&1 || { note "install failed"; exit 1; }
cp "$build"/tests/gpu_tests "$build"/tests/cli_tests "$build"/tests/unit_tests "$build"/bin/* carry/bin/
for t in gpu_dist_tests dist_process_test; do [ -x "$build/tests/$t" ] && cp "$build/tests/$t" carry/bin/; done
cmake -S examples/consumer -B "$build/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$root/carry/prefix" \
  > /tmp/logs/consumer.log 2>&1 && cmake --build "$build/consumer" >> /tmp/logs/consumer.log 2>&1 \
  && cp "$build/consumer/parascan_consumer" carry/bin/
note "laid out: carry/bin ($(ls carry/bin | wc -l) programs), carry/prefix/lib: $(ls carry/prefix/lib | tr '\n' ' ')"
run_tests
