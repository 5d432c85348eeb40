#!/usr/bin/env bash
# Install what parascan needs on Debian/Ubuntu (the CUDA toolkit must already be installed):
# CMake, Ninja, g++, GoogleTest and CLI11 from the distribution's packages.
set -euo pipefail
need=()
command -v cmake >/dev/null || need+=(cmake)
command -v ninja >/dev/null || need+=(ninja-build)
command -v g++ >/dev/null || need+=(g++)
[ -f /usr/include/gtest/gtest.h ] || need+=(libgtest-dev)
[ -f /usr/include/CLI/CLI.hpp ] || need+=(libcli11-dev)
if [ ${#need[@]} -gt 0 ]; then
  echo "setup: installing ${need[*]}"
  sudo_cmd=""; [ "$(id -u)" -eq 0 ] || sudo_cmd=sudo
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${need[@]}"
fi
if ! command -v nvcc >/dev/null; then
  for d in /usr/local/cuda/bin /usr/local/cuda-*/bin; do [ -x "$d/nvcc" ] && export PATH="$d:$PATH" && break; done
fi
command -v nvcc >/dev/null || { echo "setup: nvcc not found: install the CUDA toolkit (12.x or 13.x)" >&2; exit 1; }
# NCCL for the multi-GPU primitives (PARASCAN_WITH_NCCL=OFF skips it): the distribution's or the CUDA
# toolkit's if present, else the `nvidia-nccl-cu13` wheel from PyPI (include/nccl.h, lib/libnccl.so.2),
# which cmake/FindNCCL.cmake finds. Without network (PARASCAN_PIP_OFFLINE=1) nothing is installed and
# the build goes on without parascan::dist.
if [ "${PARASCAN_WITH_NCCL:-AUTO}" != "OFF" ]; then
  have_nccl=0
  for h in /usr/include/nccl.h /usr/local/cuda/include/nccl.h "${NCCL_HOME:-/nonexistent}/include/nccl.h"; do
    [ -f "$h" ] && have_nccl=1
  done
  python3 -c "import nvidia.nccl" 2>/dev/null && have_nccl=1
  if [ $have_nccl -eq 0 ] && [ "${PARASCAN_PIP_OFFLINE:-0}" != "1" ]; then
    echo "setup: installing NCCL (pip: nvidia-nccl-cu13)"
    python3 -m pip install -q nvidia-nccl-cu13 || echo "setup: NCCL not installed: building without parascan::dist" >&2
  fi
fi
