#!/usr/bin/env bash
# Run a GPU test binary under compute-sanitizer: run_sanitizer.sh SANITIZER TOOL BINARY GTEST_FILTER
# Exits 77 (CTest: skipped) when there is no GPU or no compute-sanitizer; otherwise the sanitizer's
# verdict (any reported error fails the test).
set -u
sanitizer=$1 tool=$2 binary=$3 filter=$4
if ! command -v "$sanitizer" >/dev/null 2>&1; then echo "skipped: $sanitizer not found"; exit 77; fi
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then echo "skipped: no GPU"; exit 77; fi
exec "$sanitizer" --tool "$tool" --error-exitcode 1 --print-limit 20 "$binary" --gtest_filter="$filter" --gtest_brief=1
