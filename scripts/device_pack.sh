#!/usr/bin/env bash
# Packs what one call of the lent GPU machine needs, for scripts/device_run.sh: the test binaries, tools
# and consumer built here (build/, Ninja, sm_90) and the install prefix without libparascan (at sm_90 it
# is ~230 MB, past the 64 MiB a call carries, so device_run.sh builds it there in ~3 minutes). Writes
# carry/pkg.tar.xz (~25-30 MB; carry/ is git-ignored); carry it with the device tool: carry=["carry"].
#
#   scripts/device_pack.sh            (after `ninja -C build`, and build/consumer from scripts/package.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
[ -x build/tests/gpu_tests ] || { echo "device_pack: build/ has no gpu_tests: build first (scripts/build.sh)" >&2; exit 2; }
rm -rf carry/bin carry/prefix carry/pkg.tar.xz
mkdir -p carry/bin
cmake --install build --prefix carry/prefix > /dev/null
rm -f carry/prefix/lib/libparascan.so*
cp build/tests/gpu_tests build/tests/cli_tests build/tests/unit_tests build/bin/* carry/bin/
# The multi-GPU tests, where the build found NCCL (device_run.sh runs them on a machine of 2 or more GPUs).
for t in gpu_dist_tests dist_process_test; do [ -x build/tests/$t ] && cp build/tests/$t carry/bin/; done
[ -x build/consumer/parascan_consumer ] && cp build/consumer/parascan_consumer carry/bin/
(cd carry && tar -cJf pkg.tar.xz bin prefix --remove-files)
echo "device_pack: carry/pkg.tar.xz $(du -h carry/pkg.tar.xz | cut -f1)"
