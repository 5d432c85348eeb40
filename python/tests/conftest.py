"""Fixtures: the array frameworks present (NumPy always; CuPy and PyTorch where importable), and a skip
for GPU tests on a machine without a CUDA device (they report *skipped* there, never passed)."""
import importlib
import os

# JAX takes 75% of the GPU at its first call unless told otherwise; torch and CuPy share this process.
os.environ.setdefault("XLA_PYTHON_CLIENT_PREALLOCATE", "false")

import numpy as np
import pytest

import parascan

HAS_GPU = parascan.device_count() > 0
gpu = pytest.mark.skipif(not HAS_GPU, reason="no CUDA device")

# The tests' random data (never all zeros): one generator for the session, seeded.
rng = np.random.default_rng(12345)


def rand(n, dtype):
    """n random items of dtype: normal floats, integers over the type's whole range."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return rng.standard_normal(n).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, size=n, endpoint=True, dtype=dtype)


def _module(name):
    try:
        return importlib.import_module(name)
    except Exception:
        return None


cupy = _module("cupy") if HAS_GPU else None
torch = _module("torch") if HAS_GPU else None
if torch is not None and not torch.cuda.is_available():
    torch = None

FRAMEWORKS = ["numpy", "cupy", "torch"]


@pytest.fixture(params=FRAMEWORKS)
def xp(request):
    """to_device(numpy array) -> the framework's array; to_host(result) -> numpy."""
    name = request.param
    if not HAS_GPU:
        pytest.skip("no CUDA device")
    if name != "numpy":
        require(name)

    class X:
        kind = name

        @staticmethod
        def to_device(a):
            if name == "cupy":
                return cupy.asarray(a)
            if name == "torch":
                a = np.ascontiguousarray(a)
                if a.dtype.name in _UNSIGNED:  # through the signed type of the same width: every torch version
                    return torch.from_numpy(a.view(_UNSIGNED[a.dtype.name])).cuda().view(_torch_unsigned(a.dtype))
                return torch.from_numpy(a).cuda()
            return a

        @staticmethod
        def to_host(r):
            if name == "cupy":
                assert isinstance(r, cupy.ndarray), type(r)
                return cupy.asnumpy(r)
            if name == "torch":
                assert isinstance(r, torch.Tensor) and r.is_cuda, type(r)
                name_ = str(r.dtype).replace("torch.", "")
                if name_ in _UNSIGNED:
                    return r.view(_torch_signed(name_)).cpu().numpy().view(name_)
                return r.cpu().numpy()
            assert isinstance(r, np.ndarray), type(r)
            return r

    return X


_UNSIGNED = {"uint16": np.int16, "uint32": np.int32, "uint64": np.int64}


def _torch_unsigned(dtype):
    t = getattr(torch, np.dtype(dtype).name, None)
    if t is None:
        pytest.fail(f"this PyTorch has no {np.dtype(dtype).name} tensors (torch 2.3 or later has them)")
    return t


def _torch_signed(name):
    return {"uint16": torch.int16, "uint32": torch.int32, "uint64": torch.int64}[name]


def require(name):
    """The framework module `name` ("cupy" or "torch"): skips when it is missing, fails instead on the GPU
    check (PARASCAN_STRICT_FRAMEWORKS=1), so that nothing is skipped there."""
    mod = {"cupy": cupy, "torch": torch}[name]
    if mod is None:
        if _strict():
            pytest.fail(f"{name} is not importable on this GPU machine")
        pytest.skip(f"{name} not installed" if HAS_GPU else "no CUDA device")
    return mod


def _strict():
    """PARASCAN_STRICT_FRAMEWORKS=1 (the GPU check): a missing framework fails instead of skipping."""
    import os

    return os.environ.get("PARASCAN_STRICT_FRAMEWORKS") == "1"
