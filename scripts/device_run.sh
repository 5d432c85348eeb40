#!/usr/bin/env bash
# One call of the lent GPU machine (device tool, carry=["carry"], command `bash scripts/device_run.sh MODE`):
# libparascan built there, the rest from carry/pkg.tar.xz (scripts/device_pack.sh), the Python module
# pip-installed against that prefix. Logs in $OUT (summary.txt, the bench tables, logs.tgz: the device
# tool brings back only a few files).
#
#   MODE full           the whole suite: gpu_tests in 4 shards, cli_tests, unit_tests, consumer, pytest
#                       (~8 minutes on an H200 with the build; 597 s of the call's 600 on an H100 in stop
#                       50). NO_PYTEST=1 leaves pytest out, for a second call on the warm machine
#                       (`PYTEST=. PYBENCH=none bash scripts/device_run.sh bench none`: its build is a no-op)
#   MODE tests FILTER   gpu_tests --gtest_filter=FILTER, then memcheck and racecheck over the same filter
#                       (or $SAN_FILTER; $SAN_TIMEOUT seconds each, default 150)
#   MODE bench P[,P] ARGS...  bench --primitive P ARGS for each P (P none: no C++ bench), then python -m
#                       parascan.bench with each flag in $PYBENCH (default --batched; e.g. "--batched --peers";
#                       none: no Python bench), after pytest over $PYTEST (test files or -k expressions) if
#                       set ($PYTEST_TIMEOUT seconds, default 200). Carry .whl too for cuda.compute.
#   MODE multigpu       the multi-GPU tests (label multigpu): gpu_dist_tests, two processes through
#                       tests/run_ranks.sh, cli_tests' cli_multigpu.*; `full` runs them too where 2+ GPUs are
#                       visible. NVLink multicast stays off (NCCL_NVLS_ENABLE=0, device README).
#   PREBUILT=1: the binaries and prefix are those scripts/device_build.sh built on this warm machine (no
#                       carry/pkg.tar.xz, no libparascan build here).
#   Any mode: $EXTRA, a command line run last in the same environment, its output in $OUT/extra.txt
#   (e.g. EXTRA='SAN_TOOLS=racecheck bash scripts/sanitize_sort_tests.sh': every sort test under a
#   sanitizer, one per process; SAN_DEADLINE=$(( t0 + 560 )) ends it inside the call).
#   Plan a call by the durations in docs/gpu-run-*.txt: after a cold build (200-230 s on an H200 since
#   stop 58; 250-340 s before) ~370 s are left; `full` then takes ~245 s. Stop 53's call 5 ran out with pytest (~150 s), the sort sanitizers and 134 scan/select/SAT GPU
#   tests (scan_typed ~20 s each) side by side; timed work goes first, alone on the GPU.
set -u
mode=${1:-full}; shift || true
root=$PWD
out=${OUT:-/tmp/out}
mkdir -p "$out"
S=$out/summary.txt
L=/tmp/logs; mkdir -p $L
t0=$(date +%s)
note() { echo "[$(( $(date +%s) - t0 ))s] $*" | tee -a "$S"; }
nvidia-smi -L >> "$S" 2>&1 || { note "no GPU visible"; exit 4; }
if [ -n "${PREBUILT:-}" ]; then  # scripts/device_build.sh laid out carry/bin and carry/prefix on this machine
  [ -x carry/bin/gpu_tests ] || { note "PREBUILT: no carry/bin/gpu_tests (run scripts/device_build.sh first)"; exit 2; }
  note "prebuilt on this machine: carry/bin, carry/prefix"
else
  rm -rf carry/bin carry/prefix; tar -xJf carry/pkg.tar.xz -C carry
  cmake -S . -B /tmp/dev -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 > $L/configure.log 2>&1
  cmake --build /tmp/dev --target parascan.core -j "$(nproc)" > $L/core.log 2>&1; rc=$?
  note "libparascan build rc=$rc"; [ $rc -eq 0 ] || { tail -40 $L/core.log | tee -a "$S"; exit 1; }
  cp -a /tmp/dev/core/libparascan.so* carry/prefix/lib/
fi
# The carried binaries hold absolute paths under /work/main/build (libraries, tools) and /work/main/data.
if [ "$root" != /work/main ]; then mkdir -p /work && ln -sfn "$root" /work/main; fi
mkdir -p /work/main/build
ln -sfn "$root/carry/bin" /work/main/build/bin
ln -sfn "$root/carry/prefix/lib" /work/main/build/core
ln -sfn "$root/carry/prefix/lib" /work/main/build/validation
nccl=$(python3 -c "import nvidia.nccl, os; print(os.path.join(list(nvidia.nccl.__path__)[0], 'lib'))" 2>/dev/null)
export LD_LIBRARY_PATH=$root/carry/prefix/lib:/usr/local/cuda/lib64:${nccl:+$nccl:}${LD_LIBRARY_PATH:-}
if [ "$mode" = multigpu ]; then  # the multi-GPU tests need no Python module
  echo "pip rc=skipped (multigpu)" > $L/pip.log; pip_pid=
else
  ( python3 -m pip install -q --no-build-isolation --no-deps --upgrade --target /tmp/pysite . \
      -C cmake.define.CMAKE_PREFIX_PATH="$root/carry/prefix" -C cmake.define.CMAKE_CUDA_ARCHITECTURES=90 \
      > $L/pip.log 2>&1; echo "pip rc=$?" >> $L/pip.log ) &
  pip_pid=$!
fi
B=carry/bin
export PYTHONPATH=/tmp/pysite PARASCAN_STRICT_FRAMEWORKS=1
# Wheels the image lacks (cuda.compute's cuda-cccl), carried in .whl/ (device README).
if ls .whl/*.whl > /dev/null 2>&1; then
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/whl .whl/*.whl \
    > $L/wheels.log 2>&1 && PYTHONPATH=$PYTHONPATH:/tmp/whl; note "wheels: $(ls .whl | tr '\n' ' ')"
fi
san=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
gpus=$(nvidia-smi -L | grep -c '^GPU')
multigpu() {
  if [ "$gpus" -lt 2 ]; then note "multigpu: $gpus GPU here, the multi-GPU tests need 2: not run"; return; fi
  # Small sizes (to 2^24 + 13) unless MULTIGPU_LARGE=1: the 2^30 cases spend minutes in their host-side checks.
  local small=1; [ -n "${MULTIGPU_LARGE:-}" ] && small=0
  PARASCAN_TEST_SMALL=$small timeout 400 $B/gpu_dist_tests > $L/dist.log 2>&1
  note "gpu_dist_tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $L/dist.log | tr '\n' ' ')"
  grep -h -E "^\[  FAILED|Failure" $L/dist.log | head -10 >> "$S"
  timeout 120 bash tests/run_ranks.sh 2 $B/dist_process_test > $L/dist_process.log 2>&1
  note "dist_process (2 processes) rc=$? $(tail -3 $L/dist_process.log | tr '\n' ' ')"
  timeout 200 $B/cli_tests --gtest_filter='cli_multigpu.*' > $L/cli_multigpu.log 2>&1
  note "cli_multigpu rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $L/cli_multigpu.log | tr '\n' ' ')"
}
case "$mode" in
  multigpu) multigpu ;;
  full)
    timeout 60 $B/unit_tests > $L/unit.log 2>&1; note "unit_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)' $L/unit.log | tr '\n' ' ')"
    for i in 0 1 2 3; do
      GTEST_TOTAL_SHARDS=4 GTEST_SHARD_INDEX=$i timeout 330 $B/gpu_tests > $L/gpu_tests_$i.log 2>&1 &
    done
    timeout 200 $B/cli_tests > $L/cli.log 2>&1; note "cli_tests rc=$? $(grep -E '^\[  (PASSED|FAILED|SKIPPED)' $L/cli.log | tr '\n' ' ')"
    [ -x $B/parascan_consumer ] && { timeout 30 $B/parascan_consumer > $L/consumer.log 2>&1; note "consumer rc=$? $(tail -1 $L/consumer.log)"; }
    # pytest beside the shards (the whole call fits the device tool's 10 minutes that way)
    wait $pip_pid
    if [ -z "${NO_PYTEST:-}" ]; then
      (cd python/tests && timeout 300 python3 -m pytest -q -rs -p no:cacheprovider . > $L/pytest.log 2>&1; \
        echo "rc=$?" >> $L/pytest.log) &
    else
      echo "not run (NO_PYTEST)" > $L/pytest.log
    fi
    wait
    for i in 0 1 2 3; do note "gpu_tests shard $i: $(grep -E '^\[  (PASSED|FAILED|SKIPPED)|tests ran' $L/gpu_tests_$i.log | tr '\n' ' ')"; done
    grep -h -E "^\[  FAILED|Failure" $L/gpu_tests_*.log | head -20 >> "$S"
    note "pytest $(tail -1 $L/pytest.log) $(tail -2 $L/pytest.log | head -1)"
    multigpu ;;
  tests)
    filter=${1:?tests needs a gtest filter}
    timeout 200 $B/gpu_tests --gtest_filter="$filter" > $L/tests.log 2>&1
    note "gpu_tests rc=$? $(grep -E '^\[  (PASSED|FAILED)|Failure' $L/tests.log | head -12 | tr '\n' ' ')"
    for tool in memcheck racecheck; do
      PARASCAN_TEST_SMALL=1 timeout ${SAN_TIMEOUT:-150} $san --tool $tool --error-exitcode 9 $B/gpu_tests \
        --gtest_filter="${SAN_FILTER:-$filter}" > $L/san_$tool.log 2>&1
      note "$tool rc=$? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|^\[  PASSED|^\[  FAILED' $L/san_$tool.log | tr '\n' ' ')"
    done ;;
  bench)
    prims=${1:?bench needs primitives, e.g. topk,axis}; shift
    for p in ${prims//,/ }; do
      [ "$p" = none ] && continue  # `bench none`: only pytest ($PYTEST) and the Python benches
      timeout 200 $B/bench --primitive "$p" "$@" --csv $L/bench-$p.csv > $out/bench-$p.txt 2>&1; note "bench $p $* rc=$?"
    done
    wait $pip_pid
    if [ -n "${PYTEST:-}" ]; then
      # eval: a quoted -k expression in $PYTEST stays one argument (PYTEST="test_x.py -k 'a or b'")
      (cd python/tests && eval "timeout ${PYTEST_TIMEOUT:-200} python3 -m pytest -q -rs -p no:cacheprovider $PYTEST" > $L/pytest.log 2>&1)
      note "pytest $PYTEST rc=$? $(tail -1 $L/pytest.log)"
    fi
    for flag in ${PYBENCH:---batched}; do
      [ "$flag" = none ] && continue
      (cd /tmp && PYTHONUNBUFFERED=1 timeout 240 python3 -m parascan.bench $flag --repeat ${PYREPEAT:-5} --csv $L/pybench$flag.csv \
        > $out/pybench$flag.txt 2>&1)
      note "pybench $flag rc=$?"
    done ;;
  *) note "unknown mode $mode"; exit 2 ;;
esac
wait
# EXTRA: one more command line in the same environment (profiles, one-off sizes), its output in $OUT/extra.txt.
if [ -n "${EXTRA:-}" ]; then
  (eval "$EXTRA") > $out/extra.txt 2>&1; note "extra rc=$?"
fi
note "$(tail -1 $L/pip.log)"
tar -czf $out/logs.tgz -C /tmp logs
note done
