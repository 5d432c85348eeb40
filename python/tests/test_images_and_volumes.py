"""Summed-area tables, rectangle sums and box filters against NumPy, and marching cubes on a sphere, with
NumPy, CuPy and PyTorch inputs."""
import numpy as np
import pytest

import parascan

from conftest import gpu, rng


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
