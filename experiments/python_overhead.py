"""Where the host time of one parascan Python call goes (2^10 int32 inclusive sums, no synchronisation):
the whole call from torch and from CuPy, each step of the direct path (parascan/_core direct_scan) timed
alone, and the C++ call it wraps. Run on a GPU machine with the package on PYTHONPATH:
python3 experiments/python_overhead.py. Each figure: the best of 20 batches of 200 calls, in µs a call."""
import sys
import timeit

import torch

import parascan
from parascan import _core, _jax_route, _torch_ops

try:
    import cupy
except Exception:  # CuPy's steps are skipped
    cupy = None


def best_us(fn, n=200):
    fn()
    torch.cuda.synchronize()
    t = min(timeit.repeat(fn, number=n, repeat=20)) / n * 1e6
    torch.cuda.synchronize()
    return t


def report(title, steps):
    print(title)
    for name, fn in steps.items():
        print(f"  {name:58s} {best_us(fn):7.2f} us", flush=True)


x = torch.randint(0, 100, (1 << 10,), dtype=torch.int32, device="cuda")
out = torch.empty_like(x)
count = torch.zeros(1, dtype=torch.int64, device="cuda")
h = torch.cuda.current_stream().cuda_stream
cxx = min(_core.cxx_scan_call_us(x.data_ptr(), out.data_ptr(), 1024, 200, h) for _ in range(20))
torch.cuda.synchronize()
print(f"the C++ call (size query, stream-ordered temporary, the scan): {cxx:.2f} us")
report("torch", {
    "parascan.inclusive_scan(x)": lambda: parascan.inclusive_scan(x),
    "parascan.inclusive_scan(x, out=out)": lambda: parascan.inclusive_scan(x, out=out),
    "torch.cumsum(x, 0)": lambda: torch.cumsum(x, 0),
    "torch.cumsum(x, 0, out=out)": lambda: torch.cumsum(x, 0, out=out),
    "parascan._scan(True, x, 'sum', ...) (below the routing)":
        lambda: parascan._scan(True, x, "sum", None, None, None, None, None, None),
    "_core.direct_scan(True, x, 'sum')": lambda: _core.direct_scan(True, x, "sum"),
    "_core.direct_scan(True, x, 'sum', out)": lambda: _core.direct_scan(True, x, "sum", out),
    "_core.scan(raw pointers)": lambda: _core.scan(True, x.data_ptr(), "i4", out.data_ptr(), "i4", 1024, "sum", None,
                                                   "", "", h),
    "_torch_ops.routed(x)": lambda: _torch_ops.routed(x),
    "_jax_route.routed(x)": lambda: _jax_route.routed(x),
    "torch.empty_like(x)": lambda: torch.empty_like(x),
    "torch._C._cuda_getCurrentRawStream(0)": lambda: torch._C._cuda_getCurrentRawStream(0),
    "x.is_cuda": lambda: x.is_cuda,
    "x.dtype": lambda: x.dtype,
    "x.is_contiguous()": x.is_contiguous,
    "x.get_device()": x.get_device,
    "x.data_ptr()": x.data_ptr,
    "x.numel()": x.numel,
    "parascan.select(x, out=out, count=count)": lambda: parascan.select(x, out=out, count=count),
    "parascan.select(x, out=out, count=count, stream=s) (Python layer)":
        lambda: parascan.select(x, out=out, count=count, stream=torch.cuda.current_stream()),
    "parascan.sort(x)": lambda: parascan.sort(x),
    "torch.sort(x)": lambda: torch.sort(x),
    "lambda: None (the timing loop itself)": lambda: None,
})
if cupy is not None:
    cx = cupy.asarray(x)
    cout = cupy.empty_like(cx)
    report("cupy", {
        "parascan.inclusive_scan(cx)": lambda: parascan.inclusive_scan(cx),
        "parascan.inclusive_scan(cx, out=cout)": lambda: parascan.inclusive_scan(cx, out=cout),
        "cupy.cumsum(cx)": lambda: cupy.cumsum(cx),
        "cupy.cumsum(cx, out=cout)": lambda: cupy.cumsum(cx, out=cout),
        "_torch_ops.routed(cx)": lambda: _torch_ops.routed(cx),
        "_jax_route.routed(cx)": lambda: _jax_route.routed(cx),
        "isinstance(cx, torch.Tensor)": lambda: isinstance(cx, torch.Tensor),
        "parascan._scan(True, cx, 'sum', ...) (below the routing)":
            lambda: parascan._scan(True, cx, "sum", None, None, None, None, None, None),
        "_core.direct_scan(True, cx, 'sum')": lambda: _core.direct_scan(True, cx, "sum"),
        "_core.direct_scan(True, cx, 'sum', cout)": lambda: _core.direct_scan(True, cx, "sum", cout),
        "cupy.ndarray(cx.shape, cx.dtype)": lambda: cupy.ndarray(cx.shape, cx.dtype),
        "cupy.empty_like(cx)": lambda: cupy.empty_like(cx),
        "cupy.cuda.get_current_stream().ptr": lambda: cupy.cuda.get_current_stream().ptr,
        "cx._c_contiguous": lambda: cx._c_contiguous,
        "cx.flags.c_contiguous": lambda: cx.flags.c_contiguous,
        "cx.dtype.char": lambda: cx.dtype.char,
        "cx.data.ptr": lambda: cx.data.ptr,
        "cx.data.device_id": lambda: cx.data.device_id,
        "cx.device.id": lambda: cx.device.id,
        "cx.size": lambda: cx.size,
        "cx.shape": lambda: cx.shape,
    })


def device_us(fn, calls=100):
    """GPU time a call of `calls` back-to-back calls between two events (host gaps included)."""
    fn()
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    best = float("inf")
    for _ in range(5):
        a.record()
        for _ in range(calls):
            fn()
        b.record()
        b.synchronize()
        best = min(best, a.elapsed_time(b) * 1e3 / calls)
    return best


# The select by mask and by rule (bench_peers at 2^20 on the H100, stop 46: 20.5 against 30.0 us a call).
xs = torch.randint(0, 1 << 30, (1 << 20,), dtype=torch.int32, device="cuda")
m = xs > 536870912
o = torch.empty_like(xs)
forms = {
    "select(x, mask=m, out=o, count=c)": lambda: parascan.select(xs, mask=m, out=o, count=count),
    "select(x, keep='gt:536870912', out=o, count=c)": lambda: parascan.select(xs, keep="gt:536870912", out=o, count=count),
    "_core.direct_select(x, m, o, c)": lambda: _core.direct_select(xs, m, o, count),
    "_core.direct_select(x, None, o, c, 'gt', 536870912.0)":
        lambda: _core.direct_select(xs, None, o, count, "gt", 536870912.0),
    "parascan._rule('gt:536870912')": lambda: parascan._rule("gt:536870912"),
}
report("torch select, 2^20 int32: host time a call", forms)
print("torch select, 2^20 int32: GPU time a call of 100 back to back")
for name, fn in list(forms.items())[:4]:
    print(f"  {name:58s} {device_us(fn):7.2f} us", flush=True)
sys.exit(0)
