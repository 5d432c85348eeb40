#!/usr/bin/env bash
# Install the build in $build into a temporary prefix, build examples/consumer against it with
# find_package(parascan), and run it: exit 0 (PASS), or 4 with no GPU (then it was only built).
# Sourced by test.sh and gpu_check.sh after the build; runnable alone: scripts/consumer.sh [BUILD_DIR].
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${build:-${1:-build}}
prefix=$(mktemp -d /tmp/parascan-prefix.XXXXXX)
cmake --install "$build" --prefix "$prefix" > "$build/install.log"
echo "consumer: installed into $prefix ($(du -sh "$prefix" | cut -f1)): $(ls "$prefix/lib" | tr '\n' ' ')"
cmake -S examples/consumer -B "$build/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" > "$build/consumer-configure.log"
cmake --build "$build/consumer"
set +e
"$build/consumer/parascan_consumer"
rc=$?
set -e
rm -rf "$prefix"
if [ $rc -eq 4 ]; then
  echo "consumer: built against the installed package; not run (no CUDA device here)"
elif [ $rc -ne 0 ]; then
  echo "consumer: FAILED (exit $rc)"; exit $rc
fi
