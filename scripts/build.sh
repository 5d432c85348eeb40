#!/usr/bin/env bash
# Set up (install what is missing) and build everything into ${PARASCAN_BUILD_DIR:-build}.
# Sourced by run.sh and test.sh; sets $build.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/setup.sh
build=${PARASCAN_BUILD_DIR:-build}
# PARASCAN_CUDA_ARCHITECTURES (e.g. 90) builds for those architectures only instead of the default 80;90;
# PARASCAN_WERROR=ON makes warnings in parascan's code errors; PARASCAN_BUILD_EXPERIMENTS=ON builds
# experiments/; PARASCAN_CHECK_OLDEST_ARCH=ON also compiles core sources as sm_75 PTX (CI sets all three).
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  ${PARASCAN_CUDA_ARCHITECTURES:+-DCMAKE_CUDA_ARCHITECTURES=$PARASCAN_CUDA_ARCHITECTURES} \
  ${PARASCAN_WERROR:+-DPARASCAN_WERROR=$PARASCAN_WERROR} \
  ${PARASCAN_BUILD_EXPERIMENTS:+-DPARASCAN_BUILD_EXPERIMENTS=$PARASCAN_BUILD_EXPERIMENTS} \
  ${PARASCAN_CHECK_OLDEST_ARCH:+-DPARASCAN_CHECK_OLDEST_ARCH=$PARASCAN_CHECK_OLDEST_ARCH}
cmake --build "$build" -j "$(nproc)"
