"""Arrays from frameworks other than torch, CuPy and NumPy passed to the plain functions (issue 35): a JAX
array gives back JAX arrays; a Numba device array, a cuda.core buffer or any DLPack-only object gives back
CuPy arrays (CuPy is installed on the GPU machine). Each result is compared with NumPy on the same items."""
import numpy as np
import pytest

import parascan
from conftest import _strict, gpu, require


def _jax():
    try:
        import jax

        if not any(d.platform == "gpu" for d in jax.devices()):
            raise RuntimeError("no GPU device in jax")
    except Exception as e:
        if _strict():
            pytest.fail(f"jax with CUDA is not usable on this GPU machine: {e}")
        pytest.skip(f"jax with CUDA not usable: {e}")
    jax.config.update("jax_enable_x64", True)  # argsort and top-k positions are int64, as JAX keeps them with x64
    return jax


@gpu
def test_jax_arrays_in_give_jax_arrays_out():
    jax = _jax()
    jnp = jax.numpy
    rng = np.random.default_rng(35)
    h = rng.integers(-1000, 1000, size=(300, 777)).astype(np.int32)
    x = jnp.asarray(h)

    r = parascan.inclusive_scan(x)
    assert isinstance(r, jax.Array)
    np.testing.assert_array_equal(np.asarray(r), np.cumsum(h, dtype=np.int32).reshape(h.shape))
    r = parascan.exclusive_scan(x, axis=1)
    assert isinstance(r, jax.Array)
    want = np.cumsum(h, axis=1, dtype=np.int32) - h
    np.testing.assert_array_equal(np.asarray(r), want)

    s = parascan.sort(x)
    assert isinstance(s, jax.Array)
    np.testing.assert_array_equal(np.asarray(s), np.sort(h, axis=-1))
    i = parascan.argsort(x, axis=0)
    assert isinstance(i, jax.Array)
    np.testing.assert_array_equal(np.asarray(i), np.argsort(h, axis=0, kind="stable"))

    v, idx = parascan.topk(x, 5)
    assert isinstance(v, jax.Array) and isinstance(idx, jax.Array)
    np.testing.assert_array_equal(np.asarray(v), -np.sort(-h, axis=-1)[:, :5])
    np.testing.assert_array_equal(np.take_along_axis(h, np.asarray(idx), -1), np.asarray(v))

    flat = jnp.asarray(h.reshape(-1))
    kept = parascan.select(flat, mask=flat > 0)
    assert isinstance(kept, jax.Array)
    np.testing.assert_array_equal(np.asarray(kept), h.reshape(-1)[h.reshape(-1) > 0])

    # JAX arrays are immutable: out= refuses one by name.
    with pytest.raises(TypeError, match="'out' is a JAX array"):
        parascan.inclusive_scan(flat, out=jnp.zeros_like(flat))


@gpu
def test_numba_device_arrays_give_cupy_arrays():
    cupy = require("cupy")
    try:
        from numba import cuda
    except Exception as e:
        if _strict():
            pytest.fail(f"numba-cuda is not usable on this GPU machine: {e}")
        pytest.skip(f"numba-cuda not usable: {e}")
    h = np.random.default_rng(36).integers(0, 1 << 30, size=100003).astype(np.uint32)
    d = cuda.to_device(h)
    r = parascan.inclusive_scan(d)
    assert isinstance(r, cupy.ndarray)
    np.testing.assert_array_equal(cupy.asnumpy(r), np.cumsum(h, dtype=np.uint32))
    s = parascan.sort(d)
    assert isinstance(s, cupy.ndarray)
    np.testing.assert_array_equal(cupy.asnumpy(s), np.sort(h))
    k, v = parascan.sort(d, cuda.to_device(np.arange(h.size, dtype=np.int64)))
    assert isinstance(k, cupy.ndarray) and isinstance(v, cupy.ndarray)
    np.testing.assert_array_equal(cupy.asnumpy(v), np.argsort(h, kind="stable"))
    m = cuda.to_device(h % 3 == 0)
    np.testing.assert_array_equal(cupy.asnumpy(parascan.select(d, mask=m)), h[h % 3 == 0])


@gpu
def test_cuda_core_buffers_give_cupy_arrays():
    cupy = require("cupy")
    try:
        from cuda.core import Device
    except Exception:
        try:
            from cuda.core.experimental import Device
        except Exception as e:
            if _strict():
                pytest.fail(f"cuda.core is not usable on this GPU machine: {e}")
            pytest.skip(f"cuda.core not usable: {e}")
    dev = Device()
    dev.set_current()
    buf = dev.allocate(65536, stream=dev.default_stream)
    view = cupy.from_dlpack(buf)  # the bytes as CuPy sees them through DLPack
    view[...] = cupy.asarray(np.random.default_rng(37).integers(0, 256, size=view.size).astype(view.dtype))
    dev.sync()
    h = cupy.asnumpy(view)
    s = parascan.sort(buf)
    assert isinstance(s, cupy.ndarray)
    np.testing.assert_array_equal(cupy.asnumpy(s), np.sort(h))
