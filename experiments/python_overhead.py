"""Where the host time of one parascan Python call goes (torch inputs at 2^10, no synchronisation):
each step of the call timed alone, then cProfile of the whole call. Run on a GPU machine with the package
on PYTHONPATH: python3 experiments/python_overhead.py"""
import cProfile
import pstats
import timeit

import torch

import parascan
from parascan import _arrays, _core

x = torch.randint(0, 100, (1 << 10,), dtype=torch.int32, device="cuda")
out = torch.empty_like(x)
s = _arrays.stream_of(None, x, out)
a = _arrays.wrap(x, "x", s)
steps = {
    "parascan.inclusive_scan(x, out=out)": lambda: parascan.inclusive_scan(x, out=out),
    "torch.cumsum(x, 0, out=out)": lambda: torch.cumsum(x, 0, out=out),
    "require_device()": _arrays.require_device,
    "stream_of(None, x, out)": lambda: _arrays.stream_of(None, x, out),
    "wrap(x)": lambda: _arrays.wrap(x, "x", s),
    "use_device_of(a)": lambda: _arrays.use_device_of(a),
    "_output(a, out)": lambda: parascan._output(a, out, "out", a.shape, a.dtype, s),
    "_core.scan(raw)": lambda: _core.scan(True, x.data_ptr(), "i4", out.data_ptr(), "i4", 1024, "sum", None, "", "", s),
    "_core.current_device()": _core.current_device,
    "x.data_ptr()": x.data_ptr,
    "x.is_contiguous()": x.is_contiguous,
    "x.get_device()": x.get_device,
    "isinstance(x, torch.Tensor)": lambda: isinstance(x, torch.Tensor),
    "x.dtype": lambda: x.dtype,
    "x.shape": lambda: x.shape,
}
for name, fn in steps.items():
    fn()
    torch.cuda.synchronize()
    n = 200
    best = min(timeit.repeat(fn, number=n, repeat=20)) / n * 1e6
    torch.cuda.synchronize()
    print(f"{name:40s} {best:7.2f} us")
pr = cProfile.Profile()
pr.enable()
for _ in range(2000):
    parascan.inclusive_scan(x, out=out)
pr.disable()
torch.cuda.synchronize()
pstats.Stats(pr).sort_stats("tottime").print_stats(18)
