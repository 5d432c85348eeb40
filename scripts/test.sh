#!/usr/bin/env bash
# Set up, build everything and run the whole test suite. With no GPU, GPU tests report *skipped*.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build.sh
ctest --test-dir "$build" --output-on-failure -j "$(nproc)"
