"""parascan's Python API against NumPy references, with NumPy, CuPy and PyTorch inputs (random data, never all
zeros; sizes 0, 1, 31–33, tile ± 1, 2^20 + 7, > 2^24), streams, DLPack, and every error case."""
import numpy as np
import pytest

import parascan
import os
import subprocess
import sys

from conftest import HAS_GPU, cupy, gpu, require, torch

SIZES = [0, 1, 31, 32, 33, 8191, 8192, 8193, (1 << 20) + 7, (1 << 24) + 5]
rng = np.random.default_rng(12345)


def rand(n, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return rng.standard_normal(n).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=n, endpoint=True, dtype=dtype)


def test_imports_and_version():
    assert parascan.__version__.count(".") == 2
    assert isinstance(parascan.device_count(), int)


def test_without_a_gpu_every_function_says_so():
    # In a process that sees no device (CUDA_VISIBLE_DEVICES empty), so that it runs on the GPU machine too.
    code = """
import numpy as np, parascan
x = np.arange(5, dtype=np.uint32)
assert parascan.device_count() == 0
calls = [lambda: parascan.exclusive_scan(x), lambda: parascan.inclusive_scan(x), lambda: parascan.select(x),
         lambda: parascan.partition(x), lambda: parascan.sort(x), lambda: parascan.argsort(x),
         lambda: parascan.segmented_scan(x, np.ones(5, bool)), lambda: parascan.summed_area_table(x.reshape(1, 5)),
         lambda: parascan.marching_cubes(np.zeros((2, 2, 2), np.float32), 0.5), lambda: parascan.topk(x, 2),
         lambda: parascan.inclusive_scan(x.reshape(5, 1), axis=0), lambda: parascan.segmented_sort(x, np.array([0, 5]))]
for call in calls:
    try:
        call()
    except RuntimeError as e:
        assert "no CUDA device" in str(e), e
    else:
        raise AssertionError("no error without a device")
print("ok", len(calls))
"""
    env = dict(os.environ, CUDA_VISIBLE_DEVICES="", PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "ok 12", r.stdout + r.stderr


@gpu
@pytest.mark.parametrize("n", SIZES)
def test_scans_of_every_size(xp, n):
    x = rand(n, np.uint32)
    ex = parascan.exclusive_scan(xp.to_device(x))
    inc = parascan.inclusive_scan(xp.to_device(x))
    want = np.cumsum(x, dtype=np.uint32)
    np.testing.assert_array_equal(xp.to_host(inc), want)
    np.testing.assert_array_equal(xp.to_host(ex), np.concatenate([[0], want[:-1]]).astype(np.uint32) if n else want)


@gpu
@pytest.mark.parametrize("dtype", ["uint8", "int16", "int32", "uint64", "int64", "float32", "float64"])
@pytest.mark.parametrize("op", ["sum", "min", "max", "and", "or", "xor", "product"])
def test_scan_ops_and_types(xp, dtype, op):
    if np.dtype(dtype).kind == "f" and op in ("and", "or", "xor"):
        with pytest.raises(ValueError, match="no .* scan"):
            parascan.inclusive_scan(xp.to_device(rand(10, dtype)), op=op)
        return
    n = 100003
    x = rand(n, dtype)
    if op == "product":  # keep products finite and exact
        x = (np.abs(x) % 3 + 1).astype(dtype) if np.dtype(dtype).kind != "f" else np.ones(n, dtype)
    ufunc = {"sum": np.add, "min": np.minimum, "max": np.maximum, "and": np.bitwise_and, "or": np.bitwise_or,
             "xor": np.bitwise_xor, "product": np.multiply}[op]
    got = xp.to_host(parascan.inclusive_scan(xp.to_device(x), op=op))
    want = ufunc.accumulate(x, dtype=dtype)
    if np.dtype(dtype).kind == "f" and op == "sum":
        np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-2 * np.sqrt(n))
    else:
        np.testing.assert_array_equal(got, want)


@gpu
def test_widening_scan_init_and_out(xp):
    x = rand(50001, np.uint8)
    got = xp.to_host(parascan.exclusive_scan(xp.to_device(x), dtype=np.uint32, init=7))
    want = np.concatenate([[7], 7 + np.cumsum(x, dtype=np.uint32)[:-1]]).astype(np.uint32)
    np.testing.assert_array_equal(got, want)
    if xp.kind != "numpy":
        d = xp.to_device(x.astype(np.uint32))
        out = xp.to_device(np.full(x.size, 0xDEADBEEF, dtype=np.uint32))
        r = parascan.inclusive_scan(d, out=out, algorithm="blelloch_padded", strategy="reduce_then_scan")
        assert r is out
        np.testing.assert_array_equal(xp.to_host(out), np.cumsum(x, dtype=np.uint32))


@gpu
@pytest.mark.parametrize("n", [0, 1, 33, 8193, (1 << 20) + 7])
def test_select_mask_rules_indices_partition(xp, n):
    x = rand(n, np.int32)
    mask = rng.integers(0, 2, n).astype(bool)
    np.testing.assert_array_equal(xp.to_host(parascan.select(xp.to_device(x), mask=xp.to_device(mask))), x[mask])
    np.testing.assert_array_equal(xp.to_host(parascan.select(xp.to_device(x), keep="gt:0")), x[x > 0])
    np.testing.assert_array_equal(xp.to_host(parascan.select(xp.to_device(x), keep="odd")), x[x % 2 != 0])
    np.testing.assert_array_equal(xp.to_host(parascan.select(xp.to_device(x), keep="le:-5", indices=True)),
                                  np.nonzero(x <= -5)[0])
    split, kept = parascan.partition(xp.to_device(x), keep="even")
    assert kept == int(np.sum(x % 2 == 0))
    np.testing.assert_array_equal(xp.to_host(split), np.concatenate([x[x % 2 == 0], x[x % 2 != 0]]))


@gpu
@pytest.mark.parametrize("dtype", ["uint8", "int16", "int32", "uint64", "float32", "float64"])
@pytest.mark.parametrize("n", [0, 1, 33, 8193, 3 * (1 << 21) + 5])  # the last past one cooperative launch
def test_select_padded_keeps_the_size(xp, dtype, n):
    """fill_value: x.size items, the kept ones then fill_value cast to x's type (-1 is 255 in uint8, as NumPy
    casts it), and the count on the device; by rule and by mask, into new arrays and into caller buffers."""
    x = (rand(n, np.int64) % 100).astype(dtype)
    stretch = (np.arange(n) // 20000) % 3  # tiles that keep nothing, everything, about a third
    mask = (stretch == 1) | ((stretch == 2) & (rng.integers(0, 3, n) == 0))
    fill = np.asarray(-1).astype(dtype)

    def want(kept):
        return np.concatenate([kept, np.full(n - kept.size, fill, dtype)])

    items, count = parascan.select(xp.to_device(x), mask=xp.to_device(mask), fill_value=-1)
    assert xp.to_host(items).dtype == np.dtype(dtype) and xp.to_host(items).shape == (n,)
    np.testing.assert_array_equal(xp.to_host(items), want(x[mask]))
    assert xp.to_host(count).tolist() == [int(mask.sum())]
    items, count = parascan.select(xp.to_device(x), keep="gt:49", fill_value=-1)
    np.testing.assert_array_equal(xp.to_host(items), want(x[x > 49]))
    assert int(xp.to_host(count)[0]) == int(np.sum(x > 49))
    if xp.kind != "numpy":
        out, c = xp.to_device(np.zeros(n, dtype)), xp.to_device(np.zeros(1, np.int64))
        r_out, r_c = parascan.select(xp.to_device(x), keep="le:49", out=out, count=c, fill_value=7)
        assert r_out is out and r_c is c
        np.testing.assert_array_equal(xp.to_host(out), np.concatenate([x[x <= 49], np.full(np.sum(x > 49), 7, dtype)]))


@gpu
def test_select_padded_refuses_what_it_cannot_do():
    cupy = require("cupy")
    x = cupy.arange(1000, dtype=cupy.int32)
    with pytest.raises(ValueError, match="cannot write over its input"):
        parascan.select(x, keep="gt:5", out=x, count=cupy.zeros(1, cupy.int64), fill_value=0)
    with pytest.raises(ValueError, match="not positions"):
        parascan.select(x, keep="gt:5", indices=True, fill_value=0)
    with pytest.raises(TypeError, match="not a number"):
        parascan.select(x, fill_value="zero")
    assert int(x[999]) == 999  # nothing was written
    big = (1 << 60) + 1  # past 2^53: the fill travels as its bytes, exactly
    items, count = parascan.select(cupy.arange(10, dtype=cupy.int64), keep="gt:6", fill_value=big)
    assert items.tolist() == [7, 8, 9] + [big] * 7 and count.tolist() == [3]
    items, _ = parascan.select(cupy.arange(10, dtype=cupy.uint64), keep="gt:6", fill_value=-1)
    assert items.tolist()[3:] == [(1 << 64) - 1] * 7


@gpu
@pytest.mark.parametrize("xp", ["cupy", "torch"], indirect=True)  # caller-given outputs are device arrays
def test_select_into_caller_buffers_without_sync(xp):
    x = rand(70001, np.float32)
    out = xp.to_device(np.zeros(x.size, np.float32))
    count = xp.to_device(np.zeros(1, np.int64))
    r_out, r_count = parascan.select(xp.to_device(x), keep="finite", out=out, count=count)
    assert r_out is out and r_count is count
    assert int(xp.to_host(count)[0]) == x.size
    np.testing.assert_array_equal(xp.to_host(out), x)


@gpu
@pytest.mark.parametrize("dtype", ["uint8", "uint16", "int32", "uint32", "float32", "int64", "float64"])
@pytest.mark.parametrize("n", [0, 1, 33, 5889, (1 << 20) + 7])
def test_sort_argsort_pairs(xp, dtype, n):
    keys = rand(n, dtype)
    if np.dtype(dtype).kind == "f" and n > 10:
        keys[::7] = 0.0
        keys[3::7] = -0.0  # equal to +0.0: stable order keeps them in input order
    order = np.argsort(keys, kind="stable")
    np.testing.assert_array_equal(xp.to_host(parascan.sort(xp.to_device(keys))), keys[order])
    np.testing.assert_array_equal(xp.to_host(parascan.argsort(xp.to_device(keys))), order)
    vals = np.arange(n, dtype=np.int64) * 3
    k2, v2 = parascan.sort(xp.to_device(keys), xp.to_device(vals), descending=True)
    desc = np.argsort(-keys.astype(np.float64) if keys.dtype.kind == "f" else ~keys, kind="stable")
    np.testing.assert_array_equal(xp.to_host(v2), vals[desc])
    np.testing.assert_array_equal(xp.to_host(k2), keys[desc])


@gpu
def test_sort_bit_range(xp):
    keys = rand(40000, np.uint32)
    low = keys & 0xFFFF
    got = xp.to_host(parascan.argsort(xp.to_device(keys), end_bit=16))
    np.testing.assert_array_equal(got, np.argsort(low, kind="stable"))
    with pytest.raises(ValueError, match="bit range"):
        parascan.sort(xp.to_device(keys), begin_bit=8, end_bit=40)


@gpu
@pytest.mark.parametrize("dtype", ["int16", "uint32", "float32", "float64"])
@pytest.mark.parametrize("shape", [(5, 0), (7, 1), (300, 16), (64, 50257 // 8), (3, 9000), (2, 3, 700)])
def test_sort_argsort_along_the_last_axis_as_numpy(xp, dtype, shape):
    """Each row sorted on its own (numpy.sort's axis=-1), values and positions within rows as numpy's."""
    keys = rand(int(np.prod(shape)), dtype).reshape(shape)
    if np.dtype(dtype).kind == "i":
        keys %= 7  # many ties: the order within them is the input order
    np.testing.assert_array_equal(xp.to_host(parascan.sort(xp.to_device(keys))), np.sort(keys, axis=-1, kind="stable"))
    np.testing.assert_array_equal(xp.to_host(parascan.argsort(xp.to_device(keys))), np.argsort(keys, axis=-1, kind="stable"))
    vals = np.arange(keys.size, dtype=np.int64).reshape(shape)
    k2, v2 = parascan.sort(xp.to_device(keys), xp.to_device(vals))
    order = np.argsort(keys, axis=-1, kind="stable")
    np.testing.assert_array_equal(xp.to_host(v2), np.take_along_axis(vals, order, -1))
    np.testing.assert_array_equal(xp.to_host(k2), np.take_along_axis(keys, order, -1))


@gpu
def test_sort_along_other_axes_and_flattened(xp):
    keys = rand(4 * 5 * 6, np.float32).reshape(4, 5, 6)
    for axis in (0, 1, -2):
        np.testing.assert_array_equal(xp.to_host(parascan.sort(xp.to_device(keys), axis=axis)),
                                      np.sort(keys, axis=axis, kind="stable"))
        np.testing.assert_array_equal(xp.to_host(parascan.argsort(xp.to_device(keys), axis=axis)),
                                      np.argsort(keys, axis=axis, kind="stable"))
    np.testing.assert_array_equal(xp.to_host(parascan.sort(xp.to_device(keys), axis=None)), np.sort(keys, axis=None))
    np.testing.assert_array_equal(xp.to_host(parascan.argsort(xp.to_device(keys), axis=None)),
                                  np.argsort(keys, axis=None, kind="stable"))
    with pytest.raises(ValueError, match="axis=3 is out of range"):
        parascan.sort(xp.to_device(keys), axis=3)


@gpu
def test_segmented_sort_and_argsort(xp):
    lengths = [0, 1, 5, 32, 33, 600, 5000, 0, 12000, 2]
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    keys = rand(int(offsets[-1]), np.float32)
    vals = rand(int(offsets[-1]), np.uint32)
    want_k, want_v, want_p = keys.copy(), vals.copy(), np.zeros(keys.size, np.int64)
    for b, e in zip(offsets[:-1], offsets[1:]):
        o = np.argsort(keys[b:e], kind="stable")
        want_k[b:e], want_v[b:e], want_p[b:e] = keys[b:e][o], vals[b:e][o], o
    for off in (offsets, offsets.astype(np.int32)):
        k, v = parascan.segmented_sort(xp.to_device(keys), xp.to_device(off), xp.to_device(vals))
        np.testing.assert_array_equal(xp.to_host(k), want_k)
        np.testing.assert_array_equal(xp.to_host(v), want_v)
        np.testing.assert_array_equal(xp.to_host(parascan.segmented_argsort(xp.to_device(keys), xp.to_device(off))), want_p)
    with pytest.raises(ValueError, match="non-decreasing"):
        parascan.segmented_sort(keys, np.array([0, 5, 3, keys.size]))


def _topk_reference(x, k, largest, sorted_):
    """Stable order along the last axis (largest first when largest), first k; by position when unsorted."""
    key = x.astype(np.float64) if x.dtype.kind in "iu" else x  # negated below: no integer overflow
    order = np.argsort(-key if largest else key, axis=-1, kind="stable")[..., :k]
    if not sorted_:
        order = np.sort(order, axis=-1)
    return np.take_along_axis(x, order, -1), order


@gpu
@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "float16"])
@pytest.mark.parametrize("shape,k", [((64, 5000), 50), ((3, 70000), 1000), ((1000, 7), 7), ((20,), 3), ((4, 6, 100), 0)])
def test_topk_as_numpy(xp, dtype, shape, k):
    x = rand(int(np.prod(shape)), np.int32).astype(dtype).reshape(shape) if dtype == "int32" else \
        rng.standard_normal(int(np.prod(shape))).astype(dtype).reshape(shape)
    for largest in (True, False):
        for sorted_ in (True, False):
            want_v, want_i = _topk_reference(x, k, largest, sorted_)
            v, i = parascan.topk(xp.to_device(x), k, largest=largest, sorted=sorted_)
            np.testing.assert_array_equal(xp.to_host(i), want_i)
            np.testing.assert_array_equal(xp.to_host(v), want_v)


@gpu
def test_topk_other_axes_and_refusals(xp):
    x = rng.standard_normal((30, 40, 5)).astype(np.float32)
    v, i = parascan.topk(xp.to_device(x), 4, axis=1)
    want_v, want_i = _topk_reference(np.moveaxis(x, 1, -1), 4, True, True)
    np.testing.assert_array_equal(xp.to_host(i), np.moveaxis(want_i, -1, 1))
    np.testing.assert_array_equal(xp.to_host(v), np.moveaxis(want_v, -1, 1))
    with pytest.raises(ValueError, match="k=6 must be an integer from 0 to 5"):
        parascan.topk(xp.to_device(x), 6)


@gpu
def test_topk_matches_torch_topk_on_logits():
    require("torch")
    for dtype in (torch.float32, torch.bfloat16, torch.float16):
        x = torch.randn(64, 50257, device="cuda").to(dtype)
        v, i = parascan.topk(x, 50)
        tv, _ = torch.topk(x, 50)
        assert v.dtype == dtype and i.dtype == torch.int64
        assert torch.equal(v, tv)  # the same values, largest first
        assert torch.equal(torch.gather(x, 1, i), v)  # positions that hold them


@gpu
@pytest.mark.parametrize("shape", [(100003,), (300, 7), (64, 5000)])
def test_float16_keys_sorted_as_numpy(xp, shape):
    keys = rng.standard_normal(int(np.prod(shape))).astype(np.float16).reshape(shape)
    keys.reshape(-1)[::97] = -0.0  # ties of -0.0 and +0.0 keep their input order
    keys.reshape(-1)[::89] = np.inf
    for descending in (False, True):
        order = np.argsort(-keys if descending else keys, axis=-1, kind="stable")
        got = xp.to_host(parascan.argsort(xp.to_device(keys), descending=descending))
        np.testing.assert_array_equal(got, order)
        got_k = xp.to_host(parascan.sort(xp.to_device(keys), descending=descending))
        np.testing.assert_array_equal(got_k.view(np.uint16), np.take_along_axis(keys, order, -1).view(np.uint16))


@gpu
def test_bfloat16_tensors_sorted_as_torch():
    require("torch")
    x = (torch.randn(64, 3000, device="cuda") * 100).to(torch.bfloat16)
    x.view(-1)[::101] = 0.0
    got = parascan.sort(x)
    assert got.dtype == torch.bfloat16 and got.shape == x.shape
    assert torch.equal(got.view(torch.int16), torch.sort(x.float(), dim=-1, stable=True).values.to(torch.bfloat16)
                       .view(torch.int16))
    assert torch.equal(parascan.argsort(x), torch.argsort(x.float(), dim=-1, stable=True))
    flat = x.reshape(-1)
    assert torch.equal(parascan.argsort(flat, descending=True), torch.argsort(flat.float(), descending=True, stable=True))


@gpu
@pytest.mark.parametrize("dtype", ["int32", "int64", "uint32", "float32", "float64"])
@pytest.mark.parametrize("shape", [(7,), (1000, 32), (33, 4097), (5, 3, 700), (2, 1, 9), (0, 4)])
def test_scans_along_every_axis_as_numpy(xp, dtype, shape):
    """cumsum along each axis (the rows in one pass, other axes without a transposing copy), inclusive
    and exclusive, against numpy.cumsum; integer-valued floats so that any order of sums is exact."""
    x = (rand(int(np.prod(shape)), np.int32) % 17 - 8).astype(dtype).reshape(shape)
    for axis in range(-len(shape), len(shape)):
        want = np.cumsum(x, axis=axis, dtype=dtype)
        got = xp.to_host(parascan.inclusive_scan(xp.to_device(x), axis=axis))
        np.testing.assert_array_equal(got, want)
        excl = xp.to_host(parascan.exclusive_scan(xp.to_device(x), axis=axis, init=3))
        np.testing.assert_array_equal(excl, want - x + np.array(3, dtype))
    # axis=None: the items in C order, as numpy.cumsum's (which returns them flattened; parascan keeps the shape)
    flat = xp.to_host(parascan.inclusive_scan(xp.to_device(x)))
    assert flat.shape == x.shape
    np.testing.assert_array_equal(flat.reshape(-1), np.cumsum(x, dtype=dtype))


@gpu
def test_scans_along_an_axis_take_every_operator_and_widen(xp):
    x = rand(300 * 40, np.int32).reshape(300, 40)
    np.testing.assert_array_equal(xp.to_host(parascan.inclusive_scan(xp.to_device(x), op="max", axis=0)),
                                  np.maximum.accumulate(x, axis=0))
    np.testing.assert_array_equal(xp.to_host(parascan.inclusive_scan(xp.to_device(x), op="min", axis=1)),
                                  np.minimum.accumulate(x, axis=1))
    u = (x & 0xFF).astype(np.uint8)
    got = xp.to_host(parascan.inclusive_scan(xp.to_device(u), axis=0, dtype=np.uint32))
    np.testing.assert_array_equal(got, np.cumsum(u, axis=0, dtype=np.uint32))
    with pytest.raises(ValueError, match="along an axis"):
        parascan.inclusive_scan(xp.to_device(x), op="xor", axis=0)
    with pytest.raises(ValueError, match="axis=2 is out of range"):
        parascan.inclusive_scan(xp.to_device(x), axis=2)
    with pytest.raises(ValueError, match="algorithm= and strategy="):
        parascan.inclusive_scan(xp.to_device(x), axis=0, strategy="recursive")


@gpu
def test_rect_sums_take_lists_and_tuples(xp):
    img = rng.integers(0, 256, size=(48, 64), dtype=np.uint8)
    t = parascan.summed_area_table(xp.to_device(img))
    want = [int(img[2:10, 3:21].sum()), int(img[0:48, 0:64].sum())]
    for rects in ([(3, 2, 20, 9), (0, 0, 63, 47)], ((3, 2, 20, 9), (0, 0, 63, 47)),
                  np.array([[3, 2, 20, 9], [0, 0, 63, 47]], np.int32)):
        np.testing.assert_array_equal(xp.to_host(parascan.rect_sums(t, rects)), want)
    np.testing.assert_array_equal(xp.to_host(parascan.rect_sums(t, (3, 2, 20, 9))), want[:1])
    with pytest.raises(ValueError, match="outside"):
        parascan.rect_sums(t, [(0, 0, 64, 47)])


@gpu
@pytest.mark.parametrize("shape", [(1, 1), (3, 5), (64, 128), (481, 640), (1025, 2049)])
def test_summed_area_table(xp, shape):
    img = rng.integers(0, 256, size=shape, dtype=np.uint8)
    want = np.cumsum(np.cumsum(img.astype(np.uint64), 0), 1)
    got = xp.to_host(parascan.summed_area_table(xp.to_device(img), layout="inclusive"))
    assert got.dtype == np.uint32
    np.testing.assert_array_equal(got, want)
    padded = xp.to_host(parascan.summed_area_table(xp.to_device(img), dtype=np.uint64))
    assert padded.shape == (shape[0] + 1, shape[1] + 1) and not padded[0].any() and not padded[:, 0].any()
    np.testing.assert_array_equal(padded[1:, 1:], want)
    sq = xp.to_host(parascan.summed_area_table(xp.to_device(img), layout="inclusive", squared=True))
    np.testing.assert_array_equal(sq, np.cumsum(np.cumsum(img.astype(np.uint64) ** 2, 0), 1))


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


@gpu
@pytest.mark.parametrize("n", [0, 1, 33, 70001])
def test_segmented_scan(xp, n):
    x = rand(n, np.int32)
    heads = rng.integers(0, 50, n) == 0
    if n:
        heads[0] = True
    got_inc = xp.to_host(parascan.segmented_scan(xp.to_device(x), xp.to_device(heads), inclusive=True))
    got_max = xp.to_host(parascan.segmented_scan(xp.to_device(x), xp.to_device(heads.astype(np.uint8)),
                                                 inclusive=True, op="max"))
    want_inc, want_max = np.empty_like(x), np.empty_like(x)
    run_sum, run_max = 0, None
    for i in range(n):
        if heads[i]:
            run_sum, run_max = 0, x[i]
        run_sum = (run_sum + int(x[i]) + 2**31) % 2**32 - 2**31
        run_max = max(run_max, x[i])
        want_inc[i], want_max[i] = run_sum, run_max
    np.testing.assert_array_equal(got_inc, want_inc)
    np.testing.assert_array_equal(got_max, want_max)
    with pytest.raises(ValueError, match="no segmented"):
        parascan.segmented_scan(xp.to_device(x), xp.to_device(heads), op="xor")


@gpu
def test_rect_sums_and_box_filter(xp):
    img = rng.integers(0, 256, size=(301, 517), dtype=np.uint8)
    table = parascan.summed_area_table(xp.to_device(img))
    rects = np.array([[0, 0, 516, 300], [10, 20, 10, 20], [5, 7, 100, 250]], dtype=np.int64)
    got = xp.to_host(parascan.rect_sums(table, xp.to_device(rects)))
    want = [int(img[y0:y1 + 1, x0:x1 + 1].sum(dtype=np.uint64)) for x0, y0, x1, y1 in rects]
    np.testing.assert_array_equal(got, want)
    box = xp.to_host(parascan.box_filter(xp.to_device(img), 2))
    i = img.astype(np.float64)
    y, x = 100, 200
    assert box[y, x] == int(np.floor(i[y - 2:y + 3, x - 2:x + 3].mean() + 0.5))
    assert box[0, 0] == int(np.floor(i[:3, :3].mean() + 0.5))
    with pytest.raises(ValueError, match="outside"):
        parascan.rect_sums(parascan.summed_area_table(img), np.array([[0, 0, 517, 1]], dtype=np.int64))


@gpu
def test_marching_cubes_sphere(xp):
    z, y, x = np.mgrid[:40, :40, :40]
    vol = ((x - 20.0) ** 2 + (y - 20.0) ** 2 + (z - 20.0) ** 2).astype(np.float32)
    v, n, f = parascan.marching_cubes(xp.to_device(vol), 144.0)
    v, n = xp.to_host(v), xp.to_host(n)
    assert f is None and v.shape[0] % 3 == 0 and v.shape == n.shape and v.shape[0] > 1000
    r = np.linalg.norm(v - 20.0, axis=1)
    assert np.all(np.abs(r - 12.0) < 0.1), (r.min(), r.max())  # every vertex on the sphere of radius 12
    vw, nw, fw = parascan.marching_cubes(xp.to_device(vol), 144.0, weld=True, normals=False)
    vw, fw = xp.to_host(vw), xp.to_host(fw)
    assert nw is None and fw.shape == (v.shape[0] // 3, 3) and vw.shape[0] < v.shape[0]
    assert fw.min() >= 0 and fw.max() < vw.shape[0]
    np.testing.assert_allclose(vw[fw.reshape(-1)], v, atol=0)  # the same triangles, now indexed


@gpu
@pytest.mark.parametrize("dtype", ["int32", "uint32", "int64", "float32", "float64"])
@pytest.mark.parametrize("n", [1, 8193, 2 * (1 << 23) + 12345])  # one item, one chunk, three chunks (8 Mi each)
def test_numpy_arrays_larger_than_the_gpu_stream_through_host_pipelines(monkeypatch, dtype, n):
    # A byte limit stands in for the GPU's free memory, so that the pipelines run on small arrays.
    monkeypatch.setattr(parascan, "_HOST_PIPELINE_BYTES", 0)
    calls = []
    for name in ("scan_host", "select_host"):
        real = getattr(parascan._core, name)
        monkeypatch.setattr(parascan._core, name, lambda *a, _real=real, _name=name: (calls.append(_name), _real(*a))[1])
    x = rand(n, dtype)
    if np.dtype(dtype).kind == "f":
        x[::97] = np.nan
        x[1::89] = np.inf
    inc, ex = parascan.inclusive_scan(x), parascan.exclusive_scan(x)
    want = np.cumsum(x, dtype=x.dtype)
    if np.dtype(dtype).kind == "f":  # sums rounded per chunk; NaN and inf poison the same positions
        clean = x.copy()
        clean[~np.isfinite(clean)] = 0
        inc_c = parascan.inclusive_scan(clean)
        np.testing.assert_allclose(inc_c, np.cumsum(clean.astype(np.float64)), rtol=1e-3, atol=1e-2 * np.sqrt(n))
        np.testing.assert_array_equal(np.isnan(inc), np.isnan(want))
        kept = parascan.select(x, keep="finite")
        np.testing.assert_array_equal(kept, x[np.isfinite(x)])
    else:
        np.testing.assert_array_equal(inc, want)
        np.testing.assert_array_equal(ex, np.concatenate([[0], want[:-1]]).astype(x.dtype))
        np.testing.assert_array_equal(parascan.select(x, keep="gt:0"), x[x > 0])
        np.testing.assert_array_equal(parascan.select(x, keep="odd"), x[x % 2 != 0])
    assert isinstance(inc, np.ndarray) and calls.count("scan_host") >= 2 and "select_host" in calls
    with pytest.raises(ValueError, match="needs (float|integer) items"):  # the rule is checked against the type as on the GPU path
        parascan.select(x, keep="finite" if np.dtype(dtype).kind in "iu" else "odd")
