"""Sorts against NumPy (and torch) with NumPy, CuPy and PyTorch inputs: keys, argsort and pairs of every type,
bit ranges, along every axis, segmented sorts, top-k, float16 and bfloat16 keys."""
import numpy as np
import pytest

import parascan

from conftest import gpu, rand, require, rng, torch


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
