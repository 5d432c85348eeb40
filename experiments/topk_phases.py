"""Where parascan.topk's time goes: each kernel's mean time under torch.profiler (CUPTI sees every
kernel of the process), beside torch.topk; and for short rows, topk beside a sort of the rows sliced.

    PYTHONPATH=... python3 experiments/topk_phases.py
"""
import torch
import parascan
from parascan.bench import _median_ms
from parascan._timing import host_us
from torch.profiler import profile, ProfilerActivity


def median_ms(fn, repeat=20):
    return _median_ms(torch, fn, repeat)  # the package bench's event timing


def kernels(fn, calls=10):
    fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as p:
        for _ in range(calls):
            fn()
        torch.cuda.synchronize()
    rows = []
    for ev in p.key_averages():
        if ev.device_time_total > 0:
            rows.append((ev.device_time_total / calls, ev.count // calls, ev.key[:90]))
    for t, n, key in sorted(rows, reverse=True):
        print(f"    {t:8.1f} us  x{n:<3d} {key}")


g = torch.Generator(device="cuda").manual_seed(7)
for shape, k in [((256, 128256), 50), ((256, 128256), 1024), ((64, 50257), 50), ((64, 50257), 1024),
                 ((8, 1 << 20), 1024), ((1, 1 << 24), 1024)]:
    for dtype in (torch.float32, torch.bfloat16):
        x = (torch.randn(shape, device="cuda", generator=g) * 100).to(dtype)
        t_ours = median_ms(lambda: parascan.topk(x, k))
        t_torch = median_ms(lambda: torch.topk(x, k))
        h_ours = host_us(torch, lambda: parascan.topk(x, k), batch=20, batches=10)
        h_torch = host_us(torch, lambda: torch.topk(x, k), batch=20, batches=10)
        print(f"{str(shape):16s} k{k:<5d} {str(dtype):15s} parascan {t_ours:.4f} ms  torch.topk {t_torch:.4f} ms  "
              f"{t_torch / t_ours:.2f}x  (host per call: parascan {h_ours:.1f} us, torch {h_torch:.1f} us)", flush=True)
        kernels(lambda: parascan.topk(x, k))
for shape, k in [((1 << 20, 16), 4), ((1 << 16, 256), 8), ((4096, 4096), 64)]:
    x = torch.randn(shape, device="cuda", generator=g) * 100
    t_ours = median_ms(lambda: parascan.topk(x, k))
    t_sort = median_ms(lambda: parascan.argsort(x)[:, :k])
    t_torch = median_ms(lambda: torch.topk(x, k))
    print(f"{str(shape):16s} k{k:<5d} parascan {t_ours:.4f} ms  argsort+slice {t_sort:.4f} ms  torch.topk "
          f"{t_torch:.4f} ms", flush=True)
    kernels(lambda: parascan.topk(x, k))
