#!/usr/bin/env bash
# Set up, build everything and run the whole test suite. With no GPU, GPU tests report *skipped*.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build.sh
ctest_log="$build/ctest.log"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" 2>&1 | tee "$ctest_log"
# The packages: install into a temporary prefix, build and run examples/consumer from it, and pip
# install the Python package into a fresh virtual environment and run its tests.
pytest_log="$build/pytest.log"
scripts/package.sh "$build" 2>&1 | tee "$pytest_log"
# Fuzz the input parsers briefly (libFuzzer needs clang; fuzz.sh installs it when it can).
set +e
scripts/fuzz.sh "${PARASCAN_FUZZ_SECONDS:-60}"
rc=$?
set -e
if [ $rc -eq 2 ]; then echo "fuzz: skipped (no clang++ here)"; elif [ $rc -ne 0 ]; then exit $rc; fi

# What did not run, and why: with no GPU every GPU test is skipped, so a green run here proves the host
# code and the build, not the kernels (scripts/gpu_check.sh runs them on a GPU machine).
ctest_skipped=$(grep -c ' (Skipped)$' "$ctest_log" || true)
py_skipped=$( (grep -Eo '[0-9]+ skipped' "$pytest_log" || true) | tail -1 | cut -d' ' -f1)
if nvidia-smi -L > /dev/null 2>&1; then why="GPU present: any skip here is a defect"; else why="no GPU on this machine"; fi
echo "test.sh: skipped: ${ctest_skipped} ctest tests, ${py_skipped:-0} pytest tests (${why})"
