"""Timing for the benches (bench.py, bench_batched.py, bench_peers.py): device time by CUDA events on torch's
current stream, and host time per call without synchronising."""
import time

import numpy as np


def median_ms(torch, fn, repeat):
    """Median device time of fn() in ms over `repeat` runs after one warm-up, CUDA events around each."""
    start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeat):
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop))
    return float(np.median(times))


def host_us(torch, fn, batch=100, batches=30):
    """Host time of one fn() call in µs: batches small enough that the launch queue never fills (the host
    would then wait on the GPU), a synchronisation between batches, the median batch."""
    fn()
    times = []
    for _ in range(batches):
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(batch):
            fn()
        times.append((time.perf_counter() - t0) / batch * 1e6)
    torch.cuda.synchronize()
    return float(np.median(times))
