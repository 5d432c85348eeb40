"""Timing for the benches (bench.py, bench_batched.py, bench_peers.py, bench_targets.py) and the Python
experiments: device time by CUDA events on torch's current stream, host time per call without synchronising,
and wall time per call as a user's loop sees it."""
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


def batch_ms(torch, fn, repeat, inner, wait=None):
    """Median wall time per call in ms: `inner` calls back to back, then the device synchronised
    (``cudaDeviceSynchronize`` through torch; `wait(result)` first, for results another framework must be
    asked to finish, e.g. ``jax.block_until_ready``), over `repeat` batches after a warm-up batch. A call's
    host cost counts where it exceeds its device time."""
    def batch():
        torch.cuda.synchronize()
        t0 = time.perf_counter()
        for _ in range(inner):
            r = fn()
        if wait is not None:
            wait(r)
        torch.cuda.synchronize()
        return (time.perf_counter() - t0) / inner * 1e3

    batch()
    return float(np.median([batch() for _ in range(repeat)]))
