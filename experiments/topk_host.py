"""Where a single parascan.topk call from Python spends host time (issue 33/35; performance.md entry 41).

The batched bench times one call after a synchronisation, so a call whose host side (Python, the
two-phase query, ~10 launches) takes longer than its first kernels leaves the GPU idle. For each shape:
the host time of one call after a synchronisation (median of 50), its event time, the same for
torch.topk, and the runtime API calls the call makes (torch.profiler's CPU side: count and µs per call).

    PYTHONPATH=... python3 experiments/topk_host.py
"""
import time

import numpy as np
import torch
from torch.profiler import ProfilerActivity, profile

import parascan


def single(fn, repeat=50):
    """Median host µs of one call after a synchronisation, and median event µs of the same calls."""
    fn()
    torch.cuda.synchronize()
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    host, dev = [], []
    for _ in range(repeat):
        torch.cuda.synchronize()
        start.record()
        t0 = time.perf_counter()
        fn()
        t1 = time.perf_counter()
        stop.record()
        stop.synchronize()
        host.append((t1 - t0) * 1e6)
        dev.append(start.elapsed_time(stop) * 1e3)
    return float(np.median(host)), float(np.median(dev))


def api_calls(fn, calls=10):
    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as p:
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
    rows = [(ev.cpu_time_total / calls, ev.count / calls, ev.key) for ev in p.key_averages()
            if ev.key.startswith("cuda") and ev.cpu_time_total > 0]
    for t, n, key in sorted(rows, reverse=True)[:8]:
        print(f"      {t:7.1f} us a call  x{n:<5.1f} {key[:70]}")


g = torch.Generator(device="cuda").manual_seed(5)
for shape, k, dtype in [((64, 50257), 1024, torch.bfloat16), ((64, 50257), 50, torch.float32),
                        ((256, 128256), 1024, torch.bfloat16), ((8, 1 << 20), 1024, torch.bfloat16)]:
    x = (torch.randn(shape, device="cuda", generator=g) * 100).to(dtype)
    for name, fn in [("parascan.topk", lambda: parascan.topk(x, k)), ("torch.topk", lambda: torch.topk(x, k))]:
        h, d = single(fn)
        print(f"{str(shape):15s} k{k:<5d} {str(dtype):15s} {name:14s} host {h:7.1f} us  event {d:7.1f} us", flush=True)
        api_calls(fn)
