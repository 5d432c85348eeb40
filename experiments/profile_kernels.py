"""Kernel durations of one parascan call under Nsight Compute (experiments; run on the GPU machine):

    ncu --profile-from-start off --metrics gpu__time_duration.sum,dram__bytes.sum --csv \\
        python3 experiments/profile_kernels.py topk bfloat16 256 128256 1024

The call runs once to warm up, then once between cudaProfilerStart/Stop, so only its kernels are
profiled. Ops: topk (k = the last argument), sort, argsort.
"""
import sys

import torch

import parascan


def main(op, dtype, rows, length, k=None):
    g = torch.Generator(device="cuda").manual_seed(1)
    x = (torch.randn((int(rows), int(length)), device="cuda", generator=g) * 100).to(getattr(torch, dtype))
    call = {"topk": lambda: parascan.topk(x, int(k)), "sort": lambda: parascan.sort(x),
            "argsort": lambda: parascan.argsort(x)}[op]
    call()
    torch.cuda.synchronize()
    torch.cuda.profiler.start()
    call()
    torch.cuda.synchronize()
    torch.cuda.profiler.stop()


if __name__ == "__main__":
    main(*sys.argv[1:])
