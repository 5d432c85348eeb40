"""Streams and interop: torch and CuPy streams order the work without a host synchronisation, sorts take
temporary storage from torch, the compiled direct calls match the Python layer, DLPack-only arrays, and every
error names its argument."""
import numpy as np
import pytest

import parascan

from conftest import cupy, gpu, rand, require, torch


@gpu
def test_torch_streams_order_work_without_sync():
    require("torch")
    s = torch.cuda.Stream()
    x = torch.randint(0, 1000, (1 << 22,), dtype=torch.int32, device="cuda")
    torch.cuda.current_stream().synchronize()
    with torch.cuda.stream(s):
        y = x * 2  # queued on s
        z = parascan.inclusive_scan(y)  # default: the current stream, s
        w = parascan.exclusive_scan(z, stream=s)
    s.synchronize()
    want = np.cumsum(x.cpu().numpy().astype(np.int64) * 2).astype(np.int32)
    np.testing.assert_array_equal(z.cpu().numpy(), want)
    np.testing.assert_array_equal(w.cpu().numpy(), np.concatenate([[0], np.cumsum(want)[:-1]]).astype(np.int32))


@gpu
def test_torch_sorts_take_temporary_storage_from_torch_on_its_current_stream():
    """On torch's current stream a sort's temporary storage comes from torch's caching allocator (kept for the
    next call); on another stream from parascan's pool, which orders it on that stream."""
    require("torch")
    n = 1 << 22
    x = torch.randint(0, 1 << 30, (n,), dtype=torch.int32, device="cuda")
    want = torch.argsort(x, stable=True)

    def torch_growth(call):
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        base = torch.cuda.memory_allocated()
        r = call()
        torch.cuda.synchronize()
        return torch.cuda.max_memory_allocated() - base, r

    # Torch's own: the sorted keys (4n bytes) and the int64 positions (8n). The temporary storage (the 4-byte
    # positions and the second buffers of keys and positions, 12n and more) comes from torch on its stream.
    for call in (lambda: parascan.argsort(x), lambda: parascan.argsort(x, begin_bit=0, end_bit=32)):
        grown, p = torch_growth(call)
        assert torch.equal(p, want)
        assert grown >= 24 * n, grown
    s = torch.cuda.Stream()
    grown, p = torch_growth(lambda: parascan.argsort(x, stream=s))
    s.synchronize()
    assert torch.equal(p, want)
    assert 12 * n <= grown < 24 * n, grown


@gpu
def test_cupy_streams_and_handles():
    require("cupy")
    s = cupy.cuda.Stream(non_blocking=True)
    x = cupy.random.randint(0, 100, size=1 << 21, dtype=cupy.int64)
    cupy.cuda.get_current_stream().synchronize()
    with s:
        y = x + 1
        z = parascan.inclusive_scan(y)
        k = parascan.sort(y, stream=s.ptr)  # an integer handle
    s.synchronize()
    np.testing.assert_array_equal(cupy.asnumpy(z), np.cumsum(cupy.asnumpy(x) + 1))
    np.testing.assert_array_equal(cupy.asnumpy(k), np.sort(cupy.asnumpy(x) + 1))


@gpu
@pytest.mark.parametrize("kind", ["torch", "cupy"])
@pytest.mark.parametrize("dtype", [np.int32, np.uint64, np.float32])
def test_direct_calls_match_the_python_layer(kind, dtype):
    """The common calls made whole in C++ (_core.direct_*, taken with the default keywords) give what the
    Python layer gives (taken here by passing the same stream explicitly), and are not taken for arrays
    they do not handle (non-contiguous, NumPy, bool scans), which the Python layer then checks."""
    from parascan import _core

    lib = require(kind)
    h = rand(100003, dtype)
    h[::7] = 0  # zeros for select's default rule
    x = (torch.from_numpy(h.view(np.int64) if dtype == np.uint64 else h).cuda() if kind == "torch" else cupy.asarray(h))
    if kind == "torch" and dtype == np.uint64:
        x = x.view(torch.uint64)
    mask = x.view(torch.int64) != 0 if kind == "torch" and dtype == np.uint64 else x != 0
    # Float sums depend on the look-back's order of tile prefixes: compared to a tolerance.
    same = (np.testing.assert_array_equal if np.dtype(dtype).kind != "f"
            else lambda a, b: np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-2))
    if kind == "torch":
        s = torch.cuda.current_stream()
    else:
        s = cupy.cuda.get_current_stream()

    def host(r):
        if kind == "torch":
            return r.view(torch.int64).cpu().numpy().view(np.uint64) if r.dtype == torch.uint64 else r.cpu().numpy()
        return cupy.asnumpy(r)

    for inclusive in (True, False):
        d = _core.direct_scan(inclusive, x, "sum")
        assert d is not None and type(d) is type(x)
        g = parascan.inclusive_scan(x, stream=s) if inclusive else parascan.exclusive_scan(x, stream=s)
        same(host(d), host(g))
    same(host(parascan.inclusive_scan(x)), np.cumsum(h, dtype=np.float64 if dtype == np.float32 else dtype))
    # out= of the same framework, type and size is taken too (poisoned first; any shape, and in place)
    def copy(y):
        return y.clone() if kind == "torch" else y.copy()

    def poison(y):
        if kind == "torch":
            (y.view(torch.int64) if y.dtype == torch.uint64 else y).fill_(77)
        else:
            y.fill(77)
        return y

    for inclusive in (True, False):
        want = host(_core.direct_scan(inclusive, x, "sum"))
        y = poison(copy(x))
        assert _core.direct_scan(inclusive, x, "sum", y) is y
        same(host(y), want)
        y = poison(copy(x))
        r = parascan.inclusive_scan(x, out=y) if inclusive else parascan.exclusive_scan(x, out=y)
        assert r is y
        same(host(y), want)
        z = copy(x)
        assert _core.direct_scan(inclusive, z, "sum", z) is z
        same(host(z), want)
    y = copy(x)
    # Not taken (the Python layer's checks and messages): another size, another type, a strided output.
    assert _core.direct_scan(True, x, "sum", y[1:]) is None
    assert _core.direct_scan(True, x, "sum", y[::2]) is None
    other = (torch.empty(x.shape, dtype=torch.float64 if x.dtype != torch.float64 else torch.int64, device=x.device)
             if kind == "torch" else cupy.empty(x.shape, np.float64 if x.dtype != np.float64 else np.int64))
    assert _core.direct_scan(True, x, "sum", other) is None
    with pytest.raises(ValueError, match="argument 'out'"):
        parascan.inclusive_scan(x, out=y[1:])
    for m in (None, mask):
        d = _core.direct_select(x, m)
        assert d is not None
        np.testing.assert_array_equal(host(d), host(parascan.select(x, mask=m, stream=s)))
        np.testing.assert_array_equal(host(d), h[h != 0])
        # out= and count= (no synchronisation): written in place and handed back as given
        for call in (lambda o, c: _core.direct_select(x, m, o, c), lambda o, c: parascan.select(x, mask=m, out=o, count=c)):
            o = poison(copy(x))
            c = torch.full((1,), -1, dtype=torch.int64, device=x.device) if kind == "torch" else cupy.full(1, -1, np.int64)
            r = call(o, c)
            assert r[0] is o and r[1] is c
            kept = int(host(c)[0])
            assert kept == int((h != 0).sum())
            np.testing.assert_array_equal(host(o)[:kept], h[h != 0])
    # keep= rules take the same C++ path (as the Python layer parses them), with and without out=/count=
    for keep in ("gt:100", "le:0", "odd"):
        if keep == "odd" and np.dtype(dtype).kind == "f":
            continue
        rule, _, v = keep.partition(":")
        d = _core.direct_select(x, None, None, None, rule, float(v) if v else 0.0)
        assert d is not None
        want = h[(h > 100) if rule == "gt" else (h <= 0) if rule == "le" else (h % 2 == 1)]
        np.testing.assert_array_equal(host(d), want)
        np.testing.assert_array_equal(host(parascan.select(x, keep=keep, stream=s)), want)
        o = poison(copy(x))
        c = torch.full((1,), -1, dtype=torch.int64, device=x.device) if kind == "torch" else cupy.full(1, -1, np.int64)
        r = parascan.select(x, keep=keep, out=o, count=c)
        assert r[0] is o and r[1] is c and int(host(c)[0]) == want.size
        np.testing.assert_array_equal(host(o)[:want.size], want)
    with pytest.raises(ValueError, match="either mask= or keep="):
        parascan.select(x, mask=mask, keep="gt:1")
    for m in (None, mask):
        c32 = torch.zeros(1, dtype=torch.int32, device=x.device) if kind == "torch" else cupy.zeros(1, np.int32)
        assert _core.direct_select(x, m, copy(x), c32) is None  # count must be one int64: the Python layer says so
        assert _core.direct_select(x, m, copy(x), None) is None
    for descending in (False, True):
        d = _core.direct_sort(x, descending, False)
        np.testing.assert_array_equal(host(d), host(parascan.sort(x, descending=descending, stream=s)))
        p = _core.direct_sort(x, descending, True)
        assert p.dtype == (torch.int64 if kind == "torch" else np.int64)
        np.testing.assert_array_equal(host(p), host(parascan.argsort(x, descending=descending, stream=s)))
    np.testing.assert_array_equal(host(parascan.argsort(x)), np.argsort(h, kind="stable"))
    # Not taken: a strided view, NumPy input, bool scans; the Python layer handles (or refuses) them.
    assert _core.direct_scan(True, x[::2], "sum") is None
    assert _core.direct_scan(True, h, "sum") is None
    assert _core.direct_select(x[::2], None) is None
    assert _core.direct_scan(True, mask, "sum") is None
    with pytest.raises(ValueError, match="not contiguous|not C-contiguous"):
        parascan.inclusive_scan(x[::2])


class _DlpackOnly:
    """An array that offers only DLPack (as JAX does)."""

    def __init__(self, t):
        self.t = t

    def __dlpack__(self, stream=None, **kw):
        return self.t.__dlpack__(stream=stream) if stream is not None else self.t.__dlpack__()

    def __dlpack_device__(self):
        return self.t.__dlpack_device__()


@gpu
def test_dlpack_round_trip():
    lib = torch if torch is not None else require("cupy")
    x = rand(12345, np.uint32)
    d = torch.from_numpy(x).cuda() if lib is torch else cupy.asarray(x)
    r = parascan.inclusive_scan(_DlpackOnly(d))
    # Read by CuPy when it is importable (else torch), and the result is that framework's array.
    is_torch = torch is not None and isinstance(r, torch.Tensor)
    assert is_torch or (cupy is not None and isinstance(r, cupy.ndarray))
    back = r.cpu().numpy() if is_torch else cupy.asnumpy(r)
    np.testing.assert_array_equal(back, np.cumsum(x, dtype=np.uint32))
    # parascan's results go back out through DLPack without a copy
    t = torch.from_dlpack(r) if is_torch else cupy.from_dlpack(r)
    assert int(t[-1]) == int(np.cumsum(x, dtype=np.uint32)[-1])


@gpu
def test_errors_name_the_argument():
    x = np.arange(10, dtype=np.uint32)
    with pytest.raises(TypeError, match="argument 'x' has dtype float16"):
        parascan.exclusive_scan(np.zeros(4, np.float16))
    with pytest.raises(TypeError, match="argument 'x' has dtype float16"):
        parascan.select(np.ones(4, np.float16))
    if torch is not None:  # the framework fast path hands 16-bit floats to the same refusal
        with pytest.raises(TypeError, match="argument 'x' has dtype bfloat16"):
            parascan.inclusive_scan(torch.ones(4, dtype=torch.bfloat16, device="cuda"))
        with pytest.raises(TypeError, match="argument 'x' has dtype float16"):
            parascan.inclusive_scan(torch.ones((2, 3), dtype=torch.float16, device="cuda"), axis=1)
    with pytest.raises(ValueError, match="op 'bogus'"):
        parascan.exclusive_scan(x, op="bogus")
    with pytest.raises(ValueError, match="keep='gt'"):
        parascan.select(x, keep="gt")
    with pytest.raises(ValueError, match="'abc' is not a number"):
        parascan.select(x, keep="gt:abc")
    with pytest.raises(ValueError, match="mask has 3 items"):
        parascan.select(x, mask=np.ones(3, bool))
    with pytest.raises(ValueError, match="2-D"):
        parascan.summed_area_table(x)
    with pytest.raises(ValueError, match="algorithm 'fast'"):
        parascan.exclusive_scan(x, algorithm="fast")
    with pytest.raises(TypeError, match="not an array"):
        parascan.sort([3, 1, 2])
    with pytest.raises(TypeError, match="stream of type str"):
        parascan.sort(x, stream="s0")
    with pytest.raises(MemoryError, match="bytes requested"):
        parascan._core.malloc(1 << 52, 0)
    if torch is not None:
        t = torch.arange(20, dtype=torch.int32, device="cuda")[::2]
        with pytest.raises(ValueError, match="argument 'x' is not contiguous"):
            parascan.inclusive_scan(t)
        with pytest.raises(TypeError, match="CPU torch tensor"):
            parascan.inclusive_scan(torch.arange(4))
    if cupy is not None:
        with pytest.raises(ValueError, match="not C-contiguous"):
            parascan.sort(cupy.arange(20, dtype=cupy.int32)[::2])
