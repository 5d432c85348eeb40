#!/usr/bin/env bash
# Set up, build everything and run the whole test suite. With no GPU, GPU tests report *skipped*.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build.sh
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
# The C++ package: install into a temporary prefix, build examples/consumer from it with
# find_package(parascan), and run it (with no GPU it says so and exits 4).
source scripts/consumer.sh
# Fuzz the input parsers briefly (libFuzzer needs clang; fuzz.sh installs it when it can).
set +e
scripts/fuzz.sh "${PARASCAN_FUZZ_SECONDS:-60}"
rc=$?
set -e
if [ $rc -eq 2 ]; then echo "fuzz: skipped (no clang++ here)"; elif [ $rc -ne 0 ]; then exit $rc; fi
