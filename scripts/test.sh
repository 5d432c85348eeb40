#!/usr/bin/env bash
# Set up, build everything and run the whole test suite. With no GPU, GPU tests report *skipped*.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh
build=${PARASCAN_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j "$(nproc)"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
