#!/usr/bin/env bash
# Set up, build everything and run the whole test suite. With no GPU, GPU tests report *skipped*.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build.sh
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
# The packages: install into a temporary prefix, build and run examples/consumer from it, and pip
# install the Python package into a fresh virtual environment and run its tests.
scripts/package.sh "$build"
# Fuzz the input parsers briefly (libFuzzer needs clang; fuzz.sh installs it when it can).
set +e
scripts/fuzz.sh "${PARASCAN_FUZZ_SECONDS:-60}"
rc=$?
set -e
if [ $rc -eq 2 ]; then echo "fuzz: skipped (no clang++ here)"; elif [ $rc -ne 0 ]; then exit $rc; fi
