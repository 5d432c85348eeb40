#!/usr/bin/env bash
# Set up (install what is missing) and build everything into ${PARASCAN_BUILD_DIR:-build}.
# Sourced by run.sh and test.sh; sets $build.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/setup.sh
build=${PARASCAN_BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" -j "$(nproc)"
