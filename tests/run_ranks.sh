#!/usr/bin/env bash
# Starts a job of N processes of EXE on this host the way torchrun does (RANK, WORLD_SIZE, LOCAL_RANK,
# and a fresh PARASCAN_NCCL_ID_FILE), and fails when any of them fails. Exit 77 (ctest: skipped) when
# this host has fewer than N GPUs. NVLink multicast stays off (NCCL_NVLS_ENABLE=0).
#   tests/run_ranks.sh N EXE
set -u
n=${1:?usage: run_ranks.sh N EXE}; exe=${2:?usage: run_ranks.sh N EXE}
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')
if [ "$gpus" -lt "$n" ]; then echo "run_ranks: $gpus GPU(s) here, the job needs $n: skipped"; exit 77; fi
dir=$(mktemp -d); trap 'rm -rf "$dir"' EXIT
export NCCL_NVLS_ENABLE=0 WORLD_SIZE=$n PARASCAN_NCCL_ID_FILE=$dir/nccl_id
pids=()
for ((r = 0; r < n; r++)); do RANK=$r LOCAL_RANK=$r "$exe" & pids+=($!); done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
exit $rc
