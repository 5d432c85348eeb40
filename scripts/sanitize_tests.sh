#!/usr/bin/env bash
# compute-sanitizer over GPU tests one test per process, several processes at once, so that a tool as
# slow as racecheck finishes within a time-limited machine's call (one process over the sort tests ran
# past 300 s). Each test runs at small sizes (PARASCAN_TEST_SMALL=1) under its own time limit.
#
#   scripts/sanitize_tests.sh OUTDIR GTEST_FILTER TOOL...     e.g.  "sort_test.*:sort_typed/4.*" racecheck synccheck
#
# Environment: PARASCAN_BUILD_DIR (default build-gpu), JOBS (default 8), LIMIT (seconds per test, default 280),
# VARIANTS (space-separated NAME=VALUE settings: each test runs once per setting, as its own process, e.g.
# "PARASCAN_TEST_SORT_ALGORITHMS=onesweep PARASCAN_TEST_SORT_ALGORITHMS=split1" takes a sort test's
# algorithms apart; the runs together make the test's checks; '+' joins settings of one run, e.g.
# "PARASCAN_TEST_SORT_ALGORITHMS=split1+PARASCAN_TEST_SORT_DISTS=uniform"),
# DEADLINE (epoch seconds: no run outlives it; a run cut by it reads TIMEOUT, one that could not start
# NOT RUN, so that a time-limited call still writes its summary),
# SANITIZER_ARGS (more compute-sanitizer options: e.g. "--kernel-name kns=onesweep" in one call and
# "--kernel-name-exclude kns=onesweep" in another split a long test's kernels between two runs).
# OUTDIR/<tool>.<test>.log per run; OUTDIR/sanitize-summary.txt: one line per run (clean, ERRORS,
# TIMEOUT, SKIPPED: the test itself skipped, e.g. no GPU) and the totals. Exit 0 only when every run
# finished clean.
set -u
if [ $# -lt 3 ]; then echo "usage: $0 OUTDIR GTEST_FILTER TOOL..." >&2; exit 2; fi
out=$1 filter=$2; shift 2
root=$(cd "$(dirname "$0")/.." && pwd)
binary=${PARASCAN_BUILD_DIR:-$root/build-gpu}/tests/gpu_tests
jobs=${JOBS:-8} limit=${LIMIT:-280} extra=${SANITIZER_ARGS:-} deadline=${DEADLINE:-}
mkdir -p "$out"
summary=$out/sanitize-summary.txt
if ! command -v compute-sanitizer >/dev/null 2>&1; then echo "compute-sanitizer not found" | tee "$summary"; exit 77; fi
if [ ! -x "$binary" ]; then echo "no test binary at $binary (build first)" | tee "$summary"; exit 2; fi

# Test names from gtest's listing: a suite line ends with '.', its tests are indented below it.
tests=$("$binary" --gtest_filter="$filter" --gtest_list_tests | awk '
  /^[^ ]/ { suite = $1; next }
  /^  /   { print suite $1 }')
if [ -z "$tests" ]; then echo "no test matches $filter" | tee "$summary"; exit 2; fi

run_one() {  # run_one TOOL TEST [NAME=VALUE]
  local tool=$1 test=$2 variant=${3:-} t0=$(date +%s)
  local log=$out/$1.${2//\//_}${variant:+.${variant//[^A-Za-z0-9_.-]/_}}.log
  local budget=$limit
  if [ -n "$deadline" ]; then
    budget=$(( deadline - t0 < limit ? deadline - t0 : limit ))
    if [ "$budget" -lt 5 ]; then printf '%-10s %-62s %-16s %4ds\n' "$tool" "$test${variant:+ [$variant]}" "NOT RUN" 0; return; fi
  fi
  # shellcheck disable=SC2086  # $extra: options split on spaces
  # shellcheck disable=SC2046  # the settings split on '+'
  env $(tr '+' ' ' <<< "$variant") PARASCAN_TEST_SMALL=1 timeout "$budget" compute-sanitizer --tool "$tool" --error-exitcode 1 --print-limit 20 $extra \
    "$binary" --gtest_filter="$test" --gtest_brief=1 > "$log" 2>&1
  local rc=$? verdict
  case $rc in 0) verdict=clean ;; 124) verdict=TIMEOUT ;; *) verdict="ERRORS (exit $rc)" ;; esac
  if [ $rc -eq 0 ] && grep -q '^\[  SKIPPED \]' "$log"; then verdict=SKIPPED; fi
  printf '%-10s %-62s %-16s %4ds  %s\n' "$tool" "$test${variant:+ [$variant]}" "$verdict" $(( $(date +%s) - t0 )) \
    "$(grep -h 'ERROR SUMMARY\|RACECHECK SUMMARY' "$log" | tail -1)"
}
export -f run_one
export out limit binary extra deadline

for tool in "$@"; do for t in $tests; do for v in ${VARIANTS:--}; do echo "$tool $t $v"; done; done; done |
  xargs -P "$jobs" -L 1 bash -c 'run_one "$0" "$1" "${2#-}"' | sort > "$summary.runs"
runs=$(wc -l < "$summary.runs") clean=$(grep -c ' clean ' "$summary.runs")
{
  cat "$summary.runs"
  echo "runs: $runs, clean: $clean, errors: $(grep -c 'ERRORS' "$summary.runs"), timed out: $(grep -c ' TIMEOUT ' "$summary.runs"), not run: $(grep -c ' NOT RUN ' "$summary.runs"), skipped: $(grep -c ' SKIPPED ' "$summary.runs")"
} > "$summary"
rm -f "$summary.runs"
cat "$summary"
[ "$runs" -eq "$clean" ]
