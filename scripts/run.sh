#!/usr/bin/env bash
# Set up, build, and run the main job on the bundled sample data: the inclusive u8 -> u64 prefix sum
# of the pixels of data/coins.pgm (its last value is the image total, 11,269,333), validated against
# CUB and the CPU, then a scan of 2^24 random u32 beside CUB.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/build.sh
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "run: built everything, but there is NO GPU on this machine: the tools need a CUDA device to run."
  echo "run: on a machine with a GPU, this script runs: $build/bin/scan data/coins_u8.npy --acc u64 --inclusive --validate"
  exit 4
fi
mkdir -p out
"$build/bin/scan" data/coins_u8.npy --acc u64 --inclusive --validate -o out/coins_prefix.npy
"$build/bin/scan" --n 16777216 --validate
