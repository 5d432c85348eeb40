"""Scans against NumPy with NumPy, CuPy and PyTorch inputs: every size (0, 1, 31–33, tile ± 1, 2^20 + 7, > 2^24),
operator and type, widening sums, init and out, scans along every axis, segmented scans."""
import numpy as np
import pytest

import parascan

from conftest import gpu, rand, rng

SIZES = [0, 1, 31, 32, 33, 8191, 8192, 8193, (1 << 20) + 7, (1 << 24) + 5]


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
