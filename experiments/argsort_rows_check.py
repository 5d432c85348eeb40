"""parascan.argsort of bf16 and f32 rows beside torch.argsort(stable), one call after a synchronisation (the
batched bench's timing), pipelined calls, and the kernels of one call under torch.profiler (stop 41: the H100
batched bench showed bf16 (64, 50257) at 0.80 ms against 0.12 ms on the H200; performance.md entry 41).

    PYTHONPATH=... python3 experiments/argsort_rows_check.py
"""
import time

import torch
from torch.profiler import ProfilerActivity, profile

import parascan
from parascan.bench import _median_ms


def pipelined_ms(fn, calls=20):
    fn()
    torch.cuda.synchronize()
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    for _ in range(calls):
        fn()
    b.record()
    b.synchronize()
    return a.elapsed_time(b) / calls


def kernels(fn, calls=5):
    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA, ProfilerActivity.CPU]) as p:
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
    rows = [(ev.device_time_total / calls, ev.cpu_time_total / calls, ev.count / calls, ev.key[:80])
            for ev in p.key_averages() if ev.device_time_total > 0 or ev.key.startswith("cuda")]
    for d, c, n, key in sorted(rows, reverse=True)[:12]:
        print(f"    device {d:8.1f} us  host {c:8.1f} us  x{n:<4.1f} {key}")


g = torch.Generator(device="cuda").manual_seed(3)
for shape in [(64, 50257), (256, 128256)]:
    for dtype in (torch.bfloat16, torch.float32):
        x = (torch.randn(shape, device="cuda", generator=g) * 100).to(dtype)
        ok = bool(torch.equal(parascan.argsort(x), torch.argsort(x, dim=-1, stable=True)))
        ours, theirs = _median_ms(torch, lambda: parascan.argsort(x), 20), _median_ms(
            torch, lambda: torch.argsort(x, dim=-1, stable=True), 20)
        print(f"{str(shape):15s} {str(dtype):15s} one call: parascan {ours:.4f} ms, torch {theirs:.4f} ms ({theirs / ours:.2f}x); "
              f"pipelined: parascan {pipelined_ms(lambda: parascan.argsort(x)):.4f} ms  {'ok' if ok else 'MISMATCH'}", flush=True)
        kernels(lambda: parascan.argsort(x))
