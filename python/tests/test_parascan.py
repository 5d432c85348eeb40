"""parascan's package: its import and version, every function's error where no GPU is visible, and NumPy arrays
larger than the GPU through the host pipelines (the other tests: test_scans, test_select, test_sorts,
test_images_and_volumes, test_streams_and_interop)."""
import os
import subprocess
import sys

import numpy as np
import pytest

import parascan

from conftest import gpu, rand


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
