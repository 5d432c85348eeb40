#!/usr/bin/env bash
# The packages, as a user gets them: install the build in $build into a temporary prefix; build
# examples/consumer against it with find_package(parascan) and run it; then `pip install .` into a fresh
# virtual environment (linking that prefix, so only the Python module compiles) and run python/tests with
# pytest. With no GPU the consumer says so (exit 4) and the GPU tests report skipped.
# Sourced by test.sh and gpu_check.sh after the build; alone: scripts/package.sh [BUILD_DIR].
# PARASCAN_PIP_OFFLINE=1 (the GPU machine, no network): the venv sees the system's packages (numpy, torch,
# cupy, nanobind, scikit-build-core, pytest) and pip builds without fetching anything.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
build=${build:-${1:-build}}
prefix=$(mktemp -d /tmp/parascan-prefix.XXXXXX)
cmake --install "$build" --prefix "$prefix" > "$build/install.log"
echo "package: installed into $prefix ($(du -sh "$prefix" | cut -f1)): $(cd "$prefix/lib" && ls | tr '\n' ' ')"
cmake -S examples/consumer -B "$build/consumer" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH="$prefix" > "$build/consumer-configure.log"
cmake --build "$build/consumer"
set +e
"$build/consumer/parascan_consumer"
rc=$?
set -e
if [ $rc -eq 4 ]; then
  echo "consumer: built against the installed package; not run (no CUDA device here)"
elif [ $rc -ne 0 ]; then
  echo "consumer: FAILED (exit $rc)"; exit $rc
fi

arch=${CMAKE_CUDA_ARCHITECTURES:-90}
if [ "${PARASCAN_PIP_OFFLINE:-0}" = 1 ]; then
  # Into a folder of its own (on PYTHONPATH), beside the system's packages: no venv, whose pip would
  # need ensurepip, and nothing fetched.
  site="$build/pysite"
  rm -rf "$site"
  python3 -m pip install -q --no-build-isolation --no-deps --target "$site" . \
    -C cmake.define.CMAKE_PREFIX_PATH="$prefix" -C cmake.define.CMAKE_CUDA_ARCHITECTURES="$arch"
  export PYTHONPATH="$(cd "$site" && pwd)${PYTHONPATH:+:$PYTHONPATH}"
  py=python3
else
  venv="$build/venv"
  python3 -m venv --clear "$venv"
  "$venv/bin/pip" install -q --upgrade pip > /dev/null
  "$venv/bin/pip" install -q numpy pytest
  "$venv/bin/pip" install -q . -C cmake.define.CMAKE_PREFIX_PATH="$prefix" -C cmake.define.CMAKE_CUDA_ARCHITECTURES="$arch"
  py="$(cd "$venv" && pwd)/bin/python"
fi
rm -rf "$prefix"  # the wheel carries its own libparascan
(cd /tmp && "$py" -c "import parascan; print('python: parascan', parascan.__version__, 'from', parascan.__file__, ';', parascan.device_count(), 'CUDA devices')")
(cd python/tests && "$py" -m pytest -q -rs -p no:cacheprovider ${PYTEST_ARGS:-} .)
