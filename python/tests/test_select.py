"""Selection against NumPy with NumPy, CuPy and PyTorch inputs: masks, rules, indices, partition, the padded
form that keeps the size, and caller-given outputs without a host synchronisation."""
import numpy as np
import pytest

import parascan

from conftest import gpu, rand, require, rng


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
